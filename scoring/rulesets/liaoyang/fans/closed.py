"""闭门: a hand that never made a 吃, 碰, 明杠 or 补杠 (a 暗杠 keeps it closed)."""

from __future__ import annotations

from scoring.rulesets.liaoyang.facts import LoserSeat, Reading
from scoring.rulesets.liaoyang.fans.base import LoserFan, WinnerFan
from scoring.rulesets.liaoyang.options import LiaoyangOptions


class YingJiaBiMen(WinnerFan):
    name = "赢家闭门"
    note = "the winner never opened (七对 too unless qidui_counts_bimen is false)"
    note_zh = "赢家没有开门（七对也算，除非 qidui_counts_bimen 为假）"
    per_reading = True  # a 七对 reading may be excluded by the option

    def times(self, reading: Reading, options: LiaoyangOptions) -> int:
        if reading.hand.is_open:
            return 0
        return int(options.qidui_counts_bimen or not reading.is_seven_pairs)


class ShuJiaBiMen(LoserFan):
    name = "输家闭门"
    note = "this loser never opened; nobody gets it when all three losers are closed"
    note_zh = "此输家没有开门；三家都闭门时谁也不算"

    def times(self, loser: LoserSeat, options: LiaoyangOptions) -> int:
        return int(loser.is_closed and not loser.all_losers_closed)
