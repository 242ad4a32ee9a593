"""The tamper-evident log (issue 19): edits, deletions and back-dated inserts made outside
mjtable show; sign-offs with a key kept off the database catch a rewritten chain."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from scoring.match import MatchStore, StoreError, schema
from scoring.match.chain import event_hash, genesis, new_key_file, read_key
from tests.match.conftest import CASES, old_log
from ui.cli import main

HAND = CASES / "shandong" / "01-tuidaohe-discard.json"


def _match(tmp_path: Path) -> Path:
    """A Shandong match: #1 created, #2 a hand, #3 a correction of it, #4 a second hand."""
    db = tmp_path / "m.sqlite3"
    record = json.loads(HAND.read_text(encoding="utf-8"))
    with MatchStore.open(db, durable=False) as store:
        mid = store.new_match("shandong", {}, ["a", "b", "c", "d"], 0, who="ref")
        store.add_hand(mid, record, who="ref")
        store.amend(mid, 2, {"type": "hand_recorded", "record": record}, who="ref", why="same")
        second = dict(record, dealer=1)
        second["wins"] = [dict(record["wins"][0], **{"from": 2})]
        store.add_hand(mid, second, who="ref")
    return db


def _tamper(db: Path, *sql: tuple[str, tuple]) -> None:  # type: ignore[type-arg]
    con = sqlite3.connect(db, isolation_level=None)
    con.execute("DROP TRIGGER IF EXISTS events_append_only_update")
    con.execute("DROP TRIGGER IF EXISTS events_append_only_delete")
    for statement, params in sql:
        con.execute(statement, params)
    con.close()


def _rechain(db: Path) -> None:
    """What a careful forger does next: recompute every hash after the edit."""
    con = sqlite3.connect(db, isolation_level=None)
    created = con.execute("SELECT created_at FROM matches WHERE id = 1").fetchone()[0]
    previous = genesis(1, created)
    for row in con.execute("SELECT seq, at, who, type, body, note FROM events "
                           "WHERE match_id = 1 ORDER BY seq").fetchall():
        previous = event_hash(previous, tuple(row))
        con.execute("UPDATE events SET hash = ? WHERE match_id = 1 AND seq = ?",
                    (previous, row[0]))
    con.close()


