"""The tournament store: one interface over SQLite or PostgreSQL, every write in one place.

Callers never touch a connection. Tables' events are ingested idempotently by (match, table
sequence): a resent event that is already stored is a no-op, a different one under the same
number is refused, each new one must continue the log's hash chain (as the table's own log
checks it), and is validated by the match engine against the log replayed so far (the same check
the table ran) before it is stored. The referee's penalties and amendments are signed events of
the same logs, kept after the table's events until the table takes them back on its next sync
(docs/tournament.md). Referee writes carry a request id: a replayed request returns the first
answer and changes nothing. Every write is logged with who, what and why.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from scoring.jsonlimits import load_json
from scoring.match import (
    BadEvent,
    EventRefused,
    LoggedEvent,
    MatchState,
    chain,
    event_from_json,
    replay,
)
from scoring.match.events import REFEREE_EVENTS, Adjusted, Amendment, Event, MatchCreated
from scoring.match.state import check_amendment
from scoring.match.store import timestamp
from scoring.tournament import (
    Action,
    Adjustment,
    RoundClosed,
    RoundSeated,
    Standings,
    Substituted,
    TableResult,
    TableSeating,
    Tournament,
    TournamentError,
    action_from_json,
    check_seating,
    met_pairs,
    repeats_of,
    same_rules,
    seatings,
    standings_of_tables,
    table_from_state,
    table_result,
)
from scoring.tournament.standings import replay_table
from ui.server.engines import Engine, StoreUnavailable, open_engine
from ui.server.migrations import migrate

#: amendments that servers before the hash chain kept apart from a log are numbered from here
REFEREE_SEQ = 1_000_000_000
MAX_BATCH = 500
ACTIONS_LOCK = 0x4D4A5432  # PostgreSQL advisory lock: referee writes exclusive, ingests shared


class Refused(ValueError):
    """A write the store will not make; ``status`` is the HTTP status that says why."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Ingested:
    applied: int
    duplicates: int
    head: int  # the last event the server holds from the table
    taken: int = 0  # referee events the table sent back: it holds them now
    referee: tuple[dict[str, Any], ...] = ()  # referee events for the table to take

    def to_json(self) -> dict[str, Any]:
        return {"applied": self.applied, "duplicates": self.duplicates, "head": self.head,
                "taken": self.taken, "referee": list(self.referee)}


