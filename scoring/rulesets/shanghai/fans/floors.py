"""杠开 and 大吊车: a hand worth less than 1 勒子 is raised to 1 勒子 (V = max(V, 1 勒子))."""

from __future__ import annotations

from typing import Any, ClassVar

from scoring.rulesets.fan import Fan
from scoring.rulesets.shanghai.hand import HandFacts


class Floor(Fan[HandFacts, Any]):
    fan: ClassVar[int] = 1  # the value is raised to this many 勒子
    unit: ClassVar[str] = "le"

    def is_condition_met(self, hand: HandFacts, options: Any) -> bool:
        raise NotImplementedError


class GangKai(Floor):
    name = "杠开"
    note = "self-drawn on a kong or flower replacement"
    note_zh = "杠或补花后的补牌自摸"

    def is_condition_met(self, hand: HandFacts, options: Any) -> bool:
        return hand.win.is_self_draw and hand.win.replacement is not None


class DaDiaoChe(Floor):
    name = "大吊车"
    note = "four melds laid down, won on a single-tile wait"
    note_zh = "四副副露摊下，单吊和牌"

    def is_condition_met(self, hand: HandFacts, options: Any) -> bool:
        # with four melds the two standing tiles are the pair: the wait was a single tile
        return (not hand.by_flowers and len(hand.concealed) == 2
                and hand.laid_down(bool(options["dadiaoche_counts_concealed_kong"])) == 4)


FLOORS: tuple[Floor, ...] = (GangKai(), DaDiaoChe())
