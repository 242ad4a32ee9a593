"""花 (flower points) for the winner, used by 碰碰胡 and 混一色 (底 + 花).

One class per source; the points per meld type sit in a class attribute so the table in the spec
can be read off the code.
"""

from __future__ import annotations

from typing import ClassVar

from scoring.rulesets.shanghai.hand import HandFacts
from scoring.settlement import Item
from scoring.tiles import NUM_KINDS, TILE_NAMES, is_dragon, is_suit, is_wind


class FlowerSource:
    name: ClassVar[str]
    points: ClassVar[dict[str, int]]  # by meld type, "triplet" for a 刻 (pung or concealed)

    @classmethod
    def matches(cls, tile: int) -> bool:
        raise NotImplementedError


class SuitKong(FlowerSource):
    name = "数牌杠"
    points: ClassVar[dict[str, int]] = {"exposed_kong": 1, "added_kong": 1, "concealed_kong": 2}

    @classmethod
    def matches(cls, tile: int) -> bool:
        return is_suit(tile)


class WindSet(FlowerSource):
    name = "风牌"
    points: ClassVar[dict[str, int]] = {
        "triplet": 1, "exposed_kong": 2, "added_kong": 2, "concealed_kong": 3}

    @classmethod
    def matches(cls, tile: int) -> bool:
        return is_wind(tile)


class DragonSet(FlowerSource):
    name = "箭牌"
    points: ClassVar[dict[str, int]] = {
        "triplet": 2, "exposed_kong": 3, "added_kong": 3, "concealed_kong": 4}

    @classmethod
    def matches(cls, tile: int) -> bool:
        return is_dragon(tile)


FLOWER_SOURCES: tuple[type[FlowerSource], ...] = (SuitKong, WindSet, DragonSet)
#: the sources each playing tile kind matches, in FLOWER_SOURCES order (read once per set)
_SOURCES_OF: tuple[tuple[type[FlowerSource], ...], ...] = tuple(
    tuple(source for source in FLOWER_SOURCES if source.matches(t)) for t in range(NUM_KINDS))
BONUS_FLOWER = 1  # each 春夏秋冬梅兰竹菊

_KIND_NAMES = {"triplet": "刻", "exposed_kong": "明杠", "added_kong": "补杠",
               "concealed_kong": "暗杠"}


def flower_items(hand: HandFacts) -> list[Item]:
    """Every 花 the winner earns, one item per flower or set."""
    items = [_BONUS_ITEM[f] for f in hand.flowers]
    for m in hand.melds:
        items += _SET_ITEMS.get((m.kind, "triplet" if m.type == "pung" else m.type), ())
    for t in hand.concealed_triplets():
        items += _SET_ITEMS[t, "triplet"]
    return items


def _set_items(tile: int, kind: str) -> tuple[Item, ...]:
    """The 花 items of one set of ``tile`` (``kind``: "triplet" or a kong's type)."""
    items = []
    for source in _SOURCES_OF[tile]:
        if kind in source.points:
            name = f"{source.name}{_KIND_NAMES[kind]}"
            items.append(Item(name, source.points[kind], "hua",
                              f"{TILE_NAMES[tile]} {kind.replace('_', ' ')}",
                              f"{TILE_NAMES[tile]} {name}"))
    return tuple(items)


# every item a flower or a set can earn, written once (items are frozen): a hand's are looked up
_BONUS_ITEM = tuple(Item("花", BONUS_FLOWER, "hua", f"bonus flower {TILE_NAMES[f]}",
                         f"花牌 {TILE_NAMES[f]}") for f in range(len(TILE_NAMES)))
_SET_ITEMS = {(t, kind): _set_items(t, kind) for t in range(NUM_KINDS) for kind in _KIND_NAMES}
