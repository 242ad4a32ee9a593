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


SEEDS = CASES_DIR.parents[2] / "shared" / "seeds"  # the original texts, beside the checkout
QUOTED = [p for p in CASES if "text" in _expect(p)]


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the original texts (shared/seeds) are not here")
@pytest.mark.parametrize("path", QUOTED, ids=[f"{p.parent.name}/{p.stem}" for p in QUOTED])
def test_quoted_line_is_in_the_original(path: Path) -> None:
    """A case's ``text`` is ``FILE:LINE quote``: each part of the quote (``…`` marks a cut) is on
    that line of the original text."""
    where, quote = _expect(path)["text"].split(" ", 1)
    name, line = where.split(":")
    original = (SEEDS / name).read_text(encoding="utf-8").splitlines()[int(line) - 1]
    for part in quote.split(" (house option")[0].split("…"):
        for words in part.split():
            assert words in original, (words, original[:80])
