"""The match log on disk: SQLite in WAL mode, one transaction per event, append-only.

Every append re-validates the event against the match replayed from the log inside the same
write transaction, so two writers cannot interleave an illegal sequence. Readers (the dashboard)
read a consistent snapshot while a writer works: WAL never makes them wait for each other.
``synchronous=FULL`` makes a committed event survive a crash of the process or the machine.
"""

from __future__ import annotations

import os
import random
import sqlite3
import threading
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scoring.jsonlimits import load_json
from scoring.match import chain, schema
from scoring.match.errors import BadEvent, EventRefused, StoreError, UnknownMatch
from scoring.match.events import (
    Amendment,
    Event,
    HandRecorded,
    MatchCreated,
    SignOff,
    event_from_json,
)
from scoring.match.state import (
    LoggedEvent,
    MatchState,
    check_amendment,
    check_amendments,
    replay,
)
from scoring.record import HandRecord

Listener = Callable[[int, LoggedEvent], None]


def default_path() -> Path:
    """``matches.sqlite3`` in the user's data folder (``platformdirs``)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("mjtable")) / "matches.sqlite3"


def timestamp() -> str:
    """Now in UTC, to the millisecond, as the match log writes it (``2026-12-02T07:34:10.123Z``)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class MatchSummary:
    id: int
    created_at: str
    ruleset: str
    title: str | None
    players: tuple[str, ...]
    events: int


@dataclass(frozen=True)
class Match:
    """A match as read from the log: the replayed state plus the log itself.

    ``problem`` is set when the log stops replaying at some event (for example after a ruleset
    changed its mind about a hand); the state is then the match up to that event, and the
    referee amends the event to go on.
    """

    id: int
    created_at: str
    log: tuple[LoggedEvent, ...]
    state: MatchState
    problem: EventRefused | None = None
    #: where the hash chain stops matching the stored events (an edit outside mjtable)
    chain_break: chain.ChainBreak | None = None

    ruleset = property(lambda self: self.state.ruleset)
    options = property(lambda self: self.state.options)
    players = property(lambda self: self.state.players)
    title = property(lambda self: self.state.title)
    totals = property(lambda self: list(self.state.totals))
    hands = property(lambda self: list(self.state.hands))
    dealer = property(lambda self: self.state.dealer)
    counters = property(lambda self: dict(self.state.counters))
    levels = property(lambda self: self.state.levels)
    hand = property(lambda self: self.state.hand)
    status = property(lambda self: self.state.status)

    @property
    def amendments(self) -> list[LoggedEvent]:
        return [row for row in self.log if isinstance(row.event, Amendment)]

    @property
    def signoffs(self) -> list[LoggedEvent]:
        return [row for row in self.log if isinstance(row.event, SignOff)]

    @property
    def last_seq(self) -> int:
        return self.log[-1].seq if self.log else 0


