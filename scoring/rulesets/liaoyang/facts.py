"""The facts of one win, kept apart from the options: the winner's hand, one reading of its 混
tiles, and each loser's laid-down melds.

``WinnerHand`` holds what does not depend on what the 混 stand for (physical faces: 鸡枪, 宝,
四归一, 素胡, kongs); ``Reading`` adds one assignment of the 混 from the hand engine, which is what
the shape, 三门齐, 有幺九, 横, the pair, 飘和, 七对, 2/8掌 and 大哥大 look at.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.engine import Decomposition, Group
from scoring.frozen import fast_init
from scoring.memo import memo_property
from scoring.record import Meld, Win
from scoring.tiles import Tile, is_dragon


@fast_init
@dataclass(frozen=True)
class WinnerHand:
    seat: int
    win: Win
    concealed: tuple[Tile, ...]  # standing tiles, the winning tile included
    melds: tuple[Meld, ...]
    is_dealer: bool
    hun: Tile | None
    jiqiang: frozenset[Tile]

    @classmethod
    def of(cls, seat: int, win: Win, concealed: tuple[Tile, ...], melds: tuple[Meld, ...],
           is_dealer: bool, hun: Tile | None, jiqiang: frozenset[Tile]) -> WinnerHand:
        """The hand with its facts worked out at once, in one pass over the melds: scoring
        reads every one of them (the properties below work them out for a hand built
        directly)."""
        hand = _new(cls)  # (cls(...) filled in one step, without __init__'s Python frame)
        d = hand.__dict__
        d.update(seat=seat, win=win, concealed=concealed, melds=melds, is_dealer=is_dealer,
                 hun=hun, jiqiang=jiqiang)
        if melds:
            meld_tiles = tuple([t for m in melds for t in m.tiles])
            types = [m.type for m in melds]
            d["meld_tiles"] = meld_tiles
            d["is_open"] = types.count("concealed_kong") < len(types)
            d["has_chow_meld"] = "chow" in types
            d["has_identical_meld"] = types.count("chow") < len(types)
            d["laid_dragon_sets"] = sum([1 for m in melds if m.type != "chow"
                                         and 31 <= m.tiles[0] < 34])
            d["meld_number_suits"] = frozenset([m.tiles[0] // 9 for m in melds
                                                if m.tiles[0] < 27])
        else:
            meld_tiles = ()
            d.update(_NO_MELD_FACTS)
        physical = (*concealed, *meld_tiles)
        d["physical"] = physical
        d["hun_count"] = physical.count(hun)
        return hand

    @memo_property
    def physical(self) -> tuple[Tile, ...]:
        """Every tile as it lies on the table (a 混 counts as its own face)."""
        return (*self.concealed, *[t for m in self.melds for t in m.tiles])

    @memo_property
    def hun_count(self) -> int:
        return self.physical.count(self.hun)

    @memo_property
    def is_open(self) -> bool:
        """开门: a 吃, 碰, 明杠 or 补杠 (a 暗杠 does not open)."""
        return any(m.is_claimed for m in self.melds)

    @memo_property
    def meld_tiles(self) -> tuple[Tile, ...]:
        return tuple([t for m in self.melds for t in m.tiles])

    @memo_property
    def has_chow_meld(self) -> bool:
        return any(m.type == "chow" for m in self.melds)

    @memo_property
    def has_identical_meld(self) -> bool:
        """A pung or kong laid down: 有横 whatever the 混 stand for."""
        return any(m.is_set_of_identical for m in self.melds)

    @memo_property
    def laid_dragon_sets(self) -> int:
        return sum(1 for m in self.melds if m.is_set_of_identical and is_dragon(m.kind))

    @memo_property
    def meld_number_suits(self) -> frozenset[int]:
        """The suits (0 万, 1 筒, 2 条) among the melds: what 三门齐 adds to a reading's."""
        return frozenset([t // 9 for m in self.melds for t in m.tiles[:1] if t < 27])


_new = object.__new__
_NO_MELD_FACTS = {"meld_tiles": (), "is_open": False, "has_chow_meld": False,
                  "has_identical_meld": False, "laid_dragon_sets": 0,
                  "meld_number_suits": frozenset()}


class Reading:
    """The winner's hand with the 混 standing for particular tiles (one engine decomposition).

    A plain slotted class filled in one pass over the groups: the search builds one per 混
    assignment (over a hundred for three free 混), so it must be cheap.
    """

    __slots__ = ("_tiles", "concealed_pungs", "decomposition", "hand", "has_chow",
                 "is_seven_pairs", "pair")

    def __init__(self, hand: WinnerHand, decomposition: Decomposition) -> None:
        self.hand = hand
        self.decomposition = decomposition
        seven = decomposition.shape == "seven_pairs"
        self.is_seven_pairs = seven
        pungs: list[Tile] = []
        pair: Group | None = None
        chow = False
        for g in decomposition.groups:
            if g.kind == "pung":
                pungs.append(g.tiles[0])
            elif g.kind == "chow":
                chow = True
            elif not seven:
                pair = g
        self.concealed_pungs: tuple[Tile, ...] = tuple(pungs)
        self.pair = pair  # the one pair of a standard reading
        self.has_chow = chow  # among the concealed groups
        self._tiles: tuple[Tile, ...] | None = None

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """Every tile as read: the concealed groups with substitutions, then the melds (built
        only when a requirement needs it)."""
        if self._tiles is None:
            self._tiles = (*[t for g in self.decomposition.groups for t in g.tiles],
                           *self.hand.meld_tiles)
        return self._tiles

    @property
    def substitutions(self) -> tuple[Tile, ...]:
        return self.decomposition.substitutions

    @property
    def is_all_pungs(self) -> bool:
        """飘和: every set is a pung or kong (standard shape only)."""
        return not (self.is_seven_pairs or self.has_chow or self.hand.has_chow_meld)


@fast_init
@dataclass(frozen=True)
class LoserSeat:
    """A loser's side of the settlement: its laid-down melds (暗杠 included) and its role."""

    seat: int
    melds: tuple[Meld, ...]
    is_dealer: bool
    dealt_in: bool  # 点炮: the discarder, or the robbed player on 抢杠
    after_kong: bool  # 反弹: dealt in with the discard right after its own kong
    all_losers_closed: bool  # then nobody gets 输家闭门
    jiqiang: frozenset[Tile] = field(default_factory=frozenset)

    @property
    def is_closed(self) -> bool:
        return not any([m.type != "concealed_kong" for m in self.melds]) if self.melds else True
