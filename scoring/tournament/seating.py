"""Seat a round: four players a table, as few repeated opponents as possible, repeats named.

Two ways, one search: :func:`seat_round` takes players in an order (the standings, best first,
so tables stay near in rank — or the registration order for a schedule fixed before the event)
and the pairs that already met. It fills tables greedily from the top, each time taking the
player who adds the fewest repeated pairs among the next few, then swaps players between tables
while that lowers the repeats (or the rank spread at equal repeats). :func:`fixed_schedule`
seats every round up front from the registration order and fixed shuffles of it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations, permutations

from scoring.tournament.model import TableSeating, TournamentError

Pair = tuple[str, str]


def pair(a: str, b: str) -> Pair:
    return (a, b) if a <= b else (b, a)


def met_pairs(rounds: Iterable[Sequence[TableSeating]]) -> Counter[Pair]:
    """How often each pair of players sat at one table."""
    met: Counter[Pair] = Counter()
    for tables in rounds:
        for t in tables:
            met.update(pair(a, b) for a, b in combinations(t.players, 2))
    return met


def repeats_of(tables: Sequence[TableSeating], met: Counter[Pair]) -> list[tuple[str, str, int]]:
    """The pairs of this round that met before, with how often they had (sorted)."""
    out = []
    for t in tables:
        for a, b in combinations(t.players, 2):
            times = met.get(pair(a, b), 0)
            if times:
                out.append((*pair(a, b), times))
    return sorted(out)


def seat_round(order: Sequence[str], met: Counter[Pair], round_no: int,
               window: int = 8) -> tuple[list[TableSeating], list[tuple[str, str, int]]]:
    """Tables for ``round_no`` from ``order`` (best first) and the pairs ``met`` before.

    Returns the tables and the repeated pairs that remain (empty when none could be avoided
    by this search, which is also the common case from round 2 on).
    """
    if len(order) % 4 or not order or len(set(order)) != len(order):
        raise TournamentError("seating needs distinct players in fours")
    rank = {p: i for i, p in enumerate(order)}
    free = list(order)
    groups: list[list[str]] = []
    while free:
        group = [free.pop(0)]
        while len(group) < 4:
            best = min(range(min(window, len(free))),
                       key=lambda i: (sum(met.get(pair(free[i], g), 0) for g in group), i))
            group.append(free.pop(best))
        groups.append(group)

    def cost(g: list[str]) -> tuple[int, int]:
        reps = sum(met.get(pair(a, b), 0) for a, b in combinations(g, 2))
        spread = max(rank[p] for p in g) - min(rank[p] for p in g)
        return reps, spread

    improved = True
    passes = 0
    while improved and passes < 50:
        improved, passes = False, passes + 1
        for x, y in permutations(range(len(groups)), 2):
            if cost(groups[x])[0] == 0:  # only tables with a repeat look for a swap
                continue
            for i in range(4):
                for j in range(4):
                    a, b = groups[x], groups[y]
                    before = _add(cost(a), cost(b))
                    a[i], b[j] = b[j], a[i]
                    after = _add(cost(a), cost(b))
                    if after < before:
                        improved = True
                    else:
                        a[i], b[j] = b[j], a[i]
    # seats: rotate within each table by round so nobody always deals first
    tables = []
    for n, g in enumerate(sorted(groups, key=lambda g: min(rank[p] for p in g)), start=1):
        g = sorted(g, key=lambda p: rank[p])
        k = (round_no - 1) % 4
        tables.append(TableSeating(round_no, n, tuple(g[k:] + g[:k])))  # type: ignore[arg-type]
    return tables, repeats_of(tables, met)


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return a[0] + b[0], a[1] + b[1]


def fixed_schedule(players: Sequence[str], rounds: int, tries: int = 30
                   ) -> tuple[list[list[TableSeating]], list[tuple[str, str, int]]]:
    """Every round seated before the event from the registration order; all repeats listed.

    Each round is seated against the pairs of the rounds before it, from the registration
    order and then from up to ``tries`` fixed shuffles of it (seeded by the round, so the
    schedule is the same on every run), keeping the seating with the fewest repeats.
    """
    met: Counter[Pair] = Counter()
    schedule: list[list[TableSeating]] = []
    repeats: list[tuple[str, str, int]] = []
    for r in range(1, rounds + 1):
        best: tuple[list[TableSeating], list[tuple[str, str, int]]] | None = None
        for k in range(tries if r > 1 else 1):
            order = list(players)
            if k:
                random.Random(r * 7919 + k).shuffle(order)
            tables, reps = seat_round(order, met, r, window=len(order))
            if best is None or len(reps) < len(best[1]):
                best = (tables, reps)
            if not reps:
                break
        assert best is not None
        schedule.append(best[0])
        repeats.extend(best[1])
        met.update(met_pairs([best[0]]))
    return schedule, repeats
