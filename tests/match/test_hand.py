"""The hand state machine: claims and their priority, the rulesets' refusals, the wall's end,
unseen tiles, and the hand record it derives (checked against payments worked by hand)."""

from __future__ import annotations

import pytest

from scoring.match import HandState
from scoring.match import events as ev
from scoring.match.errors import BadEvent, EventRefused
from scoring.tiles import tile_from_name


def start(ruleset: str, hands: list[str], dealer: int = 0, indicator: str | None = None,
          counters: dict | None = None, options: dict | None = None) -> HandState:
    s = HandState.start(ruleset, options or {}, dealer, counters or {})
    if indicator:
        s = s.apply(ev.IndicatorTurned(tile=indicator))
    return s.apply(ev.Dealt(hands=tuple(hands)))  # type: ignore[arg-type]


def run(s: HandState, *events: ev.Event) -> HandState:
    for e in events:
        s = s.apply(e)
    return s


# seat 0 (dealer) throws 3m; seat 1 could chow it, seat 2 pung it, seat 3 wins on it
PRIORITY_DEAL = [
    "3m EEE SSS WWW NNN C",
    "2m4m 999m 111p 999s CC",
    "33m 666m 777m 888m FF",
    "12m 456p 789p 234s 55s",
]


def test_chow_only_from_the_upper_seat() -> None:
    s = run(start("shandong", PRIORITY_DEAL), ev.Discarded(seat=0, tile="3m"))
    with pytest.raises(EventRefused, match="吃 only from the 上家"):
        s.apply(ev.Chowed(seat=2, tiles="345m"))


def test_claim_priority_win_over_pung_over_chow() -> None:
    s = run(start("shandong", PRIORITY_DEAL), ev.Discarded(seat=0, tile="3m"),
            ev.Chowed(seat=1, tiles="234m"))
    assert s.turn == 1 and [m.type for m in s.seats[1].melds] == ["chow"]
    s = s.apply(ev.Punged(seat=2))  # 碰 beats 吃: the chow is undone
    assert s.turn == 2 and not s.seats[1].melds
    assert s.seats[1].known[1] == 1 and s.seats[1].known[3] == 1  # 2m, 4m back in hand
    with pytest.raises(EventRefused, match="碰 already takes this 3m"):
        s.apply(ev.Chowed(seat=1, tiles="234m"))
    s = s.apply(ev.Won(seats=(3,)))  # 和 beats 碰
    assert s.over and not s.seats[2].melds
    win = s.record.to_json()["wins"]
    # the claims were undone, so this is still the first go-around: 地和 on the dealer's discard
    assert win == [{"seat": 3, "tile": "3m", "by": "discard", "from": 0, "first_turn": True}]
    # 地和 5 番, S = (底 5 + 花 0) × 5 = 25, the discarder pays it
    assert s.settlement.payments == [-25, 0, 0, 25]
    assert s.settlement.next_dealer == 3


def test_claim_window_closes_when_play_moves_on() -> None:
    s = run(start("shandong", PRIORITY_DEAL), ev.Discarded(seat=0, tile="3m"),
            ev.Drew(seat=1, tile="?"))
    with pytest.raises(EventRefused, match="no discard to claim"):
        s.apply(ev.Punged(seat=2))


def test_shandong_minglou_wins_only_by_self_draw() -> None:
    s = start("shandong", PRIORITY_DEAL).apply(ev.Declared(seat=3, what="minglou"))
    s = s.apply(ev.Discarded(seat=0, tile="3m"))
    with pytest.raises(EventRefused, match="明楼 and may win only by self-draw"):
        s.apply(ev.Won(seats=(3,)))


def test_only_the_turn_player_wins_by_self_draw() -> None:
    s = start("shandong", PRIORITY_DEAL)
    with pytest.raises(EventRefused, match="only seat 0 can win now"):
        s.apply(ev.Won(seats=(2,)))


def test_turn_order_is_enforced() -> None:
    s = run(start("shandong", PRIORITY_DEAL), ev.Discarded(seat=0, tile="3m"))
    with pytest.raises(EventRefused, match="seat 1's turn to draw, not seat 2's"):
        s.apply(ev.Drew(seat=2, tile="5p"))


