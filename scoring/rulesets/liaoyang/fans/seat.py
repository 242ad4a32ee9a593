"""庄家: the dealer adds 1 番 whether it wins or loses."""

from __future__ import annotations

from scoring.rulesets.liaoyang.facts import LoserSeat, Reading
from scoring.rulesets.liaoyang.fans.base import LoserFan, WinnerFan
from scoring.rulesets.liaoyang.options import LiaoyangOptions


class ZhuangJia(WinnerFan):
    name = "庄家"
    note = "the winner is the dealer"
    note_zh = "赢家是庄家"

    def times(self, reading: Reading, options: LiaoyangOptions) -> int:
        return int(reading.hand.is_dealer)


class ZhuangJiaLoser(LoserFan):
    name = "庄家"
    note = "this loser is the dealer"
    note_zh = "此输家是庄家"

    def times(self, loser: LoserSeat, options: LiaoyangOptions) -> int:
        return int(loser.is_dealer)
