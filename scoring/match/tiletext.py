"""Tile strings of the event log: the rules notation plus ``?`` for a tile nobody saw.

A camera may see a tile's back only (a face-down draw). Events keep such a tile as ``?`` so the
engine still counts it; ``"12m??5p"`` is three known tiles and two unknown ones.
"""

from __future__ import annotations

from scoring.errors import TileError
from scoring.tiles import Tile, format_tiles, parse_tiles

UNKNOWN = "?"


def parse_with_unknown(text: str) -> tuple[list[Tile], int]:
    """Known tiles (in order) and the number of ``?`` marks in ``text``."""
    unknown = text.count(UNKNOWN)
    known = parse_tiles(text.replace(UNKNOWN, " ")) if unknown else parse_tiles(text)
    return known, unknown


def format_with_unknown(known: list[Tile], unknown: int) -> str:
    return format_tiles(known, sort=True) + UNKNOWN * unknown


def one_tile_or_unknown(text: str | None) -> Tile | None:
    """``None`` or ``"?"`` is an unknown tile; anything else must be exactly one tile."""
    if text is None or text == UNKNOWN:
        return None
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise TileError(f"expected one tile, got {text!r}")
    return tiles[0]
