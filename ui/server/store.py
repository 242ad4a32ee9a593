"""The tournament store: one interface over SQLite or PostgreSQL, every write in one place.

Callers never touch a connection. Tables' events are ingested idempotently by (match, table
sequence): a resent event that is already stored is a no-op, a different one under the same
number is refused, and each new event is validated by the match engine against the log replayed
so far (the same check the table ran) before it is stored. Referee writes (actions on the
tournament, amendments of a match log) carry a request id: a replayed request returns the first
answer and changes nothing. Every write is logged with who, what and why.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from scoring.jsonlimits import load_json
from scoring.match import BadEvent, EventRefused, LoggedEvent, MatchState, event_from_json
from scoring.match.events import Amendment, MatchCreated
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

#: referee amendments join a match log numbered from here, after any table event
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
    head: int

    def to_json(self) -> dict[str, int]:
        return {"applied": self.applied, "duplicates": self.duplicates, "head": self.head}


class TournamentStore:
    """One tournament in one database. :meth:`open` with a file path or a postgresql:// URL."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.pg = engine.dialect == "postgresql"
        self._lock = threading.Lock()
        self._tournament: Tournament | None = None
        self._states: dict[int, tuple[int, int, MatchState]] = {}
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

    def ingest(self, round_no: int, table: int, rows: Sequence[Mapping[str, Any]], actor: str
               ) -> Ingested:
        """Store a table's events ``{"seq", "event", "at"?, "who"?, "note"?}`` exactly once.

        All or nothing: the first refused event refuses the batch, naming it.
        """
        if not isinstance(rows, list | tuple) or not rows or len(rows) > MAX_BATCH:
            raise Refused(f"events: a list of 1..{MAX_BATCH}")
        parsed = sorted((parse_row(r) for r in rows), key=lambda r: r.seq)
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
            if any(isinstance(a, RoundClosed) and a.round == round_no for a in actions):
                raise Refused(f"round {round_no} is closed", 409)
            tx.execute("INSERT INTO matches (round, table_no, created_at) VALUES (?, ?, ?) "
                       "ON CONFLICT (round, table_no) DO NOTHING", (round_no, table, received))
            mid, head = tx.execute("SELECT id, head FROM matches WHERE round = ? AND "
                                   "table_no = ?" + (" FOR UPDATE" if self.pg else ""),
                                   (round_no, table))[0]
            applied = duplicates = 0
            state: MatchState | None = None
            amends = int(tx.execute("SELECT count(*) FROM amendments WHERE match_id = ?",
                                    (mid,))[0][0])
            for row in parsed:
                body = json.dumps(row.event.to_json(), ensure_ascii=False, sort_keys=True)
                if row.seq <= head:
                    stored = tx.execute("SELECT body FROM events WHERE match_id = ? AND seq = ?",
                                        (mid, row.seq))
                    if stored and stored[0][0] == body:
                        duplicates += 1
                        continue
                    raise Refused(f"event #{row.seq} is already stored with another body", 409)
                if row.seq != head + 1:
                    raise Refused(f"event #{row.seq} arrives before #{head + 1}: send from "
                                  f"#{head + 1}", 409)
                if row.seq == 1:
                    _check_created(tour, seating, row.event)
                    try:
                        state = MatchState.create(row.event)  # type: ignore[arg-type]
                    except EventRefused as exc:
                        raise Refused(str(exc)) from None
                else:
                    if state is None:
                        state = self._state(tx, mid, head, amends)
                    try:
                        state = state.apply(row.event, row.seq)
                    except EventRefused as exc:
                        raise Refused(str(exc)) from None
                tx.execute("INSERT INTO events (match_id, seq, at, who, type, body, note, "
                           "received) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                           (mid, row.seq, row.at or received, row.who, row.event.type, body,
                            row.note, received))
                head = row.seq
                applied += 1
            if applied:
                tx.execute("UPDATE matches SET head = ? WHERE id = ?", (head, mid))
                self._log(tx, actor, "events", f"round {round_no} table {table}: "
                          f"#{parsed[0].seq}..#{parsed[-1].seq}", None, "{}")
        if state is not None and applied:
            with self._lock:
                self._states[mid] = (head, amends, state)
        return Ingested(applied, duplicates, head)

    def _state(self, tx: Any, mid: int, head: int, amends: int) -> MatchState:
        state, problem = self._match_state(tx, mid, head, amends)
        if problem is not None or state is None:
            raise Refused(f"the stored log no longer replays ({problem}); the referee amends "
                          "it first", 409)
        return state

    def _match_state(self, tx: Any, mid: int, head: int, amends: int
                     ) -> tuple[MatchState | None, str | None]:
        """The match a log replays to, kept between calls: a log that only grew is brought up
        to date by applying its new events (what a full replay would do: amendments target
        earlier events only); one with a new amendment is replayed from the start."""
        with self._lock:
            cached = self._states.get(mid)
        if cached is not None and cached[:2] == (head, amends):
            return cached[2], None
        state: MatchState | None = None
        if cached is not None and cached[1] == amends and cached[0] < head:
            state = cached[2]
            try:
                for seq, body in tx.execute("SELECT seq, body FROM events WHERE match_id = ? "
                                            "AND seq > ? AND seq <= ? ORDER BY seq",
                                            (mid, cached[0], head)):
                    state = state.apply(event_from_json(load_json(body)), seq)
            except EventRefused:
                state = None
        problem = None
        if state is None:
            state, problem = replay_table(self._read_log(tx, mid, upto=head))
        if state is not None and problem is None:
            with self._lock:
                self._states[mid] = (head, amends, state)
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
        with self.engine.transaction(write=False) as tx:
            rows = tx.execute("SELECT head FROM matches WHERE round = ? AND table_no = ?",
                              (round_no, table))
        return int(rows[0][0]) if rows else 0

    def log(self, round_no: int, table: int) -> list[LoggedEvent]:
        """A table's match log as the server holds it: its events, then the referee's
        amendments (numbered from :data:`REFEREE_SEQ`)."""
        with self.engine.transaction(write=False) as tx:
            rows = tx.execute("SELECT id FROM matches WHERE round = ? AND table_no = ?",
                              (round_no, table))
            return self._read_log(tx, rows[0][0]) if rows else []

    def live(self, round_no: int, table: int, last: int = 12
             ) -> tuple[list[LoggedEvent], MatchState | None, str | None]:
        """A table's last events, the match its log replays to and where it stops replaying
        (if it does), for the live table pages."""
        with self.engine.transaction(write=False) as tx:
            rows = tx.execute("SELECT m.id, m.head, (SELECT count(*) FROM amendments a WHERE "
                              "a.match_id = m.id) FROM matches m WHERE m.round = ? AND "
                              "m.table_no = ?", (round_no, table))
            if not rows:
                return [], None, None
            mid, head, amends = rows[0]
            state, problem = self._match_state(tx, mid, head, amends)
            log = self._read_log(tx, mid, upto=head)
        return log[-last:], state, problem

    def amend(self, round_no: int, table: int, target: int, event: Mapping[str, Any] | None,
              who: str, why: str, request_id: str | None = None) -> dict[str, Any]:
        """The referee corrects (or, with ``event`` None, strikes) event ``target`` of a table's
        log; refused when the log would no longer replay. The table's own events stay."""
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
            rows = tx.execute("SELECT id FROM matches WHERE round = ? AND table_no = ?" +
                              (" FOR UPDATE" if self.pg else ""), (round_no, table))
            if not rows:
                raise Refused(f"round {round_no} table {table} has no log yet", 404)
            mid = rows[0][0]
            log = self._read_log(tx, mid)
            try:
                check_amendment(log, amend)  # type: ignore[arg-type]
            except EventRefused as exc:
                raise Refused(str(exc)) from None
            at = timestamp()
            new = tx.execute("INSERT INTO amendments (match_id, at, who, body) VALUES "
                             "(?, ?, ?, ?) RETURNING id",
                             (mid, at, who, json.dumps(amend.to_json(), ensure_ascii=False,
                                                       sort_keys=True)))
            result = {"amendment": int(new[0][0]), "target": target,
                      "struck": event is None}
            self._log(tx, who, "amend", f"round {round_no} table {table} #{target}: {why}",
                      request_id, json.dumps(result))
        return result

    # ------------------------------------------------------------ reading the standings

    def changes(self) -> tuple[int, ...]:
        """Cheap fingerprint of everything the standings depend on (for live pages)."""
        with self.engine.transaction(write=False) as tx:
            row = tx.execute("SELECT (SELECT count(*) FROM events), "
                             "(SELECT coalesce(max(id), 0) FROM amendments), "
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
            heads = {(r, t): (mid, head, amends) for r, t, mid, head, amends in tx.execute(
                "SELECT m.round, m.table_no, m.id, m.head, (SELECT count(*) FROM amendments a "
                "WHERE a.match_id = m.id) FROM matches m")}
            tables = []
            for r, seated in seatings(actions).items():
                for t in seated:
                    key = (r, t.table)
                    mid, head, amends = heads.get(key, (None, 0, 0))
                    stamp = (t.players, head, amends, r in closed, subs.get(key, ()))
                    cached = self._tables.get(key)
                    if cached is not None and cached[0] == stamp:
                        tables.append(cached[1])
                        continue
                    if mid is None or not head:
                        result = table_result(tour, t, [], r in closed, subs.get(key, ()))
                    else:
                        state, problem = self._match_state(tx, mid, head, amends)
                        at = dict(tx.execute("SELECT seq, at FROM events WHERE match_id = ? "
                                             "AND seq <= ?", (mid, head)))
                        result = table_from_state(tour, t, state, at, r in closed,
                                                  subs.get(key, ()), problem)
                    self._tables[key] = (stamp, result)
                    tables.append(result)
        return standings_of_tables(tour, tables, actions, closed)


@dataclass(frozen=True)
class EventRow:
    seq: int
    event: Any
    at: str
    who: str
    note: str


def parse_row(data: Any) -> EventRow:
    if not isinstance(data, Mapping) or not set(data) <= {"seq", "event", "at", "who", "note"}:
        raise Refused("an event row is {seq, event, at?, who?, note?}")
    seq = data.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq < REFEREE_SEQ:
        raise Refused(f"seq: a whole number 1..{REFEREE_SEQ - 1}, got {seq!r:.40}")
    texts = {}
    for key, limit in (("at", 40), ("who", 80), ("note", 500)):
        value = data.get(key, "")
        if not isinstance(value, str) or len(value) > limit:
            raise Refused(f"event #{seq} {key}: a text of at most {limit} characters")
        texts[key] = value
    try:
        event = event_from_json(data.get("event"))
    except BadEvent as exc:
        raise Refused(f"event #{seq}: {exc}") from None
    return EventRow(seq, event, texts["at"], texts["who"], texts["note"])


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