def test_exposed_kong_then_replacement_win_is_a_kong_fed_win() -> None:
    deal = ["E 1m1m1m 9m9m9m 1p1p1p 9p9p N W", "SSS WWW NNN CCC 1s", "EEE 234m 567m 678p 5s",
            "FFF PPP 2p2p2p 3p3p3p 4p"]
    s = run(start("shandong", deal), ev.Discarded(seat=0, tile="E"),
            ev.Konged(seat=2, kind="exposed"), ev.Drew(seat=2, tile="5s"), ev.Won(seats=(2,)))
    rec = s.record.to_json()
    assert rec["wins"] == [{"seat": 2, "tile": "5s", "by": "self_draw", "replacement": "kong",
                            "kong_fed_by": 0}]
    assert rec["seats"][2]["melds"] == [{"type": "exposed_kong", "tiles": "EEEE", "from": 0}]
    # 杠上开花 2 番; 花: honor 明杠 2; S = (5 + 2) × 2 = 14; 杠爆: the feeder pays 3S = 42
    assert s.settlement.payments == [-42, 0, 42, 0]


def test_added_kong_can_be_robbed() -> None:
    deal = ["5p 1m1m1m 9m9m9m 1s1s1s 9s9s N W", "5p5p EEE SSS WWW NN", "34p 567m 234s 678s 88s",
            "CCC FFF PPP 2m2m2m 4m"]
    s = run(start("shandong", deal), ev.Discarded(seat=0, tile="5p"), ev.Punged(seat=1),
            ev.Discarded(seat=1, tile="N"), ev.Drew(seat=2, tile="9p"),
            ev.Discarded(seat=2, tile="9p"), ev.Drew(seat=3, tile="9p"),
            ev.Discarded(seat=3, tile="9p"), ev.Drew(seat=0, tile="2s"),
            ev.Discarded(seat=0, tile="2s"), ev.Drew(seat=1, tile="5p"),
            ev.Konged(seat=1, kind="added", tile="5p"))
    assert s.window is not None and s.window.kind == "rob"
    s = s.apply(ev.Won(seats=(2,)))
    rec = s.record.to_json()
    assert rec["wins"] == [{"seat": 2, "tile": "5p", "by": "rob_kong", "from": 1}]
    assert rec["seats"][1]["melds"] == [{"type": "pung", "tiles": "555p", "from": 0}]
    # 推倒和 1 番, S = 5; 抢杠: the robbed player pays 3S alone
    assert s.settlement.payments == [0, -15, 15, 0]


def test_unseen_tiles_are_counted_and_must_be_revealed_to_win() -> None:
    deal = ["3m EEE SSS WWW NNN C", "2m4m 999m 111p 999s CC", "33m 666m 777m 888m FF",
            "12m ?????????? 5s"]
    s = run(start("shandong", deal), ev.Discarded(seat=0, tile="3m"))
    assert s.seats[3].unknown == 10 and s.seats[3].standing == 13
    with pytest.raises(EventRefused, match="10 unseen tile"):
        s.apply(ev.Won(seats=(3,)))
    with pytest.raises(EventRefused, match="lacks 5s it is known to hold"):
        s.apply(ev.Won(seats=(3,), reveal={3: "12m456p789p234s55p"}))
    s = s.apply(ev.Won(seats=(3,), reveal={3: "12m456p789p234s55s"}))
    assert s.record.to_json()["seats"][3]["concealed"] == "123m456789p23455s"  # with the 3m won
    assert s.settlement.payments == [-25, 0, 0, 25]


def test_a_known_tile_can_come_out_of_the_unseen_ones() -> None:
    deal = ["3m EEE SSS WWW NNN C", "?????????????", "33m 666m 777m 888m FF",
            "12m 456p 789p 234s 55s"]
    s = run(start("shandong", deal), ev.Discarded(seat=0, tile="3m"), ev.Drew(seat=1),
            ev.Discarded(seat=1, tile="9s"))
    assert s.seats[1].unknown == 13 and s.seats[1].river == [26]
    with pytest.raises(EventRefused, match="5 copies of E"):
        run(s, ev.Drew(seat=2, tile="E"), ev.Discarded(seat=2, tile="E"),
            ev.Drew(seat=3, tile="E"))