class MatchStore:
    """All matches in one database file. Use :meth:`open`; close it (or use ``with``)."""

    def __init__(self, path: Path, db: sqlite3.Connection) -> None:
        self.path = path
        self._db = db
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self._seen: dict[int, int] = {}  # match id -> last seq announced to listeners
        self._cache: dict[int, Match] = {}
        self.readonly = False
        self.chained = True  # False: an older log read where it cannot be upgraded

    # ------------------------------------------------------------ opening

    @classmethod
    def open(cls, path: str | Path | None = None, *, create: bool = True,
             durable: bool = True, readonly: bool = False) -> MatchStore:
        """Open (or create) the database; :class:`StoreError` for a file that is not ours.

        ``durable=False`` lets SQLite skip the disk flush of each commit (``synchronous=NORMAL``):
        a killed process still loses nothing, a power cut may lose the last events. Only for
        scratch databases (tests, simulations); a referee's log keeps the default.
        ``readonly=True`` (what reading commands use) writes nothing, so a log on a read-only
        disk or a copy handed to an auditor can be shown, replayed and verified.
        """
        p = Path(path) if path is not None else default_path()
        if readonly:
            return cls._open_readonly(p)
        new = schema.check_file(p)
        if new and not create:
            raise StoreError(f"{p}: no match database here")
        if not new and not (os.access(p, os.W_OK) and os.access(p.parent, os.W_OK)):
            raise StoreError(f"{p}: cannot be written here (a read-only disk or no "
                             "permission); show, list, replay, export and verify still read it")
        if new:
            p.parent.mkdir(parents=True, exist_ok=True)
        try:
            db = sqlite3.connect(p, timeout=30, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"{p}: cannot open ({exc})") from None
        try:
            version = schema.inspect(db, p)
            db.execute("PRAGMA busy_timeout = 30000")
            mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"{p}: cannot use write-ahead logging here (journal mode "
                                 f"{mode}); put the database on a local disk")
            db.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
            db.execute("PRAGMA foreign_keys = ON")
            schema.migrate(db, version)
        except sqlite3.DatabaseError as exc:
            db.close()
            raise StoreError(f"{p}: {exc}") from None
        except BaseException:
            db.close()
            raise
        store = cls(p, db)
        store._seen = store._heads()
        return store

    @classmethod
    def _open_readonly(cls, p: Path) -> MatchStore:
        if schema.check_file(p):
            raise StoreError(f"{p}: no match database here")
        wal = p.with_name(p.name + "-wal")
        # a read-only disk cannot hold SQLite's shared-memory file: then the database is read
        # as immutable, which is right only when no write-ahead log is waiting to be applied
        fallback = not (wal.exists() and wal.stat().st_size)
        queries = ["mode=ro", "mode=ro&immutable=1"] if fallback else ["mode=ro"]
        while True:
            query = queries.pop(0)
            uri = f"file:{urllib.parse.quote(str(p.resolve()))}?{query}"
            db = None
            try:
                db = sqlite3.connect(uri, uri=True, timeout=30, isolation_level=None,
                                     check_same_thread=False)
                version = schema.inspect(db, p)
                break
            except (sqlite3.Error, StoreError) as exc:
                if db is not None:
                    db.close()
                if not (queries and "unable to open" in str(exc)):
                    if isinstance(exc, StoreError):
                        raise
                    raise StoreError(f"{p}: cannot open read-only ({exc})") from None
        writable = os.access(p, os.W_OK) and os.access(p.parent, os.W_OK)
        if version < schema.LATEST and writable:
            db.close()
            cls.open(p, create=False).close()  # the upgrade a write would make anyway
            return cls._open_readonly(p)
        if version < schema.UNCHAINED_READABLE:
            db.close()
            raise StoreError(f"{p}: schema {version} is too old to read without upgrading it, "
                             "and the file cannot be written; open it once where it can be")
        db.execute("PRAGMA query_only = ON")
        store = cls(p, db)
        store.readonly = True
        store.chained = version >= schema.CHAINED
        store._seen = store._heads()
        return store

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> MatchStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ reading

    def list_matches(self) -> list[MatchSummary]:
        with self._lock:
            rows = self._db.execute("""
            SELECT m.id, m.created_at, m.ruleset, m.title,
                   (SELECT body FROM events e WHERE e.match_id = m.id AND e.seq = 1),
                   (SELECT count(*) FROM events e WHERE e.match_id = m.id)
            FROM matches m ORDER BY m.id""").fetchall()
        out = []
        for mid, created, ruleset, title, body, count in rows:
            players = tuple(load_json(body, error=StoreError).get("players", ())) if body else ()
            out.append(MatchSummary(mid, created, ruleset, title, players, count))
        return out

    def events(self, match_id: int) -> list[LoggedEvent]:
        """The raw log of a match, amendments included, in order."""
        with self._lock:
            return self._read_log(self._db, match_id)

    def load(self, match_id: int) -> Match:
        """The match replayed from its log (cached while the log has not grown)."""
        with self._lock:
            head = self._head(self._db, match_id)
            cached = self._cache.get(match_id)
            if cached is not None and cached.last_seq == head:
                return cached
            match = self._build(match_id, self._read_log(self._db, match_id))
            self._cache[match_id] = match
            return match

    def replay(self, match_id: int) -> Match:
        """Replay the log from scratch, ignoring every cache (what an auditor runs)."""
        with self._lock:
            log = self._read_log(self._db, match_id)
            return self._build(match_id, log)

    def _build(self, match_id: int, log: list[LoggedEvent]) -> Match:
        if not log:
            raise UnknownMatch(f"no match {match_id} in {self.path}")
        created = self._db.execute("SELECT created_at FROM matches WHERE id = ?",
                                   (match_id,)).fetchone()[0]
        broken = (chain.check_chain(match_id, created, self._chain_rows(self._db, match_id))
                  if self.chained else None)
        try:
            state = replay(log)
            return Match(match_id, created, tuple(log), state, chain_break=broken)
        except EventRefused as exc:
            # the state up to the event that no longer replays, so the referee can fix it
            good = [row for row in log if exc.seq is None or row.seq < exc.seq
                    or isinstance(row.event, Amendment)]
            try:
                state = replay(good)
            except EventRefused:
                raise exc from None
            return Match(match_id, created, tuple(log), state, exc, broken)

    def chain_rows(self, match_id: int) -> list[chain.Row]:
        """The stored rows of a match as the hash chain covers them (what a sync sends)."""
        with self._lock:
            rows = self._chain_rows(self._db, match_id)
            if not rows:
                self._read_log(self._db, match_id)  # UnknownMatch for a match not here
            return rows

    def _chain_rows(self, db: sqlite3.Connection, match_id: int) -> list[chain.Row]:
        if not self.chained:
            raise StoreError(f"{self.path}: written before the hash chain (schema "
                             f"{schema.CHAINED - 1}); open it once where it can be written "
                             "to chain it")
        return [chain.Row(*r) for r in db.execute(
            "SELECT seq, at, who, type, body, note, hash FROM events WHERE match_id = ? "
            "ORDER BY seq", (match_id,))]

    @staticmethod
    def _head(db: sqlite3.Connection, match_id: int) -> int:
        row = db.execute("SELECT max(seq) FROM events WHERE match_id = ?",
                         (match_id,)).fetchone()
        return int(row[0] or 0)

    def _heads(self) -> dict[int, int]:
        return {mid: seq for mid, seq in self._db.execute(
            "SELECT match_id, max(seq) FROM events GROUP BY match_id")}

    def _read_log(self, db: sqlite3.Connection, match_id: int,
                  after: int = 0) -> list[LoggedEvent]:
        rows = db.execute("SELECT seq, at, who, body, note FROM events WHERE match_id = ? "
                          "AND seq > ? ORDER BY seq", (match_id, after)).fetchall()
        if not rows and not after and not db.execute("SELECT 1 FROM matches WHERE id = ?",
                                       (match_id,)).fetchone():
            raise UnknownMatch(f"no match {match_id} in {self.path}")
        out = []
        for seq, at, who, body, note in rows:
            try:
                event = event_from_json(load_json(body, error=BadEvent))
            except BadEvent as exc:
                raise StoreError(f"{self.path}: match {match_id} event #{seq} is unreadable "
                                 f"({exc})") from None
            out.append(LoggedEvent(seq, event, at, who, note or ""))
        return out

    # ------------------------------------------------------------ writing

    def new_match(self, ruleset: str, options: Mapping[str, Any] | None = None,
                  players: tuple[str, ...] | list[str] = ("East", "South", "West", "North"),
                  first_dealer: int | None = None, *, title: str | None = None,
                  who: str = "") -> int:
        """Create a match and return its id; a random first dealer unless one is given."""
        if first_dealer is None:
            first_dealer = random.SystemRandom().randrange(4)
        draft = MatchCreated(ruleset=ruleset, players=tuple(players),  # type: ignore[arg-type]
                             first_dealer=first_dealer, options=dict(options or {}), title=title)
        event = event_from_json(draft.to_json())  # the same checks as a stored event
        assert isinstance(event, MatchCreated)
        MatchState.create(event)
        with self._lock, self._write() as db:
            cur = db.execute("INSERT INTO matches (created_at, ruleset, title) VALUES (?, ?, ?)",
                             (timestamp(), ruleset, title))
            match_id = int(cur.lastrowid or 0)
            self._insert(db, match_id, 1, event, who, "")
        self._announce()
        return match_id

    def append_event(self, match_id: int, event: Event | Mapping[str, Any], *,
                     who: str = "", note: str = "") -> Match:
        """Validate ``event`` against the match and log it; :class:`EventRefused` if illegal."""
        # the stored form is the JSON form: check and normalise through it ("?" -> None)
        event = event_from_json(event.to_json() if isinstance(event, Event) else event)
        if isinstance(event, MatchCreated):
            raise EventRefused("a match is created with new_match", event)
        with self._lock:
            with self._write() as db:
                head = self._head(db, match_id)
                cached = self._cache.get(match_id)
                if cached is not None and cached.last_seq == head:
                    log = list(cached.log)
                else:
                    log = self._read_log(db, match_id)
                seq = (log[-1].seq if log else 0) + 1
                state = None
                if isinstance(event, Amendment):
                    check_amendment(log, event)
                else:
                    state = self._state_for(match_id, log).apply(event, seq)
                row = self._insert(db, match_id, seq, event, who, note)
            if state is not None:  # the next state is known: no need to replay
                created = self._cache[match_id].created_at
                self._cache[match_id] = Match(match_id, created, (*log, row), state,
                                              chain_break=self._cache[match_id].chain_break)
        self._announce()
        return self.load(match_id)

    def add_hand(self, match_id: int, record: HandRecord | Mapping[str, Any] | str, *,
                 who: str = "", why: str = "") -> Match:
        """Append a finished hand typed in by the referee (or read from a file)."""
        data: Any
        if isinstance(record, HandRecord):
            data = record.to_json()
        elif isinstance(record, str):
            data = load_json(record, "the hand record", BadEvent)
        else:
            data = record
        if not isinstance(data, Mapping):
            raise BadEvent(f"a hand record is a JSON object, got {type(data).__name__}")
        return self.append_event(match_id, HandRecorded(record=dict(data)), who=who, note=why)

    def amend(self, match_id: int, seq: int, event: Event | Mapping[str, Any] | None, *,
              who: str, why: str) -> Match:
        """Correct event ``seq`` (``None`` strikes it); the original stays in the log."""
        return self.append_event(match_id, _amendment(seq, event, who, why), who=who, note=why)

    def amend_many(self, match_id: int,
                   corrections: list[tuple[int, Event | Mapping[str, Any] | None]], *,
                   who: str, why: str) -> Match:
        """Several corrections checked and written together, in one transaction.

        For a correction that changes what follows it (an early hand's winner moves the dealer
        of later hands typed in with theirs): the log must replay after all of them, not after
        each one. Each is logged as its own ``amend`` event.
        """
        if not corrections:
            raise EventRefused("no correction given")
        amends = [_amendment(seq, event, who, why) for seq, event in corrections]
        with self._lock:
            with self._write() as db:
                log = self._read_log(db, match_id)
                check_amendments(log, amends)
                head = log[-1].seq
                for i, amend in enumerate(amends):
                    self._insert(db, match_id, head + 1 + i, amend, who, why)
            self._cache.pop(match_id, None)
        self._announce()
        return self.load(match_id)

    def append_chained(self, match_id: int, rows: list[chain.Row]) -> int:
        """Append events written elsewhere into this log (a tournament server's referee
        events, sent back on sync): each at its ``seq``, dated and hashed as given.

        Returns how many were appended: 0 when this log has moved on since (its next number is
        not the first row's; the next sync places them after the new events). Each is checked
        like any event (an amendment must leave the log replayable) and must hash as given,
        which proves both copies are the same log up to it; else :class:`StoreError`.
        """
        if not rows:
            return 0
        with self._lock:
            with self._write() as db:
                log = self._read_log(db, match_id)
                if rows[0].seq != log[-1].seq + 1:
                    return 0
                for row in rows:
                    try:
                        event = event_from_json(load_json(row.body, error=BadEvent))
                    except BadEvent as exc:
                        raise StoreError(f"event #{row.seq} from the server: {exc}") from None
                    if isinstance(event, Amendment):
                        check_amendment(log, event)
                    elif isinstance(event, MatchCreated):
                        raise EventRefused("a match is created with new_match", event)
                    else:
                        replay(log).apply(event, row.seq)
                    done = self._insert(db, match_id, row.seq, event, row.who, row.note,
                                        row.at)
                    stored = db.execute("SELECT hash, at FROM events WHERE match_id = ? AND "
                                        "seq = ?", (match_id, row.seq)).fetchone()
                    if tuple(stored) != (row.hash, row.at):
                        raise StoreError(f"event #{row.seq} from the server does not chain to "
                                         f"this log: the server holds another copy of match "
                                         f"{match_id}")
                    log.append(done)
            self._cache.pop(match_id, None)
        self._announce()
        return len(rows)

    def _state_for(self, match_id: int, log: list[LoggedEvent]) -> MatchState:
        cached = self._cache.get(match_id)
        if cached is not None and cached.last_seq == (log[-1].seq if log else 0):
            if cached.problem is not None:
                raise cached.problem
            return cached.state
        match = self._build(match_id, log)
        self._cache[match_id] = match
        if match.problem is not None:
            raise match.problem
        return match.state

    def _insert(self, db: sqlite3.Connection, match_id: int, seq: int, event: Event,
                who: str, note: str, at: str | None = None) -> LoggedEvent:
        """Write one event chained to the one before it (never dated before it)."""
        at = at or timestamp()
        last = db.execute("SELECT hash, at FROM events WHERE match_id = ? AND seq = ?",
                          (match_id, seq - 1)).fetchone()
        if last is None:
            created = db.execute("SELECT created_at FROM matches WHERE id = ?",
                                 (match_id,)).fetchone()[0]
            previous = chain.genesis(match_id, created)
        else:
            previous, at = last[0], max(at, last[1])  # a clock stepping back keeps the order
        body = chain.body_text(event.to_json())
        digest = chain.event_hash(previous, (seq, at, who, event.type, body, note))
        db.execute("INSERT INTO events (match_id, seq, at, who, type, body, note, hash) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (match_id, seq, at, who, event.type, body, note, digest))
        return LoggedEvent(seq, event, at, who, note)

    def _write(self) -> _Transaction:
        if self.readonly:
            raise StoreError(f"{self.path}: opened read-only; nothing can be written")
        return _Transaction(self._db)

    # ------------------------------------------------------------ sign-offs

    def sign(self, match_id: int, target: int, key: bytes, referee: str) -> Match:
        """The referee's sign-off of hand event ``target``: an HMAC over the chain so far.

        ``key`` comes from a file outside this database (:func:`chain.read_key`), so whoever
        can write the database cannot sign, nor rewrite the log under a signed hand unseen.
        """
        with self._lock:
            with self._write() as db:
                log = self._read_log(db, match_id)
                seq = log[-1].seq + 1
                head = self._chain_rows(db, match_id)[-1].hash
                draft = SignOff(target=target, referee=referee.strip() or "?",
                                key=chain.key_id(key), head=head,
                                mac=chain.signoff_mac(key, match_id, target,
                                                      referee.strip() or "?", head))
                event = event_from_json(draft.to_json())
                self._state_for(match_id, log).apply(event, seq)
                self._insert(db, match_id, seq, event, referee, "")
            self._cache.pop(match_id, None)
        self._announce()
        return self.load(match_id)

    def verify(self, match_id: int, key: bytes | None = None) -> chain.Verification:
        """Check the whole chain and every sign-off (against ``key`` when given)."""
        with self._lock:
            created = self._db.execute("SELECT created_at FROM matches WHERE id = ?",
                                       (match_id,)).fetchone()
            if created is None:
                raise UnknownMatch(f"no match {match_id} in {self.path}")
            rows = self._chain_rows(self._db, match_id)
        broken = chain.check_chain(match_id, created[0], rows)
        signoffs = []
        for row in rows:
            if row.type == SignOff.type:
                try:
                    s = event_from_json(load_json(row.body, error=BadEvent))
                except BadEvent:
                    continue  # an unreadable body already breaks the chain or the replay
                assert isinstance(s, SignOff)
                signoffs.append((row.seq, s.target, s.referee, s.key, s.head, s.mac))
        total, checked, bad = chain.check_signoffs(match_id, created[0], rows, signoffs, key)
        return chain.Verification(len(rows), broken, total, checked, bad)

    # ------------------------------------------------------------ exports

    def export_json(self, match_id: int) -> dict[str, Any]:
        """The match as one JSON object: hand records, settlements, totals and the whole log."""
        from scoring.match.export import match_json

        return match_json(self.load(match_id))

    def export_csv(self, match_id: int) -> str:
        """Per-hand payments and running totals, one CSV row per hand or escape."""
        from scoring.match.export import match_csv

        return match_csv(self.load(match_id))

    # ------------------------------------------------------------ changes

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(match_id, logged_event)`` for every new event; returns unsubscribe.

        Events written through this store are announced at once; events written by another
        process are announced by :meth:`poll` (the dashboard calls it on a timer).
        """
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)
        return unsubscribe

    def poll(self) -> int:
        """Announce events that appeared since the last look; returns how many."""
        return self._announce()

    def _announce(self) -> int:
        with self._lock:
            heads = self._heads()
            fresh: list[tuple[int, LoggedEvent]] = []
            for mid, head in sorted(heads.items()):
                seen = self._seen.get(mid, 0)
                if head > seen:
                    rows = self._read_log(self._db, mid, after=seen)
                    fresh.extend((mid, r) for r in rows)
            self._seen = heads
        for mid, row in fresh:
            for listener in list(self._listeners):
                listener(mid, row)
        return len(fresh)


def _amendment(seq: int, event: Event | Mapping[str, Any] | None, who: str,
               why: str) -> Amendment:
    body = None
    if event is not None:
        body = (event if isinstance(event, Event) else event_from_json(event)).to_json()
    amendment = Amendment(target=seq, who=who, why=why, event=body)
    return event_from_json(amendment.to_json())  # type: ignore[return-value]


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT``: one write transaction, rolled back on any error."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        if kind is None:
            self.db.execute("COMMIT")
        else:
            self.db.execute("ROLLBACK")
