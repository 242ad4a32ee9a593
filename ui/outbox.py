"""A table's outbox to the tournament server: its match log goes out, exactly once, whatever
the network does.

The match log is already durable on the table (:mod:`scoring.match`), so the outbox keeps only
where each local match goes (server, round, table, token) and how far the server has
confirmed. A push first asks the server for its head (the last event it stored of that match:
an answer lost on a cut connection is recovered here), then sends what follows in batches. The
server stores each event once by (match, sequence) and refuses a different event under a stored
number, so resending is always safe. With the network down a push fails in one line and the
events wait in the log; :func:`push_until_done` retries with a growing pause. Only the standard
library is used: a table needs no server extra.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring.jsonlimits import load_json
from scoring.match import MatchError, MatchStore, chain

BATCH = 200


class SyncError(OSError):
    """The server cannot be reached or refused the events; the message says which."""

    def __init__(self, message: str, permanent: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent  # refused (a conflict, a bad token): resending will not help


@dataclass(frozen=True)
class Binding:
    match: int
    server: str
    round: int
    table: int
    token: str
    acked: int


@dataclass(frozen=True)
class Pushed:
    sent: int  # events the server stored now
    duplicates: int  # events it already had (a resend after a cut answer)
    head: int  # the last event the server holds
    pending: int  # local events it still lacks (0 when done)
    taken: int = 0  # the referee's events (penalties, amendments) taken into the local log


def default_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("mjtable")) / "outbox.sqlite3"


class Outbox:
    """Where each local match syncs to, and how far. ``Outbox(path)``; close it or ``with``."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        new = not self.path.exists()
        self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        if new:  # it holds tokens: this user only
            os.chmod(self.path, 0o600)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS bindings (match INTEGER PRIMARY KEY, "
                        "server TEXT NOT NULL, round INTEGER NOT NULL, table_no INTEGER NOT "
                        "NULL, token TEXT NOT NULL, acked INTEGER NOT NULL DEFAULT 0)")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Outbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def bind(self, match: int, server: str, round_no: int, table: int, token: str) -> Binding:
        """Send local ``match`` to ``server`` as round ``round_no``'s table ``table``."""
        url = urllib.parse.urlsplit(server)
        if url.scheme not in ("http", "https") or not url.netloc:
            raise SyncError(f"--server: an http(s) URL, got {server!r}", permanent=True)
        old = self.binding(match)
        if old is not None and (old.round, old.table) != (round_no, table):
            raise SyncError(f"match {match} already syncs as round {old.round} table "
                            f"{old.table}", permanent=True)
        # the server may move (a new address after a restart): the next push asks it its head
        self.db.execute("INSERT INTO bindings (match, server, round, table_no, token) VALUES "
                        "(?, ?, ?, ?, ?) ON CONFLICT (match) DO UPDATE SET server = "
                        "excluded.server, token = excluded.token",
                        (match, server.rstrip("/"), round_no, table, token))
        binding = self.binding(match)
        assert binding is not None
        return binding

    def binding(self, match: int) -> Binding | None:
        row = self.db.execute("SELECT match, server, round, table_no, token, acked FROM "
                              "bindings WHERE match = ?", (match,)).fetchone()
        return Binding(*row) if row else None

    def push(self, store: MatchStore, match: int, timeout: float = 10.0,
             send: Callable[..., Any] | None = None) -> Pushed:
        """Send what the server lacks of ``match``; :class:`SyncError` when it cannot."""
        b = self.binding(match)
        if b is None:
            raise SyncError(f"match {match} is not bound to a server (push --server ...)",
                            permanent=True)
        call = send or request
        base = f"{b.server}/api/tables/{b.round}/{b.table}"
        got = call("GET", f"{base}/head", None, b.token, timeout)
        head, referee = _answer(got)
        origin = {"match": match, "created_at": store.load(match).created_at}
        sent = duplicates = taken = 0
        while True:
            rows = store.chain_rows(match)
            todo = [r for r in rows if r.seq > head]
            while todo:
                batch, todo = todo[:BATCH], todo[BATCH:]
                body = {"events": [{"seq": r.seq, "event": load_json(r.body), "at": r.at,
                                    "who": r.who, "note": r.note, "hash": r.hash}
                                   for r in batch], "log": origin}
                got = call("POST", f"{base}/events", body, b.token, timeout)
                sent, duplicates = sent + int(got["applied"]), duplicates + int(got["duplicates"])
                head, referee = _answer(got)
            if not referee:
                break
            # the referee's events, placed after everything the server holds of this log: they
            # join the local log where it still ends there, and go back as taken
            try:
                took = store.append_chained(match, referee)
            except MatchError as exc:
                raise SyncError(f"the server's referee events do not fit match {match}: {exc}",
                                permanent=True) from None
            if not took:
                break  # the log moved on meanwhile: the next push places them after it
            taken += took
        self.db.execute("UPDATE bindings SET acked = ? WHERE match = ?", (head, match))
        last = rows[-1].seq if rows else 0
        return Pushed(sent, duplicates, head, max(0, last - head), taken)


