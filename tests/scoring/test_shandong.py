"""Shandong unit tests: levels, wall break, escape penalty, 花, shapes and the referee's items."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring import score
from scoring.engine import waits
from scoring.errors import InvalidHand, RecordError
from scoring.record import load_record
from scoring.rulesets.shandong import RULESET, hua_points, level_for, level_number
from scoring.rulesets.shandong.shapes import winning_readings
from scoring.tiles import parse_tiles

CASES = Path(__file__).resolve().parent.parent / "cases" / "shandong"


def _case(name: str) -> dict:
    return json.loads((CASES / f"{name}.json").read_text(encoding="utf-8"))


def _hand(concealed: str, **win: object) -> dict:
    seats = [{"concealed": "", "melds": [], "flowers": []} for _ in range(4)]
    seats[0]["concealed"] = concealed
    w = {"seat": 0, "tile": concealed[-2:] if concealed[-1] in "mps" else concealed[-1],
         "by": "self_draw", **win}
    return {"ruleset": "shandong", "dealer": 1, "seats": seats, "outcome": "win", "wins": [w]}


@pytest.mark.parametrize(("points", "name", "number"), [
    (-500, "白板", 1), (0, "白板", 1), (100, "白板", 1), (199, "白板", 1), (200, "一万", 2),
    (499, "一万", 2), (500, "二万", 3), (1000, "三万", 4), (79_999, "八万", 9),
    (80_000, "九万", 10), (100_000, "东风", 11), (200_000, "西风", 12), (500_000, "南风", 13),
    (800_000, "北风", 14), (1_000_000, "中", 15), (2_000_000, "发", 16),
    (4_999_999, "发", 16), (5_000_000, "雀神", 17), (10**9, "雀神", 17),
])
def test_levels(points: int, name: str, number: int) -> None:
    assert level_for(points) == name
    assert level_number(points) == number


def test_level_rejects_non_integers() -> None:
    with pytest.raises(ValueError, match="whole number"):
        level_for(True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="whole number"):
        level_for(1.5)  # type: ignore[arg-type]


def test_wall_break_counts_dealer_as_one() -> None:
    wb = RULESET.wall_break(0, [(3, 4), (2, 2)], {})
    assert (wb.wall_seat, wb.stacks_skipped, wb.rollers) == (2, 11, (0, 0))
    wb = RULESET.wall_break(3, [(1, 1), (1, 2)], {})  # 2 -> dealer's 下家, seat 0; 2 + 3 stacks
    assert (wb.wall_seat, wb.stacks_skipped) == (0, 5)
    assert "stacks" in wb.explanation


def test_wall_break_past_the_wall_goes_to_the_shang_jia_wall() -> None:
    wb = RULESET.wall_break(0, [(6, 6), (6, 6)], {})  # wall of seat 3, 24 stacks > 18
    assert (wb.wall_seat, wb.stacks_skipped) == (2, 6)


@pytest.mark.parametrize("rolls", [[(3, 4)], [(3, 4), (0, 2)], [(3, 4), (7, 1)],
                                   [(1, 1), (2, 2), (3, 3)]])
def test_wall_break_rejects_bad_dice(rolls: list[tuple[int, int]]) -> None:
    with pytest.raises(RecordError):
        RULESET.wall_break(0, rolls, {})


def test_escape_split_and_each() -> None:
    split = RULESET.escape_penalty(1, 2, {})
    assert [(t.payer, t.payee, t.amount) for t in split] == [(1, 2, 24), (1, 3, 23), (1, 0, 23)]
    assert sum(t.amount for t in split) == (5 + 2) * 10
    each = RULESET.escape_penalty(3, 0, {"escape_split": "each", "base": 10})
    assert [(t.payer, t.payee, t.amount) for t in each] == [(3, 0, 100), (3, 1, 100), (3, 2, 100)]


def test_escape_rejects_bad_input() -> None:
    with pytest.raises(RecordError, match="unknown option"):
        RULESET.escape_penalty(0, 0, {"nope": 1})
    with pytest.raises(ValueError, match="flower points"):
        RULESET.escape_penalty(0, -1, {})
    with pytest.raises(ValueError, match="out of range"):
        RULESET.escape_penalty(4, 0, {})


def test_hua_points_of_a_seat() -> None:
    record = load_record(json.dumps(_case("33-hua-every-kong")))
    assert hua_points(record.seats[0]) == 11
    record = load_record(json.dumps(_case("34-hua-claimed-pungs")))
    assert hua_points(record.seats[0]) == 1  # PPP claimed; 666m claimed and CCC concealed: 0


def test_shapes_258_rule_and_qidui() -> None:
    assert winning_readings(parse_tiles("123m456p789s234s55m"), (), True)
    with pytest.raises(InvalidHand, match="258"):
        winning_readings(parse_tiles("123m456p789s234s99m"), (), True)
    with pytest.raises(InvalidHand, match="258"):
        winning_readings(parse_tiles("123m456p789s234sEE"), (), True)
    assert winning_readings(parse_tiles("11m33m77p99pEESSCC"), (), True)
    assert winning_readings(parse_tiles("1111m33m55m77m99mEE"), (), True)
    with pytest.raises(InvalidHand, match="qidui_four_of_a_kind"):
        winning_readings(parse_tiles("1111m33m55m77m99mEE"), (), False)


def test_is_winning_hand_and_waits_use_the_258_rule() -> None:
    def predicate(tiles: list[int]) -> bool:
        return RULESET.is_winning_hand(tiles, (), {}, {})

    # 123m 456p 789s 234s + a single 5m: waits only on 5m; 3m alone would be a non-258 pair
    assert waits(parse_tiles("123m456p789s234s5m"), predicate=predicate) == parse_tiles("5m")
    assert waits(parse_tiles("123m456p789s234s3m"), predicate=predicate) == []
    # the plain engine accepts the 3m pair, which Shandong narrows away
    assert waits(parse_tiles("123m456p789s234s3m")) == parse_tiles("3m")
    assert RULESET.is_winning_hand(parse_tiles("1111m33m55m77m99mEE"), (), {}, {})
    assert not RULESET.is_winning_hand(parse_tiles("1111m33m55m77m99mEE"), (),
                                       {"qidui_four_of_a_kind": False}, {})


def test_items_show_the_working() -> None:
    s = score(_case("30-huangzhuang-cap-minglou"))
    (win,) = s.wins
    items = {(i.name, i.unit): i.value for i in win.items}
    assert items == {("推倒和", "fan"): 1, ("底", "point"): 5, ("明楼", "x"): 2,
                     ("荒庄", "x"): 32}
    assert win.share == 320
    assert win.details["formula"] == "(5 + 0) × 1 × 2 × 32 = 320"
    assert [t.reason for t in s.transfers] == ["自摸 (each other player pays S)"] * 3
    assert [t.reason_zh for t in s.transfers] == ["自摸（其他每家付S）"] * 3


def test_big_hand_items_add_and_replace_tuidaohe() -> None:
    s = score(_case("13-tianhe-yitiaolong"))
    fans = [(i.name, i.value) for i in s.wins[0].items if i.unit == "fan"]
    assert fans == [("一条龙", 2), ("天和", 6)]
    assert s.wins[0].pattern == "一条龙+天和"


def test_chengbao_transfers_name_the_moved_payment() -> None:
    s = score(_case("24-chengbao-self-draw"))
    assert [(t.payer, t.payee, t.amount) for t in s.transfers] == [(0, 1, 6)] * 3
    assert sorted(t.reason for t in s.transfers) == [
        "承包: pays seat 2's 自摸 (each other player pays S)",
        "承包: pays seat 3's 自摸 (each other player pays S)",
        "承包: 自摸 (each other player pays S)"]
    assert s.wins[0].details["chengbao_payer"] == 0
    # the 承包 item counts the claims and names the liable seat (not a seat number as a value)
    (item,) = [i for i in s.wins[0].items if i.name == "承包"]
    assert (item.value, item.unit) == (3, "claims")
    assert "seat 0 is liable" in item.note and "0号座位承包" in item.note_zh


def test_minglou_win_refused_through_validate() -> None:
    record = load_record(json.dumps(_case("20-minglou-discard-win-refused")))
    with pytest.raises(InvalidHand, match="明楼") as info:
        RULESET.validate(record)
    assert info.value.reason == "minglou_not_self_draw"


def test_replacement_needs_its_source() -> None:
    with pytest.raises(RecordError, match="kong among"):
        score(_hand("123m456p789s234s55m", replacement="kong"))
    with pytest.raises(RecordError, match="flower among"):
        score(_hand("123m456p789s234s55m", replacement="flower"))


def test_option_type_is_checked() -> None:
    with pytest.raises(RecordError, match=r"options\.base"):
        score({**_hand("123m456p789s234s55m"), "options": {"base": "5"}})
    with pytest.raises(RecordError, match=r"options\.escape_split"):
        score({**_hand("123m456p789s234s55m"), "options": {"escape_split": "half"}})


def _seats(**hands: dict) -> list[dict]:
    seats = [{"concealed": "", "melds": [], "flowers": []} for _ in range(4)]
    for k, hand in hands.items():
        seats[int(k[1:])].update(hand)
    return seats


def test_first_turn_discard_must_come_before_the_winners_first_discard() -> None:
    # dealer 0: before seat 1's first discard only the dealer has discarded
    record = {"ruleset": "shandong", "dealer": 0, "outcome": "win",
              "seats": _seats(s1={"concealed": "234m567m234p678s55p"}),
              "wins": [{"seat": 1, "tile": "5p", "by": "discard", "from": 3,
                        "first_turn": True}]}
    with pytest.raises(RecordError, match="discards after seat 1") as info:
        score(record)
    assert info.value.field == "wins[0].first_turn"
    # seat 3 discards before seat 1 when seat 3 deals: 地和 stands
    record["dealer"] = 3
    s = score(record)
    assert [(i.name, i.value) for i in s.wins[0].items if i.unit == "fan"] == [("地和", 5)]
    assert s.payments == [0, 25, 0, -25]
    # and without first_turn the same discard is an ordinary win
    record["dealer"] = 0
    record["wins"][0]["first_turn"] = False
    assert score(record).payments == [0, 5, 0, -5]


def test_kong_replacement_from_a_fed_kong_must_name_the_feeder() -> None:
    hand = {"concealed": "123p456p789s22s",
            "melds": [{"type": "exposed_kong", "tiles": "6666m", "from": 0}]}
    record = {"ruleset": "shandong", "dealer": 1, "outcome": "win", "seats": _seats(s2=hand),
              "wins": [{"seat": 2, "tile": "2s", "by": "self_draw", "replacement": "kong"}]}
    with pytest.raises(RecordError, match="set kong_fed_by to 0"):
        score(record)
    # with a 暗杠 beside it the replacement may have come from that one: an ordinary 自摸
    record["seats"][2] = {"concealed": "123p456p22s", "flowers": [],
                          "melds": [*hand["melds"], {"type": "concealed_kong", "tiles": "9999s"}]}
    s = score(record)
    # 杠上开花 2; 花: suit 明杠 1 + suit 暗杠 2; S = (5 + 3) × 2 = 16 from each
    assert s.payments == [-16, -16, 48, -16]
    # naming the feeder makes it 杠爆: seat 0 pays 3S alone
    record["wins"][0]["kong_fed_by"] = 0
    assert score(record).payments == [-48, 0, 48, 0]


def test_flower_win_is_refused() -> None:
    record = {"ruleset": "shandong", "dealer": 0, "outcome": "win",
              "seats": _seats(s1={"concealed": "123m456p789s234s5m",
                                  "flowers": [f"f{i}" for i in range(1, 9)]}),
              "wins": [{"seat": 1, "tile": "f8", "by": "self_draw"}]}
    with pytest.raises(InvalidHand, match="no win by flowers") as info:
        score(record)
    assert info.value.reason == "flower_win"


def test_pengpenghe_needs_a_258_pair() -> None:
    melds = [{"type": "pung", "tiles": "777s", "from": 0},
             {"type": "pung", "tiles": "NNN", "from": 3}]
    record = {"ruleset": "shandong", "dealer": 0, "outcome": "win",
              "seats": _seats(s1={"concealed": "222m555p33s", "melds": melds}),
              "wins": [{"seat": 1, "tile": "5p", "by": "discard", "from": 0}]}
    with pytest.raises(InvalidHand, match="258") as info:
        score(record)
    assert info.value.reason == "pair_not_258"


def test_first_turn_with_a_concealed_kong_is_on_its_replacement() -> None:
    hand = {"concealed": "123m456m234s55s", "melds": [{"type": "concealed_kong",
                                                       "tiles": "7777p"}]}
    record = {"ruleset": "shandong", "dealer": 0, "outcome": "win", "seats": _seats(s1=hand),
              "wins": [{"seat": 1, "tile": "5s", "by": "self_draw", "first_turn": True}]}
    with pytest.raises(RecordError, match="replacement tile"):
        score(record)
    record["wins"][0] = {"seat": 1, "tile": "5s", "by": "discard", "from": 0,
                         "first_turn": True}
    with pytest.raises(RecordError, match="replacement tile"):
        score(record)
    record["wins"][0] = {"seat": 1, "tile": "5s", "by": "self_draw", "first_turn": True,
                         "replacement": "kong"}
    # no 地和 after the winner's own 暗杠: 杠上开花 2; 花: suit 暗杠 2; S = (5 + 2) × 2 = 14
    assert score(record).payments == [-14, 42, -14, -14]
    record["options"] = {"dihe_after_own_concealed_kong": True}
    # the house option: 地和 5 + 杠上开花 2; S = (5 + 2) × 7 = 49 from each
    assert score(record).payments == [-49, 147, -49, -49]