class TournamentStore:
    """One tournament in one database. :meth:`open` with a file path or a postgresql:// URL."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.pg = engine.dialect == "postgresql"
        self._lock = threading.Lock()
        self._tournament: Tournament | None = None
        self._states: dict[int, tuple[tuple[int, str, int], MatchState]] = {}
        self._key: bytes | None = None
        self._tables: dict[tuple[int, int], tuple[Any, TableResult]] = {}

    @classmethod
    def open(cls, url: str | Path) -> TournamentStore:
        engine = open_engine(url)
        try:
            migrate(engine)
        except BaseException:
            engine.close()
            raise
        return cls(engine)

    def close(self) -> None:
        self.engine.close()

    def __enter__(self) -> TournamentStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ the tournament

    def init(self, tournament: Tournament, who: str) -> None:
        """Store the tournament's definition and a fresh token secret (once)."""
        with self.engine.transaction() as tx:
            if tx.execute("SELECT value FROM settings WHERE key = 'tournament'"):
                raise Refused("this database already holds a tournament", 409)
            body = json.dumps(tournament.to_json(), ensure_ascii=False, sort_keys=True)
            tx.execute("INSERT INTO settings (key, value) VALUES ('tournament', ?)", (body,))
            tx.execute("INSERT INTO settings (key, value) VALUES ('secret', ?)",
                       (secrets.token_hex(32),))
            self._log(tx, who, "init", f"tournament {tournament.name!r}", None, "{}")

    def tournament(self) -> Tournament:
        if self._tournament is None:
            with self.engine.transaction(write=False) as tx:
                rows = tx.execute("SELECT value FROM settings WHERE key = 'tournament'")
            if not rows:
                raise StoreUnavailable("no tournament in this database yet "
                                       "(mjtable serve init FILE)")
            self._tournament = Tournament.from_json(load_json(rows[0][0]))
        return self._tournament

    def secret(self) -> bytes:
        with self.engine.transaction(write=False) as tx:
            rows = tx.execute("SELECT value FROM settings WHERE key = 'secret'")
        if not rows:
            raise StoreUnavailable("no tournament in this database yet (mjtable serve init FILE)")
        return bytes.fromhex(rows[0][0])

    # ------------------------------------------------------------ the write log

    def _log(self, tx: Any, actor: str, what: str, why: str, request_id: str | None,
             result: str) -> None:
        tx.execute("INSERT INTO writes (at, actor, what, why, request_id, result) "
                   "VALUES (?, ?, ?, ?, ?, ?)", (timestamp(), actor, what, why, request_id, result))

    def _replayed(self, tx: Any, request_id: str | None) -> dict[str, Any] | None:
        if request_id is None:
            return None
        rows = tx.execute("SELECT result FROM writes WHERE request_id = ?", (request_id,))
        return {**json.loads(rows[0][0]), "replayed": True} if rows else None

    def writes(self, limit: int = 200) -> list[dict[str, Any]]:
        with self.engine.transaction(write=False) as tx:
            rows = tx.execute("SELECT id, at, actor, what, why FROM writes ORDER BY id DESC "
                              "LIMIT ?", (limit,))
        return [dict(zip(("id", "at", "actor", "what", "why"), r, strict=True)) for r in rows]

    # ------------------------------------------------------------ referee actions

    def actions(self) -> list[Action]:
        with self.engine.transaction(write=False) as tx:
            rows = tx.execute("SELECT body FROM actions ORDER BY id")
        return [action_from_json(load_json(r[0])) for r in rows]

    def act(self, data: Mapping[str, Any], actor: str, request_id: str | None = None
            ) -> dict[str, Any]:
        """Check and store a referee action given as JSON (``actor`` and ``created`` are the
        server's); a replayed ``request_id`` returns the first answer."""
        body = {**data, "actor": actor, "created": timestamp()}
        try:
            action = action_from_json(body)
        except TournamentError as exc:
            raise Refused(str(exc)) from None
        tour = self.tournament()
        with self.engine.transaction() as tx:
            if self.pg:  # one referee write at a time: the checks below read the actions
                tx.execute("SELECT pg_advisory_xact_lock(?)", (ACTIONS_LOCK,))
            first = self._replayed(tx, request_id)
            if first is not None:
                return first
            done = [action_from_json(load_json(r[0]))
                    for r in tx.execute("SELECT body FROM actions ORDER BY id")]
            self._check_action(tx, tour, done, action)
            if isinstance(action, Adjustment):  # an event of the player's table's log
                result = self._adjust(tx, done, action, request_id)
                self._log(tx, actor, action.name, action.why, request_id, json.dumps(result))
                return result
            if isinstance(action, RoundSeated):  # the repeats are the server's to say
                before = [t for r, t in seatings(done).items() if r < action.round]
                action = replace(action, repeats=tuple(repeats_of(action.tables,
                                                                  met_pairs(before))))
            rows = tx.execute("INSERT INTO actions (created, actor, name, body) VALUES "
                              "(?, ?, ?, ?) RETURNING id",
                              (action.created, actor, action.name,
                               json.dumps(action.to_json(), ensure_ascii=False)))
            result = {"action": int(rows[0][0]), "name": action.name}
            if isinstance(action, RoundSeated):
                result["repeats"] = [list(r) for r in action.repeats]
            self._log(tx, actor, action.name, action.why, request_id, json.dumps(result))
        return result

    def _adjust(self, tx: Any, done: Sequence[Action], action: Adjustment,
                request_id: str | None) -> dict[str, Any]:
        """A penalty or bonus becomes an ``adjust`` event of the log of the table the player
        sits at in ``round`` (by default the latest round the player is seated in)."""
        seated = [(r, t) for r, ts in seatings(done).items() for t in ts
                  if action.player in t.players and action.round in (None, r)]
        if not seated:
            where = f"round {action.round}" if action.round else "any round"
            raise Refused(f"{action.player!r} is not seated in {where}: a penalty or bonus "
                          "joins the log of the player's table", 409)
        round_no, seating = seated[-1]
        event = Adjusted(seat=seating.players.index(action.player), points=action.points,
                         who=action.actor, why=action.why)
        seq = self._write_referee_event(tx, round_no, seating.table, event, action.actor,
                                        action.why, request_id)
        return {"event": seq, "name": action.name, "round": round_no, "table": seating.table}

    def _check_action(self, tx: Any, tour: Tournament, done: Sequence[Action],
                      action: Action) -> None:
        seated = seatings(done)
        closed = {a.round for a in done if isinstance(a, RoundClosed)}
        if isinstance(action, RoundSeated):
            if action.round > tour.rounds:
                raise Refused(f"the tournament has {tour.rounds} rounds")
            if action.round > 1 and action.round - 1 not in seated:
                raise Refused(f"seat round {action.round - 1} first")
            if any(t.round != action.round for t in action.tables):
                raise Refused(f"every table of the seating is in round {action.round}")
            try:
                check_seating(tour, action.tables)
            except TournamentError as exc:
                raise Refused(str(exc)) from None
            if tx.execute("SELECT 1 FROM matches WHERE round = ? AND head > 0",
                          (action.round,)):
                raise Refused(f"round {action.round} has started; its seating stays", 409)
            return
        if isinstance(action, Adjustment):
            if action.player not in tour.players:
                raise Refused(f"{action.player!r} is not a registered player")
            return
        rnd = action.round  # type: ignore[attr-defined]
        if rnd not in seated:
            raise Refused(f"round {rnd} is not seated")
        if rnd in closed:
            raise Refused(f"round {rnd} is already closed", 409)
        tables = {t.table for t in seated[rnd]}
        if isinstance(action, Substituted) and action.table not in tables:
            raise Refused(f"round {rnd} has no table {action.table}")

    # ------------------------------------------------------------ table events

    def seating(self, round_no: int, table: int) -> TableSeating:
        for t in seatings(self.actions()).get(round_no, ()):
            if t.table == table:
                return t
        raise Refused(f"round {round_no} has no table {table} seated", 404)

    def ingest(self, round_no: int, table: int, rows: Sequence[Mapping[str, Any]], actor: str,
               log: Mapping[str, Any] | None = None) -> Ingested:
        """Store a table's events ``{"seq", "event", "at", "who"?, "note"?, "hash"}`` exactly
        once; ``log`` names the table's log (``{"match", "created_at"}``: its chain's start).

        The events must chain: each one's hash links it to the one before it, as the table's
        own log checks on open, or the push is refused (422) and nothing is stored. A push is
        all or nothing: the first refused event refuses it, naming it. Referee events the
        server wrote on this log and the table has not taken yet stay after the table's events
        (they are moved after new ones); the answer lists them for the table to take.
        """
        if not isinstance(rows, list | tuple) or not rows or len(rows) > MAX_BATCH:
            raise Refused(f"events: a list of 1..{MAX_BATCH}")
        origin = _genesis(log)
        parsed = [parse_row(r) for r in rows]
        seqs = [r.seq for r in parsed]
        for i in range(1, len(seqs)):
            if seqs[i] == seqs[i - 1] + 1:
                continue
            low = min(seqs)
            why = (f"#{seqs[i]} comes after #{seqs[i - 1]} (the events are out of order)"
                   if seqs[i] < seqs[i - 1] or sorted(seqs) == list(range(low, low + len(seqs)))
                   else f"missing: the log jumps from #{seqs[i - 1]} to #{seqs[i]} (an event "
                   "was left out)")
            raise Refused(f"the pushed log's hash chain breaks at event #{seqs[i - 1] + 1}: "
                          f"{why}; nothing was stored", 422)
        tour = self.tournament()
        received = timestamp()
        with self.engine.transaction() as tx:
            if self.pg:  # a referee's write (closing the round) waits for this, or it for it
                tx.execute("SELECT pg_advisory_xact_lock_shared(?)", (ACTIONS_LOCK,))
            actions = [action_from_json(load_json(r[0]))
                       for r in tx.execute("SELECT body FROM actions ORDER BY id")]
            seating = next((t for t in seatings(actions).get(round_no, ())
                            if t.table == table), None)
            if seating is None:
                raise Refused(f"round {round_no} has no table {table} seated", 404)
            closed = any(isinstance(a, RoundClosed) and a.round == round_no for a in actions)
            tx.execute("INSERT INTO matches (round, table_no, created_at) VALUES (?, ?, ?) "
                       "ON CONFLICT (round, table_no) DO NOTHING", (round_no, table, received))
            mid, head, acked, genesis = tx.execute(
                "SELECT id, head, acked, genesis FROM matches WHERE round = ? AND table_no = ?"
                + (" FOR UPDATE" if self.pg else ""), (round_no, table))[0]
            if genesis and genesis != origin:
                raise Refused(f"round {round_no} table {table} holds another match log than "
                              "this one (another match_created): push the table's match", 409)
            if not genesis and head:
                self._adopt(tx, mid, origin)  # stored before the server kept the chain
            stored = {r.seq: r for r in self._rows(tx, mid,
                                                   after=max(0, min(acked, parsed[0].seq) - 1))}
            pending = [stored[s] for s in range(acked + 1, head + 1)]
            last = stored.get(acked)
            prev, prev_at = (last.hash, last.at) if last is not None else (origin, "")
            lifted: list[ChainRow] | None = None
            state: MatchState | None = None
            applied = duplicates = taken = 0
            for row in parsed:
                body = chain.body_text(row.event.to_json())
                mine = chain.Row(row.seq, row.at, row.who, row.event.type, body, row.note,
                                 row.hash)
                if row.seq <= acked:
                    old = stored.get(row.seq)
                    if old is None or (old.body, old.hash) != (body, row.hash):
                        raise Refused(f"event #{row.seq} is already stored with another body",
                                      409)
                    duplicates += 1
                    continue
                if row.seq > acked + 1:
                    raise Refused(f"event #{row.seq} arrives before #{acked + 1}: send from "
                                  f"#{acked + 1}", 409)
                broken = chain.check_link(prev, acked, prev_at, mine)
                if broken is not None:
                    raise Refused(f"the pushed log's hash chain breaks at {broken}; nothing "
                                  "was stored", 422)
                if lifted is None and pending and pending[0].same(mine):
                    pending.pop(0)  # the table took the referee's event into its log
                    taken += 1
                elif isinstance(row.event, REFEREE_EVENTS):
                    raise Refused(f"event #{row.seq} ({row.event.type}): a table does not "
                                  "write penalties or amendments; the referee desk does", 422)
                else:
                    if closed:
                        raise Refused(f"round {round_no} is closed", 409)
                    if lifted is None:  # the referee's events move after the table's
                        lifted, pending = pending, []
                        tx.execute("DELETE FROM events WHERE match_id = ? AND seq > ?",
                                   (mid, acked))
                    state = self._check_next(tx, mid, seating, tour, state, lifted, acked, row)
                    tx.execute("INSERT INTO events (match_id, seq, at, who, type, body, note, "
                               "received, hash, origin) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
                               "'table')", (mid, row.seq, row.at, row.who, row.event.type,
                                            body, row.note, received, row.hash))
                    applied += 1
                acked, prev, prev_at = row.seq, row.hash, row.at
            if not genesis:
                tx.execute("UPDATE matches SET genesis = ? WHERE id = ?", (origin, mid))
            for old in lifted or ():
                prev, prev_at = self._put(tx, mid, acked + len(pending) + 1, old, prev,
                                          prev_at, received)
                pending.append(self._rows(tx, mid, after=acked + len(pending))[0])
            head = acked + len(pending)
            tx.execute("UPDATE matches SET head = ?, acked = ? WHERE id = ?", (head, acked, mid))
            if applied or taken:
                self._log(tx, actor, "events", f"round {round_no} table {table}: "
                          f"#{parsed[0].seq}..#{parsed[-1].seq}", None, "{}")
        return Ingested(applied, duplicates, acked, taken, tuple(r.wire() for r in pending))

    def _check_next(self, tx: Any, mid: int, seating: TableSeating, tour: Tournament,
                    state: MatchState | None, lifted: list[ChainRow], acked: int,
                    row: EventRow) -> MatchState:
        """The match after the table's next event, or :class:`Refused` naming why: checked
        against the log as replayed so far, the referee's corrections included."""
        if row.seq == 1:
            _check_created(tour, seating, row.event)
            try:
                return MatchState.create(row.event)
            except EventRefused as exc:
                raise Refused(str(exc)) from None
        if state is None:
            if lifted:
                log = [*self._read_log(tx, mid, upto=acked), *(r.logged() for r in lifted)]
                state, problem = replay_table(log)
            else:
                state, problem = self._match_state(tx, mid, upto=acked)
            if problem is not None or state is None:
                raise Refused(f"the stored log no longer replays ({problem}); the referee "
                              "amends it first", 409)
        try:
            return state.apply(row.event, row.seq)
        except EventRefused as exc:
            raise Refused(str(exc)) from None

    def _put(self, tx: Any, mid: int, seq: int, row: ChainRow, prev: str, prev_at: str,
             received: str) -> tuple[str, str]:
        """Store a referee event at ``seq``, chained to ``prev`` (never dated before it)."""
        at = max(row.at, prev_at)
        digest = chain.event_hash(prev, (seq, at, row.who, row.type, row.body, row.note))
        tx.execute("INSERT INTO events (match_id, seq, at, who, type, body, note, received, "
                   "hash, origin) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'referee')",
                   (mid, seq, at, row.who, row.type, row.body, row.note, received, digest))
        return digest, at

    def _adopt(self, tx: Any, mid: int, origin: str) -> None:
        """Chain the events a server stored before it kept the hash chain, from the table's
        genesis: a resend of them is then checked hash for hash."""
        prev = origin
        for r in self._rows(tx, mid):
            prev = chain.event_hash(prev, (r.seq, r.at, r.who, r.type, r.body, r.note))
            tx.execute("UPDATE events SET hash = ? WHERE match_id = ? AND seq = ?",
                       (prev, mid, r.seq))
        tx.execute("UPDATE matches SET genesis = ? WHERE id = ?", (origin, mid))

    def _rows(self, tx: Any, mid: int, after: int = 0) -> list[ChainRow]:
        return [ChainRow(*r) for r in tx.execute(
            "SELECT seq, at, who, type, body, note, hash, origin FROM events WHERE "
            "match_id = ? AND seq > ? ORDER BY seq", (mid, after))]

    def _stamp(self, tx: Any, mid: int, upto: int | None = None) -> tuple[int, str, int]:
        """What a log's replay depends on: its last event, that event's hash (which covers
        every event before it) and the count of amendments kept apart by older servers."""
        rows = tx.execute("SELECT m.head, (SELECT count(*) FROM amendments a WHERE "
                          "a.match_id = m.id) FROM matches m WHERE m.id = ?", (mid,))
        head = rows[0][0] if upto is None else min(upto, rows[0][0])
        hashes = tx.execute("SELECT hash FROM events WHERE match_id = ? AND seq = ?",
                            (mid, head))
        return int(head), hashes[0][0] if hashes else "", int(rows[0][1])

    def _stamps(self, tx: Any) -> dict[tuple[int, int], tuple[int, tuple[int, str, int]]]:
        """Every started table's match id and :meth:`_stamp`, in one query."""
        return {(r, t): (mid, (int(head), hash_ or "", int(legacy))) for r, t, mid, head, hash_,
                legacy in tx.execute(
                    "SELECT m.round, m.table_no, m.id, m.head, e.hash, (SELECT count(*) FROM "
                    "amendments a WHERE a.match_id = m.id) FROM matches m LEFT JOIN events e "
                    "ON e.match_id = m.id AND e.seq = m.head WHERE m.head > 0")}

    def _match_state(self, tx: Any, mid: int, upto: int | None = None,
                     stamp: tuple[int, str, int] | None = None
                     ) -> tuple[MatchState | None, str | None]:
        """The match a log replays to, kept between calls: a log that only grew (the event
        the cache ended at is still there, same hash) is brought up to date by applying its
        new events; any other change (an amendment, referee events moved after the table's)
        is replayed from the start."""
        stamp = stamp or self._stamp(tx, mid, upto)
        with self._lock:
            cached = self._states.get(mid)
        if cached is not None and cached[0] == stamp:
            return cached[1], None
        state: MatchState | None = None
        if cached is not None and cached[0][0] < stamp[0] and cached[0][2] == stamp[2]:
            state = cached[1]
            rows = self._rows(tx, mid, after=cached[0][0] - 1)
            if not rows or rows[0].hash != cached[0][1]:
                state = None
            try:
                for r in rows[1:]:
                    if r.seq > stamp[0] or state is None:
                        break
                    event = event_from_json(load_json(r.body))
                    if isinstance(event, Amendment):  # resolved over the whole log
                        state = None
                        break
                    state = state.apply(event, r.seq)
            except EventRefused:
                state = None
        problem = None
        if state is None:
            state, problem = replay_table(self._read_log(tx, mid, upto=stamp[0]))
        if state is not None and problem is None:
            with self._lock:
                self._states[mid] = (stamp, state)
        return state, problem

    def _read_log(self, tx: Any, mid: int, upto: int = REFEREE_SEQ) -> list[LoggedEvent]:
        log = [LoggedEvent(seq, event_from_json(load_json(body)), at, who, note)
               for seq, at, who, body, note in tx.execute(
                   "SELECT seq, at, who, body, note FROM events WHERE match_id = ? "
                   "AND seq <= ? ORDER BY seq", (mid, upto))]
        log += [LoggedEvent(REFEREE_SEQ + n, event_from_json(load_json(body)), at, who)
                for n, at, who, body in tx.execute(
                    "SELECT id, at, who, body FROM amendments WHERE match_id = ? ORDER BY id",
                    (mid,))]
        return log

    def head(self, round_no: int, table: int) -> int:
        """The last event of a table's log the server holds from the table."""
        with self.engine.transaction(write=False) as tx:
            rows = tx.execute("SELECT acked FROM matches WHERE round = ? AND table_no = ?",
                              (round_no, table))
        return int(rows[0][0]) if rows else 0

    def pending(self, round_no: int, table: int) -> list[dict[str, Any]]:
        """The referee's events on a table's log that the table has not taken yet, in the
        form a push sends (each with its place in the log and its hash)."""
        with self.engine.transaction(write=False) as tx:
            rows = tx.execute("SELECT id, acked FROM matches WHERE round = ? AND table_no = ?",
                              (round_no, table))
            return [r.wire() for r in self._rows(tx, *rows[0])] if rows else []

    def log(self, round_no: int, table: int) -> list[LoggedEvent]:
        """A table's match log as the server holds it: the table's events and the referee's
        (amendments kept apart by older servers last, numbered from :data:`REFEREE_SEQ`)."""
        with self.engine.transaction(write=False) as tx:
            rows = tx.execute("SELECT id FROM matches WHERE round = ? AND table_no = ?",
                              (round_no, table))
            return self._read_log(tx, rows[0][0]) if rows else []

    def chain_rows(self, round_no: int, table: int) -> list[chain.Row]:
        """A table's log as its hash chain covers it (what an auditor compares)."""
        with self.engine.transaction(write=False) as tx:
            rows = tx.execute("SELECT id FROM matches WHERE round = ? AND table_no = ?",
                              (round_no, table))
            return [r.row() for r in self._rows(tx, rows[0][0])] if rows else []

    def live(self, round_no: int, table: int, last: int = 12
             ) -> tuple[list[LoggedEvent], MatchState | None, str | None]:
        """A table's last events, the match its log replays to and where it stops replaying
        (if it does), for the live table pages."""
        with self.engine.transaction(write=False) as tx:
            rows = tx.execute("SELECT id FROM matches WHERE round = ? AND table_no = ?",
                              (round_no, table))
            if not rows:
                return [], None, None
            state, problem = self._match_state(tx, rows[0][0])
            log = self._read_log(tx, rows[0][0])
        return log[-last:], state, problem

    # ------------------------------------------------------------ referee events on a log

    def _referee_key(self, tx: Any) -> bytes:
        """The key the server signs referee events with (derived from the token secret)."""
        if self._key is None:
            secret = bytes.fromhex(tx.execute("SELECT value FROM settings WHERE key = "
                                              "'secret'")[0][0])
            self._key = hmac.new(secret, b"mjtable referee events", hashlib.sha256).digest()
        return self._key

    def _write_referee_event(self, tx: Any, round_no: int, table: int, event: Event,
                             who: str, why: str, request_id: str | None) -> int:
        """Sign ``event`` and append it to the table's log as the server holds it; the table
        takes it on its next sync. Refused when the log would no longer replay."""
        rows = tx.execute("SELECT id, head, acked, genesis FROM matches WHERE round = ? AND "
                          "table_no = ?" + (" FOR UPDATE" if self.pg else ""),
                          (round_no, table))
        if not rows or not rows[0][1]:
            raise Refused(f"round {round_no} table {table} has no log yet: a referee's event "
                          "joins a table's log once the table has pushed it", 409)
        mid, head, acked, genesis = rows[0]
        if not genesis:
            raise Refused(f"round {round_no} table {table}: its log was stored before the "
                          "server kept the hash chain; the table pushes once first", 409)
        log = self._read_log(tx, mid)
        try:
            if isinstance(event, Amendment):
                if event.target > acked:
                    raise Refused(f"event #{event.target} is a referee event the table has not "
                                  "taken yet (it may still move): amend it after the table "
                                  "syncs", 409)
                check_amendment(log, event)
            else:
                replay(log).apply(event, head + 1)
        except EventRefused as exc:
            raise Refused(str(exc)) from None
        key = self._referee_key(tx)
        data = {**event.to_json(), "ref": request_id or secrets.token_hex(8),
                "key": chain.key_id(key)}
        signed = event_from_json({**data, "mac": chain.referee_mac(key, genesis, data)})
        last = self._rows(tx, mid, after=head - 1)[0]
        received = timestamp()
        self._put(tx, mid, head + 1, ChainRow(0, received, who, signed.type,
                                              chain.body_text(signed.to_json()), why, "",
                                              "referee"), last.hash, last.at, received)
        tx.execute("UPDATE matches SET head = ? WHERE id = ?", (head + 1, mid))
        return int(head + 1)

    def amend(self, round_no: int, table: int, target: int, event: Mapping[str, Any] | None,
              who: str, why: str, request_id: str | None = None) -> dict[str, Any]:
        """The referee corrects (or, with ``event`` None, strikes) event ``target`` of a table's
        log: an ``amend`` event of that log, signed by the server, which the table takes on its
        next sync. Refused when the log would no longer replay."""
        if not why.strip():
            raise Refused("amend: give a reason")
        try:
            amend = event_from_json(Amendment(target=target, who=who, why=why,
                                              event=dict(event) if event else None).to_json())
        except BadEvent as exc:
            raise Refused(str(exc)) from None
        with self.engine.transaction() as tx:
            first = self._replayed(tx, request_id)
            if first is not None:
                return first
            seq = self._write_referee_event(tx, round_no, table, amend, who, why, request_id)
            result = {"amendment": seq, "target": target, "struck": event is None}
            self._log(tx, who, "amend", f"round {round_no} table {table} #{target}: {why}",
                      request_id, json.dumps(result))
        return result

    # ------------------------------------------------------------ reading the standings

    def changes(self) -> tuple[int, ...]:
        """Cheap fingerprint of everything the standings depend on (for live pages)."""
        with self.engine.transaction(write=False) as tx:
            row = tx.execute("SELECT (SELECT count(*) FROM events), "
                             "(SELECT coalesce(sum(head), 0) FROM matches), "
                             "(SELECT coalesce(max(id), 0) FROM amendments), "
                             "(SELECT coalesce(max(id), 0) FROM writes), "
                             "(SELECT coalesce(max(id), 0) FROM actions)")[0]
        return tuple(int(v) for v in row)

    def standings(self) -> Standings:
        """The standings the logs say now; only tables whose log changed are replayed."""
        tour = self.tournament()
        actions = self.actions()
        closed = tuple(sorted({a.round for a in actions if isinstance(a, RoundClosed)}))
        subs: dict[tuple[int, int], tuple[Substituted, ...]] = {}
        for a in actions:
            if isinstance(a, Substituted):
                subs[(a.round, a.table)] = (*subs.get((a.round, a.table), ()), a)
        with self.engine.transaction(write=False) as tx:
            stamps = self._stamps(tx)
            tables = []
            for r, seated in seatings(actions).items():
                for t in seated:
                    key = (r, t.table)
                    mid, log_stamp = stamps.get(key, (None, None))
                    stamp = (t.players, log_stamp, r in closed, subs.get(key, ()))
                    cached = self._tables.get(key)
                    if cached is not None and cached[0] == stamp:
                        tables.append(cached[1])
                        continue
                    if mid is None:
                        result = table_result(tour, t, [], r in closed, subs.get(key, ()))
                    else:
                        state, problem = self._match_state(tx, mid, stamp=log_stamp)
                        at = dict(tx.execute("SELECT seq, at FROM events WHERE match_id = ?",
                                             (mid,)))
                        result = table_from_state(tour, t, state, at, r in closed,
                                                  subs.get(key, ()), problem)
                    self._tables[key] = (stamp, result)
                    tables.append(result)
        return standings_of_tables(tour, tables, actions, closed)


