"""The hand engine: is a hand complete, in how many ways, with which wildcards, what it waits on.

Speed comes from per-suit tables built once at import: every 9-count vector of one suit that splits
into sets only (``_SUIT0``) or into sets plus one pair (``_SUIT1``). A 14-tile check is then three
dictionary look-ups and a look at the honors. The readings of a hand without wildcards come from
a table of every suit's readings (``_SUIT_READINGS``, built at import), not from a search.
Wildcards use a memoized per-suit "how many wildcards does this suit still need" function, and
the full enumerator reports what each wildcard stood for so a ruleset can keep the assignment
that scores best.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement, product
from operator import eq

from scoring.errors import TileError
from scoring.frozen import fast_init
from scoring.memo import memo_property, memoised
from scoring.tiles import NUM_KINDS, TILE_NAMES, Tile, format_tiles

# ---------------------------------------------------------------- per-suit tables


#: a suit's groups by a local code: the chow from rank ``r`` is ``r``, the pair of ``r`` is
#: ``7 + r``, the pung of ``r`` is ``16 + r`` (``_CODE`` turns them into one suit's groups)
_SUIT_SETS = [(r, (r, r + 1, r + 2)) for r in range(7)] + [(16 + r, (r, r, r)) for r in range(9)]


def _search_order(code: int) -> int:
    """Where a group comes in the search's order: by its lowest rank, then pung, pair, chow."""
    if code < 7:
        return 3 * code + 2
    if code < 16:
        return 3 * (code - 7) + 1
    return 3 * (code - 16)


def _build_suit_readings() -> tuple[dict[bytes, tuple[int, int, bytes]], frozenset[bytes],
                                    frozenset[bytes]]:
    """Every reading of every 9-count vector of one suit that splits into sets, or sets and one
    pair, keyed by the suit's tiles as sorted ranks (``bytes``, 0 for a 1): ``(groups per
    reading, 1 if they hold the pair, the readings' codes one after the other)``, the readings
    in the order the search below finds them (by their groups in :func:`_search_order`). All
    readings of a vector hold the pair or none (its tile count says which). Also the count
    vectors without and with the pair (``_SUIT0``, ``_SUIT1``)."""
    order = [_search_order(code) for code in range(25)]
    # the sets in search order: a combination of them (indices never falling) is then sorted
    sets = sorted(_SUIT_SETS, key=lambda s: order[s[0]])
    found: dict[bytes, list[tuple[list[int], list[int]]]] = {}
    for n in range(5):
        for combo in combinations_with_replacement(range(len(sets)), n):
            v = [0] * 9
            for s in combo:
                for r in sets[s][1]:
                    v[r] += 1
            if n and max(v) > 4:
                continue
            codes = [sets[s][0] for s in combo]
            key = [order[code] for code in codes]
            found.setdefault(bytes(v), []).append((key, codes))
            for p in range(9):
                if v[p] <= 2:
                    v[p] += 2
                    with_pair = key.copy()
                    insort(with_pair, order[7 + p])
                    found.setdefault(bytes(v), []).append((with_pair, [*codes, 7 + p]))
                    v[p] -= 2
    table = {}
    for v, readings in found.items():
        readings.sort()
        ranks = bytes([r for r in range(9) for _ in range(v[r])])
        table[ranks] = (len(readings[0][1]), sum(v) % 3 == 2,
                        bytes([c for _, codes in readings for c in codes]))
    return (table, frozenset(v for v in found if sum(v) % 3 == 0),
            frozenset(v for v in found if sum(v) % 3 == 2))


#: built at import (21,743 vectors; see bench/scoring_bench.py for its time and memory)
_SUIT_READINGS, _SUIT0, _SUIT1 = _build_suit_readings()
#: a suit tile's rank as a byte (``bytes.translate`` turns a suit's tiles into a table key)
_RANK_BYTE = bytes([t % 9 if t < 27 else 0 for t in range(256)])


