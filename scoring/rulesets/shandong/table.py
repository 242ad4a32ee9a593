"""Table procedures with no hand to score: the wall break from the dice, the escape penalty."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.errors import RecordError
from scoring.rulesets.base import WallBreak
from scoring.settlement import Transfer

STACKS_PER_WALL = 18  # 144 tiles, 4 walls, 2 tiles a stack
STACKS_LEFT_AT_DRAW = 6  # play stops (荒庄) with 6 stacks left; an odd tile counts as a stack
ESCAPE_FACTOR = 10


def wall_break(dealer: int, rolls: Sequence[tuple[int, int]]) -> WallBreak:
    """The dealer rolls twice: the first sum picks the wall (dealer 1, 下家 2, ...), both sums
    together count stacks from that wall's right end.

    A count past the wall's 18 stacks goes on along the next wall to the left, the 上家's.
    """
    if len(rolls) != 2:
        raise RecordError(f"the Shandong dealer rolls twice, got {len(rolls)} roll(s)", "dice")
    for i, roll in enumerate(rolls):
        if len(roll) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in roll):
            raise RecordError(f"roll {i + 1} must be two dice 1..6, got {roll!r}", "dice")
    first = sum(rolls[0])
    count = first + sum(rolls[1])
    wall = (dealer + first - 1) % 4
    stacks = count
    text = (f"first roll {first}: counting the dealer as 1 in play order gives seat {wall}'s "
            f"wall; {first} + {sum(rolls[1])} = {count} stacks from its right end")
    if count > STACKS_PER_WALL:
        wall = (wall - 1) % 4
        stacks = count - STACKS_PER_WALL
        text += f", past its {STACKS_PER_WALL} stacks: {stacks} into seat {wall}'s wall"
    return WallBreak(rollers=(dealer, dealer), wall_seat=wall, stacks_skipped=stacks,
                     explanation=text)


def escape_transfers(leaver: int, flower_points: int, base: int, split: str) -> list[Transfer]:
    """The leaver pays (底 + 花) × 10: split among the other three (remainder one point at a
    time in play order after the leaver), or that amount to each of them."""
    if isinstance(flower_points, bool) or not isinstance(flower_points, int) or flower_points < 0:
        raise ValueError(f"flower points are a whole number >= 0, got {flower_points!r}")
    if not 0 <= leaver <= 3:
        raise ValueError(f"seat number {leaver} is out of range 0..3")
    total = (base + flower_points) * ESCAPE_FACTOR
    others = [(leaver + i) % 4 for i in (1, 2, 3)]
    reason = f"逃跑: ({base} + {flower_points}) × {ESCAPE_FACTOR}"
    if split == "each":
        return [Transfer(leaver, k, total, f"{reason} to each", f"{reason}，每家")
                for k in others]
    part, extra = divmod(total, 3)
    return [Transfer(leaver, k, part + (1 if i < extra else 0), f"{reason} = {total}, split",
                     f"{reason} = {total}，三家分")
            for i, k in enumerate(others)]
