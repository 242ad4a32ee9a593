"""A second, independent reading of the Shandong spec, checked against the ruleset.

The oracle has its own decomposition, 番 table, 花 table and payer rules, written straight from
shared/rules/shandong.md; it shares nothing with scoring/rulesets/shandong but the record parser.
Random hands come from the property-test generator; every scored worked case is checked too.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from scoring import score
from scoring.record import HandRecord, Win, load_record
from tests.scoring.test_shandong_properties import SCORED_CASES, records

HUA = {  # meld type -> (suit 花, honor 花); a claimed suit pung and a chow are worth 0
    "chow": (0, 0), "pung": (0, 1), "exposed_kong": (1, 2), "added_kong": (1, 2),
    "concealed_kong": (2, 3),
}


def _groups(counts: list[int], need_pair: bool) -> Iterator[list[tuple[str, int]]]:
    i = next((k for k in range(34) if counts[k]), None)
    if i is None:
        if not need_pair:
            yield []
        return
    options: list[tuple[str, list[int]]] = [("pung", [i] * 3), ("pair", [i] * 2)]
    if i < 27 and i % 9 <= 6:
        options.append(("chow", [i, i + 1, i + 2]))
    for kind, used in options:
        if kind == "pair" and not need_pair:
            continue
        if any(counts[t] < used.count(t) for t in set(used)):
            continue
        for t in used:
            counts[t] -= 1
        for rest in _groups(counts, need_pair and kind != "pair"):
            yield [(kind, i), *rest]
        for t in used:
            counts[t] += 1


def _is_258(t: int) -> bool:
    return t < 27 and t % 9 + 1 in (2, 5, 8)


def _fan(record: HandRecord, win: Win) -> int:
    seat = record.seats[win.seat]
    tiles = [*seat.concealed, *(t for m in seat.melds for t in m.tiles)]
    suits = {t // 9 if t < 27 else 3 for t in tiles}
    counts = [0] * 34
    for t in seat.concealed:
        counts[t] += 1
    shapes: list[list[tuple[str, int]] | None] = [
        g for g in _groups(counts, True) if _is_258(next(i for k, i in g if k == "pair"))]
    four_ok = record.options.get("qidui_four_of_a_kind", True)
    if (not seat.melds and all(c in (0, 2, 4) for c in counts)
            and (four_ok or 4 not in counts)):
        shapes.append(None)  # 七对
    own_kong = any(len(m.tiles) == 4 for m in seat.melds)
    other_kong = any(len(m.tiles) == 4 for k, s in enumerate(record.seats) if k != win.seat
                     for m in s.melds)
    dihe = (win.first_turn and win.seat != record.dealer and not other_kong
            and (not own_kong or record.options.get("dihe_after_own_concealed_kong", False)))
    best = 0
    for g in shapes:
        fan = 0
        fan += 2 if 3 in suits and len(suits) == 2 else 0  # 混一色
        if g is not None:
            runs = {i for k, i in g if k == "chow"} | {min(m.tiles) for m in seat.melds
                                                      if m.type == "chow"}
            fan += 2 if any({s, s + 3, s + 6} <= runs for s in (0, 9, 18)) else 0  # 一条龙
            chowless = all(k != "chow" for k, _ in g) and all(m.type != "chow"
                                                               for m in seat.melds)
            fan += 2 if chowless else 0  # 碰碰和
        fan += 2 if win.by == "self_draw" and win.replacement else 0  # 杠上开花
        fan += 2 if g is None else 0  # 七对
        fan += 5 if dihe else 0  # 地和: before any 吃, 碰 or 杠 at the table
        fan += 5 if len(suits) == 1 and 3 not in suits else 0  # 清一色
        fan += 5 if all(_is_258(t) for t in tiles) else 0  # 将一色
        fan += 6 if win.first_turn and win.seat == record.dealer and not own_kong else 0  # 天和
        best = max(best, fan or 1)  # 推倒和
    return best


def oracle(record: HandRecord) -> list[int]:
    pay = [0, 0, 0, 0]
    for win in record.wins:
        b, seat = win.seat, record.seats[win.seat]
        hua = len(seat.flowers) + sum(HUA[m.type][min(m.tiles) >= 27] for m in seat.melds)
        mult = (2 if seat.declared == "minglou" else 1) * 2 ** min(
            record.context.huangzhuang_streak, 5)
        s = (record.options.get("base", 5) + hua) * _fan(record, win) * mult
        if win.by == "discard":
            assert win.from_seat is not None
            owed = [(win.from_seat, 2 * s if record.seats[win.from_seat].declared == "minglou"
                     else s)]
        elif win.by == "rob_kong":
            assert win.from_seat is not None
            owed = [(win.from_seat, 3 * s)]
        elif win.kong_fed_by is not None:
            owed = [(win.kong_fed_by, 3 * s)]
        else:
            owed = [((b + i) % 4, s) for i in (1, 2, 3)]
        for a in range(4):
            if a != b and sum(m.from_seat == a and m.type != "concealed_kong"
                              for m in seat.melds) >= 3:
                owed = [(a, amount) for _, amount in owed]
        for payer, amount in owed:
            pay[payer] -= amount
            pay[b] += amount
    return pay


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_ruleset_agrees_with_the_oracle(record: dict[str, Any]) -> None:
    assert score(record).payments == oracle(load_record(json.dumps(record)))


@pytest.mark.parametrize("path", SCORED_CASES, ids=[p.stem for p in SCORED_CASES])
def test_worked_cases_agree_with_the_oracle(path: Path) -> None:
    expect = json.loads(path.with_name(path.stem + ".expect.json").read_text(encoding="utf-8"))
    assert oracle(load_record(path.read_text(encoding="utf-8"))) == expect["payments"]
