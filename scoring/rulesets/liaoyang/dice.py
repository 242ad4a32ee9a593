"""The dice procedure (spec: Table) and the draw threshold.

The dealer rolls (sum A); counting the dealer as 1 in play order gives the second roller, whose
wall is used. The second roller rolls (sum B). On that wall, counting stacks from its right end,
the top tile of stack A is the indicator and the dealer starts drawing at stack A + B + 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.rulesets.base import WallBreak

STACKS_PER_WALL = 17  # 136 tiles, 4 walls of 17 two-tile stacks
DRAW_TILES = 16  # 黄庄 when this many undrawn tiles remain ...
PER_HUN_DISCARDED = 2  # ... plus this many for every 混 discarded so far
FENZHANG = 4  # 分张: the last 4 drawable tiles


def _roll_sum(roll: Sequence[int], which: str) -> int:
    if len(roll) != 2 or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6
                                 for d in roll):
        raise ValueError(f"the {which} roll must be two dice 1..6, got {list(roll)!r}")
    return sum(roll)


def second_roller(dealer: int, first_sum: int, dice_count: str) -> int:
    """Count players from the dealer as 1: in play order (``counter_clockwise``, the spec's
    default) or the other way round (``clockwise``, as in the original's own example)."""
    step = 1 if dice_count == "counter_clockwise" else -1
    return (dealer + step * (first_sum - 1)) % 4


def wall_break(dealer: int, rolls: Sequence[Sequence[int]], dice_count: str) -> WallBreak:
    """``rolls``: the dealer's two dice, then the second roller's two dice."""
    if len(rolls) != 2:
        raise ValueError(f"Liaoyang uses two rolls (dealer, then the second roller), got "
                         f"{len(rolls)}")
    a = _roll_sum(rolls[0], "dealer's")
    second = second_roller(dealer, a, dice_count)
    b = _roll_sum(rolls[1], "second roller's")
    start = a + b + 1
    spill = ""
    if start > STACKS_PER_WALL:
        spill = (f"; the wall has {STACKS_PER_WALL} stacks, so counting continues clockwise onto "
                 f"seat {(second - 1) % 4}'s wall: drawing starts at its stack "
                 f"{start - STACKS_PER_WALL}")
    text = (f"dealer seat {dealer} rolls {a}: counting seat {dealer} as 1 "
            f"({dice_count.replace('_', '-')}) gives seat {second}, who rolls {b}. On seat "
            f"{second}'s wall, counting stacks from its right end, the top tile of stack {a} is "
            f"the indicator; the dealer draws from stack {start}{spill}")
    return WallBreak(rollers=(dealer, second), wall_seat=second, stacks_skipped=a + b,
                     indicator_stack=a, explanation=text)


def draw_threshold(hun_discarded: int) -> int:
    """Undrawn tiles at which the hand is drawn (黄庄): 16, plus 2 per 混 discarded by anyone."""
    if hun_discarded < 0:
        raise ValueError(f"混 discarded must be >= 0, got {hun_discarded}")
    return DRAW_TILES + PER_HUN_DISCARDED * hun_discarded


def is_fenzhang(undrawn_before_draw: int, hun_discarded: int) -> bool:
    """Is the next tile drawn one of the 分张 (the last 4 drawable tiles)?"""
    left = undrawn_before_draw - draw_threshold(hun_discarded)
    return 0 < left <= FENZHANG
