"""The state of a hand in play, sampled so that scenes follow real play and classes stay balanced.

A scene starts from a full set of 144 tiles; seats get melds (chows only from the seat before,
the claimed tile recorded), concealed tiles, flowers set aside and discards; what is left stands
in the wall. A showdown winner's concealed part is a complete hand by ``scoring.engine``.
Choices lean toward kinds the scene shows least, so that over many scenes every kind is seen
about equally often (the issue's ±20% target), without breaking the tile counts of a real set.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scoring.engine import is_complete
from scoring.record import Meld
from scoring.tiles import FLOWERS, NUM_KINDS, TILE_NAMES, Tile, format_tiles

# chow start ranks 1..7 weighted so that every rank is covered about equally often
_CHOW_START_WEIGHTS = (3, 0, 1, 2, 1, 0, 3)


@dataclass
class GameSeat:
    """One player's tiles; ``sideways[i]`` is the index of the claimed tile in meld ``i``."""

    concealed: list[Tile] = field(default_factory=list)
    melds: list[Meld] = field(default_factory=list)
    sideways: list[int | None] = field(default_factory=list)
    flowers: list[Tile] = field(default_factory=list)
    discards: list[Tile] = field(default_factory=list)
    revealed: bool = False  # hand laid face up (showdown)

    def to_json(self, seat: int) -> dict[str, Any]:
        melds = []
        for m, side in zip(self.melds, self.sideways, strict=True):
            d = m.to_json()
            d["tiles"] = format_tiles(m.tiles)
            d["sideways"] = side
            melds.append(d)
        return {"seat": seat, "concealed": format_tiles(sorted(self.concealed)),
                "melds": melds, "flowers": [TILE_NAMES[f] for f in self.flowers],
                "discards": [TILE_NAMES[t] for t in self.discards], "revealed": self.revealed}


@dataclass
class GameState:
    dealer: int
    dice: tuple[int, int]
    seats: list[GameSeat]
    wall_tiles: int
    break_stack: int  # ring index 0..71 where the wall was broken
    to_play: int  # the seat holding 14 (or 3n+2) tiles
    ruleset: str | None = None  # the rules a showdown winner's hand is a win under
    # a showdown no hand won: the pool left the seat to play no winning hand to deal, so every
    # hand lies face up at a drawn game (荒庄), ``"winner": null`` in the manifest
    drawn: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "dealer": self.dealer, "dice": list(self.dice), "to_play": self.to_play,
            "wall_tiles": self.wall_tiles, "break_stack": self.break_stack,
            "seats": [s.to_json(i) for i, s in enumerate(self.seats)]}
        if self.ruleset:
            out["ruleset"] = self.ruleset
        if self.drawn:
            out["winner"] = None
        return out


