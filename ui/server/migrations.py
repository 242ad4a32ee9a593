"""One schema for both engines, in numbered migrations; each runs once, in one transaction.

``schema_migrations`` lists the versions applied. A database from a newer mjtable is refused.
The DDL differs between engines only in how a row id is generated.
"""

from __future__ import annotations

from ui.server.engines import Engine, StoreUnavailable

_ID = {"sqlite": "INTEGER PRIMARY KEY AUTOINCREMENT",
       "postgresql": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY"}

#: (version, statements); ``{id}`` is the engine's generated row id
MIGRATIONS: list[tuple[int, list[str]]] = [
    (1, [
        # the tournament's definition and the token secret
        "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        # one match log per (round, table); ``head`` is the highest table sequence stored
        "CREATE TABLE matches (id {id}, round INTEGER NOT NULL, table_no INTEGER NOT NULL, "
        "created_at TEXT NOT NULL, head INTEGER NOT NULL DEFAULT 0, "
        "UNIQUE (round, table_no))",
        # the tables' events, keyed by the table's own sequence: a resent event is a no-op
        "CREATE TABLE events (match_id INTEGER NOT NULL REFERENCES matches (id), "
        "seq INTEGER NOT NULL, at TEXT NOT NULL, who TEXT NOT NULL, type TEXT NOT NULL, "
        "body TEXT NOT NULL, note TEXT NOT NULL, received TEXT NOT NULL, "
        "PRIMARY KEY (match_id, seq))",
        # the referee's amendments of a match log, numbered apart from the table's events
        "CREATE TABLE amendments (id {id}, match_id INTEGER NOT NULL REFERENCES matches (id), "
        "at TEXT NOT NULL, who TEXT NOT NULL, body TEXT NOT NULL)",
        # the referee's actions on the tournament (seatings, penalties, substitutes, closing)
        "CREATE TABLE actions (id {id}, created TEXT NOT NULL, actor TEXT NOT NULL, "
        "name TEXT NOT NULL, body TEXT NOT NULL)",
        # every write: who, what, why; a request id makes a replayed request a no-op
        "CREATE TABLE writes (id {id}, at TEXT NOT NULL, actor TEXT NOT NULL, "
        "what TEXT NOT NULL, why TEXT NOT NULL, request_id TEXT UNIQUE, "
        "result TEXT NOT NULL)",
    ]),
    (2, [
        # a table's log keeps its hash chain on the server too: each event's hash, where the
        # chain starts (the table's match), and the referee's events join the log itself
        "ALTER TABLE events ADD COLUMN hash TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE events ADD COLUMN origin TEXT NOT NULL DEFAULT 'table'",
        "ALTER TABLE matches ADD COLUMN genesis TEXT NOT NULL DEFAULT ''",
        # the last event the table holds; the referee's events after it wait for its sync
        "ALTER TABLE matches ADD COLUMN acked INTEGER NOT NULL DEFAULT 0",
        "UPDATE matches SET acked = head",
    ]),
]

LATEST = MIGRATIONS[-1][0]


def migrate(engine: Engine) -> int:
    """Apply the missing migrations; returns the schema version now in the database.

    An up-to-date database is only read, so a server can open a read-only replica.
    """
    with engine.transaction(write=False) as tx:
        exists = tx.execute("SELECT 1 FROM information_schema.tables WHERE table_name = "
                            "'schema_migrations'" if engine.dialect == "postgresql" else
                            "SELECT 1 FROM sqlite_master WHERE name = 'schema_migrations'")
        done = ({int(r[0]) for r in tx.execute("SELECT version FROM schema_migrations")}
                if exists else set())
    if done and max(done) > LATEST:
        raise StoreUnavailable(f"the database has schema {max(done)}, newer than this "
                               f"mjtable's {LATEST}; upgrade mjtable")
    if done >= {v for v, _ in MIGRATIONS}:
        return LATEST
    with engine.transaction() as tx:
        if engine.dialect == "postgresql":
            tx.execute("SELECT pg_advisory_xact_lock(?)", (0x4D4A5431,))  # one migrator
        tx.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
                   "applied TEXT NOT NULL)")
        done = {int(r[0]) for r in tx.execute("SELECT version FROM schema_migrations")}
        if done and max(done) > LATEST:
            raise StoreUnavailable(f"the database has schema {max(done)}, newer than this "
                                   f"mjtable's {LATEST}; upgrade mjtable")
        for version, statements in MIGRATIONS:
            if version in done:
                continue
            for sql in statements:
                tx.execute(sql.replace("{id}", _ID[engine.dialect]))
            tx.execute("INSERT INTO schema_migrations (version, applied) VALUES "
                       "(?, CURRENT_TIMESTAMP)", (version,))
    return LATEST
