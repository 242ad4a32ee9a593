"""Standings folded from the logs: the tables' match logs replayed, plus the referee's actions.

Nothing here keeps a score of its own. Each table's log goes through the match engine's
:func:`scoring.match.replay` (the same fold a table runs, amendments and all), which gives the
table's totals and each hand's payments; places, ranking points, adjustments and tie-breaks
are laid on top. :func:`standings` answers for the logs as they stand, :func:`after_each_hand`
for every moment a hand ended anywhere, and :func:`zero_sum_problems` checks that each hand,
table and round pays out exactly what it takes in (what leaves the table, Shanghai's room fee
on an escape, counted).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from scoring.match import EventRefused, LoggedEvent, replay
from scoring.match.state import MatchState
from scoring.settlement import Number
from scoring.tournament.actions import Action, Adjustment, RoundClosed, RoundSeated, Substituted
from scoring.tournament.model import TableSeating, Tournament

TableKey = tuple[int, int]  # (round, table)
EPS = 1e-6


@dataclass(frozen=True)
class Moment:
    """Something that moved a table's score: a finished hand, an escape, or a referee's
    penalty or bonus (``adjustment``: its points come from outside the table, so its
    ``room_fee`` is minus them and every moment still sums to zero)."""

    seq: int
    at: str
    payments: tuple[Number, ...]
    room_fee: Number
    kind: str  # "hand", "escape" or "adjustment"
    adjustment: Adjustment | None = None  # who, why and whom, for an adjustment


@dataclass(frozen=True)
class TableResult:
    round: int
    table: int
    players: tuple[str, str, str, str]
    moments: tuple[Moment, ...]
    totals: tuple[Number, ...]  # what the log replays to, the referee's adjustments included
    room: Number
    places: tuple[int, ...]  # 1-based, the best place of a tied group
    points: tuple[float, ...]  # ranking points of each seat (shared between tied seats)
    substitutes: tuple[Substituted, ...] = ()
    problem: str | None = None  # the log stops replaying here (the referee amends it)
    final: bool = False  # the round is closed
    adjusted: tuple[Number, ...] = (0, 0, 0, 0)  # each seat's penalties and bonuses

    @property
    def hands(self) -> int:
        return sum(1 for m in self.moments if m.kind == "hand")

    @property
    def adjustments(self) -> tuple[Adjustment, ...]:
        return tuple(m.adjustment for m in self.moments if m.adjustment is not None)

    @property
    def played(self) -> tuple[Number, ...]:
        """Each seat's score from the play alone (what places are decided by)."""
        return tuple(t - a for t, a in zip(self.totals, self.adjusted, strict=True))


@dataclass(frozen=True)
class Row:
    rank: int
    player: str
    points: float
    score: float
    adjustments: float
    firsts: int
    best_table: float
    tables: int
    tied: bool  # level with the row above on every key


@dataclass(frozen=True)
class Standings:
    rows: tuple[Row, ...]
    tables: tuple[TableResult, ...]
    adjustments: tuple[Adjustment, ...]
    closed_rounds: tuple[int, ...]
    problems: tuple[str, ...] = field(default=())

    def row(self, player: str) -> Row:
        return next(r for r in self.rows if r.player == player)


def seatings(actions: Sequence[Action]) -> dict[int, tuple[TableSeating, ...]]:
    """Each round's tables (the latest seating of a round counts)."""
    out: dict[int, tuple[TableSeating, ...]] = {}
    for a in actions:
        if isinstance(a, RoundSeated):
            out[a.round] = a.tables
    return dict(sorted(out.items()))


def places_and_points(totals: Sequence[Number], table_points: Sequence[float]
                      ) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """Places by score, ties sharing the points of the places they cover."""
    order = sorted(range(4), key=lambda s: -totals[s])
    places, points = [0] * 4, [0.0] * 4
    i = 0
    while i < 4:
        j = i
        while j + 1 < 4 and abs(totals[order[j + 1]] - totals[order[i]]) < EPS:
            j += 1
        share = round(sum(table_points[i:j + 1]) / (j - i + 1), 6)
        for k in range(i, j + 1):
            places[order[k]], points[order[k]] = i + 1, share
        i = j + 1
    return tuple(places), tuple(points)


