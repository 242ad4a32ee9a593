"""The tournament model: seating, places and points, standings folded from real match logs."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.match import LoggedEvent, replay
from scoring.match.events import Adjusted, Amendment
from scoring.tournament import (
    Adjustment,
    Ranking,
    RoundClosed,
    RoundSeated,
    Substituted,
    Tournament,
    TournamentError,
    action_from_json,
    after_each_hand,
    check_seating,
    fixed_schedule,
    met_pairs,
    places_and_points,
    seat_round,
    standings,
    zero_sum_problems,
)
from tests.tournament.hands import table_log

AT = "2026-12-02T08:00:00Z"


def names(n: int) -> list[str]:
    return [f"P{i:02d}" for i in range(n)]


def seated(tour: Tournament, round_no: int, order: list[str], met=None) -> RoundSeated:
    tables, repeats = seat_round(order, met or Counter(), round_no)
    check_seating(tour, tables)
    return RoundSeated("ref", AT, "seating", round_no, tuple(tables), tuple(repeats))


def played(tour: Tournament, seating: RoundSeated, hands: int, seed: int):
    return {(seating.round, t.table): table_log(tour.ruleset, t.players, hands, seed + t.table)
            for t in seating.tables}


# ---------------------------------------------------------------- seating


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 8), st.integers(0, 3), st.randoms(use_true_random=False))
def test_a_round_seats_everyone_once_and_reports_every_repeat(tables, rounds_before, rng):
    players = names(4 * tables)
    tour = Tournament("t", "shandong", tuple(players), rounds=rounds_before + 1)
    history = []
    for r in range(1, rounds_before + 1):
        order = list(players)
        rng.shuffle(order)
        history.append(seat_round(order, met_pairs(history), r)[0])
    met = met_pairs(history)
    order = list(players)
    rng.shuffle(order)
    got, repeats = seat_round(order, met, rounds_before + 1)
    check_seating(tour, got)  # raises unless every player sits exactly once
    actual = sorted((*sorted((a, b)), met[tuple(sorted((a, b)))]) for t in got
                    for a, b in combinations(t.players, 2) if met[tuple(sorted((a, b)))])
    assert repeats == actual


def test_a_second_round_of_sixteen_has_no_repeat_and_the_standings_order_is_kept():
    players = names(16)
    first, _ = seat_round(players, Counter(), 1)
    second, repeats = seat_round(players, met_pairs([first]), 2)
    assert repeats == []
    # the best players of the standings still play at the first table
    assert "P00" in second[0].players


def test_four_players_over_two_rounds_repeat_and_the_repeats_are_named():
    schedule, repeats = fixed_schedule(names(4), 2)
    assert len(schedule) == 2
    assert len(repeats) == 6 and all(times == 1 for _, _, times in repeats)


def test_a_fixed_schedule_of_sixteen_over_five_rounds_has_no_repeat_and_is_stable():
    schedule, repeats = fixed_schedule(names(16), 5)  # a perfect schedule exists: found
    tour = Tournament("t", "shandong", tuple(names(16)), rounds=5)
    for tables in schedule:
        check_seating(tour, tables)
    assert repeats == []
    assert fixed_schedule(names(16), 5) == (schedule, repeats)


def test_a_seating_missing_a_player_is_refused_with_the_name():
    tour = Tournament("t", "shandong", tuple(names(8)))
    tables, _ = seat_round(names(8), Counter(), 1)
    bad = [tables[0], type(tables[1])(1, 2, ("P04", "P05", "P06", "P00"))]
    with pytest.raises(TournamentError, match="missing P07; twice P00"):
        check_seating(tour, bad)


# ---------------------------------------------------------------- places and points


@pytest.mark.parametrize(("totals", "places", "points"), [
    ((30, 10, -10, -30), (1, 2, 3, 4), (4, 2, 1, 0)),
    ((10, 10, -10, -10), (1, 1, 3, 3), (3, 3, 0.5, 0.5)),
    ((0, 0, 0, 0), (1, 1, 1, 1), (1.75, 1.75, 1.75, 1.75)),
    ((-5, 20, 20, -35), (3, 1, 1, 4), (1, 3, 3, 0)),
])
def test_tied_players_share_the_points_of_the_places_they_cover(totals, places, points):
    assert places_and_points(totals, (4, 2, 1, 0)) == (places, points)


def test_bad_definitions_are_refused_with_what_is_wrong():
    with pytest.raises(TournamentError, match="fours"):
        Tournament("t", "shandong", tuple(names(6)))
    with pytest.raises(TournamentError, match="twice: P01"):
        Tournament("t", "shandong", ("P01", "P01", "P02", "P03"))
    with pytest.raises(TournamentError, match="unknown ruleset"):
        Tournament("t", "riichi", tuple(names(4)))
    with pytest.raises(TournamentError, match="tie-break"):
        Ranking(tie_breaks=("luck",))
    with pytest.raises(TournamentError, match="reason"):
        action_from_json({"name": "adjustment", "actor": "ref", "created": AT, "why": " ",
                          "player": "P01", "points": -10})
    with pytest.raises(TournamentError, match="points"):
        action_from_json({"name": "adjustment", "actor": "ref", "created": AT, "why": "late",
                          "player": "P01", "points": float("nan")})
    with pytest.raises(TournamentError, match="unknown key"):
        action_from_json({"name": "round_closed", "actor": "ref", "created": AT, "why": "x",
                          "round": 1, "sql": "drop table"})


def test_actions_survive_their_json_form():
    tour = Tournament("t", "shandong", tuple(names(8)))
    for action in (seated(tour, 1, names(8)),
                   Adjustment("ref", AT, "slow play", "P03", -10, 1),
                   Substituted("ref", AT, "ill", 1, 2, 3, "Sub", 4),
                   RoundClosed("ref", AT, "time", 1)):
        assert action_from_json(action.to_json()) == action


# ---------------------------------------------------------------- standings from the logs


@pytest.mark.parametrize("ruleset", ["shandong", "liaoyang", "shanghai"])
def test_standings_are_the_replayed_logs_plus_adjustments(ruleset):
    tour = Tournament("t", ruleset, tuple(names(8)))
    seating = seated(tour, 1, names(8))
    logs = played(tour, seating, 6, seed=3)
    penalty = Adjustment("ref", AT, "slow play", "P05", -20, 1)
    result = standings(tour, [seating, penalty], logs)
    for t in result.tables:
        assert list(t.totals) == replay(logs[(1, t.table)]).totals
        for seat, player in enumerate(t.players):
            extra = -20 if player == "P05" else 0
            assert result.row(player).score == t.totals[seat] + extra
    assert zero_sum_problems(result) == []
    assert sum(r.points for r in result.rows) == pytest.approx(2 * sum((4, 2, 1, 0)))


def test_a_penalty_moves_the_score_not_the_places():
    tour = Tournament("t", "shandong", tuple(names(4)))
    seating = seated(tour, 1, names(4))
    logs = played(tour, seating, 5, seed=1)
    before = standings(tour, [seating], logs)
    winner = before.rows[0].player
    after = standings(tour, [seating, Adjustment("ref", AT, "phone", winner, -10_000)], logs)
    assert after.tables[0].places == before.tables[0].places
    assert after.row(winner).points == before.row(winner).points
    assert after.row(winner).score == before.row(winner).score - 10_000
    assert after.row(winner).adjustments == -10_000


def test_a_penalty_in_a_table_s_log_moves_the_score_not_the_places():
    """The referee's penalty is an ``adjust`` event of the table's log: the standings count
    it because the log's replay does, and a strike of it takes it out the same way."""
    tour = Tournament("t", "shandong", tuple(names(4)))
    seating = seated(tour, 1, names(4))
    logs = played(tour, seating, 5, seed=1)
    before = standings(tour, [seating], logs)
    winner = before.rows[0].player
    seat = seating.tables[0].players.index(winner)
    penalty = Adjusted(seat=seat, points=-10_000, who="Ref Wang", why="phone")
    log = [*logs[(1, 1)], LoggedEvent(7, penalty, "2026-12-02T09:00:00.000Z", "Ref Wang")]
    after = standings(tour, [seating], {(1, 1): log})
    table = after.tables[0]
    assert list(table.totals) == replay(log).totals  # what `mjtable match replay` says
    assert table.places == before.tables[0].places and table.played == before.tables[0].totals
    assert after.row(winner).points == before.row(winner).points
    assert after.row(winner).score == before.row(winner).score - 10_000
    assert after.row(winner).adjustments == -10_000
    assert [(a.player, a.points, a.actor, a.why) for a in after.adjustments] == [
        (winner, -10_000, "Ref Wang", "phone")]
    assert zero_sum_problems(after) == []
    steps = list(after_each_hand(tour, [seating], {(1, 1): log}))
    assert steps[-1][1].kind == "adjustment" and steps[-1][2].rows == after.rows
    strike = LoggedEvent(8, Amendment(target=7, who="Ref Wang", why="not hers"), AT)
    assert standings(tour, [seating], {(1, 1): [*log, strike]}).rows == before.rows


