"""Items about how the hand is built: 一条龙, 碰碰和, 七对."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rulesets.shandong.facts import WinFacts
from scoring.rulesets.shandong.fans.base import Fan

# 一条龙: 123 456 789 of one suit, by the chows' lowest tiles
_LONG_STARTS = (frozenset({0, 3, 6}), frozenset({9, 12, 15}), frozenset({18, 21, 24}))


class YiTiaoLong(Fan):
    name = "一条龙"
    fan = 2
    note = "123 456 789 of one suit as chows (exposed allowed)"
    note_zh = "同一花色123、456、789三副顺子（可吃出）"

    def is_condition_met(self, facts: WinFacts, options: Mapping[str, Any]) -> bool:
        return any(map(set(facts.chows).issuperset, _LONG_STARTS))


class PengPengHe(Fan):
    name = "碰碰和"
    fan = 2
    note = "four pungs or kongs"
    note_zh = "四副刻子或杠"

    def is_condition_met(self, facts: WinFacts, options: Mapping[str, Any]) -> bool:
        return facts.is_all_pungs


class QiDui(Fan):
    name = "七对"
    fan = 2
    note = "seven pairs"
    note_zh = "七个对子"

    def is_condition_met(self, facts: WinFacts, options: Mapping[str, Any]) -> bool:
        return facts.reading.shape == "seven_pairs"
