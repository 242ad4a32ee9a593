"""The ×2 multipliers: 门清, 开宝 and 荒番. 开宝 and 荒番 also double the per-share cap."""

from __future__ import annotations

from typing import ClassVar

from scoring.record import Context
from scoring.rulesets.shanghai.hand import WinFacts


class Multiplier:
    name: ClassVar[str]
    factor: ClassVar[int] = 2
    raises_cap: ClassVar[bool]  # doubles the cap too (开宝, 荒番)
    gloss: ClassVar[str]
    gloss_zh: ClassVar[str]  # the same in Chinese

    @classmethod
    def is_condition_met(cls, hand: WinFacts, context: Context) -> bool:
        raise NotImplementedError


class MenQing(Multiplier):
    name, raises_cap = "门清", False
    gloss = "no 吃, 碰, 明杠 or 补杠 (暗杠 allowed)"
    gloss_zh = "没有吃、碰、明杠或补杠（暗杠可以）"

    @classmethod
    def is_condition_met(cls, hand: WinFacts, context: Context) -> bool:
        return hand.menqing


def is_kaibao(dice: tuple[int, int] | None) -> bool:
    """开宝: the hand's two dice show a double, or 1 and 4."""
    return dice is not None and (dice[0] == dice[1] or sorted(dice) == [1, 4])


class KaiBao(Multiplier):
    name, raises_cap = "开宝", True
    gloss = "dice show a double or 1 and 4"
    gloss_zh = "骰子为对子或1和4"

    @classmethod
    def is_condition_met(cls, hand: WinFacts, context: Context) -> bool:
        return is_kaibao(context.dice)


class HuangFan(Multiplier):
    name, raises_cap = "荒番", True
    gloss = "the 荒番 counter is above 0"
    gloss_zh = "荒番计数大于0"

    @classmethod
    def is_condition_met(cls, hand: WinFacts, context: Context) -> bool:
        return context.huangfan > 0


MULTIPLIERS: tuple[type[Multiplier], ...] = (MenQing, KaiBao, HuangFan)