def test_a_struck_hand_leaves_the_standings_because_the_log_says_so():
    tour = Tournament("t", "shandong", tuple(names(4)))
    seating = seated(tour, 1, names(4))
    logs = played(tour, seating, 1, seed=2)
    log = logs[(1, 1)]
    assert any(standings(tour, [seating], logs).tables[0].totals)
    strike = Amendment(target=2, who="ref", why="wrong table")
    struck = {(1, 1): [*log, LoggedEvent(3, strike, AT, "ref")]}
    result = standings(tour, [seating], struck)
    assert result.tables[0].totals == (0, 0, 0, 0) and result.tables[0].hands == 0


def test_tie_breaks_follow_the_tournament_options():
    players = names(8)
    # both tables identical: P00 and P04 level on points and score, split by name only
    tour = Tournament("t", "shandong", tuple(players),
                      ranking=Ranking((4, 2, 1, 0), ("score", "firsts")))
    seating = seated(tour, 1, players)
    log = table_log("shandong", seating.tables[0].players, 4, seed=9)
    logs = {(1, 1): log,
            (1, 2): table_log("shandong", seating.tables[1].players, 4, seed=9)}
    rows = standings(tour, [seating], logs).rows
    assert rows[1].tied and rows[1].rank == rows[0].rank == 1
    bonus = Adjustment("ref", AT, "fair play", rows[1].player, 1)
    rows2 = standings(tour, [seating, bonus], logs).rows
    assert rows2[0].player == rows[1].player and not rows2[1].tied


