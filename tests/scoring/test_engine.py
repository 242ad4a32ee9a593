"""The hand engine against the `mahjong` library and against brute force."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong.agari import Agari

from scoring.engine import (
    counts_of,
    decompositions,
    is_complete,
    is_seven_pairs,
    is_standard_complete,
    is_winning_counts,
    waits,
)
from scoring.errors import TileError
from scoring.tiles import parse_tiles

SETS = [(s + r, s + r + 1, s + r + 2) for s in (0, 9, 18) for r in range(7)] + [
    (t, t, t) for t in range(34)]
TERMINALS_AND_HONORS = [0, 8, 9, 17, 18, 26, *range(27, 34)]


def random_complete(rng: random.Random) -> list[int]:
    while True:
        tiles = [t for _ in range(4) for t in rng.choice(SETS)]
        tiles += [rng.randrange(34)] * 2
        if max(Counter(tiles).values()) <= 4:
            return tiles


def random_hand(rng: random.Random, n: int = 14) -> list[int]:
    wall = [t for t in range(34) for _ in range(4)]
    return rng.sample(wall, n)


def is_kokushi(c: bytes) -> bool:
    return all(c[t] for t in TERMINALS_AND_HONORS) and sum(c) == 14 and sum(
        c[t] for t in TERMINALS_AND_HONORS) == 14


def test_agrees_with_mahjong_on_random_hands() -> None:
    agari = Agari()
    rng = random.Random(7)
    for i in range(4000):
        tiles = random_complete(rng) if i % 2 else random_hand(rng)
        c = counts_of(tiles)
        theirs = agari.is_agari(list(c)) and not is_kokushi(c)
        ours = is_standard_complete(c) or is_seven_pairs(c, four_as_two_pairs=False)
        assert ours == theirs, tiles
        assert is_winning_counts(c) == (is_standard_complete(c) or is_seven_pairs(c))


@pytest.mark.parametrize(("text", "complete"), [
    ("11122233344455m", True),
    ("12m45p78s11223344z", False),
    ("123m456p789s11122z", True),
    ("1122m3344p5566s77z", True),  # seven pairs
    ("1111m2233p4455s66z", True),  # four of a kind as two pairs
    ("11112222333344m", True),
    ("22m", True),
    ("123m", False),
])
def test_known_hands(text: str, complete: bool) -> None:
    tiles = parse_tiles(text)
    if len(tiles) % 3 == 2:
        assert is_complete(tiles) == complete


def test_four_of_a_kind_option() -> None:
    tiles = parse_tiles("1111m2233p4455s66z")
    assert is_complete(tiles)
    assert not is_complete(tiles, four_as_two_pairs=False)


def brute_force_decompositions(tiles: list[int]) -> set[tuple]:
    """All multisets of sets + pair, found by trying every combination of sets."""
    need = Counter(tiles)
    out = set()
    n_sets = (len(tiles) - 2) // 3
    for pair in {t for t, k in need.items() if k >= 2}:
        rest = need - Counter({pair: 2})
        candidates = [s for s in SETS if not Counter(s) - rest]
        for combo in combinations_with_replacement(candidates, n_sets):
            if sum((Counter(s) for s in combo), Counter()) == rest:
                out.add((tuple(sorted(combo)), pair))
    return out


@settings(max_examples=150)
@given(st.integers(0, 2**31).map(random.Random))
def test_decompositions_match_brute_force(rng: random.Random) -> None:
    tiles = random_complete(rng)
    ours = {(tuple(sorted(g.tiles for g in d.sets)), d.pair.tiles[0])
            for d in decompositions(tiles, seven_pairs=False)}
    assert ours == brute_force_decompositions(tiles)


def test_decompositions_of_a_rich_hand() -> None:
    found = {str(d) for d in decompositions(parse_tiles("11122233344455m"))}
    assert "111m 222m 333m 444m 55m" in found
    assert "123m 123m 123m 444m 55m" in found
    assert all(d.shape == "standard" for d in decompositions(parse_tiles("11122233344455m")))


def substitutions_complete(tiles: list[int], wild: int, k: int) -> bool:
    natural = [t for t in tiles if t != wild]
    return any(is_complete(natural + list(sub), seven_pairs=False)
               for sub in combinations_with_replacement(range(34), k))


@settings(max_examples=60)
@given(st.integers(0, 2**31).map(random.Random), st.integers(1, 2))
def test_wildcards_complete_iff_some_substitution_is(rng: random.Random, k: int) -> None:
    wild = 31  # 中 is the wildcard kind
    base = random_complete(rng) if rng.random() < 0.5 else random_hand(rng)
    base = [t for t in base if t != wild]
    while len(base) < 14:
        base.append(rng.randrange(31))
    tiles = base[: 14 - k] + [wild] * k
    expected = substitutions_complete(tiles, wild, k)
    assert is_complete(tiles, frozenset({wild}), seven_pairs=False) == expected
    decs = decompositions(tiles, frozenset({wild}), seven_pairs=False)
    assert bool(decs) == expected
    natural = Counter(t for t in tiles if t != wild)
    for d in decs[:50]:
        assert len(d.substitutions) == k
        shown = Counter(t for g in d.groups for t in g.tiles)
        assert shown == natural + Counter(d.substitutions)


def test_wildcard_reports_what_it_stood_for() -> None:
    tiles = [*parse_tiles("123m456p789s1z"), 31]  # 中 stands for the second E
    decs = decompositions(tiles, frozenset({31}))
    assert [d.substitutions for d in decs] == [(27,)]
    assert str(decs[0]) == "123m 456p 789s EE(*E)"


def test_only_wildcards_can_be_anything() -> None:
    tiles = [*parse_tiles("123m456p789s"), 31, 31]
    decs = decompositions(tiles, frozenset({31}))
    wild_pairs = {d.pair.tiles[0] for d in decs if d.pair and len(d.pair.wild) == 2}
    assert wild_pairs == set(range(34))  # two wildcards as the pair may be any kind
    assert len(decs) > 34  # and a wildcard may also join a natural tile


def test_wildcard_seven_pairs() -> None:
    tiles = [*parse_tiles("1122m3344p5566s7z"), 31]
    assert is_complete(tiles, frozenset({31}))
    assert not is_complete(tiles, frozenset({31}), seven_pairs=False)


@settings(max_examples=200)
@given(st.integers(0, 2**31).map(random.Random))
def test_fast_waits_equal_brute_force(rng: random.Random) -> None:
    tiles = random_complete(rng)
    tiles.pop(rng.randrange(14))
    held = Counter(tiles)
    expected = [t for t in range(34) if held[t] < 4 and is_complete([*tiles, t])]
    assert waits(tiles) == expected


def test_waits_classic_nine_gates() -> None:
    assert waits(parse_tiles("1112345678999m")) == list(range(9))


def test_waits_with_a_ruleset_predicate() -> None:
    tiles = parse_tiles("123m456p789s1p2p3pE")
    assert waits(tiles) == [27]
    assert waits(tiles, predicate=lambda hand: False) == []


def test_flowers_are_not_shapes() -> None:
    with pytest.raises(TileError, match="cannot be part of a winning shape"):
        is_complete([*parse_tiles("123m456p789s111z"), 34, 34])


def test_suit_table_lists_what_the_search_finds_in_its_order() -> None:
    """The readings built at import (``_SUIT_READINGS``, ``_HONOR_READINGS``) are those the
    wildcard search finds with no wildcard, in the same order, for every suit vector that
    splits into sets (in the dots suit, so the translation of a suit's codes is checked too),
    and for random whole hands."""
    from scoring.engine import _SUIT0, _SUIT1, _SUIT_READINGS, _natural_readings, _standard

    def searched(counts: bytes) -> list[list[int]]:
        found: list[tuple[int, ...]] = []
        _standard(list(counts), 0, True, [], found)
        return [sorted(f) for f in found]

    def tiles(counts: bytes) -> tuple[int, ...]:
        return tuple(t for t, c in enumerate(counts) for _ in range(c))

    assert len(_SUIT_READINGS) == len(_SUIT0) + len(_SUIT1)
    east_pair = bytes([2, 0, 0, 0, 0, 0, 0])  # beside a vector without the pair
    for v in _SUIT0 | _SUIT1:
        counts = bytes(9) + v + bytes(9) + (bytes(7) if v in _SUIT1 else east_pair)
        assert [sorted(r) for r in _natural_readings(tiles(counts))] == searched(counts), v
    rng = random.Random(5)
    for _ in range(300):
        counts = counts_of(random_complete(rng))
        ours = [sorted(r) for r in _natural_readings(tiles(counts))]
        assert ours == searched(counts) and ours
    for _ in range(300):  # mostly not complete
        counts = counts_of(random_hand(rng))
        assert [sorted(r) for r in _natural_readings(tiles(counts))] == searched(counts)