def mj(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> tuple[int, str, str]:
    rc = main(["match", "--db", str(db), *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_an_intact_log_verifies(tmp_path: Path, capsys) -> None:
    db = _match(tmp_path)
    rc, out, _ = mj(capsys, db, "verify", "1")
    assert rc == 0 and "4 events, the hash chain is intact" in out
    with MatchStore.open(db) as store:
        assert store.load(1).chain_break is None


def test_an_edited_hand_is_named_and_replay_refuses(tmp_path: Path, capsys) -> None:
    db = _match(tmp_path)
    with MatchStore.open(db) as store:
        before = store.load(1).totals
    body = sqlite3.connect(db).execute("SELECT body FROM events WHERE seq = 4").fetchone()[0]
    _tamper(db, ("UPDATE events SET body = ? WHERE match_id = 1 AND seq = 4",
                 (body.replace('"from": 2', '"from": 3'),)))
    rc, _, err = mj(capsys, db, "verify", "1")
    assert rc == 2 and "broken at event #4: does not match its hash" in err
    rc, _, err = mj(capsys, db, "replay", "1")
    assert rc == 2 and "changed outside mjtable: event #4" in err and "not replayed" in err
    rc, out, err = mj(capsys, db, "show", "1")
    assert rc == 2 and "WARNING" in out and err.count("WARNING") == 2
    rc, out, err = mj(capsys, db, "export", "1")
    assert rc == 2 and out == "" and "nothing exported" in err
    with MatchStore.open(db) as store:
        match = store.load(1)
        assert match.chain_break is not None and match.chain_break.seq == 4
        assert match.totals != before  # the change is real: that is why it must show


def test_a_deleted_correction_leaves_a_trace(tmp_path: Path, capsys) -> None:
    db = _match(tmp_path)
    _tamper(db, ("DELETE FROM events WHERE match_id = 1 AND seq = 3", ()))
    rc, _, err = mj(capsys, db, "verify", "1")
    assert rc == 2 and "event #3: missing" in err


def test_a_back_dated_insert_is_refused(tmp_path: Path, capsys) -> None:
    db = _match(tmp_path)
    con = sqlite3.connect(db)
    last = con.execute("SELECT body, hash FROM events WHERE seq = 4").fetchone()
    con.close()
    # even with a correctly computed hash, an event dated before the one ahead of it shows
    row = (5, "2020-01-01T00:00:00.000Z", "x", "hand_recorded", last[0], "")
    _tamper(db, ("INSERT INTO events (match_id, seq, at, who, type, body, note, hash) "
                 "VALUES (1, ?, ?, ?, ?, ?, ?, ?)", (*row, event_hash(last[1], row))))
    rc, _, err = mj(capsys, db, "verify", "1")
    assert rc == 2 and "event #5: dated 2020-01-01" in err and "back-dated" in err
    _tamper(db, ("INSERT INTO events (match_id, seq, at, who, type, body, note) "
                 "VALUES (1, 6, '2099-01-01T00:00:00.000Z', '', 'hand_recorded', ?, '')",
                 (last[0],)))
    with MatchStore.open(db) as store:
        assert store.verify(1).chain_break.seq == 5  # type: ignore[union-attr]


def test_a_rewritten_chain_no_longer_matches_the_signed_hands(tmp_path: Path,
                                                               capsys) -> None:
    db = _match(tmp_path)
    key = tmp_path / "referee.key"
    rc, out, _ = mj(capsys, db, "keygen", str(key))
    assert rc == 0 and key.stat().st_mode & 0o777 == 0o600
    assert mj(capsys, db, "keygen", str(key))[0] == 2  # never overwritten
    rc, out, _ = mj(capsys, db, "sign", "1", "4", "--key", str(key), "--referee", "Ref")
    assert rc == 0 and "hand #4 signed by Ref as #5" in out
    rc, out, _ = mj(capsys, db, "verify", "1", "--key", str(key))
    assert rc == 0 and "1 of 1 sign-offs checked" in out
    _tamper(db, ("UPDATE events SET who = 'mallory' WHERE match_id = 1 AND seq = 2", ()))
    _rechain(db)  # the chain is whole again ...
    with MatchStore.open(db) as store:
        assert store.load(1).chain_break is None
    rc, _, err = mj(capsys, db, "verify", "1")  # ... but the sign-off was on another log
    assert rc == 2 and "event #5: the sign-off of hand #4 by Ref was made on another log" in err
    # the forger also rewrites the head the sign-off names: only the key can tell
    con = sqlite3.connect(db)
    head = con.execute("SELECT hash FROM events WHERE seq = 4").fetchone()[0]
    sig = json.loads(con.execute("SELECT body FROM events WHERE seq = 5").fetchone()[0])
    con.close()
    sig["head"] = head
    _tamper(db, ("UPDATE events SET body = ? WHERE match_id = 1 AND seq = 5",
                 (json.dumps(sig, sort_keys=True),)))
    _rechain(db)
    rc, out, _ = mj(capsys, db, "verify", "1")
    assert rc == 0 and "0 of 1 sign-offs checked" in out and "no key given" in out
    rc, _, err = mj(capsys, db, "verify", "1", "--key", str(key))
    assert rc == 2 and "event #5: the sign-off of hand #4 by Ref does not match the key" in err


def test_a_signed_hand_changes_only_through_a_logged_amendment(tmp_path: Path,
                                                               capsys) -> None:
    db = _match(tmp_path)
    key = tmp_path / "k"
    new_key_file(key)
    with MatchStore.open(db) as store:
        store.sign(1, 2, read_key(key), "Ref")
        with pytest.raises(ValueError, match="did not finish a hand"):
            store.sign(1, 3, read_key(key), "Ref")
        with pytest.raises(ValueError, match="a sign-off is not amended"):
            store.amend(1, 5, None, who="x", why="y")
        store.amend(1, 2, {"type": "hand_recorded",
                           "record": json.loads(HAND.read_text(encoding="utf-8"))},
                    who="ref2", why="recheck")
    rc, out, _ = mj(capsys, db, "show", "1")
    assert rc == 0 and "hand #2 signed by Ref; amended after signing by #6" in out
    assert mj(capsys, db, "verify", "1", "--key", str(key))[0] == 0


def test_an_existing_log_is_chained_by_its_migration(tmp_path: Path, capsys) -> None:
    path = tmp_path / "v2.sqlite3"
    old_log(path, 2).close()
    rc, out, _ = mj(capsys, path, "verify", "1")
    assert rc == 0 and "1 events, the hash chain is intact" in out
    assert mj(capsys, path, "add-hand", "1", str(HAND))[0] == 0
    assert mj(capsys, path, "verify", "1")[0] == 0
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == schema.LATEST
    assert all(h for (h,) in db.execute("SELECT hash FROM events"))
    db.close()


def test_reading_commands_open_read_only(tmp_path: Path, capsys, monkeypatch) -> None:
    db = _match(tmp_path)
    before = db.read_bytes()
    for argv in (["list"], ["show", "1"], ["replay", "1"], ["export", "1"], ["verify", "1"]):
        rc, _, err = mj(capsys, db, *argv)
        assert rc == 0, err
    assert db.read_bytes() == before
    with MatchStore.open(db, readonly=True) as store, \
            pytest.raises(StoreError, match="opened read-only"):
        store.add_hand(1, json.loads(HAND.read_text(encoding="utf-8")))
    with pytest.raises(StoreError, match="no match database here"):
        MatchStore.open(tmp_path / "none.sqlite3", readonly=True)
