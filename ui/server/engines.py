"""The two SQL engines behind the tournament store: SQLite (embedded) and PostgreSQL.

Both take the same SQL, written with ``?`` placeholders and always with the values passed
apart (never formatted into the text); PostgreSQL's driver gets them as ``%s``. An engine hands
out one transaction at a time per caller: :meth:`Engine.transaction` yields a cursor-like
object whose ``execute`` returns rows. SQLite has one writer, so its engine keeps one
connection behind a lock and opens write transactions with ``BEGIN IMMEDIATE``; PostgreSQL
keeps a small pool, and the store serialises the writers of one match with ``FOR UPDATE``.
"""

from __future__ import annotations

import queue
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol


class StoreUnavailable(OSError):
    """The database cannot be reached or opened; the message says which and why."""


class Tx(Protocol):
    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...


class Engine(Protocol):
    dialect: str  # "sqlite" or "postgresql"

    def transaction(self, write: bool = True) -> Any: ...

    def close(self) -> None: ...


class _SqliteTx:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.db.execute(sql, tuple(params)).fetchall()


class SqliteEngine:
    """One file, WAL mode, one connection behind a lock: a club night on one laptop."""

    dialect = "sqlite"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None,
                                      check_same_thread=False)
            self.db.execute("PRAGMA busy_timeout = 30000")
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = FULL")
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"{self.path}: cannot open ({exc})") from None
        self.lock = threading.RLock()

    @contextmanager
    def transaction(self, write: bool = True) -> Iterator[_SqliteTx]:
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield _SqliteTx(self.db)
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    def close(self) -> None:
        with self.lock:
            self.db.close()


class _PgTx:
    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        cur = self.conn.execute(sql.replace("?", "%s"), tuple(params))
        return cur.fetchall() if cur.description is not None else []


class PostgresEngine:
    """A pool of psycopg 3 connections to one database (several server processes share it)."""

    dialect = "postgresql"

    def __init__(self, url: str, size: int = 8) -> None:
        import psycopg

        self._psycopg = psycopg
        self.url = url
        self.size = size
        self._pool: queue.LifoQueue[Any] = queue.LifoQueue()
        self._made = 0
        self._lock = threading.Lock()
        self._return(self._connect())  # fail now, with the reason, if it cannot connect

    def _connect(self) -> Any:
        try:
            return self._psycopg.connect(self.url, connect_timeout=10, autocommit=True)
        except self._psycopg.Error as exc:
            raise StoreUnavailable(f"PostgreSQL: cannot connect ({str(exc).strip()})") from None

    def _take(self) -> Any:
        try:
            return self._pool.get_nowait()
        except queue.Empty:
            pass
        with self._lock:
            if self._made < self.size:
                self._made += 1
                try:
                    return self._connect()
                except BaseException:
                    self._made -= 1
                    raise
        return self._pool.get(timeout=60)

    def _return(self, conn: Any) -> None:
        self._pool.put(conn)

    @contextmanager
    def transaction(self, write: bool = True) -> Iterator[_PgTx]:
        conn = self._take()
        broken = False
        try:
            with conn.transaction():
                yield _PgTx(conn)
        except self._psycopg.errors.ReadOnlySqlTransaction:
            raise StoreUnavailable("this database is read-only (a replica?): writes go to the "
                                   "primary's server") from None
        except self._psycopg.OperationalError:
            broken = True
            raise
        finally:
            if broken or conn.closed:
                conn.close()
                with self._lock:
                    self._made -= 1
            else:
                self._return(conn)

    def close(self) -> None:
        while True:
            try:
                self._pool.get_nowait().close()
            except queue.Empty:
                return


def open_engine(url: str | Path) -> Engine:
    """``postgresql://...`` (or ``postgres://``) picks PostgreSQL; anything else is a file."""
    text = str(url)
    if text.startswith(("postgresql://", "postgres://")):
        return PostgresEngine(text)
    return SqliteEngine(text)
