"""Items about when and how the winning tile came: 杠上开花, 地和, 天和."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rulesets.shandong.facts import WinFacts
from scoring.rulesets.shandong.fans.base import Fan


class GangShangKaiHua(Fan):
    name = "杠上开花"
    fan = 2
    note = "self-drawn on a kong or flower replacement tile"
    note_zh = "杠或补花后从牌尾摸到的牌自摸和牌"

    def is_condition_met(self, facts: WinFacts, options: Mapping[str, Any]) -> bool:
        return facts.win.is_self_draw and facts.win.replacement in ("kong", "flower")


class DiHe(Fan):
    """"闲家在第一轮吃、碰、杠前和牌": any 杠 at the table ends it, the winner's own 暗杠 too
    unless option ``dihe_after_own_concealed_kong``."""

    name = "地和"
    fan = 5
    note = "non-dealer wins in its first turn before any 吃, 碰 or 杠"
    note_zh = "闲家在第一轮吃、碰、杠前和牌"

    def is_condition_met(self, facts: WinFacts, options: Mapping[str, Any]) -> bool:
        if facts.is_dealer or not facts.win.first_turn or facts.others_kong:
            return False
        return options["dihe_after_own_concealed_kong"] or not facts.own_kong


class TianHe(Fan):
    """"庄家起手和牌": the dealt 14 tiles complete as dealt; a win on the replacement after a
    暗杠 is 杠上开花, not 天和."""

    name = "天和"
    fan = 6
    note = "the dealer's dealt 14 tiles are complete as dealt"
    note_zh = "庄家起手的14张牌已经和牌"

    def is_condition_met(self, facts: WinFacts, options: Mapping[str, Any]) -> bool:
        return (facts.is_dealer and facts.win.first_turn and facts.win.is_self_draw
                and not facts.own_kong)
