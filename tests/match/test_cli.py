"""`mjtable match ...` end to end on a temporary database: one line on errors, never a trace."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.match.conftest import CASES
from ui.cli import main


def mj(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> tuple[int, str, str]:
    rc = main(["match", "--db", str(db), *argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_new_add_hand_show_replay_export_amend(tmp_path: Path, capsys) -> None:
    db = tmp_path / "m.sqlite3"
    rc, out, _ = mj(capsys, db, "new", "--ruleset", "shandong", "--players", "甲", "乙", "丙",
                    "丁", "--dealer", "0", "--title", "final", "--who", "ref")
    assert rc == 0 and "match 1 (shandong)" in out and "seat 0 (甲) deals first" in out
    rc, out, _ = mj(capsys, db, "list")
    assert rc == 0 and "final" in out and "甲 / 乙 / 丙 / 丁" in out
    hand = CASES / "shandong" / "01-tuidaohe-discard.json"
    rc, out, _ = mj(capsys, db, "add-hand", "1", str(hand), "--who", "ref")
    assert rc == 0 and "pays [+0 +8 +0 -8]" in out and "seat 1 deals next" in out
    rc, out, err = mj(capsys, db, "add-hand", "1", str(hand))
    assert rc == 2 and "seat 1 deals this hand, the record says 0" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    rc, out, _ = mj(capsys, db, "show", "1", "--log")
    assert rc == 0 and "+8" in out and "#2" in out and "hand_recorded" in out
    rc, out, _ = mj(capsys, db, "replay", "1")
    assert rc == 0 and "totals [+0 +8 +0 -8]" in out
    rc, out, _ = mj(capsys, db, "export", "1", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rc == 0 and rows[0]["pay_1"] == "8" and rows[0]["total_3"] == "-8"
    target = tmp_path / "m.json"
    rc, _, _ = mj(capsys, db, "export", "1", "-o", str(target))
    data = json.loads(target.read_text(encoding="utf-8"))
    assert rc == 0 and data["totals"] == [0, 8, 0, -8] and len(data["events"]) == 2
    rc, out, _ = mj(capsys, db, "amend", "1", "2", "--strike", "--who", "王", "--why", "void")
    assert rc == 0 and "event #2 struck" in out and "totals [+0 +0 +0 +0]" in out
    rc, out, _ = mj(capsys, db, "amend", "1", "2", "--event", str(hand), "--who", "王",
                    "--why", "reinstated")
    assert rc == 0 and "totals [+0 +8 +0 -8]" in out
    rc, out, _ = mj(capsys, db, "show", "1")
    assert out.count("correction #") == 2


def test_live_event_and_refusal(tmp_path: Path, capsys) -> None:
    db = tmp_path / "m.sqlite3"
    mj(capsys, db, "new", "--ruleset", "liaoyang", "--players", "a", "b", "c", "d",
       "--dealer", "2")
    event = tmp_path / "e.json"
    event.write_text('{"type": "dice", "seat": 2, "dice": [1, 2]}', encoding="utf-8")
    rc, out, _ = mj(capsys, db, "event", "1", str(event))
    assert rc == 0 and "#2 logged" in out
    event.write_text('{"type": "dice", "seat": 1, "dice": [1, 1]}', encoding="utf-8")
    rc, _, err = mj(capsys, db, "event", "1", str(event))
    assert rc == 2 and "makes seat 0 the second roller, not seat 1" in err


def test_errors_are_one_line(tmp_path: Path, capsys) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a database at all")
    rc, _, err = mj(capsys, junk, "list")
    assert rc == 2 and "not a mjtable match database" in err and "Traceback" not in err
    assert junk.read_bytes() == b"not a database at all"
    rc, _, err = mj(capsys, tmp_path / "absent.sqlite3", "show", "1")
    assert rc == 2 and "no match database" in err
    db = tmp_path / "m.sqlite3"
    mj(capsys, db, "new", "--ruleset", "shanghai", "--players", "a", "b", "c", "d")
    rc, _, err = mj(capsys, db, "show", "9")
    assert rc == 2 and "no match 9" in err
    rc, _, err = mj(capsys, db, "new", "--ruleset", "shanghai", "--players", "a", "b", "c",
                    "d", "--option", "nonsense=1")
    assert rc == 2 and "unknown option" in err


def test_a_file_that_is_not_an_object_is_one_line(tmp_path: Path, capsys) -> None:
    db = tmp_path / "m.sqlite3"
    mj(capsys, db, "new", "--ruleset", "shandong", "--players", "a", "b", "c", "d",
       "--dealer", "0")
    mj(capsys, db, "add-hand", "1", str(CASES / "shandong" / "02-tuidaohe-self-draw.json"))
    listing = tmp_path / "list.json"
    listing.write_text("[1, 2]", encoding="utf-8")
    for argv in (("add-hand", "1", str(listing)), ("event", "1", str(listing)),
                 ("amend", "1", "2", "--event", str(listing), "--who", "w", "--why", "y")):
        rc, _, err = mj(capsys, db, *argv)
        assert rc == 2 and "internal error" not in err and err.count("\n") == 1, err
        assert "object" in err, err
    rc, _, err = mj(capsys, db, "add-hand", "1", str(tmp_path / "absent.json"))
    assert rc == 2 and "absent.json" in err


def test_amend_also_corrects_the_hands_a_correction_moves(tmp_path: Path, capsys) -> None:
    from tests.match.test_matches import rotated

    db = tmp_path / "m.sqlite3"
    mj(capsys, db, "new", "--ruleset", "shandong", "--players", "a", "b", "c", "d",
       "--dealer", "0")
    mj(capsys, db, "add-hand", "1", str(CASES / "shandong" / "01-tuidaohe-discard.json"))
    mj(capsys, db, "add-hand", "1", str(CASES / "shandong" / "43-yipao-duoxiang-chengbao.json"))
    moved = tmp_path / "moved.json"
    moved.write_text(json.dumps(rotated(json.loads(
        (CASES / "shandong" / "43-yipao-duoxiang-chengbao.json").read_text("utf-8")), -1)))
    first = str(CASES / "shandong" / "02-tuidaohe-self-draw.json")
    rc, _, err = mj(capsys, db, "amend", "1", "2", "--event", first, "--who", "w", "--why", "y")
    assert rc == 2 and "seat 0 deals this hand, the record says 1" in err
    rc, out, err = mj(capsys, db, "amend", "1", "2", "--event", first, "--also", "3",
                      str(moved), "--who", "w", "--why", "hand 1 was the dealer's self-draw")
    assert rc == 0 and "#2 corrected, #3 corrected" in out, err
    assert "totals [+9 +1 +0 -10]; seat 3 deals next" in out  # the discarder
    rc, out, err = mj(capsys, db, "amend", "1", "2", "--strike", "--also", "3", "strike",
                      "--who", "w", "--why", "not this table")
    assert rc == 0 and "totals [+0 +0 +0 +0]" in out, err
    rc, _, err = mj(capsys, db, "amend", "1", "2", "--strike", "--also", "x", "strike",
                    "--who", "w", "--why", "y")
    assert rc == 2 and "--also wants an event number" in err