@dataclass(frozen=True)
class ChainRow(chain.Row):
    """One stored event of a table's log as the chain sees it, and who wrote it (table or
    referee)."""

    origin: str

    def row(self) -> chain.Row:
        """The event as the chain alone sees it (without who wrote it)."""
        return chain.Row(self.seq, self.at, self.who, self.type, self.body, self.note,
                         self.hash)

    def same(self, other: chain.Row) -> bool:
        return self.row() == other

    def logged(self) -> LoggedEvent:
        return LoggedEvent(self.seq, event_from_json(load_json(self.body)), self.at, self.who,
                           self.note)

    def wire(self) -> dict[str, Any]:
        return {"seq": self.seq, "event": load_json(self.body), "at": self.at, "who": self.who,
                "note": self.note, "hash": self.hash}


def _genesis(log: Mapping[str, Any] | None) -> str:
    """The hash a table's log chains from, named by the push (``{"match", "created_at"}``)."""
    if (not isinstance(log, Mapping) or set(log) != {"match", "created_at"}
            or isinstance(log["match"], bool) or not isinstance(log["match"], int)
            or not 1 <= log["match"] < 2**63 or not isinstance(log["created_at"], str)
            or not 1 <= len(log["created_at"]) <= 40):
        raise Refused("log: {\"match\": the table's match id, \"created_at\": its creation "
                      "time} (where the log's hash chain starts)", 400)
    return chain.genesis(log["match"], log["created_at"])


