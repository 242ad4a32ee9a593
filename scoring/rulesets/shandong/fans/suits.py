"""Items about which tiles the hand is made of: 混一色, 清一色, 将一色."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rulesets.shandong.facts import WinFacts
from scoring.rulesets.shandong.fans.base import Fan
from scoring.rulesets.shandong.shapes import KINDS_258


class HunYiSe(Fan):
    name = "混一色"
    fan = 2
    note = "one suit plus honors"
    note_zh = "一种花色加字牌"

    def is_condition_met(self, facts: WinFacts, options: Mapping[str, Any]) -> bool:
        suits = facts.suits
        return 3 in suits and len(suits) == 2


class QingYiSe(Fan):
    name = "清一色"
    fan = 5
    note = "one suit only"
    note_zh = "只有一种花色"

    def is_condition_met(self, facts: WinFacts, options: Mapping[str, Any]) -> bool:
        suits = facts.suits
        return len(suits) == 1 and 3 not in suits


class JiangYiSe(Fan):
    name = "将一色"
    fan = 5
    note = "every tile a 2, 5 or 8"
    note_zh = "每张牌都是2、5或8"

    def is_condition_met(self, facts: WinFacts, options: Mapping[str, Any]) -> bool:
        return KINDS_258.issuperset(facts.tiles)
