"""Shanghai ruleset pieces the worked cases do not reach: 花 table, 漏胡, wall, escape, options."""

from __future__ import annotations

from typing import Any

import pytest

import scoring
from scoring.errors import InvalidHand, RecordError
from scoring.record import Meld, load_record
from scoring.rulesets.shanghai import RULESET, LouHu, escape_room_fee, may_win_on_discard
from scoring.rulesets.shanghai.fans import flower_items
from scoring.rulesets.shanghai.hand import HandFacts
from scoring.settlement import Settlement
from scoring.tiles import parse_tiles


def _record(winner: dict[str, Any], win: dict[str, Any], seat: int = 0,
            **extra: Any) -> dict[str, Any]:
    seats: list[dict[str, Any]] = [{"concealed": ""} for _ in range(4)]
    seats[seat] = winner
    return {"ruleset": "shanghai", "dealer": 0, "seats": seats, "outcome": "win",
            "wins": [{"seat": seat, **win}], **extra}


def _hua(settlement: Settlement) -> int:
    """The 花 parts under the pattern line (碰碰胡 / 混一色 = 底 + 花)."""
    return sum(int(p.value) for i in settlement.wins[0].items for p in i.parts
               if p.unit == "hua")


def test_flower_points_exposed_and_added_kongs() -> None:
    # 万 明杠 1 + 筒 暗杠 2 + 东 补杠 2 + 中 碰 2 + two flowers 2 = 9
    hand = {"concealed": "FF", "flowers": ["f1", "f8"], "melds": [
        {"type": "exposed_kong", "tiles": "1111m", "from": 1},
        {"type": "concealed_kong", "tiles": "2222p"},
        {"type": "added_kong", "tiles": "EEEE", "from": 2},
        {"type": "pung", "tiles": "CCC", "from": 3}]}
    s = scoring.score(_record(hand, {"tile": "F", "by": "discard", "from": 2}))
    assert _hua(s) == 9
    assert s.wins[0].pattern == "碰碰胡"
    # 底 2 + 9 = 11, cap 1 勒 = 10 (大吊车 floor does not lower it)
    assert s.wins[0].share == 10


def _facts_hua(winner: dict[str, Any], win: dict[str, Any]) -> int:
    record = load_record(_record(winner, win))
    return sum(int(i.value) for i in flower_items(HandFacts.of(record, record.wins[0])))


def test_flower_points_concealed_kongs_and_triplets() -> None:
    # 中 暗杠 4 + 发 明杠 3 + 西 暗杠 3 + 条 补杠 1 = 11; the NN pair earns nothing
    hand = {"concealed": "NN", "melds": [
        {"type": "concealed_kong", "tiles": "CCCC"},
        {"type": "exposed_kong", "tiles": "FFFF", "from": 1},
        {"type": "concealed_kong", "tiles": "WWWW"},
        {"type": "added_kong", "tiles": "3333s", "from": 2}]}
    assert _facts_hua(hand, {"tile": "N", "by": "self_draw"}) == 11
    s = scoring.score(_record(hand, {"tile": "N", "by": "self_draw"}))
    assert s.wins[0].pattern == "混碰"  # 条 + honors, all pungs: 1 勒 = 10
    assert s.wins[0].share == 10
    # concealed 东 and 白 triplets: 1 + 2; the 万 triplet and the 条 kong by 明杠 1
    hand = {"concealed": "EEEPPP111m44p", "melds": [
        {"type": "exposed_kong", "tiles": "9999s", "from": 2}]}
    assert _facts_hua(hand, {"tile": "4p", "by": "self_draw"}) == 4
    s = scoring.score(_record(hand, {"tile": "4p", "by": "self_draw"}))
    assert s.wins[0].pattern == "碰碰胡" and s.wins[0].share == 6  # 底 2 + 4


def test_plain_and_seven_pairs_reasons() -> None:
    plain = {"concealed": "123m456m789p234s55s"}
    with pytest.raises(InvalidHand, match="plain hand"):
        scoring.score(_record(plain, {"tile": "5s", "by": "self_draw"}))
    pairs = {"concealed": "1133557799m1122p"}
    with pytest.raises(InvalidHand, match="七对"):
        scoring.score(_record(pairs, {"tile": "2p", "by": "self_draw"}))
    # seven pairs of one suit that also reads as sets + pair is a 清一色, not a 七对
    s = scoring.score(_record({"concealed": "11223344556677m"}, {"tile": "7m", "by": "self_draw"}))
    assert s.wins[0].pattern == "清一色"
    # seven pairs all honors: 风一色 needs no shape
    s = scoring.score(_record({"concealed": "EESSWWNNCCFFPP"}, {"tile": "P", "by": "self_draw"}))
    assert s.wins[0].pattern == "风一色"


