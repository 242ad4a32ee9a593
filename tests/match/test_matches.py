"""Whole matches, one per ruleset, against totals worked out by hand.

Each match mixes hands typed in as records (the worked cases of ``tests/cases``, whose payments
were computed by hand from the specs; some are turned round the table, which the rules do not
notice, so they fit the dealer the match has reached) with hands followed event by event, draws,
一炮多响 and 承包 where the ruleset has them, a player leaving, and a correction. The expected
payments below are copied from the cases' ``.expect.json`` (rotated where the record is) and
the escape penalties are worked from the specs; the totals are summed by hand.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import random

from scoring.match import MatchStore
from scoring.match import events as ev
from tests.match.conftest import case
from tests.match.simtable import SimTable
from tests.match.test_hand import PRIORITY_DEAL


def rotated(record: dict, r: int) -> dict:
    """The same hand with every seat moved ``r`` places round the table."""
    rec = copy.deepcopy(record)
    if r % 4 == 0:
        return rec
    seats = rec["seats"]
    rec["seats"] = [seats[(k - r) % 4] for k in range(4)]
    rec["dealer"] = (rec["dealer"] + r) % 4
    for seat in rec["seats"]:
        for meld in seat.get("melds", []):
            if "from" in meld:
                meld["from"] = (meld["from"] + r) % 4
    for win in rec.get("wins", []):
        for key in ("seat", "from", "kong_fed_by"):
            if win.get(key) is not None:
                win[key] = (win[key] + r) % 4
    return rec


def typed(ruleset: str, stem: str, r: int = 0) -> dict:
    """A worked case as a referee would enter it: the match supplies the counters."""
    rec = rotated(case(ruleset, stem), r)
    for key in ("huangzhuang_streak", "huangfan"):
        rec.get("context", {}).pop(key, None)
    return rec


def play_live(store: MatchStore, mid: int, events: list[ev.Event]) -> None:
    for e in events:
        store.append_event(mid, e, who="camera")


def live_draw_game(store: MatchStore, mid: int, seed: int) -> None:
    """A whole hand followed from the camera that ends with the wall: nobody pays."""
    match = store.load(mid)
    table = SimTable(random.Random(seed), match.ruleset, match.options, match.dealer,
                     match.counters, win=0.0, hide=0.3)
    events = table.play()
    assert events[-1].type == "draw_game"
    play_live(store, mid, events)


def payments(store: MatchStore, mid: int) -> list[list]:
    """Each settled hand's and each escape's payments, in log order."""
    m = store.load(mid).state
    rows = [(h.seq, list(h.settlement.payments)) for h in m.hands]
    rows += [(d.seq, list(d.payments)) for d in m.departures]
    return [p for _, p in sorted(rows)]


def check_replay_and_exports(store: MatchStore, mid: int) -> None:
    match = store.load(mid)
    again = store.replay(mid)
    assert again.totals == match.totals and again.dealer == match.dealer
    assert [h.record.to_json() for h in again.hands] == [h.record.to_json()
                                                         for h in match.hands]
    data = json.loads(json.dumps(store.export_json(mid), ensure_ascii=False))
    assert data["totals"] == match.totals
    assert len(data["hands"]) == len(match.hands)
    assert len(data["events"]) == len(match.log)
    rows = list(csv.DictReader(io.StringIO(store.export_csv(mid))))
    assert len(rows) == len(match.hands) + len(match.state.departures)
    last = rows[-1]
    assert [float(last[f"total_{k}"]) for k in range(4)] == [float(t) for t in match.totals]


def test_shandong_match(store: MatchStore) -> None:
    mid = store.new_match("shandong", {}, ["赵", "钱", "孙", "李"], first_dealer=0)
    add = lambda stem, r=0: store.add_hand(mid, typed("shandong", stem, r), who="ref")  # noqa: E731
    add("02-tuidaohe-self-draw")              # 1: dealer 自摸 推倒和
    m = add("12-dihe-discard")                # 2: 地和 (entered wrongly: corrected below)
    wrong = m.hands[-1].seq
    add("43-yipao-duoxiang-chengbao")         # 3: 一炮多响 with 承包, dealer 1
    add("06-qingyise-yitiaolong")             # 4: dealer 0 again
    m = add("51-draw-from-zero")              # 5: 荒庄 at dealer 3
    assert m.counters == {"huangzhuang_streak": 1} and m.dealer == 0
    add("46-huangzhuang-one-self-draw")       # 6: ×2 for the streak of 1
    m = add("51-draw-from-zero")              # 7: 荒庄 again
    assert m.counters == {"huangzhuang_streak": 1}
    # a live hand: seat 1 pungs the dealer's 中 (1 花) and walks out mid-hand
    play_live(store, mid, [ev.DiceRolled(seat=0, dice=(3, 4)), ev.DiceRolled(seat=0, dice=(2, 5)),
                           ev.WallBroken(), ev.Dealt(hands=tuple(PRIORITY_DEAL)),  # type: ignore
                           ev.Discarded(seat=0, tile="C"), ev.Punged(seat=1)])
    assert store.load(mid).hand is not None
    m = store.append_event(mid, ev.PlayerLeft(seat=1, replacement="周"), who="ref")
    # (底 5 + 花 1) × 10 = 60, split among the other three: 20 each; the streak restarts
    assert m.counters == {"huangzhuang_streak": 0} and m.hand is None
    assert m.players[1] == "周" and m.dealer == 0
    # a live hand from dice to 和: seat 3 wins the dealer's first discard (地和 5 番 = 25)
    play_live(store, mid, [ev.DiceRolled(seat=0, dice=(1, 1)), ev.DiceRolled(seat=0, dice=(6, 6)),
                           ev.WallBroken(), ev.Dealt(hands=tuple(PRIORITY_DEAL)),  # type: ignore
                           ev.Discarded(seat=0, tile="3m"), ev.Chowed(seat=1, tiles="234m"),
                           ev.Punged(seat=2), ev.Won(seats=(3,))])
    add("11-jiangyise-pengpenghe")            # 10: dealer 3
    add("16-gangbao")                         # 11: 杠爆, dealer 1
    m = add("22-yipao-duoxiang")              # 12: 一炮多响, dealer 2 -> the discarder deals
    assert m.dealer == 0
    before = [-155, 19, -25, 161]
    assert m.totals == before
    # the referee finds hand 2 came from the wrong sheet: it was a 碰碰和 on the dealer's discard
    m = store.amend(mid, wrong, ev.HandRecorded(record=typed("shandong", "07-pengpenghe")),
                    who="referee 王", why="hand 2 was 碰碰和 on the dealer's discard, not 地和")
    assert payments(store, mid) == [
        [15, -5, -5, -5], [-12, 12, 0, 0], [-5, -6, 6, 5], [-35, -35, -35, 105], [0, 0, 0, 0],
        [-12, -12, -12, 36], [0, 0, 0, 0], [20, -60, 20, 20], [-25, 0, 0, 25],
        [-35, 105, -35, -35], [-36, 0, 36, 0], [-17, 7, 0, 10]]
    assert m.totals == [-142, 6, -25, 161]
    assert m.levels == ["白板"] * 4
    assert len(m.hands) == 11 and [h.source for h in m.hands].count("live") == 1
    # the original entry is still in the log, beside its correction
    assert any(row.seq == wrong for row in m.log) and m.amendments[0].who == "referee 王"
    check_replay_and_exports(store, mid)


def test_shanghai_match(store: MatchStore) -> None:
    # the house option keeps the deal with the nearest winner after 一炮多响 (hand 6), so the
    # worked cases below keep their dealers; the default is followed in test_progression
    mid = store.new_match("shanghai", {"multi_win_dealer": "nearest_winner"},
                          ["A", "B", "C", "D"], first_dealer=0)
    add = lambda stem, r=0: store.add_hand(mid, typed("shanghai", stem, r), who="ref")  # noqa: E731
    m = add("01-pengpenghu-discard")          # 1: (corrected below)
    wrong = m.hands[-1].seq
    add("03-qingyise-discard")                # 2: dealer 1
    add("07-fengpeng-discard")                # 3: dealer 3 keeps it
    m = add("56-draw-from-zero-huangfan")     # 4: 和局, 荒番 0 -> 1
    assert m.counters == {"huangfan": 1} and m.dealer == 3
    add("21-fengpeng-huangfan-hand-cap")      # 5: 荒番 doubles, the 5 勒子 cap
    add("33-chengbao-both-parties-win-not-ready")  # 6: 一炮多响 into two 承包 parties
    add("25-chengbao-partner-discards")       # 7: 承包 partner discards, dealer 0
    add("11-gangkai-floor")                   # 8: 杠开, dealer 1
    live_draw_game(store, mid, seed=11)       # 9: a live hand to the end of the wall
    m = store.load(mid)
    assert m.counters == {"huangfan": 1} and m.dealer == 0
    m = store.append_event(mid, ev.PlayerLeft(seat=3), who="ref")
    # one 底 (2): 75% shared by the other three (0.5 each), 25% to the room; 荒番 resets
    assert m.counters == {"huangfan": 0} and m.state.room == 0.5
    add("25-chengbao-partner-discards")       # 10
    m = add("03-qingyise-discard")            # 11
    assert m.totals == [-83.5, 13.5, -28.5, 98]
    m = store.amend(mid, wrong, ev.HandRecorded(record=typed("shanghai", "05-qingpeng-discard")),
                    who="ref", why="hand 1 was 清碰, not 碰碰胡")
    assert payments(store, mid) == [
        [0, 20, -20, 0], [-10, 0, 0, 10], [-40, 0, 0, 40], [0, 0, 0, 0], [-50, 0, 0, 50],
        [8, 6, -14, 0], [-6, 6, 0, 0], [30, -10, -10, -10], [0, 0, 0, 0],
        [0.5, 0.5, 0.5, -2], [-6, 6, 0, 0], [-10, 0, 0, 10]]
    assert m.totals == [-83.5, 28.5, -43.5, 98]
    assert sum(m.totals) + m.state.room == 0
    check_replay_and_exports(store, mid)


def test_liaoyang_match(store: MatchStore) -> None:
    mid = store.new_match("liaoyang", {}, ["甲", "乙", "丙", "丁"], first_dealer=0)
    add = lambda stem, r=0: store.add_hand(mid, typed("liaoyang", stem, r), who="ref")  # noqa: E731
    add("02-dealer-self-draw")                # 1: the dealer keeps the deal
    m = add("14-fantan")                      # 2: 反弹 (corrected below)
    wrong = m.hands[-1].seq
    live_draw_game(store, mid, seed=5)        # 3: 黄庄 followed live; the dealer keeps it
    assert store.load(mid).dealer == 0
    add("17-bao-three")                       # 4: 宝; seat 1 deals next
    add("13-qianggang", 1)                    # 5: 抢杠, turned one seat round; seat 2 deals
    add("20-draw")                            # 6: 黄庄 at dealer 2
    m = store.append_event(mid, ev.PlayerLeft(seat=0), who="ref")
    # no spec rule: the ruleset settles an escape as one 底 (100) to each other player
    assert m.totals[0] == 40 + 80 + 0 - 34 - 16 + 0 - 300
    add("10-gangkai", 2)                      # 8: 杠开 at dealer 2
    add("23-jiqiang-claimed-winning-tile", 3)  # 9: at dealer 3; back to seat 0
    m = add("24-qidui-with-hun")              # 10: 摇 at dealer 0
    m = store.amend(mid, wrong, ev.HandRecorded(record=typed("liaoyang", "18-yao-plus-bao")),
                    who="ref", why="hand 2 was the 摇 with 宝, entered from the wrong sheet")
    assert payments(store, mid) == [
        [40, -8, -16, -16], [690, -230, -230, -230], [0, 0, 0, 0], [-34, 98, -32, -32],
        [-16, -32, -16, 64], [0, 0, 0, 0], [-300, 100, 100, 100], [-32, 196, -100, -64],
        [-64, 264, -100, -100], [600, -200, -200, -200]]
    assert m.totals == [884, 188, -594, -478]
    check_replay_and_exports(store, mid)
