"""花 (flower points) of one player: bonus flowers and the kongs / claimed honor pungs it shows.

Concealed triplets inside the hand count 0; a 补杠 is valued as a kong, replacing its pung.
"""

from __future__ import annotations

from scoring.record import Meld, Seat
from scoring.settlement import Item, explained_item
from scoring.tiles import TILE_NAMES, format_tiles, is_honor

# (meld type, honor?) -> (Chinese name, 花)
_MELD_HUA: dict[tuple[str, bool], tuple[str, int]] = {
    ("pung", True): ("字牌碰", 1),
    ("exposed_kong", True): ("字牌明杠", 2),
    ("added_kong", True): ("字牌补杠", 2),
    ("concealed_kong", True): ("字牌暗杠", 3),
    ("exposed_kong", False): ("明杠", 1),
    ("added_kong", False): ("补杠", 1),
    ("concealed_kong", False): ("暗杠", 2),
}


_MELD_EN = {"pung": "claimed pung", "exposed_kong": "exposed kong", "added_kong": "added kong",
            "concealed_kong": "concealed kong"}


def meld_hua(meld: Meld) -> tuple[str, int] | None:
    """The 花 a meld is worth, with its name; ``None`` for chows and suit pungs (0)."""
    return _MELD_HUA.get((meld.type, is_honor(meld.kind)))


def hua_items(seat: Seat) -> list[Item]:
    """One item per source of 花, so a referee can count them again (their notes written when
    first read: :func:`scoring.settlement.explained_item`)."""
    items: list[Item] = []
    if seat.flowers:
        items.append(explained_item("花牌", len(seat.flowers), "hua", _flowers_note,
                                    (seat.flowers,)))
    for meld in seat.melds:
        found = meld_hua(meld)
        if found is not None:
            items.append(explained_item(found[0], found[1], "hua", _meld_note,
                                        (found[0], meld.type, meld.tiles)))
    return items


def _flowers_note(flowers: tuple[int, ...]) -> tuple[str, str]:
    tiles = " ".join(TILE_NAMES[t] for t in flowers)
    return f"bonus flowers {tiles}", f"花牌 {tiles}"


def _meld_note(name: str, meld_type: str, meld_tiles: tuple[int, ...]) -> tuple[str, str]:
    tiles = format_tiles(meld_tiles)
    return f"{_MELD_EN[meld_type]} {tiles}", f"{name} {tiles}"


def hua_points(seat: Seat) -> int:
    """Total 花 of a player (for its win, or for the escape penalty)."""
    return sum(int(i.value) for i in hua_items(seat))
