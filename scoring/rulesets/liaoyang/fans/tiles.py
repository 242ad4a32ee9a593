"""Items about which physical tiles are held: 四归一, 素胡, 鸡枪 (faces, not what a 混 stands
for), and 2或8掌 (the pair as read)."""

from __future__ import annotations

from itertools import compress
from operator import eq

from scoring.rulesets.liaoyang.facts import LoserSeat, Reading
from scoring.rulesets.liaoyang.fans.base import LoserFan, WinnerFan
from scoring.rulesets.liaoyang.options import LiaoyangOptions


class SiGuiYi(WinnerFan):
    name = "四归一"
    note = "per tile kind held 4 times, natural tiles, not as a kong (a 七对 double pair too)"
    note_zh = "每种持有四张（本牌）且未开杠的牌（七对的两对相同也算）"

    def times(self, reading: Reading, options: LiaoyangOptions) -> int:
        hand = reading.hand
        hun = hand.hun  # a 混 in the hand is not natural; one in a meld is its own face
        natural = ([t for t in hand.concealed if t != hun] if hun in hand.concealed
                   else list(hand.concealed))
        kongs: set[int] = set()
        for m in hand.melds:
            if m.is_kong:
                kongs.add(m.kind)
            else:
                natural += m.tiles
        natural.sort()
        # sorted, a kind held 4 times starts a run where a tile equals the one 3 places on
        held_four = set(compress(natural, map(eq, natural, natural[3:])))
        return sum(1 for t in held_four if t not in kongs and natural.count(t) == 4)


class SuHu(WinnerFan):
    name = "素胡"
    note = "the winning hand holds no 混 tile"
    note_zh = "和牌中没有混"

    def times(self, reading: Reading, options: LiaoyangOptions) -> int:
        return int(reading.hand.hun_count == 0)


class ErBaZhang(WinnerFan):
    name = "2或8掌"
    note = "the pair is a 2 or an 8 (not for 七对)"
    note_zh = "将牌是2或8（七对不算）"
    per_reading = True

    def times(self, reading: Reading, options: LiaoyangOptions) -> int:
        pair = reading.pair
        if pair is None:
            return 0
        t = pair.tiles[0]
        return int(t < 27 and t % 9 in (1, 7))  # a suit tile of rank 2 or 8


class JiQiang(WinnerFan):
    name = "鸡枪"
    note = "per 鸡枪 tile held (physical faces, a claimed winning tile included)"
    note_zh = "每张鸡枪牌（按牌面，含吃进的和张）"

    def times(self, reading: Reading, options: LiaoyangOptions) -> int:
        return sum(map(reading.hand.jiqiang.__contains__, reading.hand.physical))


class JiQiangLoser(LoserFan):
    name = "鸡枪"
    note = "per 鸡枪 tile in this loser's laid-down melds"
    note_zh = "此输家摊下的副露中每张鸡枪牌"

    from_melds = True

    def times(self, loser: LoserSeat, options: LiaoyangOptions) -> int:
        melds = loser.melds
        return len([t for m in melds for t in m.tiles if t in loser.jiqiang]) if melds else 0
