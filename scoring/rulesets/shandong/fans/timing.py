"""Items about when and how the winning tile came: 杠上开花, 地和, 天和."""

from __future__ import annotations

from scoring.rulesets.shandong.facts import WinFacts
from scoring.rulesets.shandong.fans.base import Fan


class GangShangKaiHua(Fan):
    name = "杠上开花"
    fan = 2
    note = "self-drawn on a kong or flower replacement tile"

    def is_condition_met(self, facts: WinFacts) -> bool:
        return facts.win.is_self_draw and facts.win.replacement in ("kong", "flower")


class DiHe(Fan):
    name = "地和"
    fan = 5
    note = "non-dealer wins in its first turn before any claim"

    def is_condition_met(self, facts: WinFacts) -> bool:
        return not facts.is_dealer and facts.win.first_turn


class TianHe(Fan):
    name = "天和"
    fan = 6
    note = "the dealer's dealt hand is complete"

    def is_condition_met(self, facts: WinFacts) -> bool:
        return facts.is_dealer and facts.win.first_turn and facts.win.is_self_draw
