"""Whole matches typed in as a referee does it: `mjtable match new`, `add-hand` per hand (the
worked records of ``tests/cases``, some turned round the table to fit the dealer the match has
reached), a player leaving through `event`, a correction through `amend`, then `show`, `export`
and `replay`. Each hand's payments come from its case's ``.expect.json`` (rotated with the
record); the totals in each docstring are summed by hand, column by column.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from tests.match.test_cli import mj
from tests.match.test_matches import typed


class Referee:
    """One match driven only through the command line, as a referee would."""

    def __init__(self, capsys: pytest.CaptureFixture[str], tmp: Path, ruleset: str) -> None:
        self.capsys, self.tmp, self.ruleset = capsys, tmp, ruleset
        self.db = tmp / "referee.sqlite3"
        self.files = 0
        rc, out, err = self.run("new", "--ruleset", ruleset, "--players", "东家", "南家", "西家",
                                "北家", "--dealer", "0", "--who", "referee")
        assert rc == 0 and "match 1" in out, err

    def run(self, *argv: str) -> tuple[int, str, str]:
        return mj(self.capsys, self.db, *argv)

    def show(self, *extra: str) -> str:
        rc, out, err = self.run("show", "1", *extra)
        assert rc == 0, err
        return out

    def file(self, data: dict) -> str:
        self.files += 1
        path = self.tmp / f"{self.files:02d}.json"
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        return str(path)

    def hand(self, stem: str, pays: list, rotate: int = 0, deals_next: int | None = None) -> int:
        """``add-hand`` one worked case; checks its payments and returns its log number."""
        rc, out, err = self.run("add-hand", "1", self.file(typed(self.ruleset, stem, rotate)),
                                "--who", "referee")
        assert rc == 0, err
        shown = " ".join(f"{p:+g}" for p in pays)
        assert f"pays [{shown}]" in out, out
        if deals_next is not None:
            assert f"seat {deals_next} deals next" in out, out
        found = re.search(r"logged as #(\d+)", out)
        assert found is not None
        return int(found.group(1))

    def leaves(self, seat: int, replacement: str) -> str:
        event = {"type": "player_left", "seat": seat, "replacement": replacement}
        rc, out, err = self.run("event", "1", self.file(event), "--who", "referee")
        assert rc == 0, err
        return out

    def correct(self, seq: int, stem: str, rotate: int = 0) -> str:
        rc, out, err = self.run("amend", "1", str(seq), "--event",
                                self.file(typed(self.ruleset, stem, rotate)),
                                "--who", "referee 王", "--why", "entered from the wrong sheet")
        assert rc == 0, err
        return out

    def totals(self) -> list:
        """The running totals of the last CSV row; replay must agree with them."""
        rc, out, err = self.run("export", "1", "--format", "csv")
        assert rc == 0, err
        last = list(csv.DictReader(io.StringIO(out)))[-1]
        rc, replayed, err = self.run("replay", "1")
        assert rc == 0, err
        totals = [float(last[f"total_{k}"]) for k in range(4)]
        assert f"totals [{' '.join(f'{t:+g}' for t in totals)}]" in replayed, replayed
        return totals


def test_shandong_match_typed_in(tmp_path: Path, capsys) -> None:
    """Shandong, first dealer seat 0, base 5.

    ==  ==========================================  ======  ======  ======  ======  ===========
    #   case (rotation)                                 s0      s1      s2      s3  next, 荒庄
    ==  ==========================================  ======  ======  ======  ======  ===========
    1   01 推倒和 on seat 3's discard                     0      +8       0      -8  1, 0
    2   43 一炮多响 + 承包 (corrected to 09 below)        -5      -6      +6      +5  0, 0
    3   51 荒庄 (turned 1)                                0       0       0       0  1, 1
    4   54 一炮多响, 明楼, 承包, 荒庄 ×2                -140     -28     +28    +140  0, 0
    5   06 清一色 一条龙 self-draw                       -35     -35     -35    +105  3, 0
    6   31 荒庄 (turned 2)                                0       0       0       0  0, 1
    -   seat 2 leaves: (5 + 0) × 10 = 50, split 17/17/16 from seat 3 on
                                                        +17     +16     -50     +17  0, 0
    8   02 dealer self-draw (荒庄 reset: ×1)             +15      -5      -5      -5  0, 0
    9   24 承包 self-draw (turned 2)                      0       0     -18     +18  3, 0
    10  11 将一色 碰碰和 self-draw                       -35    +105     -35     -35  1, 0
    ==  ==========================================  ======  ======  ======  ======  ===========

    As entered: s0 = 0-5+0-140-35+0+17+15+0-35 = -183; s1 = 8-6-28-35+16-5+105 = 55;
    s2 = 6+28-35-50-5-18-35 = -109; s3 = -8+5+140+105+17-5+18-35 = 237 (sum 0).
    Hand 2 corrected to 09 (seat 0 wins seat 2's discard, 七对 4 of a kind: +20/-20; seat 0
    still deals next): s0 = -183+5+20 = -158, s1 = 55+6 = 61, s2 = -109-6-20 = -135,
    s3 = 237-5 = 232. Levels: 232 is 一万 (from 200), the others 白板.
    """
    ref = Referee(capsys, tmp_path, "shandong")
    ref.hand("01-tuidaohe-discard", [0, 8, 0, -8], deals_next=1)
    second = ref.hand("43-yipao-duoxiang-chengbao", [-5, -6, 6, 5], deals_next=0)
    ref.hand("51-draw-from-zero", [0, 0, 0, 0], 1, deals_next=1)
    ref.hand("54-yipao-duoxiang-minglou-chengbao-huangzhuang", [-140, -28, 28, 140],
             deals_next=0)
    ref.hand("06-qingyise-yitiaolong", [-35, -35, -35, 105], deals_next=3)
    ref.hand("31-draw", [0, 0, 0, 0], 2, deals_next=0)
    out = ref.show()
    assert "huangzhuang_streak 1" in out
    out = ref.leaves(2, "吴")
    out = ref.show()
    assert "huangzhuang_streak 0" in out
    assert "seat 2 (西家) left, 吴 sits in; pays [+17 +16 -50 +17]" in out
    ref.hand("02-tuidaohe-self-draw", [15, -5, -5, -5], deals_next=0)
    ref.hand("24-chengbao-self-draw", [0, 0, -18, 18], 2, deals_next=3)
    ref.hand("11-jiangyise-pengpenghe", [-35, 105, -35, -35], deals_next=1)
    assert ref.totals() == [-183, 55, -109, 237]
    out = ref.correct(second, "09-qidui-four-of-a-kind")
    assert "totals [-158 +61 -135 +232]; seat 1 deals next" in out
    assert ref.totals() == [-158, 61, -135, 232]
    out = ref.show()
    assert re.search(r"seat 3 北家 +\+232  一万", out) and out.count("白板") == 3
    assert f"event #{second} replaced by referee 王" in out and "吴" in out
    assert out.count("\n  hand ") == 9


def test_liaoyang_match_typed_in(tmp_path: Path, capsys) -> None:
    """Liaoyang, first dealer seat 0, base 1, 底 100; the dealer keeps the deal after its own
    win or a draw, otherwise its 下家 deals.

    ==  ==========================================  ======  ======  ======  ======  ====
    #   case (rotation)                                 s0      s1      s2      s3  next
    ==  ==========================================  ======  ======  ======  ======  ====
    1   02 dealer self-draw                             +40      -8     -16     -16  0
    2   14 反弹: dealer wins seat 1's discard           +80     -64      -8      -8  0
    3   20 黄庄 (turned 2)                                0       0       0       0  0
    4   01 open hand on seat 3's discard (-> 05)         -8     +20      -4      -8  1
    5   10 杠开 (turned 1)                              +196    -100     -64     -32  2
    6   17 宝 ×3 (turned 2)                              -32     -32     -34     +98  3
    -   seat 1 leaves: one 底 (100) to each other      +100    -300    +100    +100  3
    8   40 wind indicator, 鸡枪                          -64    -100    +264    -100  0
    9   24 七对 with 混, 摇                              +600    -200    -200    -200  0
    10  13 抢杠                                          -32     -16     +64     -16  1
    ==  ==========================================  ======  ======  ======  ======  ====

    As entered: s0 = 40+80-8+196-32+100-64+600-32 = 880; s1 = -8-64+20-100-32-300-100-200-16
    = -800; s2 = -16-8-4-64-34+100+264-200+64 = 102; s3 = -16-8-8-32+98+100-100-200-16 = -182
    (sum 0). Hand 4 corrected to 05 (seat 1 wins the dealer's discard, 混 as 幺九:
    -16 +24 -4 -4): s0 = 880+8-16 = 872, s1 = -800-20+24 = -796, s2 = 102+4-4 = 102,
    s3 = -182+8-4 = -178.
    """
    ref = Referee(capsys, tmp_path, "liaoyang")
    ref.hand("02-dealer-self-draw", [40, -8, -16, -16], deals_next=0)
    ref.hand("14-fantan", [80, -64, -8, -8], deals_next=0)
    ref.hand("20-draw", [0, 0, 0, 0], 2, deals_next=0)
    fourth = ref.hand("01-open-discard-basic", [-8, 20, -4, -8], deals_next=1)
    ref.hand("10-gangkai", [196, -100, -64, -32], 1, deals_next=2)
    ref.hand("17-bao-three", [-32, -32, -34, 98], 2, deals_next=3)
    ref.leaves(1, "郑")
    ref.hand("40-wind-indicator-jiqiang", [-64, -100, 264, -100], deals_next=0)
    ref.hand("24-qidui-with-hun", [600, -200, -200, -200], deals_next=0)
    ref.hand("13-qianggang", [-32, -16, 64, -16], deals_next=1)
    assert ref.totals() == [880, -800, 102, -182]
    out = ref.correct(fourth, "05-hun-as-yaojiu")
    assert "totals [+872 -796 +102 -178]" in out
    assert ref.totals() == [872, -796, 102, -178]


def test_shanghai_match_typed_in(tmp_path: Path, capsys) -> None:
    """Shanghai, first dealer seat 0, 底 2, 勒子 10; the winner deals, a draw keeps the dealer,
    一炮多响 gives the deal to the 下家 of the winner nearest the discarder; 荒番 +1 per draw,
    -1 per win, 0 when a player leaves; an escape pays one 底, 25% of it to the room.

    ==  ==========================================  ======  ======  ======  ======  =========
    #   case (rotation)                                 s0      s1      s2      s3  next, 荒番
    ==  ==========================================  ======  ======  ======  ======  =========
    1   01 碰碰胡 on seat 2's discard                     0      +5      -5       0  1, 0
    2   03 清一色 on the dealer's discard (-> 16)        -10       0       0     +10  3, 0
    3   07 风碰                                          -40       0       0     +40  3, 0
    4   56 和局                                            0       0       0       0  3, 1
    5   21 风碰, 荒番 ×2, 5 勒子 cap                     -50       0       0     +50  3, 0
    6   33 一炮多响 into two 承包 parties                 +8      +6     -14       0  1, 0
    7   36 和局 (turned 3)                                0       0       0       0  1, 1
    -   seat 3 leaves: 底 2, 0.5 to each, 0.5 room      +0.5    +0.5    +0.5      -2  1, 0
    9   25 承包 partner discards (turned 1; 荒番 reset)     0      -6      +6       0  2, 0
    10  11 杠开 floor (turned 1)                         -10     +30     -10     -10  1, 0
    ==  ==========================================  ======  ======  ======  ======  =========

    As entered: s0 = 0-10-40-50+8+0.5+0-10 = -101.5; s1 = 5+6+0.5-6+30 = 35.5;
    s2 = -5-14+0.5+6-10 = -22.5; s3 = 10+40+50-2-10 = 88; sum -0.5, the room's 0.5.
    Hand 2 corrected to 16 (the same win with dice 3+3, 开宝 ×2: -20/+20): s0 = -111.5,
    s3 = 98.
    """
    ref = Referee(capsys, tmp_path, "shanghai")
    ref.hand("01-pengpenghu-discard", [0, 5, -5, 0], deals_next=1)
    second = ref.hand("03-qingyise-discard", [-10, 0, 0, 10], deals_next=3)
    ref.hand("07-fengpeng-discard", [-40, 0, 0, 40], deals_next=3)
    ref.hand("56-draw-from-zero-huangfan", [0, 0, 0, 0], deals_next=3)
    ref.hand("21-fengpeng-huangfan-hand-cap", [-50, 0, 0, 50], deals_next=3)
    ref.hand("33-chengbao-both-parties-win-not-ready", [8, 6, -14, 0], deals_next=1)
    ref.hand("36-draw-huangfan-up", [0, 0, 0, 0], 3, deals_next=1)
    out = ref.show()
    assert "huangfan 1" in out
    ref.leaves(3, "冯")
    out = ref.show()
    assert "huangfan 0" in out and "room's fee): 0.5" in out
    ref.hand("25-chengbao-partner-discards", [0, -6, 6, 0], 1, deals_next=2)
    ref.hand("11-gangkai-floor", [-10, 30, -10, -10], 1, deals_next=1)
    assert ref.totals() == [-101.5, 35.5, -22.5, 88]
    ref.correct(second, "16-kaibao-double")
    assert ref.totals() == [-111.5, 35.5, -22.5, 98]
    rc, out, err = ref.run("export", "1")
    data = json.loads(out)
    assert rc == 0, err
    assert sum(data["totals"]) + 0.5 == 0


def test_every_csv_row_balances_with_the_room_fee(tmp_path: Path, capsys) -> None:
    """The Shanghai escape row pays [+0.5 +0.5 +0.5 -2]: the CSV names the 0.5 that went to the
    room, so a reader can check that each row adds up to nothing."""
    ref = Referee(capsys, tmp_path, "shanghai")
    ref.hand("01-pengpenghu-discard", [0, 5, -5, 0])
    ref.leaves(3, "冯")
    rc, out, err = ref.run("export", "1", "--format", "csv")
    assert rc == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [float(r["room_fee"]) for r in rows] == [0, 0.5]
    for r in rows:
        assert sum(float(r[f"pay_{k}"]) for k in range(4)) + float(r["room_fee"]) == 0