def _answer(got: Any) -> tuple[int, list[chain.Row]]:
    """The server's head and the referee events it holds for the table, from its answer."""
    try:
        rows = [chain.Row(int(r["seq"]), str(r["at"]), str(r["who"]), str(r["event"]["type"]),
                          chain.body_text(r["event"]), str(r["note"]), str(r["hash"]))
                for r in got.get("referee") or []]
        return int(got["head"]), rows
    except (AttributeError, KeyError, TypeError, ValueError):
        raise SyncError(f"the server's answer is not a head and referee events: {got!r:.80}",
                        permanent=True) from None


def request(method: str, url: str, body: Any, token: str, timeout: float) -> Any:
    """One HTTP call with the table's token; :class:`SyncError` for any failure."""
    data = None if body is None else json.dumps(body, ensure_ascii=False).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return load_json(resp.read(1 << 20), url, SyncError)
    except urllib.error.HTTPError as exc:
        try:
            reason = load_json(exc.read(1 << 16), url, SyncError).get("error", "")
        except (SyncError, AttributeError):
            reason = ""
        raise SyncError(f"{url}: HTTP {exc.code} {reason}".strip(),
                        permanent=exc.code in (400, 401, 403, 404, 409, 413, 415, 422)
                        ) from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise SyncError(f"{url}: cannot reach the server ({reason})") from None


def push_until_done(outbox: Outbox, store: MatchStore, match: int, *, tries: int = 0,
                    pause: float = 1.0, most: float = 30.0,
                    report: Callable[[str], None] = lambda line: None,
                    send: Callable[..., Any] | None = None) -> Pushed:
    """Push, and while the network is down retry with a pause that doubles up to ``most``
    seconds; ``tries`` 0 retries without end. A refusal by the server is raised at once."""
    n = 0
    while True:
        n += 1
        try:
            return outbox.push(store, match, send=send)
        except SyncError as exc:
            if exc.permanent or (tries and n >= tries):
                raise
            report(f"{exc}; trying again in {pause:g} s")
            time.sleep(pause)
            pause = min(most, pause * 2)


class Syncer:
    """Pushes one bound match in the background, for the dashboard: at once after each new
    event of the log, and again with a pause that doubles up to ``most`` seconds while the
    server cannot be reached. ``state()`` says how far it got, for a status line.

    The outbox is opened in the sync thread (SQLite connections stay in their thread); the
    match store is shared (it locks itself). Bind the match first (``mjtable match push``).
    """

    def __init__(self, store: MatchStore, match: int, outbox: str | Path | None = None, *,
                 pause: float = 1.0, most: float = 30.0,
                 send: Callable[..., Any] | None = None) -> None:
        import threading

        self.store, self.match, self.path = store, match, outbox
        self.pause, self.most, self.send = pause, most, send
        self.last: Pushed | None = None
        self.error: str | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._unsubscribe = store.subscribe(
            lambda mid, _row: self._wake.set() if mid == match else None)
        self._thread = threading.Thread(target=self._run, name="mjtable-sync", daemon=True)
        self._thread.start()

    def state(self) -> str:
        if self.error:
            return f"not synced: {self.error}"
        if self.last is None:
            return "syncing…"
        return (f"synced: the server holds #{self.last.head}" if not self.last.pending
                else f"{self.last.pending} events to send")

    def _run(self) -> None:
        with Outbox(self.path) as box:
            pause = self.pause
            while not self._stop.is_set():
                self._wake.clear()
                try:
                    self.last = box.push(self.store, self.match, send=self.send)
                    self.error, pause = None, self.pause
                    self._wake.wait()  # until the next event (or close)
                except SyncError as exc:
                    self.error = str(exc)
                    if exc.permanent:  # a refusal: wait for the log to change
                        self._wake.wait()
                    else:
                        self._wake.wait(pause)
                        pause = min(self.most, pause * 2)

    def close(self) -> None:
        self._unsubscribe()
        self._stop.set()
        self._wake.set()
        self._thread.join(30)