def test_wall_thresholds_and_the_draw_game() -> None:
    assert start("shandong", PRIORITY_DEAL).drawable == 144 - 53 - 12  # 6 stacks stay
    assert start("shanghai", PRIORITY_DEAL).drawable == 144 - 53
    liaoyang = ["3m 3p 3s EEE SSS WWW NN", "2m4m 999m 111p 999s CC", "33m 666m 777m 888m FF",
                "12m 456p 789p 234s 55s"]
    s = start("liaoyang", liaoyang, indicator="2m")  # 混 = 3m
    assert s.drawable == 136 - 53 - 16
    s = s.apply(ev.Discarded(seat=0, tile="3m"))  # a 混 thrown: 2 more tiles stay
    assert s.drawable == 136 - 53 - 16 - 2 and s.seats[0].hun_discarded == 1
    with pytest.raises(EventRefused, match="65 tile\\(s\\) are still drawable"):
        s.apply(ev.DrawGame())


def test_no_kong_once_the_wall_is_at_its_end() -> None:
    deal = ["E 1m1m1m 9m9m9m 1p1p1p 9p9p N W", "SSS WWW NNN CCC 1s", "EEE 234m 567m 678p 5s",
            "FFF PPP 2p2p2p 3p3p3p 4p"]
    s = run(start("shandong", deal), ev.Discarded(seat=0, tile="E"))
    s = s.clone()
    s.undrawn = 12  # six stacks left: nothing more is drawn
    with pytest.raises(EventRefused, match=r"6 stacks remain.*kong now has no effect"):
        s.apply(ev.Konged(seat=2, kind="exposed"))
    s2 = s.apply(ev.DrawGame())
    assert s2.record.outcome == "draw" and s2.settlement.payments == [0, 0, 0, 0]
    assert s2.settlement.next_dealer == 1  # a draw passes the deal to the dealer's 下家


def test_liaoyang_refusals() -> None:
    deal = ["3m 3p 3s EEE SSS WWW NN", "2m4m 999m 111p 999s CC", "3m3m 666m 777m 888m FF",
            "12m 456p 789p 234s 55s"]
    s = start("liaoyang", deal, indicator="2m")  # 混 = 3m
    s = s.apply(ev.Discarded(seat=0, tile="3m"))
    with pytest.raises(EventRefused, match="混 \\(3m\\) may not be used to 碰"):
        s.apply(ev.Punged(seat=2))
    with pytest.raises(EventRefused, match="one winner per discard: seat 1"):
        s.apply(ev.Won(seats=(3, 1)))
    s = run(start("liaoyang", deal, indicator="2m"), ev.Discarded(seat=0, tile="N"),
            ev.Drew(seat=1, tile="5m"), ev.Discarded(seat=1, tile="5m"),
            ev.Drew(seat=2, tile="1s"), ev.Discarded(seat=2, tile="3m"),
            ev.Drew(seat=3, tile="1s"), ev.Discarded(seat=3, tile="1s"),
            ev.Drew(seat=0, tile="3m"))
    with pytest.raises(EventRefused, match="seat 2 discarded a 混 and cannot win"):
        run(s, ev.Discarded(seat=0, tile="3m"), ev.Won(seats=(2,)))


def test_liaoyang_hun_claims_allows_pung_never_chow() -> None:
    """"混不能…用于吃牌": with option hun_claims a 混 may be 碰'd, but never used in a 吃."""
    deal = ["3m 3p 3s EEE SSS WWW NN", "2m4m 999m 111p 999s CC", "3m3m 666m 777m 888m FF",
            "12m 456p 789p 234s 55s"]
    s = start("liaoyang", deal, indicator="2m", options={"hun_claims": True})  # 混 = 3m
    s = s.apply(ev.Discarded(seat=0, tile="3m"))
    with pytest.raises(EventRefused, match="混 \\(3m\\) may not be used to 吃"):
        s.apply(ev.Chowed(seat=1, tiles="234m"))
    assert s.apply(ev.Punged(seat=2)).seats[2].melds[-1].type == "pung"


