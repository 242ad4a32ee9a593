"""The ×2 multipliers: 门清, 开宝 and 荒番. 开宝 and 荒番 also double the per-share cap."""

from __future__ import annotations

from typing import Any, ClassVar

from scoring.rulesets.fan import Fan
from scoring.rulesets.shanghai.hand import HandFacts


class Multiplier(Fan[HandFacts, Any]):
    fan: ClassVar[int] = 2  # the factor
    unit: ClassVar[str] = "x"
    raises_cap: ClassVar[bool]  # doubles the cap too (开宝, 荒番)

    def is_condition_met(self, hand: HandFacts, options: Any) -> bool:
        raise NotImplementedError


class MenQing(Multiplier):
    name, raises_cap = "门清", False
    note = "no 吃, 碰, 明杠 or 补杠 (暗杠 allowed)"
    note_zh = "没有吃、碰、明杠或补杠（暗杠可以）"

    def is_condition_met(self, hand: HandFacts, options: Any) -> bool:
        return hand.menqing


def is_kaibao(dice: tuple[int, int] | None) -> bool:
    """开宝: the hand's two dice show a double, or 1 and 4."""
    return dice is not None and (dice[0] == dice[1] or sorted(dice) == [1, 4])


class KaiBao(Multiplier):
    name, raises_cap = "开宝", True
    note = "dice show a double or 1 and 4"
    note_zh = "骰子为对子或1和4"

    def is_condition_met(self, hand: HandFacts, options: Any) -> bool:
        return is_kaibao(hand.context.dice)


class HuangFan(Multiplier):
    name, raises_cap = "荒番", True
    note = "the 荒番 counter is above 0"
    note_zh = "荒番计数大于0"

    def is_condition_met(self, hand: HandFacts, options: Any) -> bool:
        return hand.context.huangfan > 0


MULTIPLIERS: tuple[Multiplier, ...] = (MenQing(), KaiBao(), HuangFan())