def test_substitutes_and_closed_rounds_are_shown():
    tour = Tournament("t", "shandong", tuple(names(4)), rounds=2)
    seating = seated(tour, 1, names(4))
    sub = Substituted("ref", AT, "ill", 1, 1, 2, "Stand-in", 3)
    result = standings(tour, [seating, sub, RoundClosed("ref", AT, "time", 1)],
                       played(tour, seating, 2, seed=4))
    assert result.tables[0].substitutes == (sub,) and result.tables[0].final
    assert result.closed_rounds == (1,)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["shandong", "liaoyang", "shanghai"]), st.integers(1, 3),
       st.integers(0, 5), st.integers(0, 10_000))
def test_after_every_hand_each_standing_is_zero_sum_and_the_last_is_the_standings(
        ruleset, tables, hands, seed):
    tour = Tournament("t", ruleset, tuple(names(4 * tables)))
    seating = seated(tour, 1, names(4 * tables))
    logs = {(1, t.table): table_log(ruleset, t.players, hands, seed + 7 * t.table)
            for t in seating.tables}
    final = standings(tour, [seating], logs)
    steps = list(after_each_hand(tour, [seating], logs))
    assert len(steps) == tables * hands
    seen: Counter = Counter()
    for key, moment, result in steps:
        seen[key] += 1
        assert zero_sum_problems(result) == []
        assert sum(r.score for r in result.rows) == pytest.approx(0)
        assert moment == next(t for t in result.tables if (t.round, t.table) == key
                              ).moments[-1]
    if steps:
        assert steps[-1][2].rows == final.rows
    assert all(n == hands for n in seen.values())
