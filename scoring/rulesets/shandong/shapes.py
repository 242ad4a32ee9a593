"""Winning shapes: sets + a 258 pair (碰碰和 included), or 七对 with no pair rule.

Readings come from the hand engine; this module only applies Shandong's narrowing, and says why
a hand that is no winning shape fails, so the refusal names the reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.engine import Decomposition, decompositions
from scoring.errors import InvalidHand
from scoring.record import Meld
from scoring.tiles import NUM_TILES, Tile, is_suit, rank_of

JIANG_RANKS = (2, 5, 8)


def is_258(t: Tile) -> bool:
    """A 2, 5 or 8 of a suit: the only pair (将) a standard Shandong hand may have."""
    return is_suit(t) and rank_of(t) in JIANG_RANKS


#: the kinds :func:`is_258` accepts, for testing a whole hand in one set operation
KINDS_258: frozenset[Tile] = frozenset(t for t in range(NUM_TILES) if is_258(t))


def readings(concealed: Sequence[Tile], melds: Sequence[Meld],
             four_as_two_pairs: bool) -> list[Decomposition]:
    """Every reading of the concealed part that Shandong lets win (empty when none)."""
    return [d for d in _all_readings(concealed, melds, four_as_two_pairs) if _allowed(d)]


def _all_readings(concealed: Sequence[Tile], melds: Sequence[Meld],
                  four_as_two_pairs: bool) -> list[Decomposition]:
    return decompositions(list(concealed), seven_pairs=not melds,
                          four_as_two_pairs=four_as_two_pairs)


def _allowed(d: Decomposition) -> bool:
    if d.shape == "seven_pairs":
        return True
    pair = d.pair
    return pair is not None and is_258(pair.tiles[0])


def winning_readings(concealed: Sequence[Tile], melds: Sequence[Meld],
                     four_as_two_pairs: bool, where: str = "") -> list[Decomposition]:
    """The allowed readings, or :class:`InvalidHand` naming why there is none."""
    found = readings(concealed, melds, four_as_two_pairs)
    if found:
        return found
    if _all_readings(concealed, melds, four_as_two_pairs):
        raise InvalidHand("pair must be 2, 5 or 8 (258将); only 七对 may have another pair",
                          where or None, reason="pair_not_258")
    if (not four_as_two_pairs and not melds
            and _all_readings(concealed, melds, four_as_two_pairs=True)):
        raise InvalidHand("not a winning shape: four identical tiles do not make two pairs of "
                          "七对 when option qidui_four_of_a_kind is false", where or None,
                          reason="not_winning")
    raise InvalidHand("not a winning shape (4 sets + a 258 pair, or 七对)", where or None,
                      reason="not_winning")
