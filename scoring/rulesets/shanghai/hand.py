"""The facts of one Shanghai win that the patterns look at, computed once per winner.

A pattern is a simple check on these facts; the evaluator owns which pattern is taken. The
concealed part is read with the shared hand engine (``scoring.engine.decompositions``), standard
shape only: 七对 never wins here, so it is looked at only to name the refusal.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.engine import Decomposition, counts_of, decompositions, is_seven_pairs
from scoring.frozen import fast_init
from scoring.memo import memo_property
from scoring.record import Context, HandRecord, Meld, Win
from scoring.tiles import HONOR_KINDS, SUIT_OF, Tile, is_flower

_HONOR_SUIT = frozenset({3})  # suit_of an honor
_new = object.__new__


@fast_init
@dataclass(frozen=True)
class HandFacts:
    """One winner's tiles, melds and flowers, and the win itself."""

    seat: int
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    flowers: tuple[Tile, ...]
    win: Win
    context: Context = field(default_factory=Context)  # the dice and 荒番, for the multipliers

    @classmethod
    def of(cls, record: HandRecord, win: Win) -> HandFacts:
        seat = record.seats[win.seat]
        hand = _new(cls)  # (cls(...) filled in one step, without __init__'s Python frame)
        # the facts every pattern looks at, worked out at once (C-level set operations; the
        # properties below work them out for a hand built directly)
        tiles = (*seat.concealed, *[t for m in seat.melds for t in m.tiles])
        by_flowers = is_flower(win.tile)
        readings = () if by_flowers else tuple(decompositions(seat.concealed, seven_pairs=False))
        hand.__dict__.update(
            seat=win.seat, concealed=seat.concealed, melds=seat.melds, flowers=seat.flowers,
            win=win, context=record.context, by_flowers=by_flowers, tiles=tiles,
            suits=frozenset(map(SUIT_OF.__getitem__, tiles)) - _HONOR_SUIT,
            has_honors=not HONOR_KINDS.isdisjoint(tiles),
            all_honors=bool(tiles) and HONOR_KINDS.issuperset(tiles),
            readings=readings, has_shape=bool(readings))
        return hand

    @memo_property
    def by_flowers(self) -> bool:
        """八花齐: the winning tile is the eighth flower."""
        return is_flower(self.win.tile)

    @memo_property
    def tiles(self) -> tuple[Tile, ...]:
        """Every playing tile the winner shows (kongs with all four)."""
        return (*self.concealed, *[t for m in self.melds for t in m.tiles])

    @memo_property
    def suits(self) -> frozenset[int]:
        """Suits present among the playing tiles: 0 万, 1 筒, 2 条 (honors not included)."""
        return frozenset(map(SUIT_OF.__getitem__, self.tiles)) - _HONOR_SUIT

    @memo_property
    def has_honors(self) -> bool:
        return not HONOR_KINDS.isdisjoint(self.tiles)

    @memo_property
    def all_honors(self) -> bool:
        return bool(self.tiles) and HONOR_KINDS.issuperset(self.tiles)

    @memo_property
    def readings(self) -> tuple[Decomposition, ...]:
        """Standard-shape readings of the concealed part (4 sets + a pair with the melds)."""
        if self.by_flowers:
            return ()
        return tuple(decompositions(self.concealed, seven_pairs=False))

    @memo_property
    def has_shape(self) -> bool:
        return bool(self.readings)

    @memo_property
    def all_pungs(self) -> bool:
        """碰碰胡 shape: some reading whose sets are all pungs, and no chow among the melds."""
        if any([m.type == "chow" for m in self.melds]):
            return False
        return any([all([g.kind == "pung" for g in r.sets]) for r in self.readings])

    @property
    def is_seven_pairs(self) -> bool:
        return not self.melds and len(self.concealed) == 14 and is_seven_pairs(
            counts_of(self.concealed))

    @property
    def menqing(self) -> bool:
        """门清: no 吃, 碰, 明杠 or 补杠 (a 暗杠 keeps the hand closed)."""
        return not any([m.is_claimed for m in self.melds])

    def laid_down(self, count_concealed_kong: bool) -> int:
        """Melds on the table, for 大吊车."""
        return sum(1 for m in self.melds if m.is_claimed or count_concealed_kong)

    def concealed_triplets(self) -> list[Tile]:
        """Honor kinds standing three times in the concealed part (a 刻 that earns 花)."""
        return sorted({t for t in self.concealed
                       if t in HONOR_KINDS and self.concealed.count(t) == 3})
