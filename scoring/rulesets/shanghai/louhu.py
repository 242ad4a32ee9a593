"""漏胡 (passing a win): which discards a player may still win on.

A player who passes on a discard that would complete his hand may not win on another discard of
the same tile until he next draws, claims or kongs; it applies to that one tile only. The match
engine owns the claim flow; it keeps, per player, the tiles passed since that player's last
draw/claim/kong, and asks :func:`may_win_on_discard` before offering 胡.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from scoring.tiles import Tile, tile_from_name


def _tile(t: Tile | str) -> Tile:
    return tile_from_name(t) if isinstance(t, str) else t


def may_win_on_discard(tile: Tile | str, passed_tiles_since_last_draw: Iterable[Tile | str]
                       ) -> bool:
    """May the player win on this discard? No if it passed a win on the same tile since its
    last draw, claim or kong. Tiles are kind ids or notation (``"5p"``, ``"E"``)."""
    kind = _tile(tile)
    return all(_tile(t) != kind for t in passed_tiles_since_last_draw)


@dataclass
class LouHu:
    """One player's 漏胡 state through a hand, for a match engine that wants it kept here."""

    passed: set[Tile] = field(default_factory=set)

    def passed_win(self, tile: Tile | str) -> None:
        """The player declined 胡 on this discard."""
        self.passed.add(_tile(tile))

    def moved(self) -> None:
        """The player drew, claimed (吃/碰) or made a kong: the restriction lifts."""
        self.passed.clear()

    def may_win_on(self, tile: Tile | str) -> bool:
        return may_win_on_discard(tile, self.passed)
