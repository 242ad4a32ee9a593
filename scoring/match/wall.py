"""The wall of each ruleset: how many tiles it has, how many stay undrawn, what is drawable.

From the specs: Shandong and Shanghai play 144 tiles (flowers included), Liaoyang 136. Play stops
in Shandong when 6 stacks remain (an odd tile counts as a stack: 12 tiles, or 11 when both ends
of the wall hold an odd tile, see :func:`drawable`), in
Liaoyang when 16 undrawn tiles remain plus 2 for every 混 discarded, and in Shanghai when the wall
is empty. A kong or flower needs a replacement tile, so none is declared once nothing is drawable
(Shandong: "a kong declared by the last player before the draw has no effect").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.rulesets.base import WallBreak

DEALT = 13 * 4 + 1  # the dealer takes 14, the others 13

WALL_TILES = {"shandong": 144, "liaoyang": 136, "shanghai": 144}
HAS_FLOWERS = {"shandong": True, "liaoyang": False, "shanghai": True}
#: how many of the last drawable tiles count as ``last_tiles`` (Liaoyang 分张 = last 4)
LAST_TILES = {"shandong": 1, "liaoyang": 4, "shanghai": 1}
#: how many dice rolls a hand starts with (Shandong: the dealer twice; Liaoyang: dealer, then
#: the second roller; Shanghai: once)
ROLLS = {"shandong": 2, "liaoyang": 2, "shanghai": 1}


def reserve(ruleset: str, hun_discarded: int = 0) -> int:
    """Tiles that stay in the wall when play stops, as each ruleset's table module says."""
    if ruleset == "shandong":
        from scoring.rulesets.shandong.table import STACKS_LEFT_AT_DRAW

        return 2 * STACKS_LEFT_AT_DRAW  # an odd tile counts as a stack: stop at 12 tiles
    if ruleset == "liaoyang":
        from scoring.rulesets.liaoyang.dice import draw_threshold

        return int(draw_threshold(hun_discarded))
    return 0  # Shanghai plays the wall out


def drawable(ruleset: str, undrawn: int, hun_discarded: int = 0, tail_drawn: int = 0) -> int:
    """How many more tiles may be drawn (normal draws and replacements alike).

    ``tail_drawn`` counts the replacements taken from the tail (flowers, kongs). Shandong counts
    stacks: the deal leaves the front stack with one tile (53 dealt) and each front draw takes
    the top tile then the bottom one, so after an odd number of replacements both ends hold an
    odd tile, each a stack, and 12 tiles are 7 stacks: play goes on to 11 tiles. The count of
    further draws assumes they come from the front.
    """
    if ruleset == "shandong":
        from scoring.rulesets.shandong.table import STACKS_LEFT_AT_DRAW

        stacks = WALL_TILES[ruleset] // 2
        front = WALL_TILES[ruleset] - undrawn - tail_drawn
        # stacks left after i more front draws: stacks - (front + i) // 2 - tail_drawn // 2
        limit = 2 * (stacks - STACKS_LEFT_AT_DRAW - tail_drawn // 2)
        return max(0, limit - front)
    return max(0, undrawn - reserve(ruleset, hun_discarded))


def wall_break(ruleset: str, dealer: int, rolls: Sequence[tuple[int, int]],
               options: Mapping[str, Any]) -> WallBreak | None:
    """The ruleset's reading of the dice, or ``None`` while that ruleset cannot say yet."""
    from scoring.errors import RulesetNotImplemented
    from scoring.rulesets.registry import get_ruleset

    try:
        rs = get_ruleset(ruleset)
        return rs.wall_break(dealer, list(rolls), options)
    except (RulesetNotImplemented, NotImplementedError):
        return None
