"""The eight patterns that may win in Shanghai; nothing else wins (no plain hand, no 七对).

Each pattern holds its value (``le``: fixed 勒子, or ``None`` for 底 + 花), its cap base in 勒子
and its rank (used only to break a tie between patterns worth the same share).
"""

from __future__ import annotations

from typing import ClassVar

from scoring.rulesets.shanghai.hand import WinFacts


class Pattern:
    name: ClassVar[str]
    le: ClassVar[int | None]  # value in 勒子; None: 底 + 花
    cap_base: ClassVar[int]  # the per-share cap before 开宝/荒番, in 勒子
    rank: ClassVar[int]
    gloss: ClassVar[str]
    gloss_zh: ClassVar[str]  # the same in Chinese

    @classmethod
    def is_condition_met(cls, hand: WinFacts) -> bool:
        raise NotImplementedError


class PengPengHu(Pattern):
    name, le, cap_base, rank = "碰碰胡", None, 1, 1
    gloss = "standard shape, all sets pungs/kongs"
    gloss_zh = "标准牌型，全部是刻子或杠"

    @classmethod
    def is_condition_met(cls, hand: WinFacts) -> bool:
        return hand.all_pungs


class HunYiSe(Pattern):
    name, le, cap_base, rank = "混一色", None, 1, 1
    gloss = "standard shape, one suit + honors"
    gloss_zh = "标准牌型，一种花色加字牌"

    @classmethod
    def is_condition_met(cls, hand: WinFacts) -> bool:
        return hand.has_shape and len(hand.suits) == 1 and hand.has_honors


class QingYiSe(Pattern):
    name, le, cap_base, rank = "清一色", 1, 1, 2
    gloss = "standard shape, one suit only"
    gloss_zh = "标准牌型，只有一种花色"

    @classmethod
    def is_condition_met(cls, hand: WinFacts) -> bool:
        return hand.has_shape and len(hand.suits) == 1 and not hand.has_honors


class HunPeng(Pattern):
    name, le, cap_base, rank = "混碰", 1, 1, 3
    gloss = "混一色 and 碰碰胡"
    gloss_zh = "混一色加碰碰胡"

    @classmethod
    def is_condition_met(cls, hand: WinFacts) -> bool:
        return HunYiSe.is_condition_met(hand) and hand.all_pungs


class QingPeng(Pattern):
    name, le, cap_base, rank = "清碰", 2, 2, 4
    gloss = "清一色 and 碰碰胡"
    gloss_zh = "清一色加碰碰胡"

    @classmethod
    def is_condition_met(cls, hand: WinFacts) -> bool:
        return QingYiSe.is_condition_met(hand) and hand.all_pungs


class FengYiSe(Pattern):
    name, le, cap_base, rank = "风一色", 2, 2, 5
    gloss = "all 14 tiles honors, any arrangement"
    gloss_zh = "14张全是字牌，不论组合"

    @classmethod
    def is_condition_met(cls, hand: WinFacts) -> bool:
        return not hand.by_flowers and hand.all_honors


class FengPeng(Pattern):
    name, le, cap_base, rank = "风碰", 4, 4, 7
    gloss = "all honors, all pungs/kongs + pair"
    gloss_zh = "全是字牌，全部刻子或杠加一对"

    @classmethod
    def is_condition_met(cls, hand: WinFacts) -> bool:
        return hand.all_honors and hand.all_pungs


class BaHuaQi(Pattern):
    name, le, cap_base, rank = "八花齐", 2, 2, 6
    gloss = "the eighth flower drawn: immediate self-draw win"
    gloss_zh = "摸到第八张花，立即自摸和牌"

    @classmethod
    def is_condition_met(cls, hand: WinFacts) -> bool:
        return hand.by_flowers


PATTERNS: tuple[type[Pattern], ...] = (
    FengPeng, BaHuaQi, FengYiSe, QingPeng, HunPeng, QingYiSe, HunYiSe, PengPengHu,
)
