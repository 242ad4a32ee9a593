"""Untrusted JSON is bounded before it is parsed: depth, size, number sizes, UTF-8 (issue 19)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scoring import load_record
from scoring.errors import RecordError
from scoring.jsonlimits import MAX_BYTES, MAX_DEPTH, load_json, nesting_depth
from scoring.rulesets.registry import check_options
from ui.cli import main

SAMPLE = Path(__file__).resolve().parents[2] / "ui" / "samples" / "hand.json"


@pytest.mark.parametrize(("source", "message"), [
    ("[" * 100_000, "nested deeper than 32 levels"),
    ('{"a":' * 100_000, "nested deeper than 32 levels"),
    (b"\xff", "not UTF-8 text (byte 0)"),
    ('{"n": ' + "1" * 5000 + "}", "a number of 5000 digits"),
    ('{"n": -' + "9" * 19 + "}", "a number of 19 digits"),
    ('{"n": 1e999}', "a number too large for a float"),
    ('{"n": NaN}', "NaN is not JSON"),
    ('{"n": -Infinity}', "-Infinity is not JSON"),
    (" " * (MAX_BYTES + 1), "too large"),
    ("{", "not valid JSON"),
])
def test_hostile_json_is_a_record_error(source: str | bytes, message: str) -> None:
    with pytest.raises(RecordError, match=re.escape(message)):
        load_record(source)


def test_depth_ignores_brackets_in_strings() -> None:
    text = json.dumps({"a": "[[[[" * 100, "b": [[1]]})
    assert nesting_depth(text) == 3
    assert load_json(text)["b"] == [[1]]
    assert nesting_depth("[" * MAX_DEPTH + "]" * MAX_DEPTH) == MAX_DEPTH
    assert load_json('"\\"[["') == '"[['


def test_a_real_record_still_loads() -> None:
    assert load_record(SAMPLE.read_bytes()).ruleset


@pytest.mark.parametrize("value", [10**40, 10**7, float("nan"), float("inf")])
def test_huge_option_values_are_refused(value: float) -> None:
    with pytest.raises(RecordError, match=r"options\.base"):
        check_options("shandong", {"base": value})
    data = json.loads(SAMPLE.read_text(encoding="utf-8"))
    data["options"] = {"base": value}
    with pytest.raises(RecordError, match=r"options\.base"):
        load_record(data)


def test_deep_record_is_one_line_in_the_cli(tmp_path: Path, capsys) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    binary = tmp_path / "bin.json"
    binary.write_bytes(b"\xff\xfe")
    db = tmp_path / "m.sqlite3"
    assert main(["match", "--db", str(db), "new", "--ruleset", "shandong", "--players", "a",
                 "b", "c", "d", "--dealer", "0"]) == 0
    assert main(["match", "--db", str(db), "add-hand", "1", str(SAMPLE.parent.parent.parent
                 / "tests" / "cases" / "shandong" / "01-tuidaohe-discard.json")]) == 0
    capsys.readouterr()
    for argv in (["score", str(deep)], ["score", str(binary)],
                 ["match", "--db", str(db), "add-hand", "1", str(deep)],
                 ["match", "--db", str(db), "event", "1", str(deep)],
                 ["match", "--db", str(db), "amend", "1", "2", "--event", str(deep), "--who",
                  "r", "--why", "x"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "internal error" not in err, err
        assert "nested deeper" in err or "not UTF-8" in err


def test_match_add_hand_text_is_bounded(tmp_path: Path) -> None:
    from scoring.match import MatchStore
    from scoring.match.errors import BadEvent

    with MatchStore.open(tmp_path / "m.sqlite3") as store:
        mid = store.new_match("shandong", {}, first_dealer=0)
        with pytest.raises(BadEvent, match="nested deeper"):
            store.add_hand(mid, "[" * 100_000)
