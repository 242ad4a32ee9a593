"""Items about how the hand is built: 一条龙, 碰碰和, 七对."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rulesets.shandong.facts import WinFacts
from scoring.rulesets.shandong.fans.base import Fan


class YiTiaoLong(Fan):
    name = "一条龙"
    fan = 2
    note = "123 456 789 of one suit as chows (exposed allowed)"
    note_zh = "同一花色123、456、789三副顺子（可吃出）"

    def is_condition_met(self, facts: WinFacts, options: Mapping[str, Any]) -> bool:
        starts = set(facts.chows)
        return any({s, s + 3, s + 6} <= starts for s in (0, 9, 18))


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
