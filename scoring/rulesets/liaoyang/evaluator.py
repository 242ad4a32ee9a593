"""The one place that owns the search over 混 assignments, the requirements and the 番 sums.

The hand engine lists every reading of the concealed tiles with every assignment of the 混
(``decompositions(..., wildcards=...)``); this module keeps the valid reading with the most winner
番. Items that do not depend on the assignment (physical faces, the way of winning, the melds) are
computed once; per reading only the few that do (``per_reading``) are summed, and the requirements
are checked only for a reading that would beat the best so far.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import mul

from scoring.engine import decompositions
from scoring.errors import InvalidHand
from scoring.frozen import fast_init
from scoring.memo import memo_table
from scoring.rulesets.liaoyang.facts import LoserSeat, Reading, WinnerHand
from scoring.rulesets.liaoyang.fans import LOSER_FANS, WINNER_FANS, LoserFan, WinnerFan
from scoring.rulesets.liaoyang.options import LiaoyangOptions
from scoring.rulesets.liaoyang.requirements import NOT_A_SHAPE, failures, first_failure
from scoring.settlement import Item, explained_item

_new = object.__new__
_PER_READING = tuple(f for f in WINNER_FANS if f.per_reading)
_PER_READING_FAN = tuple(f.fan for f in _PER_READING)


def _once(f: WinnerFan | LoserFan) -> Item:
    """The item of ``f`` counted once, built at import (items are frozen: settlements share
    them)."""
    return Item(f.name, f.fan, "fan", f.note, f.note_zh)


# read once, not per hand: each item, whether it depends on the reading, its 番, its item once
_WINNER_PLAN = tuple((f, f.per_reading, f.fan, _once(f)) for f in WINNER_FANS)
# a loser's item also as the settlement's details list it ("明杠 1")
_LOSER_PLAN = tuple((f, _once(f), f"{f.name} {f.fan}") for f in LOSER_FANS)
#: the loser items that can count for a loser showing no melds (most losers)
_MELDLESS_LOSER_PLAN = tuple(plan for plan in _LOSER_PLAN if not plan[0].from_melds)


@fast_init
@dataclass(frozen=True)
class WinnerEvaluation:
    reading: Reading
    items: tuple[Item, ...]
    total: int  # f_w
    readings_tried: int


def _item(name: str, fan: int, times: int, note: str, note_zh: str) -> Item:
    if times > 1:
        return explained_item(name, fan * times, "fan", _times_note, (fan, times, note, note_zh))
    return Item(name, fan, "fan", note, note_zh)


def _times_note(fan: int, times: int, note: str, note_zh: str) -> tuple[str, str]:
    return f"{times} × {fan}: {note}", f"{times} × {fan}：{note_zh}"


def readings(hand: WinnerHand) -> list[Reading]:
    """Every reading of the concealed tiles, one per shape and 混 assignment (the engine
    memoises them: the camera and the dashboard re-score the same hand)."""
    wild = frozenset() if hand.hun is None else frozenset({hand.hun})
    return [Reading(hand, d) for d in decompositions(hand.concealed, wild)]


def evaluate_winner(hand: WinnerHand, options: LiaoyangOptions) -> WinnerEvaluation:
    """The valid reading with the most winner 番; raises :class:`InvalidHand` naming the first
    requirement failed by the reading that comes closest when none is valid."""
    all_readings = readings(hand)
    if not all_readings:
        raise InvalidHand(NOT_A_SHAPE, f"seats[{hand.seat}]", reason="shape")
    best: Reading | None = None
    best_score = -1
    best_times: list[int] = []
    for r in all_readings:
        times = [f.times(r, options) for f in _PER_READING]
        score = sum(map(mul, _PER_READING_FAN, times))
        if score > best_score and first_failure(r) is None:
            best, best_score, best_times = r, score, times
    if best is None:
        raise InvalidHand(_closest_failure(all_readings), f"seats[{hand.seat}]",
                          reason="requirement")
    items: list[Item] = []
    total = 0
    per_reading = iter(best_times)  # the best reading's counts, in _PER_READING's order
    for f, per, fan, once in _WINNER_PLAN:
        n = next(per_reading) if per else f.times(best, options)
        if n:
            items.append(once if n == 1 else _item(f.name, fan, n, f.note, f.note_zh))
            total += fan * n
    evaluation = _new(WinnerEvaluation)  # (WinnerEvaluation(...) without __init__'s frame)
    evaluation.__dict__.update(reading=best, items=tuple(items), total=total,
                               readings_tried=len(all_readings))
    return evaluation


def _closest_failure(all_readings: list[Reading]) -> str:
    """The first requirement failed by the reading that fails the fewest (the first such
    reading); stops at a reading failing just one, as no reading fails none."""
    closest: list[str] | None = None
    for r in all_readings:
        failed = failures(r)
        if closest is None or len(failed) < len(closest):
            closest = failed
            if len(failed) == 1:
                break
    assert closest, "called only when every reading fails a requirement"
    return closest[0]


def evaluate_loser(loser: LoserSeat, options: LiaoyangOptions) -> tuple[tuple[Item, ...], int]:
    """This loser's items and f_i (remembered: most losers show few melds or none, so the same
    seats come back hand after hand). The memo is keyed on the loser's fields as plain tuples,
    which hash and compare in C, not on the dataclasses themselves."""
    items, total, _ = evaluate_loser_listed(loser, options)
    return items, total


def evaluate_loser_listed(loser: LoserSeat, options: LiaoyangOptions
                          ) -> tuple[tuple[Item, ...], int, tuple[str, ...]]:
    """:func:`evaluate_loser`, and each item as the settlement's details list it ("明杠 1"),
    written with the items. A first evaluation reads this loser itself (the key holds all its
    fields, so any loser with that key scores alike)."""
    melds = tuple([(m.type, m.tiles, m.from_seat, m.text)
                   for m in loser.melds]) if loser.melds else ()
    key = (loser.seat, melds, loser.is_dealer, loser.dealt_in, loser.after_kong,
           loser.all_losers_closed, loser.jiqiang, options)
    found = _LOSERS.get(key)
    if found is None:
        found = _evaluate_loser(loser, options)
        if len(_LOSERS) >= _LOSERS_MAX:
            _LOSERS.clear()
        _LOSERS[key] = found
    return found


_LOSERS = memo_table()
_LOSERS_MAX = 1024


def _evaluate_loser(loser: LoserSeat, options: LiaoyangOptions
                    ) -> tuple[tuple[Item, ...], int, tuple[str, ...]]:
    items: list[Item] = []
    listed: list[str] = []
    total = 0
    for f, once, once_listed in _LOSER_PLAN if loser.melds else _MELDLESS_LOSER_PLAN:
        n = f.times(loser, options)
        if n == 1:
            items.append(once)
            listed.append(once_listed)
            total += f.fan
        elif n:
            item = _item(f.name, f.fan, n, f.note, f.note_zh)
            items.append(item)
            listed.append(f"{item.name} {item.value}")
            total += f.fan * n
    return tuple(items), total, tuple(listed)
