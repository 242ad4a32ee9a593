"""The eight patterns that may win in Shanghai; nothing else wins (no plain hand, no 七对).

Each pattern is a :class:`scoring.rulesets.fan.Fan` whose value is in 勒子 (``fan``: fixed 勒子,
or ``None`` for 底 + 花); it also holds its cap base in 勒子 and its rank (used only to break a tie
between patterns worth the same share).
"""

from __future__ import annotations

from typing import Any, ClassVar

from scoring.rulesets.fan import Fan
from scoring.rulesets.shanghai.hand import HandFacts


class Pattern(Fan[HandFacts, Any]):
    fan: ClassVar[int | None]  # value in 勒子; None: 底 + 花
    unit: ClassVar[str] = "le"
    cap_base: ClassVar[int]  # the per-share cap before 开宝/荒番, in 勒子
    rank: ClassVar[int]

    def is_condition_met(self, hand: HandFacts, options: Any = None) -> bool:
        raise NotImplementedError


class PengPengHu(Pattern):
    name, fan, cap_base, rank = "碰碰胡", None, 1, 1
    note = "standard shape, all sets pungs/kongs"
    note_zh = "标准牌型，全部是刻子或杠"

    def is_condition_met(self, hand: HandFacts, options: Any = None) -> bool:
        return hand.all_pungs


class HunYiSe(Pattern):
    name, fan, cap_base, rank = "混一色", None, 1, 1
    note = "standard shape, one suit + honors"
    note_zh = "标准牌型，一种花色加字牌"

    def is_condition_met(self, hand: HandFacts, options: Any = None) -> bool:
        return hand.has_shape and len(hand.suits) == 1 and hand.has_honors


class QingYiSe(Pattern):
    name, fan, cap_base, rank = "清一色", 1, 1, 2
    note = "standard shape, one suit only"
    note_zh = "标准牌型，只有一种花色"

    def is_condition_met(self, hand: HandFacts, options: Any = None) -> bool:
        return hand.has_shape and len(hand.suits) == 1 and not hand.has_honors


class HunPeng(Pattern):
    name, fan, cap_base, rank = "混碰", 1, 1, 3
    note = "混一色 and 碰碰胡"
    note_zh = "混一色加碰碰胡"

    def is_condition_met(self, hand: HandFacts, options: Any = None) -> bool:
        return HUN_YI_SE.is_condition_met(hand) and hand.all_pungs


class QingPeng(Pattern):
    name, fan, cap_base, rank = "清碰", 2, 2, 4
    note = "清一色 and 碰碰胡"
    note_zh = "清一色加碰碰胡"

    def is_condition_met(self, hand: HandFacts, options: Any = None) -> bool:
        return QING_YI_SE.is_condition_met(hand) and hand.all_pungs


class FengYiSe(Pattern):
    name, fan, cap_base, rank = "风一色", 2, 2, 5
    note = "all 14 tiles honors, any arrangement"
    note_zh = "14张全是字牌，不论组合"

    def is_condition_met(self, hand: HandFacts, options: Any = None) -> bool:
        return not hand.by_flowers and hand.all_honors


class FengPeng(Pattern):
    name, fan, cap_base, rank = "风碰", 4, 4, 7
    note = "all honors, all pungs/kongs + pair"
    note_zh = "全是字牌，全部刻子或杠加一对"

    def is_condition_met(self, hand: HandFacts, options: Any = None) -> bool:
        return hand.all_honors and hand.all_pungs


class BaHuaQi(Pattern):
    name, fan, cap_base, rank = "八花齐", 2, 2, 6
    note = "the eighth flower drawn: immediate self-draw win"
    note_zh = "摸到第八张花，立即自摸和牌"

    def is_condition_met(self, hand: HandFacts, options: Any = None) -> bool:
        return hand.by_flowers


HUN_YI_SE, QING_YI_SE = HunYiSe(), QingYiSe()
PATTERNS: tuple[Pattern, ...] = (
    FengPeng(), BaHuaQi(), FengYiSe(), QingPeng(), HunPeng(), QING_YI_SE, HUN_YI_SE,
    PengPengHu(),
)
