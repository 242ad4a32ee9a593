"""Liaoyang unit tests: 混/鸡枪, the dice procedure, the draw threshold, record checks, reports.

The worked cases (tests/cases/liaoyang) run through the CLI in test_cases.py; here they also run
through ``scoring.score`` directly so a broken CLI cannot hide a scoring regression.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring import score
from scoring.errors import InvalidHand, RecordError, ScoringError
from scoring.record import load_record
from scoring.rulesets.liaoyang import RULESET, draw_threshold, hun_of, is_fenzhang, jiqiang_of
from scoring.tiles import parse_tiles, tile_from_name

CASES = Path(__file__).resolve().parent.parent / "cases" / "liaoyang"
CASE_FILES = sorted(p for p in CASES.glob("*.json") if not p.name.endswith(".expect.json"))


def _t(name: str) -> int:
    return tile_from_name(name)


def _case(stem: str) -> dict[str, Any]:
    return json.loads((CASES / f"{stem}.json").read_text(encoding="utf-8"))


# ---------------------------------------------------------------- worked cases, no CLI


def test_there_are_at_least_25_worked_cases() -> None:
    assert len(CASE_FILES) >= 25


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_worked_case_through_score(path: Path) -> None:
    expect = json.loads(path.with_name(path.stem + ".expect.json").read_text(encoding="utf-8"))
    if "error" in expect:
        with pytest.raises(ScoringError, match=expect["error"]):
            score(path.read_text(encoding="utf-8"))
        return
    s = score(path.read_text(encoding="utf-8"))
    assert s.payments == expect["payments"], expect["why"]
    assert s.next_dealer == expect["next_dealer"]
    assert sum(s.payments) == 0
    assert s.payments == type(s).payments_from(s.transfers)


# ---------------------------------------------------------------- 混 and 鸡枪


@pytest.mark.parametrize(("indicator", "hun", "jiqiang"), [
    ("2m", "3m", {"2p", "2s"}),  # the original's examples
    ("9m", "1m", {"9p", "9s"}),
    ("N", "E", {"S", "W"}),
    ("P", "C", {"F", "P"}),
    ("5s", "6s", {"5m", "5p"}),
    ("E", "S", {"W", "N"}),
    ("C", "F", {"C", "P"}),
])
def test_hun_and_jiqiang_from_the_indicator(indicator: str, hun: str, jiqiang: set[str]) -> None:
    assert hun_of(_t(indicator)) == _t(hun)
    assert jiqiang_of(_t(indicator)) == {_t(j) for j in jiqiang}
    assert hun_of(_t(indicator)) not in jiqiang_of(_t(indicator))


def test_settlement_exposes_hun_jiqiang_and_what_each_hun_stood_for() -> None:
    s = score(_case("22-three-hun-best-assignment"))
    assert s.details["hun"] == "N" and s.details["jiqiang"] == ["E", "S"]
    stood = s.wins[0].details["hun_stood_for"]
    assert len(stood) == 3 and "C" in stood and "8m" in stood
    assert stood[1] in ("3p", "6p")
    assert s.to_json()["hun"] == "N"  # details are merged into the JSON


def test_hun_stands_for_the_only_yaojiu() -> None:
    s = score(_case("05-hun-as-yaojiu"))
    assert s.wins[0].details["hun_stood_for"] == ["9m"]


def test_hun_stands_for_a_pair_tile() -> None:
    s = score(_case("03-hun-as-pair-tile"))
    assert s.wins[0].details["hun_stood_for"] == ["7s"]
    assert s.wins[0].details["reading"].endswith("77s(*7s)")


def test_bao_counts_a_hun_by_its_face() -> None:
    rec = _case("17-bao-three")
    rec["context"]["bao_tile"] = "5s"  # the 混 itself: one 宝 although it stood for 6m or 9m
    s = score(rec)
    assert s.details["bao"] == 1
    assert s.payments == [-14, 38, -12, -12]  # 4 + 10, 2 + 10, 2 + 10


def test_four_hun_in_hand_is_not_siguiyi() -> None:
    """四归一 counts natural tiles: four 混 are wildcards, not a kind held four times."""
    rec = _case("01-open-discard-basic")
    rec["seats"][1]["concealed"] = "6p6p6p6p789p234s7m"  # indicator 5p: 6p is the 混
    s = score(rec)
    names = [i.name for i in s.wins[0].items]
    assert "四归一" not in names and "素胡" not in names


def test_best_assignment_prefers_more_fans() -> None:
    """Two 混 + 88m could be a pung of 8m or the pair 88m: 2或8掌 wins over an extra chow."""
    rec = _case("22-three-hun-best-assignment")
    s = score(rec)
    assert [i.name for i in s.wins[0].items] == ["大哥大", "2或8掌"]


# ---------------------------------------------------------------- record checks


def test_win_needs_the_indicator() -> None:
    rec = _case("01-open-discard-basic")
    del rec["context"]["indicator"]
    with pytest.raises(RecordError, match="indicator"):
        score(rec)


def test_draw_needs_no_indicator() -> None:
    rec = _case("20-draw")
    del rec["context"]["indicator"]
    assert score(rec).payments == [0, 0, 0, 0]


def test_unknown_option_is_an_error() -> None:
    rec = _case("01-open-discard-basic")
    rec["options"] = {"fan_cap": 3}
    with pytest.raises(RecordError, match="unknown option"):
        score(rec)


def test_flowers_are_refused() -> None:
    rec = _case("01-open-discard-basic")
    rec["seats"][2]["flowers"] = ["f1"]
    with pytest.raises(RecordError, match="without flowers"):
        score(rec)


def test_fantan_only_on_a_discard() -> None:
    rec = _case("13-qianggang")
    rec["wins"][0]["discarder_after_kong"] = True
    with pytest.raises(RecordError, match="反弹"):
        score(rec)


def test_gangkai_needs_a_kong() -> None:
    rec = _case("11-haidilao")
    rec["wins"][0]["replacement"] = "kong"
    with pytest.raises(RecordError, match="杠开"):
        score(rec)


def test_hun_in_concealed_kong_is_refused_by_default() -> None:
    rec = _case("16-winner-dragon-angang-siguiyi")
    rec["context"]["indicator"] = "F"  # 混 is 白: the 暗杠 PPPP is four 混
    with pytest.raises(RecordError, match="混"):
        score(rec)


def test_discarded_hun_win_needs_the_discarder_to_count_it() -> None:
    rec = _case("03-hun-as-pair-tile")
    rec["seats"][2]["concealed"] = "123m456m345p7s9p"
    rec["wins"][0]["tile"] = "9p"
    with pytest.raises(RecordError, match="hun_discarded"):
        score(rec)
    rec["seats"][1]["hun_discarded"] = 1
    s = score(rec)
    assert s.details["draw_threshold"] == 18


def test_invalid_hand_names_the_requirement_and_the_seat() -> None:
    with pytest.raises(InvalidHand) as info:
        score(_case("33-fail-heng"))
    assert info.value.field == "seats[1]" and "有横" in info.value.message


def test_closed_hand_wins_by_self_draw() -> None:
    rec = _case("31-fail-kaimen")
    rec["wins"][0] = {"seat": 1, "tile": "E", "by": "self_draw"}
    s = score(rec)
    assert s.wins[0].pattern == "闭门胡"
    assert {i.name for i in s.wins[0].items} >= {"自摸", "赢家闭门"}


# ---------------------------------------------------------------- dice and the draw threshold


def test_wall_break_counter_clockwise_default() -> None:
    wb = RULESET.wall_break(0, [(1, 3), (3, 4)], {})
    assert wb.rollers == (0, 3)  # dealer 1, seat 1 2, seat 2 3, seat 3 4
    assert wb.wall_seat == 3 and wb.indicator_stack == 4 and wb.stacks_skipped == 11


def test_wall_break_clockwise_follows_the_originals_example() -> None:
    """庄家 rolls 4 → South (seat 1 when East is seat 0); South rolls 7: indicator at stack 4,
    count to 11, the dealer draws from stack 12."""
    wb = RULESET.wall_break(0, [(2, 2), (3, 4)], {"dice_count": "clockwise"})
    assert wb.rollers == (0, 1) and wb.wall_seat == 1
    assert wb.indicator_stack == 4 and wb.stacks_skipped == 11
    assert "stack 12" in wb.explanation


def test_wall_break_other_dealer_and_spill_over() -> None:
    wb = RULESET.wall_break(2, [(6, 6), (6, 6)], {})
    assert wb.rollers == (2, (2 + 11) % 4)
    assert wb.stacks_skipped == 24 and "stack 8" in wb.explanation


@pytest.mark.parametrize("rolls", [[(1, 2)], [(0, 3), (1, 1)], [(1, 7), (1, 1)]])
def test_wall_break_rejects_bad_rolls(rolls: list[tuple[int, int]]) -> None:
    with pytest.raises(ValueError):
        RULESET.wall_break(0, rolls, {})


def test_draw_threshold_and_fenzhang() -> None:
    assert [draw_threshold(n) for n in range(4)] == [16, 18, 20, 22]
    assert is_fenzhang(20, 0) and is_fenzhang(17, 0) and not is_fenzhang(21, 0)
    assert not is_fenzhang(16, 0) and is_fenzhang(22, 1) and not is_fenzhang(18, 1)
    with pytest.raises(ValueError):
        draw_threshold(-1)


def test_draw_threshold_in_the_settlement() -> None:
    rec = _case("20-draw")
    rec["seats"][0]["hun_discarded"] = 1
    rec["seats"][3]["hun_discarded"] = 2
    s = score(rec)
    assert s.details["draw_threshold"] == 22 and s.next_dealer == 2


# ---------------------------------------------------------------- other hooks


def test_escape_penalty_is_zero_sum_and_uses_di() -> None:
    transfers = RULESET.escape_penalty(2, 0, {"di": 50})
    assert {t.payee for t in transfers} == {0, 1, 3}
    assert all(t.payer == 2 and t.amount == 50 for t in transfers)


def test_is_winning_hand_and_waits_with_hun() -> None:
    from scoring.engine import waits
    from ui.commands.waits import parse_meld

    ctx = {"indicator": _t("5p")}  # 混 6p
    melds = (parse_meld("999s", 1),)
    hand = parse_tiles("123m789p234s6p")  # the lone 混 pairs whatever tile comes
    assert RULESET.is_winning_hand([*hand, _t("1m")], melds, {}, ctx)
    wild = RULESET.wildcards({}, ctx)
    result = waits(hand, wild, predicate=lambda h: RULESET.is_winning_hand(h, melds, {}, ctx))
    assert len(result) == 34  # a lone 混 beside a pair-less hand waits on every tile
    four = tuple(parse_meld(m, 1) for m in ("123m", "999p", "777s", "WWW"))
    assert not RULESET.is_winning_hand(parse_tiles("5s5s"), four, {}, {"indicator": "N"})


def test_record_round_trip_keeps_liaoyang_fields() -> None:
    rec = load_record(json.dumps(_case("35-fail-hun-discarded")))
    assert rec.seats[1].hun_discarded == 1
    assert rec.to_json()["context"]["indicator"] == "5p"


def test_ruleset_score_checks_the_record_itself() -> None:
    """The match engine calls RULESET.score directly: the Liaoyang checks must still apply."""
    rec = load_record(json.dumps(_case("36-fail-two-winners")))
    with pytest.raises(RecordError, match="one winner per discard"):
        RULESET.score(rec)


# ---------------------------------------------------------------- review: record consistency


def test_fantan_needs_a_kong_of_the_discarder() -> None:
    """反弹 is the discard right after the discarder's own kong: without one it is an error."""
    rec = _case("01-open-discard-basic")
    rec["wins"][0]["discarder_after_kong"] = True
    with pytest.raises(RecordError, match="反弹"):
        score(rec)
    rec["seats"][3]["melds"] = [{"type": "concealed_kong", "tiles": "CCCC"}]
    s = score(rec)  # now it is 反弹; the dragon 暗杠 counts 1 and keeps seat 3 closed
    seat3 = next(lo for lo in s.details["losers"] if lo["seat"] == 3)
    assert seat3["fans"] == ["点炮 1", "反弹 2", "输家闭门 1", "暗杠 1"] and seat3["f_i"] == 5