def counts_of(tiles: Iterable[Tile]) -> bytes:
    """The engine's native form of a hand: 34 tile counts as ``bytes`` (hashable, sliceable)."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        if not 0 <= t < NUM_KINDS:
            raise TileError(f"{_name(t)} cannot be part of a winning shape")
        counts[t] += 1
    return bytes(counts)


def _name(t: int) -> str:
    return TILE_NAMES[t] if 0 <= t < len(TILE_NAMES) else str(t)


def is_winning_counts(b: bytes, seven_pairs: bool = True) -> bool:
    """The fast check: standard shape or (for 14 tiles) seven pairs, from :func:`counts_of`.

    Only the concealed part is counted; any 3n + 2 total is accepted for the standard shape.
    """
    h = b[27:]
    pairs = 99 if (1 in h or 4 in h) else h.count(2)
    if pairs <= 1:
        x = b[0:9]
        if x in _SUIT1:
            pairs += 1
        elif x not in _SUIT0:
            pairs = 99
        if pairs <= 1:
            x = b[9:18]
            if x in _SUIT1:
                pairs += 1
            elif x not in _SUIT0:
                pairs = 99
            if pairs <= 1:
                x = b[18:27]
                if x in _SUIT1:
                    pairs += 1
                elif x not in _SUIT0:
                    pairs = 99
                if pairs == 1:
                    return True
    return (seven_pairs and b.count(2) + 2 * b.count(4) == 7
            and b.count(1) == 0 and b.count(3) == 0)


def is_standard_complete(counts: bytes | Sequence[int]) -> bool:
    """Sets and one pair from 34 counts (no wildcards, no seven pairs)."""
    b = counts if isinstance(counts, bytes) else bytes(counts)
    return is_winning_counts(b, seven_pairs=False)


def is_seven_pairs(counts: bytes | Sequence[int], four_as_two_pairs: bool = True) -> bool:
    b = counts if isinstance(counts, bytes) else bytes(counts)
    if sum(b) != 14 or b.count(1) or b.count(3):
        return False
    return b.count(2) + 2 * b.count(4) == 7 if four_as_two_pairs else not b.count(4)


# ---------------------------------------------------------------- wildcards: how many are needed


@lru_cache(maxsize=1 << 18)
def _suit_need(v: bytes, pair: bool) -> int:
    """Fewest wildcards that make a 9-count suit vector into sets (plus one pair if ``pair``)."""
    i = next((k for k, c in enumerate(v) if c), -1)
    if i < 0:
        return 2 if pair else 0
    best = 99
    c = v[i]
    w = list(v)
    take = min(c, 3)
    w[i] -= take
    best = min(best, 3 - take + _suit_need(bytes(w), pair))
    w[i] += take
    if pair:
        take = min(c, 2)
        w[i] -= take
        best = min(best, 2 - take + _suit_need(bytes(w), False))
        w[i] += take
    for start in (i - 2, i - 1, i):
        if start < 0 or start > 6:
            continue
        taken = [r for r in range(start, start + 3) if w[r]]
        for r in taken:
            w[r] -= 1
        best = min(best, 3 - len(taken) + _suit_need(bytes(w), pair))
        for r in taken:
            w[r] += 1
    return best


_HONOR_NEED0 = (0, 2, 1, 0, 2)
_HONOR_NEED1 = (2, 1, 0, 2, 1)


def _needed_wildcards(counts: Sequence[int]) -> int:
    """Fewest wildcards completing the standard shape for these natural counts."""
    total = 0
    delta = 2  # the pair made of two wildcards
    for c in counts[27:34]:
        total += _HONOR_NEED0[c]
        d = _HONOR_NEED1[c] - _HONOR_NEED0[c]
        if d < delta:
            delta = d
    for s in (0, 9, 18):
        key = bytes(counts[s:s + 9])
        n0 = _suit_need(key, False)
        total += n0
        d = _suit_need(key, True) - n0
        if d < delta:
            delta = d
    return total + delta


def _seven_pairs_need(counts: Sequence[int], four_as_two_pairs: bool) -> int:
    need = 0
    for c in counts:
        if c == 1:
            need += 1
        elif c == 3:
            if not four_as_two_pairs:
                return 99
            need += 1
        elif c == 4 and not four_as_two_pairs:
            return 99
    return need


def _split(tiles: Iterable[Tile], wildcards: frozenset[Tile]) -> tuple[list[int], int]:
    """Counts of the natural tiles by kind, and how many wildcards (the range checked once, by
    ``min``/``max``, and the wildcards taken out of the counts afterwards)."""
    seq = tiles if type(tiles) is tuple or type(tiles) is list else list(tiles)
    if seq and not (min(seq) >= 0 and max(seq) < NUM_KINDS):
        t = next(t for t in seq if not 0 <= t < NUM_KINDS)
        raise TileError(f"{TILE_NAMES[t] if 0 <= t < len(TILE_NAMES) else t} "
                        "cannot be part of a winning shape")
    counts = [0] * NUM_KINDS
    for t in seq:
        counts[t] += 1
    jokers = 0
    for w in wildcards:
        if 0 <= w < NUM_KINDS:
            jokers += counts[w]
            counts[w] = 0
    return counts, jokers


def is_complete(tiles: Sequence[Tile], wildcards: frozenset[Tile] = frozenset(), *,
                standard: bool = True, seven_pairs: bool = True,
                four_as_two_pairs: bool = True) -> bool:
    """Is this concealed part (3n + 2 tiles; melds excluded) a finished hand?

    A tile whose kind is in ``wildcards`` may stand for any tile. Seven pairs needs all 14 tiles
    concealed.
    """
    if len(tiles) % 3 != 2:
        return False
    counts, jokers = _split(tiles, wildcards)
    if standard:
        if jokers == 0:
            if is_winning_counts(bytes(counts), seven_pairs=False):
                return True
        elif _needed_wildcards(counts) <= jokers:
            return True
    return (seven_pairs and len(tiles) == 14
            and _seven_pairs_need(counts, four_as_two_pairs) <= jokers)


# ---------------------------------------------------------------- decompositions


@fast_init
@dataclass(frozen=True, order=True)
class Group:
    """A set or pair inside the concealed part, with the tiles that wildcards stood for."""

    kind: str  # "chow", "pung" or "pair"
    tiles: tuple[Tile, ...]  # concrete tiles, wildcards replaced by what they stand for
    wild: tuple[Tile, ...] = ()  # the tiles of this group supplied by wildcards

    def __str__(self) -> str:
        return self._text

    @memo_property
    def _text(self) -> str:
        """Written once per group: the engine hands out the same groups again (memoised)."""
        text = format_tiles(self.tiles)
        return f"{text}(*{format_tiles(self.wild)})" if self.wild else text


@fast_init
@dataclass(frozen=True)
class Decomposition:
    shape: str  # "standard" or "seven_pairs"
    groups: tuple[Group, ...]  # sets then the pair; seven pairs: the seven pairs

    # worked out once per reading: the engine hands out the same readings again (memoised)
    @memo_property
    def pair(self) -> Group | None:
        return next((g for g in self.groups if g.kind == "pair"), None) \
            if self.shape == "standard" else None

    @memo_property
    def sets(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.kind != "pair")

    @memo_property
    def substitutions(self) -> tuple[Tile, ...]:
        """What each wildcard stood for, sorted."""
        return tuple(sorted(t for g in self.groups for t in g.wild))

    def __str__(self) -> str:
        return self._text

    @memo_property
    def _text(self) -> str:
        return " ".join([g._text for g in self.groups])  # (each group's text: str() of it)


def _group_key(g: Group) -> tuple[str, tuple[Tile, ...], tuple[Tile, ...]]:
    return (g.kind, g.tiles, g.wild)


def _all_groups() -> list[Group]:
    """Every group a reading can hold: each pung, pair and chow with each choice of its tiles
    supplied by wildcards."""
    out = []
    for t in range(NUM_KINDS):
        out += [Group("pung", (t, t, t), (t,) * w) for w in range(4)]
        out += [Group("pair", (t, t), (t,) * w) for w in range(3)]
    for start in (s + r for s in (0, 9, 18) for r in range(7)):
        run = (start, start + 1, start + 2)
        out += [Group("chow", run, tuple(t for b, t in enumerate(run) if mask >> b & 1))
                for mask in range(8)]
    return out


#: every group, in :func:`_group_key` order (chows, pairs, pungs), built at import with its text:
#: the search below walks indices into it, so a reading's sorted indices are its sorted groups
_GROUPS: tuple[Group, ...] = tuple(sorted(_all_groups(), key=_group_key))
for _group in _GROUPS:
    _group.__dict__["_text"] = _group._text  # (the memo_property, read once here)
_AT = {_group_key(g): j for j, g in enumerate(_GROUPS)}
#: ``_PUNG[t][w]``: the pung of ``t`` with ``w`` of its tiles from wildcards; ``_PAIR`` alike
_PUNG = tuple(tuple(_AT["pung", (t, t, t), (t,) * w] for w in range(4)) for t in range(NUM_KINDS))
_PAIR = tuple(tuple(_AT["pair", (t, t), (t,) * w] for w in range(3)) for t in range(NUM_KINDS))
#: ``_CHOW[start][mask]``: the chow from ``start``, bit ``b`` of ``mask`` set where its
#: ``start + b`` comes from a wildcard (no chow starts at a 8, 9 or an honor: empty)
_CHOW = tuple(tuple(_AT["chow", (s, s + 1, s + 2), tuple(s + b for b in range(3) if m >> b & 1)]
                    for m in range(8)) if s < 27 and s % 9 <= 6 else () for s in range(NUM_KINDS))
_IS_PAIR = tuple(g.kind == "pair" for g in _GROUPS)
_FIRST_PAIR = _IS_PAIR.index(True)  # (chows, then pairs, then pungs)
assert _IS_PAIR.count(True) == _IS_PAIR[_FIRST_PAIR:].index(False)  # the pairs lie together
_new = object.__new__
#: the sets wildcards alone can make, in the order they are tried (chows, then pungs)
_WILD_SETS = (*(_CHOW[s + r][7] for s in (0, 9, 18) for r in range(7)),
              *(_PUNG[t][3] for t in range(NUM_KINDS)))
#: ``_CODE[s][code]``: the group of suit ``s`` that a local code of ``_SUIT_READINGS`` names
_CODE = tuple(tuple([_CHOW[9 * s + r][0] for r in range(7)]
                    + [_PAIR[9 * s + r][0] for r in range(9)]
                    + [_PUNG[9 * s + r][0] for r in range(9)]) for s in range(3))


def _build_honor_readings() -> dict[bytes, tuple[int, tuple[int, ...]]]:
    """The honors' one reading (three of a kind a pung, two the pair), keyed by the honor
    tiles sorted (``bytes``): ``(1 if it holds the pair, its group indices)``; honors that
    cannot be read (one or four of a kind, two pairs) are not in it."""
    table = {}
    for counts in product((0, 2, 3), repeat=NUM_KINDS - 27):
        if counts.count(2) > 1:
            continue
        tiles = bytes([27 + k for k, c in enumerate(counts) for _ in range(c)])
        groups = [(_PUNG if c == 3 else _PAIR)[27 + k][0] for k, c in enumerate(counts) if c]
        table[tiles] = (counts.count(2), tuple(groups))
    return table


_HONOR_READINGS = _build_honor_readings()  # (1,024 keys)


def _natural_readings(natural: tuple[Tile, ...]) -> list[list[int]]:
    """The standard readings of natural tiles, sorted (no wildcards, at most four of a kind),
    as group indices, in the order the search finds them: each suit's readings from
    ``_SUIT_READINGS`` (the search reads the suits one after the other, so its readings are
    their product in that order) and the honors' one (``_HONOR_READINGS``). Each suit's tiles
    are found by bisection and made a key in C (``bytes``), with no count per tile."""
    b = bytes(natural)
    end = bisect_left(natural, 27)
    entry = _HONOR_READINGS.get(b[end:])
    if entry is None:
        return []
    pairs, honors = entry
    fixed = [*honors]
    choices: list[list[list[int]]] = []
    lo = 0
    for s in range(3):
        hi = bisect_left(natural, 9 * s + 9, lo, end)
        if hi == lo:
            continue
        found = _SUIT_READINGS.get(b[lo:hi].translate(_RANK_BYTE) if s else b[lo:hi])
        if found is None:
            return []
        lo = hi
        n, pair, codes = found
        pairs += pair
        code = _CODE[s]
        if len(codes) == n:
            fixed += [code[c] for c in codes]
        else:
            choices.append([[code[c] for c in codes[k:k + n]]
                            for k in range(0, len(codes), n)])
    if pairs != 1:
        return []
    out = [fixed]
    for options in choices:
        out = [r + o for r in out for o in options]
    return out


def _standard(counts: list[int], jokers: int, need_pair: bool, acc: list[int],
              out: list[tuple[int, ...]]) -> None:
    """Every standard reading of these natural counts with this many wildcards, appended to
    ``out`` as group indices (see :func:`_search`)."""
    # nxt[i]: the first kind from i on that the hand holds; counts only fall during the search,
    # so the lowest tile left is found by jumping over the kinds it never held
    nxt = [NUM_KINDS] * (NUM_KINDS + 1)
    for t in range(NUM_KINDS - 1, -1, -1):
        nxt[t] = t if counts[t] else nxt[t + 1]
    _search(counts, nxt, jokers, need_pair, acc, out, nxt[0], 0)


def _search(counts: list[int], nxt: list[int], jokers: int, need_pair: bool, acc: list[int],
            out: list[tuple[int, ...]], i: int, min_kind: int) -> None:
    """Groups containing the lowest natural tile ``i`` first; several groups on the same ``i``
    come in a fixed kind order (pung, pair, chows by start), so each reading is made once.
    ``min_kind`` holds while ``i`` is still the lowest tile (no tile below it is left)."""
    if i < NUM_KINDS and not counts[i]:
        i = nxt[i + 1]
        while i < NUM_KINDS and not counts[i]:
            i = nxt[i + 1]
        min_kind = 0
    if i == NUM_KINDS:
        _joker_only(jokers, need_pair, acc, out)
        return
    c = counts[i]
    # kind 0: pung of i
    take = c if c < 3 else 3
    if min_kind <= 0 and 3 - take <= jokers:
        counts[i] -= take
        acc.append(_PUNG[i][3 - take])
        _search(counts, nxt, jokers - (3 - take), need_pair, acc, out, i, 0)
        acc.pop()
        counts[i] += take
    # kind 1: pair of i
    if need_pair and min_kind <= 1:
        take = c if c < 2 else 2
        if 2 - take <= jokers:
            counts[i] -= take
            acc.append(_PAIR[i][2 - take])
            _search(counts, nxt, jokers - (2 - take), False, acc, out, i, 1)
            acc.pop()
            counts[i] += take
    # kinds 2-4: chows containing i, from i - 2, i - 1 and i; ranks below i are empty, so
    # wildcards fill them (bit b of a chow's mask: its tile b is a wildcard)
    if i < 27:
        r = i % 9
        if min_kind <= 2 and r >= 2 and jokers >= 2:
            counts[i] = c - 1
            acc.append(_CHOW[i - 2][3])
            _search(counts, nxt, jokers - 2, need_pair, acc, out, i, 2)
            acc.pop()
            counts[i] = c
        if min_kind <= 3 and 1 <= r <= 7 and jokers:
            if counts[i + 1]:
                counts[i] = c - 1
                counts[i + 1] -= 1
                acc.append(_CHOW[i - 1][1])
                _search(counts, nxt, jokers - 1, need_pair, acc, out, i, 3)
                acc.pop()
                counts[i] = c
                counts[i + 1] += 1
            elif jokers >= 2:
                counts[i] = c - 1
                acc.append(_CHOW[i - 1][5])
                _search(counts, nxt, jokers - 2, need_pair, acc, out, i, 3)
                acc.pop()
                counts[i] = c
        if r <= 6:
            has1 = counts[i + 1] > 0
            has2 = counts[i + 2] > 0
            wild = 2 - has1 - has2
            if wild <= jokers:
                counts[i] = c - 1
                if has1:
                    counts[i + 1] -= 1
                if has2:
                    counts[i + 2] -= 1
                acc.append(_CHOW[i][(0 if has1 else 2) | (0 if has2 else 4)])
                _search(counts, nxt, jokers - wild, need_pair, acc, out, i, 4)
                acc.pop()
                counts[i] = c
                if has1:
                    counts[i + 1] += 1
                if has2:
                    counts[i + 2] += 1


def _joker_only(jokers: int, need_pair: bool, acc: list[int], out: list[tuple[int, ...]]) -> None:
    """Groups made only of wildcards: every concrete set and pair they could stand for."""
    if need_pair:
        if jokers < 2:
            return
        for t in range(NUM_KINDS):
            acc.append(_PAIR[t][2])
            _joker_only(jokers - 2, False, acc, out)
            acc.pop()
        return
    if jokers == 0:
        out.append(tuple(acc))
        return
    if jokers % 3:
        return
    for j in _WILD_SETS:
        acc.append(j)
        _joker_only(jokers - 3, False, acc, out)
        acc.pop()


def _seven_pairs(counts: list[int], jokers: int,
                 four_as_two_pairs: bool) -> Iterator[list[int]]:
    pairs: list[int] = []
    for t, c in enumerate(counts):
        if c == 0:
            continue
        if c > 2 and not four_as_two_pairs:
            return
        full, single = divmod(c, 2)
        pairs.extend([_PAIR[t][0]] * full)
        if single:
            if jokers == 0:
                return
            jokers -= 1
            pairs.append(_PAIR[t][1])
    if jokers % 2:
        return
    held = {_GROUPS[j].tiles[0] for j in pairs}
    kinds = [t for t in range(NUM_KINDS) if four_as_two_pairs or t not in held]
    chooser = combinations_with_replacement if four_as_two_pairs else _distinct_combinations
    for extra in chooser(kinds, jokers // 2):
        if not four_as_two_pairs and len(set(extra)) != len(extra):
            continue
        yield pairs + [_PAIR[t][2] for t in extra]


def _distinct_combinations(kinds: list[int], n: int) -> Iterator[tuple[int, ...]]:
    from itertools import combinations

    return combinations(kinds, n)


def _standard_reading(ranked: list[int]) -> Decomposition:
    """The standard reading of these sorted group indices (one pair among them): the sets,
    then the pair, with the pair and the sets written at once (no working needed). The pairs'
    indices lie between the chows' and the pungs', so the one pair is found by bisection, and
    the reading is filled in one step, as ``Decomposition("standard", groups)`` would be."""
    groups = [_GROUPS[j] for j in ranked]
    pair = groups.pop(bisect_left(ranked, _FIRST_PAIR))
    sets = tuple(groups)
    reading = _new(Decomposition)
    reading.__dict__.update(shape="standard", groups=(*sets, pair), pair=pair, sets=sets)
    return reading


def decompositions(tiles: Sequence[Tile], wildcards: frozenset[Tile] = frozenset(), *,
                   standard: bool = True, seven_pairs: bool = True,
                   four_as_two_pairs: bool = True) -> list[Decomposition]:
    """Every way to read the concealed part as sets + a pair (and as seven pairs).

    Each distinct reading appears once; with wildcards, readings differ also by what the
    wildcards stand for. Empty when the hand is not complete.
    """
    if len(tiles) % 3 != 2:
        return []
    seq = tiles if type(tiles) is tuple or type(tiles) is list else list(tiles)
    if not (min(seq) >= 0 and max(seq) < NUM_KINDS):
        counts, jokers = _split(seq, wildcards)  # (raises, naming the tile)
        return list(_readings_of(bytes(counts), jokers, standard, seven_pairs,
                                 four_as_two_pairs))
    # the natural tiles sorted (in C, not a Python loop counting each tile) are the key; the
    # copies of a wildcard kind lie side by side there
    natural = sorted(seq)
    jokers = 0
    for w in wildcards:
        if 0 <= w < NUM_KINDS:
            i = bisect_left(natural, w)
            j = bisect_right(natural, w, i)
            if j > i:
                jokers += j - i
                del natural[i:j]
    return list(_sorted_readings(tuple(natural), jokers, standard, seven_pairs,
                                 four_as_two_pairs))


@memoised(maxsize=4096)
def _sorted_readings(natural: tuple[Tile, ...], jokers: int, standard: bool, seven_pairs: bool,
                     four_as_two_pairs: bool) -> tuple[Decomposition, ...]:
    """:func:`_readings_of` for the natural tiles in order, as :func:`decompositions` has them;
    without wildcards read from the tables, with no count per tile."""
    if jokers or any(map(eq, natural, natural[4:])):  # (a fifth copy: only from code)
        counts = [0] * NUM_KINDS
        for t in natural:
            counts[t] += 1
        return _readings_of(bytes(counts), jokers, standard, seven_pairs, four_as_two_pairs)
    return _natural_of(natural, standard, seven_pairs, four_as_two_pairs)


def _natural_of(natural: tuple[Tile, ...], standard: bool, seven_pairs: bool,
                four_as_two_pairs: bool) -> tuple[Decomposition, ...]:
    """:func:`_readings_of` for natural tiles, sorted, at most four of a kind."""
    out: list[Decomposition] = []
    if standard:  # (distinct readings: no two of a suit's readings hold the same groups)
        for indices in _natural_readings(natural):
            reading = _standard_reading(sorted(indices))
            reading.__dict__["substitutions"] = ()
            out.append(reading)
    if seven_pairs and len(natural) == 14:
        firsts = natural[0::2]  # sorted tiles pair off; four of a kind makes two pairs
        if firsts == natural[1::2] and (four_as_two_pairs or len(set(firsts)) == 7):
            out.append(Decomposition("seven_pairs", tuple([_GROUPS[_PAIR[t][0]]
                                                           for t in firsts])))
    return tuple(out)


def _readings_of(counts: bytes, jokers: int, standard: bool, seven_pairs: bool,
                 four_as_two_pairs: bool) -> tuple[Decomposition, ...]:
    """:func:`decompositions` of these natural counts and wildcards, by search: what
    :func:`_sorted_readings` (memoised, keyed on the same tiles) asks when there are wildcards
    or more than four of a kind (only from code); without either it reads the tables."""
    out: list[Decomposition] = []
    if standard and (jokers or is_winning_counts(counts, False)):
        found: list[tuple[int, ...]] = []
        _standard(list(counts), jokers, True, [], found)
        seen: set[tuple[int, ...]] = set()
        for indices in found:
            ranked = sorted(indices)  # (indices sort as their groups do)
            key = tuple(ranked)
            if key not in seen:
                seen.add(key)
                out.append(_standard_reading(ranked))
    if seven_pairs and sum(counts) + jokers == 14:
        if jokers:
            seen = set()
            for pairs in _seven_pairs(list(counts), jokers, four_as_two_pairs):
                ranked = sorted(pairs)
                key = tuple(ranked)
                if key not in seen:
                    seen.add(key)
                    out.append(Decomposition("seven_pairs", tuple([_GROUPS[j] for j in ranked])))
        elif 1 not in counts and 3 not in counts and (four_as_two_pairs or max(counts) <= 2):
            # the one reading, its pairs by kind (the order their groups sort in)
            pairs: list[Group] = []
            for t, c in enumerate(counts):
                if c:
                    if c & 1:  # (five or seven of a kind: only from code)
                        break
                    pairs += [_GROUPS[_PAIR[t][0]]] * (c >> 1)
            else:
                out.append(Decomposition("seven_pairs", tuple(pairs)))
    return tuple(out)


# ---------------------------------------------------------------- waits


def waits(tiles: Sequence[Tile], wildcards: frozenset[Tile] = frozenset(), *,
          standard: bool = True, seven_pairs: bool = True, four_as_two_pairs: bool = True,
          predicate: Callable[[list[Tile]], bool] | None = None) -> list[Tile]:
    """Tile kinds that would complete this concealed part of 3n + 1 tiles (听牌).

    ``predicate`` replaces the shape test when a ruleset narrows what may win (258 pair, patterns).
    A kind of which the hand already holds all four is no wait.
    """
    if len(tiles) % 3 != 1:
        return []
    held = [0] * NUM_KINDS
    for t in tiles:
        if not 0 <= t < NUM_KINDS:
            raise TileError(f"{TILE_NAMES[t]} cannot be part of a winning shape")
        held[t] += 1
    if predicate is None and not wildcards and standard:
        found = set(_standard_waits(held))
        if seven_pairs and len(tiles) == 13:
            found.update(_seven_pair_waits(held, four_as_two_pairs))
        return sorted(t for t in found if held[t] < 4)
    out: list[Tile] = []
    hand = list(tiles)
    for t in range(NUM_KINDS):
        if held[t] >= 4:
            continue
        hand.append(t)
        if predicate is not None:
            ok = predicate(hand)
        else:
            ok = is_complete(hand, wildcards, standard=standard, seven_pairs=seven_pairs,
                             four_as_two_pairs=four_as_two_pairs)
        hand.pop()
        if ok:
            out.append(t)
    return out


def _standard_waits(counts: list[int]) -> list[Tile]:
    """Waits of the standard shape: only the suit (or honor) that receives the tile changes."""
    status = []  # per block: 0 sets only, 1 sets + pair, -1 neither
    for s in (0, 9, 18):
        key = bytes(counts[s:s + 9])
        status.append(0 if key in _SUIT0 else 1 if key in _SUIT1 else -1)
    honor_pairs = 0
    honor_bad = 0
    for c in counts[27:34]:
        if c == 2:
            honor_pairs += 1
        elif c in (1, 4):
            honor_bad += 1
    out: list[Tile] = []
    bad_suits = status.count(-1)
    if bad_suits > 1 or honor_bad > 1 or (bad_suits and honor_bad):
        return out
    for b, s in enumerate((0, 9, 18)):
        if honor_bad or bad_suits - (status[b] == -1):
            continue
        others_pairs = honor_pairs + sum(1 for k in range(3) if k != b and status[k] == 1)
        if others_pairs > 1:
            continue
        v = counts[s:s + 9]
        table = _SUIT1 if others_pairs == 0 else _SUIT0
        for r in range(9):
            if v[r] >= 4:
                continue
            v[r] += 1
            if bytes(v) in table:
                out.append(s + r)
            v[r] -= 1
    if bad_suits == 0:
        suit_pairs = sum(1 for st in status if st == 1)
        for t in range(27, 34):
            c = counts[t]
            if c not in (1, 2) or honor_bad - (c == 1):
                continue
            if honor_pairs + suit_pairs + (1 if c == 1 else -1) == 1:
                out.append(t)
    return out


def _seven_pair_waits(counts: list[int], four_as_two_pairs: bool) -> list[Tile]:
    singles = [t for t, c in enumerate(counts) if c % 2]
    if len(singles) != 1:
        return []
    t = singles[0]
    if counts[t] == 3 and not four_as_two_pairs:
        return []
    if not four_as_two_pairs and any(c > 2 for c in counts):
        return []
    return [t]
