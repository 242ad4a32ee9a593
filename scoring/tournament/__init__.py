"""Tournaments: many tables, several rounds, one set of standings folded from the logs.

Pure (no web, no database): it imports ``scoring`` only. A :class:`Tournament` fixes the
players, the ruleset and its options, and the ranking (points per place, tie-breaks). The
referee's :mod:`actions` (a round seated, a substitute, a round closed) are typed events with
who, when and why. Each table of each round keeps its own match log (:mod:`scoring.match`), the
referee's penalties and corrections included (``adjust`` and ``amend`` events);
:func:`standings` replays those logs with the match engine and lays places and ranking points on
top, so the standings always equal what the logs say.

    from scoring.tournament import Tournament, seat_round, standings

    t = Tournament("Club night", "shandong", tuple(names), rounds=3)
    tables, repeats = seat_round(names, met_pairs([]), round_no=1)
    s = standings(t, actions, {(1, 1): log_of_table_1, ...})
    s.rows[0].player, s.rows[0].points, zero_sum_problems(s)
"""

from scoring.tournament.actions import (
    ACTIONS,
    Action,
    Adjustment,
    RoundClosed,
    RoundSeated,
    Substituted,
    action_from_json,
)
from scoring.tournament.model import (
    TIE_BREAKS,
    Ranking,
    TableSeating,
    Tournament,
    TournamentError,
    check_seating,
    same_rules,
)
from scoring.tournament.seating import fixed_schedule, met_pairs, repeats_of, seat_round
from scoring.tournament.standings import (
    Moment,
    Row,
    Standings,
    TableResult,
    after_each_hand,
    places_and_points,
    seatings,
    standings,
    standings_of_tables,
    table_from_state,
    table_result,
    zero_sum_problems,
)

__all__ = [
    "ACTIONS", "TIE_BREAKS", "Action", "Adjustment", "Moment", "Ranking", "RoundClosed",
    "RoundSeated", "Row", "Standings", "Substituted", "TableResult", "TableSeating",
    "Tournament", "TournamentError", "action_from_json", "after_each_hand", "check_seating",
    "fixed_schedule", "met_pairs", "places_and_points", "repeats_of", "same_rules", "seat_round",
    "seatings", "standings", "standings_of_tables", "table_from_state",
    "table_result", "zero_sum_problems",
]
