"""Tile kinds and the text notation of ``shared/rules/README.md``.

A tile kind is an ``int`` equal to its detector class id: 0-8 ``1m``..``9m``, 9-17 ``1p``..``9p``,
18-26 ``1s``..``9s``, 27-30 ``E S W N``, 31-33 ``C F P`` (中 发 白), 34-41 ``f1``..``f8``.
Using the class id as the kind keeps vision, scoring and the datasets on one numbering.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import permutations

from scoring.errors import TileError
from scoring.memo import memoised

Tile = int

NUM_KINDS = 34  # playable kinds (no flowers)
NUM_TILES = 42  # with the 8 flowers
DIE_CLASS = 42  # the detector's die class, not a tile

TILE_NAMES: tuple[str, ...] = (
    *(f"{r}m" for r in range(1, 10)),
    *(f"{r}p" for r in range(1, 10)),
    *(f"{r}s" for r in range(1, 10)),
    "E", "S", "W", "N", "C", "F", "P",
    *(f"f{r}" for r in range(1, 9)),
)
CLASS_NAMES: tuple[str, ...] = (*TILE_NAMES, "die")

CHINESE_NAMES: tuple[str, ...] = (
    *(f"{c}万" for c in "一二三四五六七八九"),
    *(f"{c}筒" for c in "一二三四五六七八九"),
    *(f"{c}条" for c in "一二三四五六七八九"),
    "东", "南", "西", "北", "中", "发", "白",
    "梅", "兰", "菊", "竹", "春", "夏", "秋", "冬",
)

EAST, SOUTH, WEST, NORTH, RED, GREEN, WHITE = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (RED, GREEN, WHITE)
FLOWERS = tuple(range(34, 42))
SUIT_LETTERS = "mps"

_INDEX = {name: i for i, name in enumerate(TILE_NAMES)}
_SUIT_OF_LETTER = {"m": 0, "p": 1, "s": 2, "万": 0, "萬": 0, "筒": 1, "饼": 1, "餅": 1,
                   "条": 2, "條": 2, "索": 2}
_CN_DIGITS = {c: i + 1 for i, c in enumerate("一二三四五六七八九")}
_SINGLE = {
    "E": EAST, "S": SOUTH, "W": WEST, "N": NORTH, "C": RED, "F": GREEN, "P": WHITE,
    "东": EAST, "南": SOUTH, "西": WEST, "北": NORTH, "東": EAST,
    "中": RED, "发": GREEN, "發": GREEN, "白": WHITE,
    "梅": 34, "兰": 35, "蘭": 35, "菊": 36, "竹": 37, "春": 38, "夏": 39, "秋": 40, "冬": 41,
}
# riichi-style z numbering: 1z E, 2z S, 3z W, 4z N, 5z white, 6z green, 7z red
_Z_TO_TILE = {1: EAST, 2: SOUTH, 3: WEST, 4: NORTH, 5: WHITE, 6: GREEN, 7: RED}


def is_suit(t: Tile) -> bool:
    return 0 <= t < 27


def is_honor(t: Tile) -> bool:
    return 27 <= t < 34


def is_wind(t: Tile) -> bool:
    return 27 <= t < 31


def is_dragon(t: Tile) -> bool:
    return 31 <= t < 34


def is_flower(t: Tile) -> bool:
    return 34 <= t < 42


def suit_of(t: Tile) -> int:
    """0 characters, 1 dots, 2 bamboo, 3 honors, 4 flowers."""
    if t < 27:
        return t // 9
    return 3 if t < 34 else 4


def rank_of(t: Tile) -> int:
    """1..9 for suit tiles, 0 otherwise."""
    return t % 9 + 1 if t < 27 else 0


def is_terminal_or_honor(t: Tile) -> bool:
    return is_honor(t) or rank_of(t) in (1, 9)


#: tile kinds as sets and a table, built once: a hand is tested with one C-level set operation
#: (``YAOJIU.isdisjoint(tiles)``) instead of a call per tile
HONOR_KINDS: frozenset[Tile] = frozenset(range(EAST, NUM_KINDS))
YAOJIU: frozenset[Tile] = frozenset(t for t in range(NUM_TILES) if is_terminal_or_honor(t))
SUIT_OF: tuple[int, ...] = tuple(suit_of(t) for t in range(NUM_TILES))  # suit_of by index
_RANK_TEXT = tuple(str(rank_of(t)) for t in range(NUM_TILES))  # as format_tiles writes it


def tile_name(t: Tile) -> str:
    return TILE_NAMES[t]


def tile_from_name(name: str) -> Tile:
    """One tile in any accepted spelling; raises :class:`TileError` otherwise."""
    tiles = parse_tiles(name)
    if len(tiles) != 1:
        raise TileError(f"expected one tile, got {name!r}")
    return tiles[0]


def parse_tiles(text: str) -> list[Tile]:
    """Parse a tile string (``123m456p55s``, ``EEE``, ``一万``, ``5z``, ``f1``) in order.

    Digits (Arabic or Chinese) before a suit letter share it; spaces are ignored.
    """
    return list(parsed_tiles(text))


_MEMO_LENGTH = 64  # a hand or a meld is shorter; longer text is parsed, not remembered


def parsed_tiles(text: str) -> tuple[Tile, ...]:
    """:func:`parse_tiles` as a tuple, remembered for short text: records and tables spell the
    same melds and hands again and again."""
    return _parse_memo(text) if len(text) <= _MEMO_LENGTH else _parse(text)


#: the plain notation read by :func:`_plain`: a rank digit, a suit letter's first tile, a wind
#: or dragon letter
_RANK_DIGIT = {str(r): r - 1 for r in range(1, 10)}
_SUIT_BASE = {"m": 0, "p": 9, "s": 18}
_HONOR_LETTER = {name: t for t, name in enumerate(TILE_NAMES) if EAST <= t < NUM_KINDS}


def _plain(text: str) -> tuple[Tile, ...] | None:
    """The tiles of text in the notation records are written in (``123m456p55sEEE``), read from
    the end so each digit finds its suit letter already seen; ``None`` for anything else
    (spaces, ``z``, flowers, Chinese, or an error), which :func:`_parse_any` reads or refuses."""
    out: list[Tile] = []
    base = -1  # the suit of the digits before it, from the last letter read; -1 none
    bare = False  # that letter has no digit yet
    rank = _RANK_DIGIT.get
    for ch in reversed(text):
        r = rank(ch)
        if r is not None:
            if base < 0:
                return None
            out.append(base + r)
            bare = False
            continue
        if bare:
            return None
        b = _SUIT_BASE.get(ch)
        if b is not None:
            base = b
            bare = True
            continue
        t = _HONOR_LETTER.get(ch)
        if t is None:
            return None
        out.append(t)
        base = -1
    if bare:
        return None
    out.reverse()
    return tuple(out)


def _parse(text: str) -> tuple[Tile, ...]:
    plain = _plain(text)
    return plain if plain is not None else _parse_any(text)


def _parse_any(text: str) -> tuple[Tile, ...]:
    out: list[Tile] = []
    pending: list[tuple[int, int]] = []  # (rank, position) waiting for a suit letter
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace() or ch == ",":
            i += 1
            continue
        if ch == "f" and i + 1 < n and text[i + 1] in "12345678":
            if pending:
                raise TileError(f"digits without a suit before position {i} in {text!r}")
            out.append(34 + int(text[i + 1]) - 1)
            i += 2
            continue
        if ch in "123456789" or ch in _CN_DIGITS:
            pending.append((int(ch) if ch.isascii() else _CN_DIGITS[ch], i))
            i += 1
            continue
        if ch in _SUIT_OF_LETTER or ch == "z":
            if not pending:
                raise TileError(f"suit {ch!r} without digits at position {i} in {text!r}")
            for rank, pos in pending:
                if ch == "z":
                    if rank not in _Z_TO_TILE:
                        raise TileError(f"no honor {rank}z at position {pos} in {text!r}")
                    out.append(_Z_TO_TILE[rank])
                else:
                    out.append(_SUIT_OF_LETTER[ch] * 9 + rank - 1)
            pending.clear()
            i += 1
            continue
        if ch in _SINGLE:
            if pending:
                raise TileError(f"digits without a suit before position {i} in {text!r}")
            out.append(_SINGLE[ch])
            i += 1
            continue
        raise TileError(f"bad tile character {ch!r} at position {i} in {text!r}")
    if pending:
        raise TileError(f"digits without a suit at the end of {text!r}")
    return tuple(out)


_parse_memo = memoised(maxsize=4096)(_parse)
#: :func:`parsed_tiles` for text of at most ``MEMO_LENGTH`` characters (the caller checked the
#: length): the record parser's many tile strings skip a Python call each
parsed_short = _parse_memo
MEMO_LENGTH = _MEMO_LENGTH


def format_tiles(tiles: Iterable[Tile], sort: bool = False) -> str:
    """Compact text form; runs of one suit share the letter (``[0, 1, 2]`` -> ``123m``)."""
    if type(tiles) is tuple and not sort:
        text = _MELD_TEXT.get(tiles)
        if text is not None:  # a meld's tiles, as every settlement lists them
            return text
    seq = sorted(tiles) if sort else list(tiles)
    parts: list[str] = []
    run: list[str] = []
    run_suit = -1
    for t in seq:
        if not 0 <= t < NUM_TILES:
            raise TileError(f"no tile with index {t}")
        s = SUIT_OF[t]
        if s < 3:
            if s != run_suit and run:
                parts.append("".join(run) + SUIT_LETTERS[run_suit])
                run = []
            run_suit = s
            run.append(_RANK_TEXT[t])
        else:
            if run:
                parts.append("".join(run) + SUIT_LETTERS[run_suit])
                run = []
                run_suit = -1
            parts.append(TILE_NAMES[t])
    if run:
        parts.append("".join(run) + SUIT_LETTERS[run_suit])
    return "".join(parts)


#: the text of every meld's tiles (a run of three in any order, three or four of a kind),
#: written once: settlements list a hand's melds
_MELD_TEXT: dict[tuple[Tile, ...], str] = {}
_MELD_TEXT.update(
    {run: format_tiles(run) for lo in range(27) if lo % 9 <= 6
     for run in permutations((lo, lo + 1, lo + 2))}
    | {(t,) * n: format_tiles((t,) * n) for t in range(NUM_KINDS) for n in (3, 4)})


def next_in_cycle(t: Tile) -> Tile:
    """The tile after ``t`` as indicators count: 1..9 cycles in a suit, E S W N, 中 发 白."""
    if is_suit(t):
        return t - 8 if rank_of(t) == 9 else t + 1
    if is_wind(t):
        return EAST if t == NORTH else t + 1
    if is_dragon(t):
        return RED if t == WHITE else t + 1
    raise TileError(f"{TILE_NAMES[t]} has no successor")
