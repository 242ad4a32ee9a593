"""The match database's schema and its migrations, and the checks that keep foreign files safe.

The file is ours when ``PRAGMA application_id`` is :data:`APPLICATION_ID`; ``PRAGMA
user_version`` is the schema version. Migrations run in order, each in its own transaction,
and a file from a newer mjtable is refused rather than guessed at. Nothing is written to a file
before it has been recognised as ours (or is new and empty).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from scoring.match.errors import StoreError

APPLICATION_ID = 0x4D4A544D  # "MJTM"
SQLITE_HEADER = b"SQLite format 3\x00"


_NO_UPDATE = """CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'the match log is append-only: amend, do not edit'); END"""


def _v1(db: sqlite3.Connection) -> None:
    db.execute("""CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        created_at TEXT NOT NULL,
        ruleset TEXT NOT NULL,
        title TEXT)""")
    db.execute("""CREATE TABLE events (
        match_id INTEGER NOT NULL REFERENCES matches(id),
        seq INTEGER NOT NULL,
        at TEXT NOT NULL,
        who TEXT NOT NULL DEFAULT '',
        type TEXT NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (match_id, seq))""")


def _v2(db: sqlite3.Connection) -> None:
    """The log becomes append-only in the database itself; every event gets a free-text note."""
    db.execute("ALTER TABLE events ADD COLUMN note TEXT NOT NULL DEFAULT ''")
    db.execute(_NO_UPDATE)
    db.execute("""CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'the match log is append-only: amend, do not delete'); END""")


def _v3(db: sqlite3.Connection) -> None:
    """Every event carries a hash chained to the one before it (scoring.match.chain).

    An existing log is chained as it stands at this migration: the chain shows changes made
    after it, not before.
    """
    from scoring.match.chain import event_hash, genesis

    db.execute("ALTER TABLE events ADD COLUMN hash TEXT NOT NULL DEFAULT ''")
    db.execute("DROP TRIGGER events_append_only_update")
    for match_id, created_at in db.execute("SELECT id, created_at FROM matches").fetchall():
        previous = genesis(match_id, created_at)
        for row in db.execute("SELECT seq, at, who, type, body, note FROM events "
                              "WHERE match_id = ? ORDER BY seq", (match_id,)).fetchall():
            previous = event_hash(previous, tuple(row))
            db.execute("UPDATE events SET hash = ? WHERE match_id = ? AND seq = ?",
                       (previous, match_id, row[0]))
    db.execute(_NO_UPDATE)


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_v1, _v2, _v3)
LATEST = len(MIGRATIONS)
CHAINED = 3  # the first schema whose events carry the hash chain
UNCHAINED_READABLE = 2  # the oldest schema a read-only store can read as it is


def check_file(path: Path) -> bool:
    """``True`` if ``path`` is new (absent or empty); raise :class:`StoreError` if not SQLite."""
    if not path.exists():
        return True
    if not path.is_file():
        raise StoreError(f"{path}: not a file")
    with path.open("rb") as fh:
        head = fh.read(len(SQLITE_HEADER))
    if not head:
        return True
    if head != SQLITE_HEADER:
        raise StoreError(f"{path}: not a mjtable match database (not an SQLite file); "
                         "it was left untouched")
    return False


def inspect(db: sqlite3.Connection, path: Path) -> int:
    """The schema version of an open database after checking it is ours and sound (read-only)."""
    try:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        problems = [r[0] for r in db.execute("PRAGMA quick_check")]
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path}: the database is damaged or not a database ({exc}); "
                         "it was left untouched") from None
    if problems != ["ok"]:
        raise StoreError(f"{path}: the database is damaged ({'; '.join(problems[:3])}); "
                         "it was left untouched")
    if app_id != APPLICATION_ID:
        if tables or app_id:
            raise StoreError(f"{path}: an SQLite database of another program "
                             f"(application_id {app_id:#x}, tables: {', '.join(tables[:5])}); "
                             "it was left untouched")
        return 0
    if version > LATEST:
        raise StoreError(f"{path}: written by a newer mjtable (schema {version}, this one knows "
                         f"up to {LATEST}); it was left untouched")
    return int(version)


def migrate(db: sqlite3.Connection, version: int, upto: int = LATEST) -> None:
    """Bring the schema from ``version`` to ``upto``, one transaction per step."""
    for target in range(version + 1, upto + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            current = db.execute("PRAGMA user_version").fetchone()[0]
            if current >= target:  # another process got there first
                db.execute("COMMIT")
                continue
            MIGRATIONS[target - 1](db)
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {target}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