@dataclass(frozen=True)
class EventRow:
    seq: int
    event: Any
    at: str
    who: str
    note: str
    hash: str


def parse_row(data: Any) -> EventRow:
    if (not isinstance(data, Mapping)
            or not {"seq", "event", "at", "hash"} <= set(data)
            or not set(data) <= {"seq", "event", "at", "who", "note", "hash"}):
        raise Refused("an event row is {seq, event, at, who?, note?, hash}")
    seq = data.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq < REFEREE_SEQ:
        raise Refused(f"seq: a whole number 1..{REFEREE_SEQ - 1}, got {seq!r:.40}")
    texts = {}
    for key, limit in (("at", 40), ("who", 80), ("note", 500), ("hash", 64)):
        value = data.get(key, "")
        if not isinstance(value, str) or len(value) > limit:
            raise Refused(f"event #{seq} {key}: a text of at most {limit} characters")
        texts[key] = value
    try:
        event = event_from_json(data.get("event"))
    except BadEvent as exc:
        raise Refused(f"event #{seq}: {exc}") from None
    return EventRow(seq, event, texts["at"], texts["who"], texts["note"], texts["hash"])


def _check_created(tour: Tournament, seating: TableSeating, event: Any) -> None:
    if not isinstance(event, MatchCreated):
        raise Refused("event #1 of a table's log is match_created")
    if event.ruleset != tour.ruleset:
        raise Refused(f"this is a {tour.ruleset} tournament, the match is {event.ruleset}")
    if tuple(event.players) != seating.players:
        raise Refused(f"round {seating.round} table {seating.table} seats "
                      f"{', '.join(seating.players)}; the match has "
                      f"{', '.join(event.players)}")
    try:
        same = same_rules(tour.ruleset, event.options, tour.options)
    except TournamentError as exc:
        raise Refused(str(exc)) from None
    if not same:
        raise Refused("the match's options differ from the tournament's")