def test_shanghai_louhu_until_the_player_draws() -> None:
    deal = ["8m 9m EEE SSS WWW NNN", "8m 1p2p3p 4p5p6p 7p8p9p CCC", "2s3s4s 5s6s7s 2p2p FFF PP",
            "111m 234m 567m 88m 99m"]
    s = run(start("shanghai", deal), ev.Discarded(seat=0, tile="8m"),
            ev.Drew(seat=1, tile="1s"))  # seat 3 lets the 8m go by
    assert s.seats[3].louhu == {7}
    s = s.apply(ev.Discarded(seat=1, tile="8m"))
    with pytest.raises(EventRefused, match="漏胡: seat 3 passed on 8m"):
        s.apply(ev.Won(seats=(3,)))
    s = run(s, ev.Drew(seat=2, tile="1s"), ev.Discarded(seat=2, tile="1s"),
            ev.Drew(seat=3, tile="N"), ev.Discarded(seat=3, tile="N"),
            ev.Drew(seat=0, tile="1s"), ev.Discarded(seat=0, tile="9m"))
    s = s.apply(ev.Won(seats=(3,)))  # it drew since: 9m may win
    assert s.record.wins[0].tile == 8 and s.settlement.payments[3] > 0


def test_shanghai_exchange_phase_records_each_seat() -> None:
    """换牌 (option exchange): after the deal every seat is recorded as done or not before the
    dealer's first discard; buried tiles leave the hand, the wall's tiles come in."""
    deal = ["8m 9m EEE SSS WWW NNN", "8m 1p2p3p 4p5p6p 7p8p9p CCC", "2s3s4s 5s6s7s 2p2p FFF PP",
            "111m 234m 567m 88m 99m"]
    s = start("shanghai", deal, options={"exchange": True})
    assert "换牌" in s.status()
    with pytest.raises(EventRefused, match=r"换牌 comes first: record seat\(s\) \[0, 1, 2, 3\]"):
        s.apply(ev.Discarded(seat=0, tile="8m"))
    s = run(s, ev.Exchanged(seat=0, given="8m9mEEE", taken="1s2s3s4s5s"),
            ev.Exchanged(seat=1, done=False), ev.Exchanged(seat=2))
    assert s.seats[0].known[tile_from_name("E")] == 0
    assert s.seats[0].known[tile_from_name("5s")] == 1
    assert s.seats[2].unknown == 13 and not s.seats[2].known  # exchanged unseen
    with pytest.raises(EventRefused, match=r"already recorded \(not done\)"):
        s.apply(ev.Exchanged(seat=1))
    with pytest.raises(EventRefused, match=r"seat\(s\) \[3\]"):
        s.apply(ev.Discarded(seat=0, tile="S"))
    s = run(s, ev.Exchanged(seat=3, done=False), ev.Discarded(seat=0, tile="S"))
    assert s.exchanged == {0: True, 1: False, 2: True, 3: False}
    with pytest.raises(EventRefused, match="before the dealer's first discard"):
        s.apply(ev.Exchanged(seat=1))
    # off by default, and unknown to the other rulesets
    with pytest.raises(EventRefused, match="换牌 is off"):
        start("shanghai", deal).apply(ev.Exchanged(seat=0, done=False))


def test_exchange_event_checks_its_tiles() -> None:
    with pytest.raises(BadEvent, match=r"exchange\.given: "):
        ev.event_from_json({"type": "exchange", "seat": 0, "given": "1x", "taken": "?????"})
    # how many tiles a 换牌 swaps is the ruleset's (Shanghai: 5), checked as the hand is played
    deal = ["8m 9m EEE SSS WWW NNN", "8m 1p2p3p 4p5p6p 7p8p9p CCC", "2s3s4s 5s6s7s 2p2p FFF PP",
            "111m 234m 567m 88m 99m"]
    e = ev.event_from_json({"type": "exchange", "seat": 0, "given": "8m9m", "taken": "?????"})
    with pytest.raises(EventRefused, match=r"exchange\.given: needs 5 tiles, got 2"):
        start("shanghai", deal, options={"exchange": True}).apply(e)
    e = ev.event_from_json({"type": "exchange", "seat": 2, "done": False})
    assert e == ev.Exchanged(seat=2, done=False) and e.to_json() == {
        "type": "exchange", "seat": 2, "done": False}


