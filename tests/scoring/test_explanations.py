"""The working a referee reads adds up, in both languages, on every worked case.

For each scored case: every item with parts is their sum; each ruleset's items rebuild the share
by its own formula (done here again from the items alone); every item and payment line has an
English and a Chinese note; the text report shows words and tiles, not Python structures.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from scoring import score
from scoring.record import load_record
from scoring.report import format_settlement
from scoring.settlement import Item, Settlement, WinScore

CASES_DIR = Path(__file__).resolve().parent.parent / "cases"
SCORED = sorted(
    p for p in CASES_DIR.glob("*/*.json")
    if not p.name.endswith(".expect.json")
    and "error" not in json.loads(p.with_name(p.stem + ".expect.json").read_text("utf-8")))
CJK = re.compile(r"[\u4e00-\u9fff]")
ASCII_WORD = re.compile(r"[A-Za-z]{2,}")


def _settle(path: Path) -> tuple[Settlement, dict]:
    text = path.read_text(encoding="utf-8")
    return score(load_record(text)), json.loads(text)


def _all_items(items: list[Item] | tuple[Item, ...]) -> list[Item]:
    out: list[Item] = []
    for i in items:
        out.append(i)
        out.extend(_all_items(i.parts))
    return out


def _check_shandong(w: WinScore) -> None:
    fan = sum(i.value for i in w.items if i.unit == "fan")
    hua = sum(i.value for i in w.items if i.unit == "hua")
    base = sum(i.value for i in w.items if i.name == "底")
    mult = math.prod(i.value for i in w.items if i.unit == "x")
    assert (fan, hua, mult) == (w.details["fan"], w.details["hua"], w.details["multiplier"])
    assert (base + hua) * fan * mult == w.share


def _check_shanghai(w: WinScore, le: int) -> None:
    pattern, *rest = w.items
    value = pattern.value * le if pattern.unit == "le" else pattern.value
    cap = None
    for i in rest:
        if i.unit == "le":  # a floor: at least that many 勒子
            value = max(value, i.value * le)
        elif i.unit == "x":
            value *= i.value
        elif i.unit == "cap":
            cap = i.value
    assert cap is not None and value == w.details["value"]
    assert min(value, cap) == w.share


def _check_liaoyang(s: Settlement) -> None:
    (w,) = s.wins
    assert sum(i.value for i in w.items if i.unit == "fan") == w.details["f_w"]
    bao_each = 0
    for lo in s.details["losers"]:
        k = lo["seat"]
        fans = [i for i in s.items if i.unit == "fan" and i.note.startswith(f"seat {k}:")]
        assert sum(i.value for i in fans) == lo["f_i"]
        (paid,) = [i for i in s.items if i.name == f"{k}号座位付"]
        bao_each = lo["pays"] - paid.value
        assert bao_each >= 0
    assert sum(lo["pays"] for lo in s.details["losers"]) == w.share == s.payments[w.seat]


@pytest.mark.parametrize("path", SCORED, ids=[f"{p.parent.name}/{p.stem}" for p in SCORED])
def test_items_add_up_to_the_totals_they_explain(path: Path) -> None:
    s, rec = _settle(path)
    for i in _all_items([*s.items, *(i for w in s.wins for i in w.items)]):
        if i.parts:
            assert sum(p.value for p in i.parts) == i.value, i
    if s.outcome == "draw":
        return
    if s.ruleset == "shandong":
        for w in s.wins:
            _check_shandong(w)
    elif s.ruleset == "shanghai":
        for w in s.wins:
            _check_shanghai(w, rec.get("options", {}).get("le", 10))
    else:
        _check_liaoyang(s)


@pytest.mark.parametrize("path", SCORED, ids=[f"{p.parent.name}/{p.stem}" for p in SCORED])
def test_every_line_of_the_working_in_chinese_and_english(path: Path) -> None:
    s, rec = _settle(path)
    for i in _all_items([*s.items, *(i for w in s.wins for i in w.items)]):
        assert ASCII_WORD.search(i.note) and CJK.search(i.note_zh), i
    for t in s.transfers:
        assert ASCII_WORD.search(t.reason) and CJK.search(t.reason_zh), t
    text = format_settlement(s, dealer=rec["dealer"])
    for line in text.splitlines():
        assert CJK.search(line) and ASCII_WORD.search(line), line
    assert not re.search(r"[\[{]'|\bTrue\b|\bFalse\b|\bNone\b", text), text