class _Pool:
    """Tiles not yet placed, with the count of each kind the scene shows face up."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.left = [4] * NUM_KINDS + [1] * len(FLOWERS)
        self.shown = [0] * len(self.left)

    def take(self, t: Tile, shown: bool = True) -> Tile:
        if self.left[t] <= 0:
            raise AssertionError(f"no {TILE_NAMES[t]} left")
        self.left[t] -= 1
        self.shown[t] += shown
        return t

    def pick(self, kinds: range | list[int], beta: float, shown: bool = True,
             need: int = 1) -> Tile | None:
        """A kind with ``need`` copies left, favoring kinds shown least so far."""
        cand = [k for k in kinds if self.left[k] >= need]
        if not cand:
            return None
        weights = [self.left[k] * 2.0 ** (-beta * self.shown[k]) for k in cand]
        return self.rng.choices(cand, weights)[0]


def _chow(pool: _Pool, beta: float) -> list[Tile] | None:
    for _ in range(8):
        suit = pool.rng.randrange(3)
        start = pool.rng.choices(range(7), _CHOW_START_WEIGHTS)[0]
        tiles = [suit * 9 + start + i for i in range(3)]
        if all(pool.left[t] for t in tiles):
            return tiles
    return None


def _meld(pool: _Pool, seat: int, beta: float) -> tuple[Meld, int | None] | None:
    rng = pool.rng
    kind = rng.choices(("chow", "pung", "exposed_kong", "concealed_kong", "added_kong"),
                       (50, 34, 7, 5, 4))[0]
    if kind == "chow":
        tiles = _chow(pool, beta)
        if tiles is None:
            return None
        for t in tiles:
            pool.take(t)
        claimed = rng.randrange(3)
        tiles[0], tiles[claimed] = tiles[claimed], tiles[0]
        tiles = [tiles[0], *sorted(tiles[1:])]  # claimed tile first, then the two from the hand
        from_seat = (seat + 3) % 4  # chows only from the seat before
        return Meld("chow", tuple(tiles), from_seat), 0
    n = 3 if kind == "pung" else 4
    same = pool.pick(range(NUM_KINDS), beta, need=n)
    if same is None:
        return None
    for _ in range(n):
        pool.take(same, shown=kind != "concealed_kong")
    if kind == "concealed_kong":
        pool.shown[same] += 2  # the two middle tiles are face up
        return Meld(kind, (same,) * 4, None), None
    from_seat = (seat + rng.choice((1, 2, 3))) % 4
    # the claimed tile lies sideways on the side of the seat it came from
    side = {3: 0, 2: 1, 1: n - 1}[(from_seat - seat) % 4]
    return Meld(kind, (same,) * n, from_seat), side


WinTest = Callable[[list[Tile], tuple[Meld, ...]], bool]


def ruleset_win_test(name: str) -> WinTest:
    """Whether a concealed part and melds make a win under the ruleset ``name`` (its default
    options, no wildcards), so a showdown shows a hand a referee would accept."""
    from scoring.waiting import rules_and_options

    rules, options = rules_and_options(name)
    return lambda hand, melds: rules.is_winning_hand(list(hand), melds, options, {})


def _winning_hand(pool: _Pool, sets: int, beta: float, melds: tuple[Meld, ...],
                  wins: WinTest | None, tries: int = 40) -> list[Tile] | None:
    """A complete hand that ``wins`` accepts beside ``melds`` (any complete one without it)."""
    for _ in range(tries if wins else 1):
        saved = (pool.left[:], pool.shown[:])
        hand = _complete_hand(pool, sets, beta)
        if hand is None or wins is None or wins(hand, melds):
            return hand
        pool.left, pool.shown = saved  # not a win under these rules: draw again
    return None


def _complete_hand(pool: _Pool, sets: int, beta: float) -> list[Tile] | None:
    """``sets`` chows/pungs and a pair from the pool, checked by the hand engine."""
    rng = pool.rng
    saved = (pool.left[:], pool.shown[:])
    hand: list[Tile] = []
    for _ in range(sets):
        if rng.random() < 0.6:
            tiles = _chow(pool, beta)
        else:
            t = pool.pick(range(NUM_KINDS), beta, need=3)
            tiles = None if t is None else [t] * 3
        if tiles is None:
            break
        hand += [pool.take(t) for t in tiles]
    pair = pool.pick(range(NUM_KINDS), beta, need=2)
    if pair is not None and len(hand) == 3 * sets:
        hand += [pool.take(pair), pool.take(pair)]
        if is_complete(hand):
            return hand
    pool.left, pool.shown = saved
    return None


def sample_game(rng: random.Random, *, progress: float | None = None,
                showdown: bool | None = None, flower_rate: float = 0.95,
                beta: float = 1.0, ruleset: str | None = None) -> GameState:
    """A random, legal table state (see the module docstring for what "legal" covers); with
    ``ruleset`` a showdown winner's hand is a win under those rules, not only a complete shape."""
    wins = ruleset_win_test(ruleset) if ruleset else None
    pool = _Pool(rng)
    # early and middle game dominate, and showdowns are rare: a scene then shows about as many
    # faces of each playing kind as of each flower (one of each in a set)
    p = rng.betavariate(1.4, 3.6) if progress is None else progress
    showdown = rng.random() < 0.12 if showdown is None else showdown
    dealer = rng.randrange(4)
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    seats = [GameSeat() for _ in range(4)]
    turns = int(p * 70)
    to_play = (dealer + turns) % 4
    winner = to_play if showdown else None
    # flowers first: a real set has one of each, set aside by whoever drew it
    for f in FLOWERS:
        if rng.random() < flower_rate:
            seats[rng.randrange(4)].flowers.append(pool.take(f))
    for s in range(4):
        n_melds = min(4, sum(rng.random() < p * 0.9 for _ in range(4)))
        for _ in range(n_melds):
            got = _meld(pool, s, beta)
            if got is not None:
                seats[s].melds.append(got[0])
                seats[s].sideways.append(got[1])
    drawn = False
    for s in range(4):
        seat = seats[s]
        sets = 4 - len(seat.melds)
        if s == winner:
            hand = _winning_hand(pool, sets, beta, tuple(seat.melds), wins)
            if hand is not None:
                seat.concealed = hand
                seat.revealed = True
                continue
            drawn = True  # no win left to deal: the seat's hand is dealt as any other
        n = 3 * sets + (2 if s == to_play else 1)
        revealed = showdown  # at a showdown every hand is laid down
        seat.revealed = revealed
        for _ in range(n):
            t = pool.pick(range(NUM_KINDS), beta, shown=revealed)
            if t is None:
                raise AssertionError("tile pool exhausted while dealing")
            seat.concealed.append(pool.take(t, shown=revealed))
    # discards: about one per turn, each seat its share, drawn toward the kinds shown least
    for i in range(turns):
        s = (dealer + i) % 4
        t = pool.pick(range(NUM_KINDS), beta * 1.5)
        if t is None or sum(pool.left) <= 16:
            break
        seats[s].discards.append(pool.take(t))
    wall = sum(pool.left)
    break_stack = ((dealer * 18) + 18 - sum(dice) - 1) % 72
    return GameState(dealer, dice, seats, wall, break_stack, to_play, ruleset, drawn)
