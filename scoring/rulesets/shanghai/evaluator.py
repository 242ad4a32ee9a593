"""One share U for one winner: pattern, 底 + 花, floor, multipliers and the per-share cap.

This module owns the order of the steps and the choice between patterns (spec "Value of one
share"); the fans are simple checks. A hand that meets several patterns takes the one whose
share is largest, a tie going to the higher-ranked pattern (混碰 over 碰碰胡, 风碰 over 风一色).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.errors import InvalidHand
from scoring.rulesets.shanghai.fans import FLOORS, MULTIPLIERS, PATTERNS, MenQing, Pattern
from scoring.rulesets.shanghai.fans.floors import Floor
from scoring.rulesets.shanghai.fans.flowers import flower_items
from scoring.rulesets.shanghai.hand import HandFacts
from scoring.settlement import Item, explained_item

ALLOWED = "碰碰胡, 混一色, 清一色, 混碰, 清碰, 风一色, 风碰, 八花齐"


@dataclass
class ShareResult:
    """The working of one share, as a referee would write it."""

    pattern: str
    share: int
    items: list[Item]
    details: dict[str, Any] = field(default_factory=dict)


def qualifying_patterns(hand: HandFacts) -> list[Pattern]:
    return [p for p in PATTERNS if p.is_condition_met(hand)]


def refusal(hand: HandFacts) -> str:
    """Why a hand with no Shanghai pattern does not win."""
    if hand.has_shape:
        return f"a plain hand (平胡) does not win in Shanghai; only {ALLOWED}"
    if hand.is_seven_pairs:
        return f"七对 (seven pairs) does not win in Shanghai; only {ALLOWED}"
    return f"not a winning shape; only {ALLOWED} win in Shanghai"


def evaluate(hand: HandFacts, options: Mapping[str, Any]) -> ShareResult:
    """The highest share this win is worth; raises :class:`InvalidHand` when nothing qualifies."""
    candidates = qualifying_patterns(hand)
    if not candidates:
        raise InvalidHand(refusal(hand), f"seats[{hand.seat}]", reason="no_pattern")
    if len(candidates) == 1:
        return _share_for(candidates[0], hand, options, [])
    flowers: list[Item] = []  # the 花 of 底 + 花, worked out for the first pattern that needs it
    results = [_share_for(p, hand, options, flowers) for p in candidates]
    best = max(range(len(results)), key=lambda i: (results[i].share, candidates[i].rank))
    return results[best]


def _share_for(pattern: Pattern, hand: HandFacts, options: Mapping[str, Any],
               flowers: list[Item]) -> ShareResult:
    """One pattern's share; ``flowers`` holds the hand's 花 items once a pattern has read them
    (the caller passes one list for all its patterns). The items' notes are written when first
    read (:func:`scoring.settlement.explained_item`): only the chosen pattern's ever are."""
    le = int(options["le"])
    items: list[Item] = []
    if pattern.fan is None:
        base = int(options["base"])
        if not flowers:
            flowers += flower_items(hand)
        hua = sum([int(i.value) for i in flowers])
        value = base + hua
        parts = (Item("底", base, "point", "the base (option base)", "底分（选项 base）"),
                 *flowers)
        items.append(explained_item(pattern.name, value, "point", _base_note,
                                    (pattern, base, hua, value), parts))
    else:
        value = pattern.fan * le
        items.append(explained_item(pattern.name, pattern.fan, "le", _le_note,
                                    (pattern, value)))
    floors = [f for f in FLOORS if f.is_condition_met(hand, options)]
    for f in floors:
        raised = max(value, (f.fan or 0) * le)
        items.append(explained_item(f.name, f.fan, "le", _floor_note, (f, value, raised)))
        value = raised
    cap_base = pattern.cap_base
    cap_doublings = 0
    for m, item, is_menqing in _MULTIPLIER_PLAN:
        if m.is_condition_met(hand, options):
            value *= m.fan
            items.append(item)
            if is_menqing:
                cap_base = max(cap_base, 2)
            if m.raises_cap:
                cap_doublings += 1
    cap = cap_base * 2 ** cap_doublings * le
    share = min(value, cap)
    items.append(explained_item("勒子封顶", cap, "cap", _cap_note,
                                (cap_base, cap_doublings, cap, value, share)))
    details = {"value": value, "cap": cap,
               "floors": [f.name for f in floors]}
    return ShareResult(pattern.name, share, items, details)


#: each multiplier with its one item (the same every time: items are frozen) and whether it is
#: 门清, which raises the cap base
_MULTIPLIER_PLAN = tuple((m, m.item(), isinstance(m, MenQing)) for m in MULTIPLIERS)


def _base_note(pattern: Pattern, base: int, hua: int, value: int) -> tuple[str, str]:
    return (f"{pattern.note}; 底 {base} + 花 {hua} = {value}",
            f"{pattern.note_zh}；底 {base} + 花 {hua} = {value}")


def _le_note(pattern: Pattern, value: int) -> tuple[str, str]:
    return f"{pattern.note}; = {value} points", f"{pattern.note_zh}；= {value} 分"


def _floor_note(floor: Floor, value: int, raised: int) -> tuple[str, str]:
    return (f"{floor.note}; at least 1 勒子: {value} -> {raised}",
            f"{floor.note_zh}；至少1勒子：{value} -> {raised}")


def _cap_note(cap_base: int, cap_doublings: int, cap: int, value: int,
              share: int) -> tuple[str, str]:
    return (f"cap {cap_base} 勒 × 2^{cap_doublings} = {cap} points; "
            f"value {value} -> share {share}",
            f"封顶 {cap_base} 勒 × 2^{cap_doublings} = {cap} 分；"
            f"{value} -> 每份 {share}")
