"""Items about how the hand is built: 飘和, 手把一, 七对 (+2 each)."""

from __future__ import annotations

from scoring.rulesets.liaoyang.facts import Reading
from scoring.rulesets.liaoyang.fans.base import WinnerFan
from scoring.rulesets.liaoyang.options import LiaoyangOptions


class PiaoHe(WinnerFan):
    name = "飘和"
    fan = 2
    note = "every set a pung or kong"
    note_zh = "每副都是刻子或杠"
    per_reading = True

    def times(self, reading: Reading, options: LiaoyangOptions) -> int:
        return int(reading.is_all_pungs)


class ShouBaYi(WinnerFan):
    name = "手把一"
    fan = 2
    note = "all four sets laid down (暗杠 included), won on the single pair tile; stacks with 飘和"
    note_zh = "四副全部摊下（含暗杠），单吊将牌和牌；与飘和叠加"
    per_reading = True

    def times(self, reading: Reading, options: LiaoyangOptions) -> int:
        return int(not reading.is_seven_pairs and len(reading.hand.melds) == 4)


class QiDui(WinnerFan):
    name = "七对"
    fan = 2
    note = "seven pairs (4 identical count as 2 pairs)"
    note_zh = "七个对子（四张相同算两对）"
    per_reading = True

    def times(self, reading: Reading, options: LiaoyangOptions) -> int:
        return int(reading.is_seven_pairs)