def test_rob_kong_needs_the_robbed_pung() -> None:
    rec = _case("13-qianggang")
    rec["seats"][3]["melds"] = [{"type": "pung", "tiles": "777s", "from": 0}]
    with pytest.raises(RecordError, match="抢杠"):
        score(rec)


def test_discarded_hun_count_as_copies() -> None:
    """Two 混 in hand + two discarded is the whole set; a fifth is an error. A discarded 混 that
    became the winning tile is counted once."""
    rec = _case("42-two-hun-bamboo-pair-third-suit")
    rec["seats"][0]["hun_discarded"] = 2
    assert score(rec).details["hun_discarded"] == 2
    rec["seats"][3]["hun_discarded"] = 1
    with pytest.raises(RecordError, match="the set has 4"):
        score(rec)
    won = _case("03-hun-as-pair-tile")  # 混 9p; the winner takes seat 1's discarded 混
    won["seats"][2]["concealed"] = "123m456m345p7s9p"
    won["wins"][0]["tile"] = "9p"
    won["seats"][1]["hun_discarded"] = 4  # all four, one of them now in the winner's hand
    assert score(won).details["draw_threshold"] == 24
    won["seats"][1]["hun_discarded"] = 5
    with pytest.raises(RecordError, match="the set has 4"):
        score(won)


