"""Hand-engine speed against the `mahjong` library (riichi), on the same random hands.

Run: ``python bench/scoring_bench.py [--hands 20000] [--seed 1]``. Prints

- ``win_check_ratio_vs_mahjong: X`` — our win checks per second / ``Agari().is_agari``'s, on the
  same 20,000 random 14-tile hands (half complete, half random draws from a full wall), each
  library given its own native form of the hand (ours: 34 counts as bytes; theirs: a 34-list).
  Both answer "standard shape or seven pairs"; the verdicts are checked to agree first.
- ``waits_us_per_hand_wild0/1/2`` — our 听 computation on 13-tile hands with 0, 1, 2 wildcards.

Goals (issue 2): ratio >= 5; waits under 50 µs with no wildcard, under 500 µs with two.
Each of 9 rounds times both libraries back to back (best of 2 each); the median round's ratio is
printed, with the range, so a burst of load on a busy machine shows up as spread, not as a trend.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mahjong.agari import Agari

from scoring.engine import counts_of, is_winning_counts, waits

SETS = [(s + r, s + r + 1, s + r + 2) for s in (0, 9, 18) for r in range(7)] + [
    (t, t, t) for t in range(34)]


def random_complete(rng: random.Random) -> list[int]:
    while True:
        tiles = [t for _ in range(4) for t in rng.choice(SETS)]
        tiles += [rng.randrange(34)] * 2
        if max(Counter(tiles).values()) <= 4:
            return tiles


def random_draw(rng: random.Random, n: int) -> list[int]:
    return rng.sample([t for t in range(34) for _ in range(4)], n)


def best_of(fn: Callable[[], object], repeats: int = 5) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def is_kokushi(c: bytes) -> bool:
    orphans = (0, 8, 9, 17, 18, 26, *range(27, 34))
    return all(c[t] for t in orphans) and sum(c[t] for t in orphans) == 14


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    hands = [random_complete(rng) if i % 2 else random_draw(rng, 14) for i in range(args.hands)]
    ours = [counts_of(h) for h in hands]
    theirs = [list(c) for c in ours]
    agari = Agari()

    # riichi's seven pairs needs seven different pairs and it also accepts 13 orphans
    def same_question(c: bytes) -> bool:
        return is_winning_counts(c) and not (4 in c and not is_winning_counts(c, False))

    disagree = sum(1 for c, t in zip(ours, theirs, strict=True)
                   if same_question(c) != (agari.is_agari(t) and not is_kokushi(c)))
    if disagree:
        raise SystemExit(f"verdicts differ on {disagree} hands")
    complete = sum(map(is_winning_counts, ours))

    # rounds time both back to back, so a burst of load hits both; the median ratio is reported
    rounds = []
    for _ in range(args.rounds):
        t_ours = best_of(lambda: [is_winning_counts(c) for c in ours], repeats=2)
        t_theirs = best_of(lambda: [agari.is_agari(t) for t in theirs], repeats=2)
        rounds.append((t_theirs / t_ours, t_ours, t_theirs))
    rounds.sort()
    ratio, t_ours, t_theirs = rounds[len(rounds) // 2]
    print(f"hands: {len(hands)} ({complete} complete), seed {args.seed}, {args.rounds} rounds")
    print(f"ours_us_per_check: {t_ours / len(hands) * 1e6:.3f}")
    print(f"mahjong_us_per_check: {t_theirs / len(hands) * 1e6:.3f}")
    print(f"win_check_ratio_range: {rounds[0][0]:.2f}..{rounds[-1][0]:.2f}")
    print(f"win_check_ratio_vs_mahjong: {ratio:.2f}")

    n = min(len(hands), 4000)
    for k in (0, 1, 2):
        wild = frozenset({31}) if k else frozenset()
        thirteen = []
        for h in hands[:n]:
            h = [t for t in h if t != 31][:13 - k] + [31] * k
            while len(h) < 13:
                h.append(rng.randrange(31))
            thirteen.append(h)
        elapsed = best_of(lambda w=wild, hs=thirteen: [waits(h, w) for h in hs], repeats=3)
        print(f"waits_us_per_hand_wild{k}: {elapsed / n * 1e6:.1f}")


if __name__ == "__main__":
    main()