def test_discard_after_own_kong_is_marked() -> None:
    deal = ["E 1m1m1m 9m9m9m 1p1p1p 9p9p N W", "SSS WWW NNN CCC 1s", "EEE 234m 567m 678p 5s",
            "FFF PPP 2p2p2p 3p3p3p 4p"]
    s = run(start("shandong", deal), ev.Discarded(seat=0, tile="E"),
            ev.Konged(seat=2, kind="exposed"), ev.Drew(seat=2, tile="1s"),
            ev.Discarded(seat=2, tile="5s"))
    assert s.window is not None and s.window.after_kong


def test_wall_break_from_the_dice_is_checked_and_explained() -> None:
    s = HandState.start("shandong", {}, 1, {})
    s = run(s, ev.DiceRolled(seat=1, dice=(2, 1)), ev.DiceRolled(seat=1, dice=(4, 4)))
    # first sum 3 counts walls from the dealer (seat 1 = 1): seat 3; 3 + 8 = 11 stacks
    with pytest.raises(EventRefused, match="break the wall of seat 3, not seat 2"):
        s.apply(ev.WallBroken(wall_seat=2))
    s = s.apply(ev.WallBroken(wall_seat=3, stacks=11))
    info = s.wall()
    assert (info["wall_seat"], info["stacks_skipped"], info["kept_back"]) == (3, 11, 12)
    assert info["explanation"]
    ly = HandState.start("liaoyang", {}, 0, {})
    with pytest.raises(EventRefused, match="makes seat 2 the second roller"):
        run(ly, ev.DiceRolled(seat=0, dice=(1, 2)), ev.DiceRolled(seat=1, dice=(1, 1)))
    ly = run(ly, ev.DiceRolled(seat=0, dice=(1, 2)), ev.DiceRolled(seat=2, dice=(3, 3)),
             ev.WallBroken())
    assert (ly.wall_seat, ly.indicator_stack, ly.stacks) == (2, 3, 9)


def test_shandong_several_winners_on_one_discard() -> None:
    deal = ["3m EEE SSS WWW NNN C", "45m 666p 777s 888s 22p", "CC FFF PPP 999m 11p",
            "12m 456p 789p 234s 55s"]
    s = run(start("shandong", deal), ev.Discarded(seat=0, tile="3m"), ev.Won(seats=(1, 3)))
    assert [w["seat"] for w in s.record.to_json()["wins"]] == [1, 3]
    assert all(w.first_turn and w.from_seat == 0 for w in s.record.wins)
    # both 地和 (5 番): S = 5 × 5 = 25 each, the discarder pays both; the discarder deals next
    assert s.settlement.payments == [-50, 25, 0, 25]
    assert s.settlement.next_dealer == 0


def test_three_claims_on_one_player_make_it_pay_everything() -> None:
    """承包 from a followed hand: seat 1 chows three of seat 0's discards, then wins."""
    deal = ["3m6m3p EEE SSS WWW NN", "12m 45m 12p CFP 789s 5s", "777p 888p 999p 666s N",
            "777m 888m 999m 222s 3s"]
    s = start("shandong", deal)
    rounds = [("3m", "123m", "C", "1s", "4s"), ("6m", "456m", "F", "1s", "4s"),
              ("3p", "123p", "P", "4p", "4s")]
    for feed, run_, own, d2, d3 in rounds:
        s = run(s, ev.Discarded(seat=0, tile=feed), ev.Chowed(seat=1, tiles=run_),
                ev.Discarded(seat=1, tile=own), ev.Drew(seat=2), ev.Discarded(seat=2, tile=d2),
                ev.Drew(seat=3), ev.Discarded(seat=3, tile=d3), ev.Drew(seat=0))
    s = run(s, ev.Discarded(seat=0, tile="1s"), ev.Drew(seat=1, tile="5s"), ev.Won(seats=(1,)))
    assert [m["from"] for m in s.record.to_json()["seats"][1]["melds"]] == [0, 0, 0]
    # 推倒和: S = 5; 承包: seat 0 pays everything seat 1 collects on a self-draw, 3S
    assert s.settlement.payments == [-15, 15, 0, 0]


def test_a_claim_stands_once_the_claimant_acts_again() -> None:
    deal = ["3m 1m1m1m 9m9m9m 1p1p1p N W SS", "2m4m 999s 111s EEEE C", "33m 666m 777m 888m FF",
            "12m 456p 789p 234s 55s"]
    s = run(start("shandong", deal), ev.Discarded(seat=0, tile="3m"),
            ev.Chowed(seat=1, tiles="234m"), ev.Konged(seat=1, kind="concealed", tile="E"))
    with pytest.raises(EventRefused, match="no discard to claim"):
        s.apply(ev.Punged(seat=2))


