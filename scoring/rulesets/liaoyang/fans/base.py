"""A Liaoyang 番 item: the shared :class:`scoring.rulesets.fan.Fan`, counting occurrences.

Winner items look at one :class:`Reading`; those with ``per_reading = False`` depend only on the
physical hand and the way of winning, so the evaluator computes them once, not per 混 assignment.
Loser items look at one :class:`LoserSeat`.
"""

from __future__ import annotations

from typing import ClassVar

from scoring.rulesets.fan import Fan
from scoring.rulesets.liaoyang.facts import LoserSeat, Reading
from scoring.rulesets.liaoyang.options import LiaoyangOptions


class WinnerFan(Fan[Reading, LiaoyangOptions]):
    fan: ClassVar[int] = 1  # 番 per occurrence
    per_reading: ClassVar[bool] = False  # depends on what the 混 stand for

    def times(self, reading: Reading, options: LiaoyangOptions) -> int:
        raise NotImplementedError


class LoserFan(Fan[LoserSeat, LiaoyangOptions]):
    fan: ClassVar[int] = 1
    #: counts only the loser's laid-down melds: 0 for a loser that shows none (most of them),
    #: so the evaluator does not ask
    from_melds: ClassVar[bool] = False

    def times(self, loser: LoserSeat, options: LiaoyangOptions) -> int:
        raise NotImplementedError
