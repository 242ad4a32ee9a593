"""Every worked case under tests/cases runs through `mjtable score --json` and must match."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ui.cli import main

CASES_DIR = Path(__file__).resolve().parent.parent / "cases"
CASES = sorted(p for p in CASES_DIR.glob("*/*.json") if not p.name.endswith(".expect.json"))


def _expect(path: Path) -> dict:
    return json.loads(path.with_name(path.stem + ".expect.json").read_text(encoding="utf-8"))


def test_every_case_has_an_answer() -> None:
    for path in CASES:
        assert path.with_name(path.stem + ".expect.json").exists(), f"{path} has no .expect.json"


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_case(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expect = _expect(path)
    rc = main(["score", "--json", str(path)])
    out, err = capsys.readouterr()
    if "error" in expect:
        assert rc == 2, f"expected a refusal, got {out}"
        assert expect["error"] in err, err
        assert err.count("\n") == 1 and "Traceback" not in err
        return
    assert rc == 0, err
    got = json.loads(out)
    assert got["payments"] == expect["payments"], expect.get("why")
    assert sum(got["payments"]) == 0
    if "next_dealer" in expect:
        assert got["next_dealer"] == expect["next_dealer"]
    for key, value in expect.get("context", {}).items():
        assert got["context"].get(key) == value, key
