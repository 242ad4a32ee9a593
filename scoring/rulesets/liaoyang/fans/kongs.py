"""明杠 and 暗杠: each kong laid down (a dragon kong also counts 大哥大, except a loser's 暗杠)."""

from __future__ import annotations

from scoring.record import Meld
from scoring.rulesets.liaoyang.facts import LoserSeat, Reading
from scoring.rulesets.liaoyang.fans.base import LoserFan, WinnerFan
from scoring.rulesets.liaoyang.options import LiaoyangOptions


# (lists, not generators: a hand shows few melds, most none, and a generator costs more to
# start than such a count)
def _concealed(melds: tuple[Meld, ...]) -> int:
    return len([m for m in melds if m.type == "concealed_kong"]) if melds else 0


def _exposed(melds: tuple[Meld, ...]) -> int:
    return len([m for m in melds if m.type in ("exposed_kong", "added_kong")]) if melds else 0


class AnGang(WinnerFan):
    name = "暗杠"
    note = "per concealed kong"
    note_zh = "每个暗杠"

    def times(self, reading: Reading, options: LiaoyangOptions) -> int:
        return _concealed(reading.hand.melds)


class MingGang(WinnerFan):
    name = "明杠"
    note = "per exposed or added kong"
    note_zh = "每个明杠或补杠"

    def times(self, reading: Reading, options: LiaoyangOptions) -> int:
        return _exposed(reading.hand.melds)


class AnGangLoser(LoserFan):
    name = "暗杠"
    note = "per laid-down concealed kong (a dragon one counts 1 in total)"
    note_zh = "每个摊下的暗杠（箭牌暗杠共计1）"

    from_melds = True

    def times(self, loser: LoserSeat, options: LiaoyangOptions) -> int:
        return _concealed(loser.melds)


class MingGangLoser(LoserFan):
    name = "明杠"
    note = "per laid-down exposed or added kong"
    note_zh = "每个摊下的明杠或补杠"

    from_melds = True

    def times(self, loser: LoserSeat, options: LiaoyangOptions) -> int:
        return _exposed(loser.melds)
