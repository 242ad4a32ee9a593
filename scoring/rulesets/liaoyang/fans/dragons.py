"""大哥大: a pung or kong of 中, 发 or 白."""

from __future__ import annotations

from scoring.rulesets.liaoyang.facts import LoserSeat, Reading
from scoring.rulesets.liaoyang.fans.base import LoserFan, WinnerFan
from scoring.rulesets.liaoyang.options import LiaoyangOptions
from scoring.tiles import is_dragon


class DaGeDa(WinnerFan):
    name = "大哥大"
    note = "per dragon pung or kong, concealed ones and 混-made ones included"
    note_zh = "每副中发白刻子或杠，含暗刻和混凑成的"
    per_reading = True

    def times(self, reading: Reading, options: LiaoyangOptions) -> int:
        return reading.hand.laid_dragon_sets + len(
            [t for t in reading.concealed_pungs if is_dragon(t)])


class DaGeDaLoser(LoserFan):
    name = "大哥大"
    note = "per laid-down dragon pung or 明杠 (a dragon 暗杠 counts only as its kong)"
    note_zh = "每副摊下的中发白碰或明杠（箭牌暗杠只算杠）"

    from_melds = True

    def times(self, loser: LoserSeat, options: LiaoyangOptions) -> int:
        melds = loser.melds
        return len([m for m in melds if m.type in ("pung", "exposed_kong", "added_kong")
                    and is_dragon(m.kind)]) if melds else 0