def test_is_winning_hand() -> None:
    def ok(text: str, melds: tuple[Meld, ...] = ()) -> bool:
        return RULESET.is_winning_hand(parse_tiles(text), melds, {}, {})

    assert ok("111222555777s99s")
    assert ok("EEESSWNNNCCFFP")
    assert ok("123456789pEEESS")
    assert not ok("123m456m789p234s55s")
    assert not ok("1122m3344p5566s77s")
    assert not ok("123m456m")  # not 14 tiles
    chow = Meld("chow", tuple(parse_tiles("123m")), 3)
    assert not ok("555p777s99sEEE", (chow,))  # chow + mixed suits: plain
    pung = Meld("pung", tuple(parse_tiles("222m")), 3)
    assert ok("555p777s99sEEE", (pung,))


def test_louhu_one_tile_only() -> None:
    assert may_win_on_discard("5p", [])
    assert not may_win_on_discard("5p", ["5p"])
    assert may_win_on_discard("8p", ["5p"])  # 漏胡 is for that one tile only
    assert not may_win_on_discard(parse_tiles("E")[0], ["东"])
    state = LouHu()
    state.passed_win("3s")
    assert not state.may_win_on("3s") and state.may_win_on("6s")
    state.moved()  # drew, claimed or made a kong
    assert state.may_win_on("3s")


def test_wall_break_counts_players_then_stacks() -> None:
    # the original's example: 2 + 5 = 7 counts to the roller's 对家, 7 stacks skipped
    wb = RULESET.wall_break(1, [(2, 5)], {})
    assert (wb.rollers, wb.wall_seat, wb.stacks_skipped) == ((1,), 3, 7)
    assert RULESET.wall_break(0, [(1, 1)], {}).wall_seat == 1  # 2: the 下家
    assert RULESET.wall_break(2, [(6, 6)], {}).wall_seat == 1  # 12: the 上家
    assert RULESET.wall_break(3, [(2, 3)], {}).wall_seat == 3  # 5: the roller
    with pytest.raises(RecordError):
        RULESET.wall_break(0, [(1, 2), (3, 4)], {})


def test_escape_penalty_three_quarters_shared() -> None:
    transfers = RULESET.escape_penalty(2, 0, {})
    assert [(t.payer, t.payee, t.amount) for t in transfers] == [(2, 0, 0.5), (2, 1, 0.5),
                                                                 (2, 3, 0.5)]
    assert escape_room_fee(RULESET.resolve_options({})) == 0.5
    big = RULESET.escape_penalty(0, 0, {"base": 4})
    assert all(t.amount == 1 and isinstance(t.amount, int) for t in big)
    pay = Settlement.payments_from(transfers)
    assert pay == [0.5, 0.5, -1.5, 0.5]


def test_options_checked() -> None:
    hand = {"concealed": "111222555777s99s"}
    with pytest.raises(RecordError, match="unknown option"):
        scoring.score(_record(hand, {"tile": "9s", "by": "self_draw"}, options={"fan": 1}))
    with pytest.raises(RecordError, match="multi_win_dealer"):
        scoring.score(_record(hand, {"tile": "9s", "by": "self_draw"},
                              options={"multi_win_dealer": "dealer"}))


def test_hand_cap_zero_means_no_cap_and_le_option() -> None:
    hand = {"concealed": "111222555777s99s"}
    ctx = {"context": {"dice": [2, 2], "huangfan": 1}}
    s = scoring.score(_record(hand, {"tile": "9s", "by": "self_draw"},
                              options={"hand_cap_le": 0}, **ctx))
    assert s.payments == [240, -80, -80, -80]
    # a 勒子 of 20 points: 清碰 2 勒 = 40, ×8 = 320, cap 8 勒 = 160, hand cap 5 勒 = 100
    s = scoring.score(_record(hand, {"tile": "9s", "by": "self_draw"}, options={"le": 20}, **ctx))
    assert s.payments == [300, -100, -100, -100]


def test_base_option_changes_di() -> None:
    hand = {"concealed": "555p777s99sEEE", "flowers": ["f1"],
            "melds": [{"type": "pung", "tiles": "222m", "from": 3}]}
    s = scoring.score(_record(hand, {"tile": "9s", "by": "discard", "from": 1},
                              options={"base": 5}))
    # 碰碰胡: 底 5 + 花 (1 flower + concealed East 1) = 7
    assert s.payments == [7, -7, 0, 0]


def test_rob_kong_without_contract_three_shares() -> None:
    hand = {"concealed": "789mNN", "melds": [
        {"type": "chow", "tiles": "123m", "from": 3}, {"type": "chow", "tiles": "456m", "from": 3},
        {"type": "pung", "tiles": "EEE", "from": 2}]}
    rec = _record(hand, {"tile": "8m", "by": "rob_kong", "from": 1})
    rec["seats"][1] = {"concealed": "", "melds": [{"type": "pung", "tiles": "888m", "from": 2}]}
    s = scoring.score(rec)
    assert s.payments == [9, -9, 0, 0]  # 混一色 2 + 1 = 3, robbed pays 3U