def test_shanghai_eight_flowers_win_at_once() -> None:
    deal = ["111p 222p 333p 999m CC", "f1f2f3f4f5f6f7 123m 456p", "?" * 13, "?" * 13]
    s = start("shanghai", deal)
    for k in range(1, 8):
        s = run(s, ev.FlowerSetAside(seat=1, tile=f"f{k}"), ev.Drew(seat=1))
    with pytest.raises(EventRefused, match="seat 1 holds f1: set it aside first"):
        run(start("shanghai", deal), ev.Discarded(seat=0, tile="C"))
    s = run(s, ev.Discarded(seat=0, tile="C"), ev.Drew(seat=1, tile="f8"),
            ev.FlowerSetAside(seat=1, tile="f8"),
            ev.Won(seats=(1,), reveal={1: "123m456p789sEESS"}))
    win = s.record.to_json()["wins"][0]
    assert (win["tile"], win["by"]) == ("f8", "self_draw")
    # as worked in tests/cases/shanghai/08-bahuaqi: U = 20 from each other player
    assert s.settlement.payments == [-20, 60, -20, -20]


def test_liaoyang_self_draw_among_the_last_four_is_haidilao() -> None:
    """tests/cases/liaoyang/11-haidilao followed live: the 分张 flag comes from the wall."""
    deal = ["2m EEE SSS WWW NN CC", "22m 789p 78s 456m 88s F", "2p 333s 444s 555s 6p6p P",
            "13p 777m 555p 444p N F"]
    s = run(start("liaoyang", deal, indicator="9s"),
            ev.Discarded(seat=0, tile="2m"), ev.Punged(seat=1), ev.Discarded(seat=1, tile="F"),
            ev.Drew(seat=2), ev.Discarded(seat=2, tile="2p"), ev.Chowed(seat=3, tiles="123p"),
            ev.Discarded(seat=3, tile="N"), ev.Drew(seat=0), ev.Discarded(seat=0, tile="C"))
    assert s.drawable == 136 - 53 - 16 - 2
    early = s.clone()
    early.undrawn = 16 + 5  # fast-forward: five drawable, the next draw is not yet a 分张
    early = early.apply(ev.Drew(seat=1, tile="6s")).apply(ev.Won(seats=(1,)))
    assert "last_tiles" not in early.record.to_json()["wins"][0]
    s = s.clone()
    s.undrawn = 16 + 4  # the next draw is the first of the last four (分张)
    s = s.apply(ev.Drew(seat=1, tile="6s")).apply(ev.Won(seats=(1,)))
    win = s.record.to_json()["wins"][0]
    assert win == {"seat": 1, "tile": "6s", "by": "self_draw", "last_tiles": True}
    assert s.settlement.payments == [-100, 196, -64, -32]
    assert s.settlement.next_dealer == 1


def test_a_kong_replacement_may_take_the_liaoyang_indicator_itself() -> None:
    # indicator 2m: three more 2m in hands; replacements run along the tail to its stack
    deal = ["2m2m EEEE SSS WWW NN", "2m 999s 111p 999m CCC", "?" * 13, "?" * 13]
    s = start("liaoyang", deal, indicator="2m")
    with pytest.raises(EventRefused, match="5 copies of 2m"):
        run(s, ev.Discarded(seat=0, tile="N"), ev.Drew(seat=1, tile="2m"))
    s = run(s, ev.Konged(seat=0, kind="concealed", tile="E"), ev.Drew(seat=0, tile="2m"))
    assert s.indicator_drawn and s.seats[0].known[1] == 3
    assert s.record is None and s.need == "discard"


def test_shanghai_louhu_spares_the_claimant() -> None:
    """漏胡 is for passing a win, not for claiming: seat 1 chows the 3m, is left waiting on a
    3m (混一色 in characters), and may win on the next 3m before it draws again."""
    deal = ["3m 1p2p3p 4p5p6p 7p8p9p SS N W", "234m 567m 888m EEE C",
            "3m 1s2s3s 4s5s6s 7s8s9s SS W",
            "FFF PPP 2p2p2p 3p3p3p 4p"]
    s = run(start("shanghai", deal), ev.Discarded(seat=0, tile="3m"),
            ev.Chowed(seat=1, tiles="234m"), ev.Discarded(seat=1, tile="C"))
    assert s.seats[1].louhu == set()
    s = run(s, ev.Drew(seat=2, tile="1s"), ev.Discarded(seat=2, tile="3m"), ev.Won(seats=(1,)))
    assert s.record.wins[0].seat == 1 and s.record.wins[0].from_seat == 2


