"""杠开 and 大吊车: a hand worth less than 1 勒子 is raised to 1 勒子 (V = max(V, 1 勒子))."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from scoring.rulesets.shanghai.hand import WinFacts


class Floor:
    name: ClassVar[str]
    le: ClassVar[int] = 1
    gloss: ClassVar[str]
    gloss_zh: ClassVar[str]  # the same in Chinese

    @classmethod
    def is_condition_met(cls, hand: WinFacts, options: Mapping[str, Any]) -> bool:
        raise NotImplementedError


class GangKai(Floor):
    name = "杠开"
    gloss = "self-drawn on a kong or flower replacement"
    gloss_zh = "杠或补花后的补牌自摸"

    @classmethod
    def is_condition_met(cls, hand: WinFacts, options: Mapping[str, Any]) -> bool:
        return hand.win.is_self_draw and hand.win.replacement is not None


class DaDiaoChe(Floor):
    name = "大吊车"
    gloss = "four melds laid down, won on a single-tile wait"
    gloss_zh = "四副副露摊下，单吊和牌"

    @classmethod
    def is_condition_met(cls, hand: WinFacts, options: Mapping[str, Any]) -> bool:
        # with four melds the two standing tiles are the pair: the wait was a single tile
        return (not hand.by_flowers and len(hand.concealed) == 2
                and hand.laid_down(bool(options["dadiaoche_counts_concealed_kong"])) == 4)


FLOORS: tuple[type[Floor], ...] = (GangKai, DaDiaoChe)
