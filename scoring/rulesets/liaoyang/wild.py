"""混 (wildcard) and 鸡枪 kinds from the indicator tile (spec: 混, 鸡 and 枪)."""

from __future__ import annotations

from scoring.errors import RecordError
from scoring.tiles import (
    DRAGONS,
    NUM_KINDS,
    WINDS,
    Tile,
    is_dragon,
    is_suit,
    is_wind,
    next_in_cycle,
    rank_of,
)


def hun_of(indicator: Tile) -> Tile:
    """The 混: the tile after the indicator (1→…→9→1, E→S→W→N→E, 中→发→白→中)."""
    if type(indicator) is int and 0 <= indicator < NUM_KINDS:
        return _HUN[indicator]
    return next_in_cycle(indicator)  # (raises, naming the tile)


def hun_may_be_claimed(meld_type: str, hun_claims: bool) -> bool:
    """May a 混 be used in this meld? Never in a 吃 ("混不能…用于吃牌"); in a 碰 or 杠 only with
    option ``hun_claims``."""
    return hun_claims and meld_type != "chow"


def jiqiang_of(indicator: Tile) -> frozenset[Tile]:
    """The two 鸡枪 kinds (8 tiles).

    Suit indicator of rank r: rank r of the other two suits. Wind: the two winds that are neither
    the indicator nor the 混. Dragon: the two dragons that are not the 混 (indicator included).
    """
    if type(indicator) is int and 0 <= indicator < NUM_KINDS:
        return _JIQIANG[indicator]
    return _jiqiang(indicator)


def _jiqiang(indicator: Tile) -> frozenset[Tile]:
    hun = hun_of(indicator)
    if is_suit(indicator):
        r = rank_of(indicator) - 1
        return frozenset(s * 9 + r for s in range(3) if s != indicator // 9)
    if is_wind(indicator):
        return frozenset(t for t in WINDS if t not in (indicator, hun))
    if is_dragon(indicator):
        return frozenset(t for t in DRAGONS if t != hun)
    raise RecordError(f"the indicator must be a playing tile, got {indicator}", "context.indicator")


# both read for every Liaoyang record: worked out once per playing tile
_HUN = tuple(next_in_cycle(t) for t in range(NUM_KINDS))
_JIQIANG = tuple(_jiqiang(t) for t in range(NUM_KINDS))