def test_shandong_counts_the_stacks_at_both_ends_of_the_wall() -> None:
    """6 stacks stay, an odd tile counting as a stack. The deal takes 53 tiles from the front
    (its last stack left with one tile) and each flower or kong replacement one from the tail:
    after an odd number of replacements 12 tiles are 7 stacks (the front's odd tile, 5 whole
    stacks, the tail's odd tile), so one more tile is drawn; play stops at 11 tiles, 6 stacks."""
    deal = ["3m EEE SSS WWW NNN C", "2m4m 999m 111p 999s C f1", "33m 666m 777m 888m FF",
            "12m 456p 789p 234s 55s"]
    s = run(start("shandong", deal), ev.FlowerSetAside(seat=1, tile="f1"),
            ev.Drew(seat=1, tile="1s"))
    assert s.undrawn == 144 - 53 - 1 and s.drawable == s.undrawn - 11
    s = s.apply(ev.Discarded(seat=0, tile="3m")).clone()
    s.undrawn = 13  # 130 drawn from the front, 1 from the tail
    s = run(s, ev.Drew(seat=1, tile="5p"), ev.Discarded(seat=1, tile="5p"))
    assert s.undrawn == 12 and s.drawable == 1 and "12 tiles in the wall, 1 drawable" in s.status()
    with pytest.raises(EventRefused, match="1 tile\\(s\\) are still drawable"):
        s.apply(ev.DrawGame())
    s = run(s, ev.Drew(seat=2, tile="5p"), ev.Discarded(seat=2, tile="5p"))
    assert s.undrawn == 11 and s.drawable == 0
    assert s.apply(ev.DrawGame()).record.outcome == "draw"
    # with an even number of replacements the front's odd tile is the only one: 12 tiles stay
    s = run(start("shandong", PRIORITY_DEAL), ev.Discarded(seat=0, tile="3m")).clone()
    s.undrawn = 13
    s = s.apply(ev.Drew(seat=1, tile="5p"))
    assert s.drawable == 0


def test_dealer_kong_before_its_first_discard_then_wins_on_the_replacement() -> None:
    """The deal's flower replacements are no 杠上开花, but a kong is play: the dealer's 暗杠 of
    1m before its first discard, then 9s from the tail, wins 杠上开花 in its first turn; not
    天和, which is the dealt 14 tiles complete as dealt ("庄家起手和牌"). 番 2, 花 2 (suit 暗杠):
    S = (5 + 2) × 2."""
    deal = ["1111m 234p 567p 99s 55s", "EEE SSS WWW NNN C", "2m4m 999m 111p 888s CC",
            "33m 666m 777m 888m FF"]
    s = run(start("shandong", deal), ev.Konged(seat=0, kind="concealed", tile="1m"),
            ev.Drew(seat=0, tile="9s"), ev.Won(seats=(0,)))
    win = s.record.wins[0]
    assert win.replacement == "kong" and win.first_turn and win.tile == 26  # 9s
    assert s.settlement.payments == [42, -14, -14, -14]


def test_several_winners_share_one_discarded_tile_in_the_count() -> None:
    """一炮多响 on the fourth 2s: seat 1 holds one, seat 3 two, the dealer throws the last. Each
    winner's hand shows the discard, but it is one tile (README: counts once)."""
    deal = ["2s EEE SSS WWW NNN C", "123m 456m 789m 2s 555s", "33m 666m 777m 888m FF",
            "123p 456p 789p 2s2s 8s8s"]
    s = run(start("shandong", deal), ev.Discarded(seat=0, tile="2s"), ev.Won(seats=(1, 3)))
    assert [w.seat for w in s.record.wins] == [1, 3] and s.record.wins[0].tile == 19
    assert sum(s.settlement.payments) == 0 and s.settlement.payments[0] < 0
