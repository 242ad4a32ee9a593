"""The facts of one win, kept apart from the house-rule options (cf. mahjong's HandConfig)."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.engine import Decomposition
from scoring.frozen import fast_init
from scoring.memo import memo_property
from scoring.record import HandRecord, Meld, Win
from scoring.tiles import SUIT_OF, Tile

_new = object.__new__


@fast_init
@dataclass(frozen=True)
class WinFacts:
    """One winner's hand read one way: what every 番 check looks at."""

    win: Win
    is_dealer: bool
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    reading: Decomposition
    others_kong: bool = False  # another seat shows a kong (for a first-turn win: made before it)

    @classmethod
    def of(cls, record: HandRecord, win: Win, reading: Decomposition) -> WinFacts:
        seat = record.seats[win.seat]
        others = any([m.is_kong for k, s in enumerate(record.seats) if k != win.seat
                      for m in s.melds])
        # cls(...) filled in one step (no __init__ frame), with the hand's tiles and suits: the
        # suit items read them for every reading
        facts = _new(cls)
        tiles = (*seat.concealed, *[t for m in seat.melds for t in m.tiles])
        facts.__dict__.update(win=win, is_dealer=win.seat == record.dealer,
                              concealed=seat.concealed, melds=seat.melds, reading=reading,
                              others_kong=others, tiles=tiles,
                              suits=frozenset(map(SUIT_OF.__getitem__, tiles)))
        return facts

    @property
    def own_kong(self) -> bool:
        """The winner shows a kong (in a first-turn win, a 暗杠 declared before it)."""
        return any(m.is_kong for m in self.melds)

    @memo_property
    def tiles(self) -> tuple[Tile, ...]:
        """Every tile of the hand, kongs with all four (flowers are not tiles of the hand)."""
        return (*self.concealed, *[t for m in self.melds for t in m.tiles])

    @memo_property
    def suits(self) -> frozenset[int]:
        """The suits of :attr:`tiles` (3: honors)."""
        return frozenset(map(SUIT_OF.__getitem__, self.tiles))

    @property
    def chows(self) -> list[Tile]:
        """Lowest tile of every chow: the reading's concealed chows and the exposed ones."""
        inner = [g.tiles[0] for g in self.reading.sets if g.kind == "chow"]
        return inner + [m.kind for m in self.melds if m.type == "chow"]

    @property
    def is_all_pungs(self) -> bool:
        """Four pungs or kongs + the pair (碰碰和); seven pairs is not this shape."""
        return (self.reading.shape == "standard"
                and all([g.kind == "pung" for g in self.reading.sets])
                and all([m.type != "chow" for m in self.melds]))