@pytest.mark.parametrize(("first_sum", "counter_clockwise", "clockwise"), [
    (2, 1, 3), (3, 2, 2), (4, 3, 1), (5, 0, 0), (6, 1, 3), (7, 2, 2), (8, 3, 1), (9, 0, 0),
    (10, 1, 3), (11, 2, 2), (12, 3, 1),
])
def test_second_roller_both_directions(first_sum: int, counter_clockwise: int,
                                       clockwise: int) -> None:
    """Dealer (seat 0) is 1; counter-clockwise is play order (下家 2, 对家 3, 上家 4), clockwise
    the other way round (上家 2, 对家 3, 下家 4: the original's roll of 4 lands on South)."""
    roll = (first_sum // 2, first_sum - first_sum // 2)
    assert RULESET.wall_break(0, [roll, (1, 1)], {}).rollers == (0, counter_clockwise)
    cw = RULESET.wall_break(0, [roll, (1, 1)], {"dice_count": "clockwise"})
    assert cw.rollers == (0, clockwise) and cw.wall_seat == clockwise
    assert cw.indicator_stack == first_sum and cw.stacks_skipped == first_sum + 2


def test_discarded_hun_count_with_the_bao_tile_and_in_a_draw() -> None:
    rec = _case("42-two-hun-bamboo-pair-third-suit")  # two 混 (4p) in the winner's hand
    rec["seats"][0]["hun_discarded"] = 1
    rec["context"]["bao_tile"] = "4p"  # the fourth 4p: 2 held, 1 discarded, 1 revealed
    assert score(rec).details["bao"] == 2
    rec["seats"][0]["hun_discarded"] = 2
    with pytest.raises(RecordError, match="the set has 4"):
        score(rec)
    draw = _case("20-draw")  # indicator 3s: 混 4s
    draw["seats"][1]["hun_discarded"] = 5
    with pytest.raises(RecordError, match="the set has 4"):
        score(draw)


@pytest.mark.parametrize("option", ["base", "di"])
def test_base_and_di_must_be_positive(option: str) -> None:
    rec = _case("01-open-discard-basic")
    rec["options"] = {option: 0}
    with pytest.raises(RecordError, match=f"options.{option}"):
        score(rec)


@pytest.mark.parametrize(("stem", "stood_for"), [
    ("42-two-hun-bamboo-pair-third-suit", ({"2s"}, {"8s"})),  # the only bamboo: a 2/8 pair
    ("43-shoubayi-hun-pair-self-draw",
     tuple({f"{r}{s}"} for r in (2, 8) for s in "mps")),  # a 2/8 pair of any suit
    ("44-qidui-robs-kong-with-hun", ({"8m"},)),
    ("49-hun-completes-dragon-pair-for-heng", ({"C"},)),
])
def test_reported_hun_substitutions(stem: str, stood_for: tuple[set[str], ...]) -> None:
    assert set(score(_case(stem)).wins[0].details["hun_stood_for"]) in stood_for


def test_hun_standing_for_a_jiqiang_kind_is_no_jiqiang() -> None:
    """Case 48: the 混 (7s) completes 678p or 789p; read as 6p it is still no 鸡枪 (6m 6p)."""
    rec = _case("48-siguiyi-natural-only")
    s = score(rec)
    assert s.wins[0].details["hun_stood_for"] in (["6p"], ["9p"])
    assert "鸡枪" not in {i.name for i in s.wins[0].items}
    rec["seats"][3]["concealed"] = "234m999p78p6p55s"  # a natural 6p instead: one 鸡枪
    rec["seats"][2]["melds"] = [{"type": "chow", "tiles": "345s", "from": 1}]
    items = {i.name: i.value for i in score(rec).wins[0].items}
    assert items["鸡枪"] == 1 and items["素胡"] == 1


def test_loser_items_from_melds_count_nothing_without_melds() -> None:
    """The evaluator skips the loser items marked ``from_melds`` for a loser showing no melds:
    each must then count 0, whatever the loser's role and the options."""
    from itertools import product

    from scoring.rulesets.liaoyang.facts import LoserSeat
    from scoring.rulesets.liaoyang.fans import LOSER_FANS
    from scoring.rulesets.liaoyang.options import LiaoyangOptions

    marked = [f for f in LOSER_FANS if f.from_melds]
    assert {f.name for f in marked} == {"大哥大", "明杠", "暗杠", "鸡枪"}
    for flags in product((False, True), repeat=5):
        loser = LoserSeat(1, (), *flags[:4], jiqiang=jiqiang_of(31))
        options = LiaoyangOptions(qidui_counts_bimen=flags[4])
        assert [f.times(loser, options) for f in marked] == [0] * len(marked)


@pytest.mark.parametrize("melds", [
    (),
    (("chow", "312m", 2),),
    (("pung", "CCC", 1), ("concealed_kong", "FFFF", None), ("chow", "789s", 2)),
    (("concealed_kong", "1111p", None),),
    (("exposed_kong", "PPPP", 3), ("pung", "999p", 1)),
])
def test_winner_hand_facts_worked_out_at_once_match_the_properties(melds: tuple[Any, ...]
                                                                    ) -> None:
    """``WinnerHand.of`` fills the facts in one pass; a hand built directly works each out
    when read: they agree."""
    from scoring.record import Meld, Win
    from scoring.rulesets.liaoyang.facts import WinnerHand

    built = tuple(Meld(t, tuple(parse_tiles(text)), frm, text) for t, text, frm in melds)
    win = Win(0, tile_from_name("5m"), "self_draw")
    args = (0, win, tuple(parse_tiles("55m")), built, True, tile_from_name("5m"),
            jiqiang_of(tile_from_name("4m")))
    eager, lazy = WinnerHand.of(*args), WinnerHand(*args)
    names = ("physical", "hun_count", "is_open", "meld_tiles", "has_chow_meld",
             "has_identical_meld", "laid_dragon_sets", "meld_number_suits")
    assert all(name in vars(eager) for name in names)
    assert [getattr(eager, n) for n in names] == [getattr(lazy, n) for n in names]
