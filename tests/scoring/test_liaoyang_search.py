"""The 混 search against an independent oracle.

The spec: "the engine tries every assignment and keeps the valid one with the most winner fans".
The oracle does exactly that, the slow way: it puts every tile kind in place of each 混 (a fifth
copy included, as the spec allows a 混 to stand for any tile), reads the resulting natural hand
with a plain recursive splitter written here (not the hand engine), and keeps the best valid
reading. The evaluator must agree on whether the hand may win and on the best winner 番 that
depend on the reading.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations_with_replacement

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.engine import Decomposition, Group
from scoring.errors import InvalidHand
from scoring.record import Meld, Win
from scoring.rulesets.liaoyang.evaluator import evaluate_winner
from scoring.rulesets.liaoyang.facts import Reading, WinnerHand
from scoring.rulesets.liaoyang.fans import WINNER_FANS
from scoring.rulesets.liaoyang.options import LiaoyangOptions
from scoring.rulesets.liaoyang.requirements import first_failure
from scoring.rulesets.liaoyang.wild import hun_of, jiqiang_of

PER_READING = tuple(f for f in WINNER_FANS if f.per_reading)
SETS = ([("chow", s * 9 + r) for s in range(3) for r in range(7)]
        + [("pung", t) for t in range(34)])


def _split(counts: Counter[int], pair_done: bool, acc: list[Group]) -> Iterator[list[Group]]:
    """Every way to split natural counts (any multiplicity) into sets and one pair."""
    left = sorted(t for t, n in counts.items() if n)
    if not left:
        if pair_done:
            yield list(acc)
        return
    i = left[0]
    if counts[i] >= 3:
        counts[i] -= 3
        yield from _split(counts, pair_done, [*acc, Group("pung", (i, i, i))])
        counts[i] += 3
    if not pair_done and counts[i] >= 2:
        counts[i] -= 2
        yield from _split(counts, True, [*acc, Group("pair", (i, i))])
        counts[i] += 2
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for t in (i, i + 1, i + 2):
            counts[t] -= 1
        yield from _split(counts, pair_done, [*acc, Group("chow", (i, i + 1, i + 2))])
        for t in (i, i + 1, i + 2):
            counts[t] += 1


def _oracle_best(hand: WinnerHand, options: LiaoyangOptions) -> int | None:
    natural = [t for t in hand.concealed if t != hand.hun]
    best: int | None = None
    for stood in combinations_with_replacement(range(34), len(hand.concealed) - len(natural)):
        counts = Counter([*natural, *stood])
        shapes = [Decomposition("standard", tuple(g)) for g in _split(counts, False, [])]
        if len(hand.concealed) == 14 and all(n % 2 == 0 for n in counts.values()):
            shapes.append(Decomposition("seven_pairs", tuple(
                Group("pair", (t, t)) for t in sorted(counts) for _ in range(counts[t] // 2))))
        for d in shapes:
            r = Reading(hand, d)
            if first_failure(r) is None:
                value = sum(f.fan * f.times(r, options) for f in PER_READING)
                best = value if best is None else max(best, value)
    return best


@st.composite
def hands(draw: st.DrawFn) -> tuple[WinnerHand, LiaoyangOptions]:
    """Mostly near-valid hands (a set in each suit, pungs, 2/8 and dragon pairs) so that the 混
    often have readings of different value; some seven-pairs shapes; one or two 混."""
    indicator = draw(st.integers(0, 33))
    hun = hun_of(indicator)
    melds: list[Meld] = []
    if draw(st.integers(0, 3)) == 0:  # seven pairs shaped
        tiles = [t for t in draw(st.lists(st.integers(0, 33), min_size=7, max_size=7))
                 for _ in range(2)]
    else:
        tiles = [draw(st.sampled_from([1, 7, 10, 16, 19, 25, 31, 32, 33, 0, 26, 27]))] * 2
        laid = draw(st.integers(0, 4))
        suits = [0, 1, 2, draw(st.integers(0, 3))]
        for i, suit in enumerate(draw(st.permutations(suits))):
            sets = [x for x in SETS if (x[1] // 9 if x[1] < 27 else 3) == suit]
            kind, t = draw(st.sampled_from(sets))
            group = [t, t + 1, t + 2] if kind == "chow" else [t, t, t]
            if i < laid and hun not in group:
                melds.append(Meld("chow" if kind == "chow" else "pung", tuple(group), 0))
            else:
                tiles += group
    n_hun = draw(st.integers(1, min(2, len(tiles) - 1)))
    for i in draw(st.lists(st.integers(0, len(tiles) - 1), min_size=n_hun, max_size=n_hun,
                           unique=True)):
        tiles[i] = hun
    assume(tiles.count(hun) <= 2)  # the oracle tries 34^k assignments: keep k small
    by = draw(st.sampled_from(["self_draw", "discard"])) if melds else "self_draw"
    win = Win(seat=1, tile=tiles[-1], by=by, from_seat=None if by == "self_draw" else 2)
    hand = WinnerHand(1, win, tuple(tiles), tuple(melds), False, hun, jiqiang_of(indicator))
    return hand, LiaoyangOptions(qidui_counts_bimen=draw(st.booleans()))


@settings(max_examples=60, deadline=None)
@given(hands())
def test_search_keeps_the_best_valid_assignment(case: tuple[WinnerHand, LiaoyangOptions]) -> None:
    hand, options = case
    expected = _oracle_best(hand, options)
    try:
        ev = evaluate_winner(hand, options)
    except InvalidHand:
        assert expected is None, f"refused, but a valid reading scores {expected}"
        return
    assert expected is not None, f"accepted {ev.reading.decomposition}, the oracle finds none"
    assert sum(f.fan * f.times(ev.reading, options) for f in PER_READING) == expected
    assert first_failure(ev.reading) is None