def replay_table(log: Sequence[LoggedEvent]) -> tuple[MatchState | None, str | None]:
    """The match state a table's log replays to, or the state up to the event that fails."""
    try:
        return replay(log), None
    except EventRefused as exc:
        if exc.seq is None:
            return None, str(exc)
        good = [r for r in log if r.seq < exc.seq or r.event.type == "amend"]
        try:
            return replay(good), str(exc)
        except EventRefused:
            return None, str(exc)


def _moments(state: MatchState, at: Mapping[int, str], seating: TableSeating
             ) -> tuple[Moment, ...]:
    out = [Moment(h.seq, at.get(h.seq, ""), tuple(h.settlement.payments), 0, "hand")
           for h in state.hands]
    out += [Moment(d.seq, at.get(d.seq, ""), tuple(d.payments), d.room_fee, "escape")
            for d in state.departures]
    for a in state.adjustments:  # for the seat's registered player, as the seat's score is
        note = Adjustment(a.who, at.get(a.seq, ""), a.why, seating.players[a.seat], a.points,
                          seating.round)
        out.append(Moment(a.seq, note.created, tuple(a.points if k == a.seat else 0
                                                     for k in range(4)),
                          -a.points, "adjustment", note))
    return tuple(sorted(out, key=lambda m: m.seq))


def table_result(tournament: Tournament, seating: TableSeating, log: Sequence[LoggedEvent],
                 final: bool = False, substitutes: tuple[Substituted, ...] = ()) -> TableResult:
    """One table from its log, replayed by the match engine."""
    state, problem = replay_table(log) if log else (None, None)
    return table_from_state(tournament, seating, state, {r.seq: r.at for r in log}, final,
                            substitutes, problem)


def table_from_state(tournament: Tournament, seating: TableSeating, state: MatchState | None,
                     at: Mapping[int, str], final: bool = False,
                     substitutes: tuple[Substituted, ...] = (), problem: str | None = None
                     ) -> TableResult:
    """One table from the match its log replays to (``at``: each event's time by position),
    for a caller that keeps replayed matches between calls."""
    moments = _moments(state, at, seating) if state is not None else ()
    return _table(tournament, seating, moments, final, substitutes, problem)


def _table(tournament: Tournament, seating: TableSeating, moments: tuple[Moment, ...],
           final: bool, substitutes: tuple[Substituted, ...], problem: str | None
           ) -> TableResult:
    totals: list[Number] = [0, 0, 0, 0]
    adjusted: list[Number] = [0, 0, 0, 0]
    room: Number = 0
    for m in moments:
        for s in range(4):
            totals[s] += m.payments[s]
            if m.kind == "adjustment":
                adjusted[s] += m.payments[s]
        if m.kind != "adjustment":
            room += m.room_fee
    if any(m.kind != "adjustment" for m in moments):  # places come from the play alone
        places, points = places_and_points([t - a for t, a in zip(totals, adjusted,
                                                                  strict=True)],
                                           tournament.ranking.places)
    else:
        places, points = (0, 0, 0, 0), (0.0, 0.0, 0.0, 0.0)
    return TableResult(seating.round, seating.table, seating.players, moments, tuple(totals),
                       room, places, points, substitutes, problem, final, tuple(adjusted))


def standings(tournament: Tournament, actions: Sequence[Action],
              logs: Mapping[TableKey, Sequence[LoggedEvent]]) -> Standings:
    """The standings the logs say now."""
    closed = tuple(sorted({a.round for a in actions if isinstance(a, RoundClosed)}))
    subs: dict[TableKey, list[Substituted]] = {}
    for a in actions:
        if isinstance(a, Substituted):
            subs.setdefault((a.round, a.table), []).append(a)
    tables = [table_result(tournament, t, logs.get((r, t.table), ()), r in closed,
                           tuple(subs.get((r, t.table), ())))
              for r, seated in seatings(actions).items() for t in seated]
    return standings_of_tables(tournament, tables, actions, closed)