def _two_partner_record(win: dict[str, Any], ready: tuple[bool, bool, bool, bool]
                        ) -> dict[str, Any]:
    """Seat 1 (清碰 concealed, U = 20) was claimed on 3 times by seat 0 and 3 times by seat 2."""
    rec = _record({"concealed": "111222555777s99s"}, win, seat=1)
    rec["seats"][0] = {"melds": [{"type": "pung", "tiles": t, "from": 1}
                                 for t in ("111m", "222m", "333m")]}
    rec["seats"][2] = {"melds": [{"type": "pung", "tiles": t, "from": 1}
                                 for t in ("444m", "555m", "666m")]}
    for k in range(4):
        rec["seats"][k]["ready"] = ready[k]
    return rec


def test_two_partners_self_draw_each_capped() -> None:
    s = scoring.score(_two_partner_record({"tile": "9s", "by": "self_draw"}, (False,) * 4))
    # each partner owes 5U = U + 4U = 100 -> 50; seat 3 pays U = 20
    assert s.payments == [-50, 120, -50, -20]
    assert len(s.details["contracts"]) == 2


def test_two_partners_third_party_discarder() -> None:
    win = {"tile": "9s", "by": "discard", "from": 3}
    ready = scoring.score(_two_partner_record(win, (False, False, False, True)))
    assert ready.payments == [-20, 60, -20, -20]  # U from the discarder and from each partner
    not_ready = scoring.score(_two_partner_record(win, (False,) * 4))
    assert not_ready.payments == [0, 50, 0, -50]  # U + U + U = 60, capped at 50


def test_partner_discards_while_another_contract_stands() -> None:
    win = {"tile": "9s", "by": "discard", "from": 0}
    # seat 0 is a partner (U + U = 40); for the 1-2 contract it is a third party
    ready = scoring.score(_two_partner_record(win, (True, False, False, False)))
    assert ready.payments == [-40, 60, -20, 0]
    not_ready = scoring.score(_two_partner_record(win, (False,) * 4))
    assert not_ready.payments == [-50, 50, 0, 0]  # 60 owed, capped at 50


_MIXED = {"concealed": "77mEEE", "melds": [
    {"type": "chow", "tiles": "123m", "from": 3}, {"type": "chow", "tiles": "456m", "from": 3},
    {"type": "pung", "tiles": "999m", "from": 2}]}  # 混一色 U = 3, 杠开 would raise it to 10


def test_replacement_needs_the_kong_or_flower_it_replaced() -> None:
    with pytest.raises(RecordError, match="needs a kong among the winner's melds"):
        scoring.score(_record(_MIXED, {"tile": "7m", "by": "self_draw", "replacement": "kong"}))
    with pytest.raises(RecordError, match="needs a flower among the winner's flowers"):
        scoring.score(_record(_MIXED, {"tile": "7m", "by": "self_draw",
                                       "replacement": "flower"}))
    kong = {**_MIXED, "melds": [*_MIXED["melds"][:2],
                                {"type": "exposed_kong", "tiles": "9999m", "from": 2}]}
    with pytest.raises(RecordError, match="exposed_kong claimed from seat 1"):
        scoring.score(_record(kong, {"tile": "7m", "by": "self_draw", "replacement": "kong",
                                     "kong_fed_by": 1}))
    s = scoring.score(_record(kong, {"tile": "7m", "by": "self_draw", "replacement": "kong",
                                     "kong_fed_by": 2}))
    assert s.payments == [30, -10, -10, -10]  # 杠开 floor: 2 + 1 + 1 = 4 -> 10
    flowered = {**_MIXED, "flowers": ["f3"]}
    s = scoring.score(_record(flowered, {"tile": "7m", "by": "self_draw",
                                         "replacement": "flower"}))
    assert s.payments == [30, -10, -10, -10]


def test_more_than_four_melds_refused() -> None:
    # a fifth meld would also invent a 承包 (seat 1 claimed 5 times on the winner, seat 0)
    rec = _record(_MIXED, {"tile": "7m", "by": "discard", "from": 2})
    rec["seats"][1] = {"melds": [{"type": "pung", "tiles": t, "from": 0}
                                 for t in ("111p", "222p", "333p", "444p", "555p")]}
    with pytest.raises(RecordError, match="seat 1 shows 5 melds"):
        scoring.score(rec)
    rec["seats"][1]["melds"].pop()
    # 4 melds: a real contract; the discarder, outside it and not ready, pays 2U
    assert scoring.score(rec).payments == [6, 0, -6, 0]
