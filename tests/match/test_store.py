"""The database: WAL, migrations, append-only log, refusal of foreign and damaged files."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from scoring.match import MatchStore, StoreError, UnknownMatch, schema
from scoring.match import events as ev
from scoring.match.errors import EventRefused
from tests.match.conftest import old_log


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_new_database_is_wal_versioned_and_ours(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "m.sqlite3"
    with MatchStore.open(path) as store:
        mid = store.new_match("shandong", {}, ["a", "b", "c", "d"], 0)
        assert mid == 1
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == schema.LATEST
    assert db.execute("PRAGMA application_id").fetchone()[0] == schema.APPLICATION_ID
    db.close()


def test_default_path_is_in_the_user_data_folder(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    from scoring.match import default_path

    assert default_path() == tmp_path / "mjtable" / "matches.sqlite3"


def test_log_is_append_only_in_the_database(store: MatchStore) -> None:
    mid = store.new_match("shandong", {}, ["a", "b", "c", "d"], 0)
    db = sqlite3.connect(store.path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("UPDATE events SET body = '{}' WHERE match_id = ?", (mid,))
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("DELETE FROM events")
    db.close()


def test_migrates_a_version_1_database_keeping_its_events(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    db = old_log(path, 1, ruleset="shanghai", first_dealer=2)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    db.close()
    with MatchStore.open(path) as store:
        match = store.load(1)
        assert match.dealer == 2 and match.players == ["a", "b", "c", "d"]
        assert match.log[0].who == "ref"
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == schema.LATEST
    db.close()


def test_newer_schema_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    MatchStore.open(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {schema.LATEST + 1}")
    db.commit()
    db.close()
    before = _digest(path)
    with pytest.raises(StoreError, match="newer mjtable"):
        MatchStore.open(path)
    assert _digest(path) == before


def test_foreign_sqlite_file_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE contacts (name TEXT)")
    db.execute("INSERT INTO contacts VALUES ('x')")
    db.commit()
    db.close()
    before = _digest(path)
    with pytest.raises(StoreError, match="another program"):
        MatchStore.open(path)
    assert _digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]


def test_text_file_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("my shopping list\n" * 100)
    before = _digest(path)
    with pytest.raises(StoreError, match="not an SQLite file"):
        MatchStore.open(path)
    assert _digest(path) == before


def test_damaged_database_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    with MatchStore.open(path) as store:
        for _ in range(30):
            store.new_match("shandong", {"base": 5}, ["a" * 200, "b", "c", "d"], 0,
                            title="x" * 500)
    data = bytearray(path.read_bytes())
    assert len(data) >= 4 * 4096
    data[4096 + 8: 4096 * 3] = b"\xa5" * (4096 * 2 - 8)  # clobber pages 2 and 3
    path.write_bytes(bytes(data))
    before = _digest(path)
    with pytest.raises(StoreError, match="damaged"):
        MatchStore.open(path)
    assert _digest(path) == before


def test_missing_database_with_create_false(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no match database"):
        MatchStore.open(tmp_path / "none.sqlite3", create=False)
    assert not (tmp_path / "none.sqlite3").exists()


def test_unknown_match(store: MatchStore) -> None:
    with pytest.raises(UnknownMatch, match="no match 7"):
        store.load(7)


def test_refused_event_is_not_written(store: MatchStore) -> None:
    mid = store.new_match("shandong", {}, ["a", "b", "c", "d"], 0)
    with pytest.raises(EventRefused, match=r"dealer .*rolls first"):
        store.append_event(mid, ev.DiceRolled(seat=1, dice=(1, 2)))
    assert len(store.events(mid)) == 1


def test_concurrent_reader_does_not_block_the_writer(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    writer = MatchStore.open(path)
    mid = writer.new_match("shandong", {}, ["a", "b", "c", "d"], 0)
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")  # a long read transaction, as a dashboard refresh might hold
    assert reader.execute("SELECT count(*) FROM events").fetchone()[0] == 1
    done = threading.Event()

    def write() -> None:
        writer.append_event(mid, ev.DiceRolled(seat=0, dice=(3, 4)))
        writer.append_event(mid, ev.DiceRolled(seat=0, dice=(5, 6)))
        done.set()

    t0 = time.monotonic()
    thread = threading.Thread(target=write)
    thread.start()
    assert done.wait(5), "the writer waited on a reader"
    assert time.monotonic() - t0 < 5
    thread.join()
    # the reader still sees its snapshot, then the new events once it starts afresh
    assert reader.execute("SELECT count(*) FROM events").fetchone()[0] == 1
    reader.execute("COMMIT")
    assert reader.execute("SELECT count(*) FROM events").fetchone()[0] == 3
    reader.close()
    writer.close()


def test_subscribe_and_poll_see_other_writers(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    dashboard = MatchStore.open(path)
    seen: list[tuple[int, int, str]] = []
    unsubscribe = dashboard.subscribe(lambda mid, row: seen.append((mid, row.seq,
                                                                    row.event.type)))
    mid = dashboard.new_match("shandong", {}, ["a", "b", "c", "d"], 0)
    assert seen == [(mid, 1, "match_created")]
    with MatchStore.open(path) as other:  # e.g. the command line
        other.append_event(mid, ev.DiceRolled(seat=0, dice=(3, 4)), who="cli")
    assert dashboard.poll() == 1
    assert seen[-1] == (mid, 2, "dice")
    assert dashboard.load(mid).log[-1].who == "cli"
    unsubscribe()
    dashboard.append_event(mid, ev.DiceRolled(seat=0, dice=(1, 1)))
    assert len(seen) == 2
    dashboard.close()