def standings_of_tables(tournament: Tournament, tables: Sequence[TableResult],
                        actions: Sequence[Action], closed: tuple[int, ...]) -> Standings:
    """Standings from table results already replayed (a server keeps them between calls).

    The referee's penalties and bonuses are the tables' ``adjust`` events (in each table's
    totals); ``adjustment`` actions of the tournament's own log, which servers wrote before
    penalties joined the match logs, are still counted on top."""
    legacy = tuple(a for a in actions if isinstance(a, Adjustment))
    logged = tuple(a for t in tables for a in t.adjustments)
    return Standings(_rows(tournament, tables, legacy), tuple(tables), legacy + logged,
                     closed, tuple(f"round {t.round} table {t.table}: {t.problem}"
                                   for t in tables if t.problem))


def _rows(tournament: Tournament, tables: Sequence[TableResult],
          legacy: Sequence[Adjustment]) -> tuple[Row, ...]:
    points = dict.fromkeys(tournament.players, 0.0)
    score = dict.fromkeys(tournament.players, 0.0)
    adjusted = dict.fromkeys(tournament.players, 0.0)
    firsts = dict.fromkeys(tournament.players, 0)
    best: dict[str, float] = {}
    played = dict.fromkeys(tournament.players, 0)
    for t in tables:
        for seat, player in enumerate(t.players):
            score[player] += t.totals[seat]  # the log's adjustments included
            adjusted[player] += t.adjusted[seat]
        if not any(m.kind != "adjustment" for m in t.moments):
            continue
        for seat, player in enumerate(t.players):
            points[player] += t.points[seat]
            firsts[player] += t.places[seat] == 1
            mine = t.played[seat]
            best[player] = max(best.get(player, mine), mine)
            played[player] += 1
    for a in legacy:
        if a.player in adjusted:
            adjusted[a.player] += a.points
            score[a.player] += a.points

    def keys(p: str) -> tuple[float, ...]:
        out = [round(points[p], 6)]
        for name in tournament.ranking.tie_breaks:
            out.append(round({"score": score[p], "firsts": firsts[p],
                              "best_table": best.get(p, 0.0)}[name], 6))
        return tuple(out)

    order = sorted(tournament.players, key=lambda p: (tuple(-k for k in keys(p)), p))
    rows: list[Row] = []
    for i, p in enumerate(order):
        tied = bool(rows) and keys(p) == keys(rows[-1].player)
        rank = rows[-1].rank if tied else i + 1
        rows.append(Row(rank, p, round(points[p], 6), round(score[p], 6),
                        round(adjusted[p], 6), firsts[p], round(best.get(p, 0.0), 6),
                        played[p], tied))
    return tuple(rows)


def after_each_hand(tournament: Tournament, actions: Sequence[Action],
                    logs: Mapping[TableKey, Sequence[LoggedEvent]]
                    ) -> Iterator[tuple[TableKey, Moment, Standings]]:
    """The standings after every hand or escape at any table, in the order they were logged
    (time, then round, table and log position). Each table's log is replayed once."""
    full = standings(tournament, actions, logs)
    timeline = sorted(((m.at, t.round, t.table, m.seq), i, k)
                      for i, t in enumerate(full.tables) for k, m in enumerate(t.moments))
    upto = [0] * len(full.tables)
    for _, i, k in timeline:
        upto[i] = k + 1
        tables = [_table(tournament, TableSeating(t.round, t.table, t.players),
                         t.moments[:upto[j]], t.final, t.substitutes, t.problem)
                  for j, t in enumerate(full.tables)]
        t = full.tables[i]
        yield (t.round, t.table), t.moments[k], standings_of_tables(tournament, tables, actions,
                                                          full.closed_rounds)


def zero_sum_problems(result: Standings) -> list[str]:
    """Every hand, table and round whose payments plus what left the table is not zero."""
    problems = []
    rounds: dict[int, float] = {}
    for t in result.tables:
        where = f"round {t.round} table {t.table}"
        for m in t.moments:
            if abs(sum(m.payments) + m.room_fee) > EPS:
                problems.append(f"{where} event #{m.seq}: payments sum to "
                                f"{sum(m.payments) + m.room_fee}")
        total = sum(t.totals) + t.room - sum(t.adjusted)  # adjustments come from outside
        if abs(total) > EPS:
            problems.append(f"{where}: totals sum to {total}")
        rounds[t.round] = rounds.get(t.round, 0.0) + total
    problems += [f"round {r}: tables sum to {v}" for r, v in rounds.items() if abs(v) > EPS]
    return problems
