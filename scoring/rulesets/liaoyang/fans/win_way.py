"""How the winning tile came: 自摸, 海底捞, 抢杠, 杠开 (winner); 点炮, 反弹 (the one who fed it)."""

from __future__ import annotations

from scoring.rulesets.liaoyang.facts import LoserSeat, Reading
from scoring.rulesets.liaoyang.fans.base import LoserFan, WinnerFan
from scoring.rulesets.liaoyang.options import LiaoyangOptions


class ZiMo(WinnerFan):
    name = "自摸"
    note = "self-drawn winning tile"
    note_zh = "自摸和牌"

    def times(self, reading: Reading, options: LiaoyangOptions) -> int:
        return int(reading.hand.win.is_self_draw)


class HaiDiLao(WinnerFan):
    name = "海底捞"
    note = "self-drawn on one of the 分张 (last 4 drawable) tiles; a discard win gets none"
    note_zh = "自摸分张（最后4张可摸的牌）；点炮和不算"

    def times(self, reading: Reading, options: LiaoyangOptions) -> int:
        win = reading.hand.win
        return int(win.is_self_draw and win.last_tiles)


class QiangGang(WinnerFan):
    name = "抢杠"
    note = "won by robbing a 补杠"
    note_zh = "抢别人的补杠和牌"

    def times(self, reading: Reading, options: LiaoyangOptions) -> int:
        return int(reading.hand.win.by == "rob_kong")


class GangKai(WinnerFan):
    name = "杠开"
    fan = 2
    note = "won on a kong replacement tile (on top of 自摸)"
    note_zh = "杠后补牌和牌（另加自摸）"

    def times(self, reading: Reading, options: LiaoyangOptions) -> int:
        win = reading.hand.win
        return int(win.is_self_draw and win.replacement == "kong")


class DianPao(LoserFan):
    name = "点炮"
    note = "fed the winning tile (the robbed player on 抢杠)"
    note_zh = "打出和张（抢杠时为被抢者）"

    def times(self, loser: LoserSeat, options: LiaoyangOptions) -> int:
        return int(loser.dealt_in)


class FanTan(LoserFan):
    name = "反弹"
    fan = 2
    note = "dealt in with the discard right after its own kong (on top of 点炮)"
    note_zh = "自己杠后紧接着打出的牌点炮（另加点炮）"

    def times(self, loser: LoserSeat, options: LiaoyangOptions) -> int:
        return int(loser.dealt_in and loser.after_kong)
