"""The tile notation of shared/rules/README.md: every spelling, and round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import TileError
from scoring.tiles import (
    CLASS_NAMES,
    TILE_NAMES,
    format_tiles,
    next_in_cycle,
    parse_tiles,
    tile_from_name,
)


def names(text: str) -> list[str]:
    return [TILE_NAMES[t] for t in parse_tiles(text)]


def test_class_order_matches_the_detector_list() -> None:
    assert CLASS_NAMES[0] == "1m" and CLASS_NAMES[8] == "9m"
    assert CLASS_NAMES[9] == "1p" and CLASS_NAMES[18] == "1s"
    assert CLASS_NAMES[27:34] == ("E", "S", "W", "N", "C", "F", "P")
    assert CLASS_NAMES[34:42] == tuple(f"f{i}" for i in range(1, 9))
    assert CLASS_NAMES[42] == "die" and len(CLASS_NAMES) == 43


@pytest.mark.parametrize(("text", "expected"), [
    ("123m456p55s", ["1m", "2m", "3m", "4p", "5p", "6p", "5s", "5s"]),
    ("EEE", ["E", "E", "E"]),
    ("1z2z3z4z5z6z7z", ["E", "S", "W", "N", "P", "F", "C"]),
    ("1234567z", ["E", "S", "W", "N", "P", "F", "C"]),
    ("一万九万", ["1m", "9m"]),
    ("1万 2筒 3饼 4条 5索", ["1m", "2p", "3p", "4s", "5s"]),
    ("东南西北東", ["E", "S", "W", "N", "E"]),
    ("中发發白", ["C", "F", "F", "P"]),
    ("梅兰蘭菊竹春夏秋冬", ["f1", "f2", "f2", "f3", "f4", "f5", "f6", "f7", "f8"]),
    ("f1f8", ["f1", "f8"]),
    ("CFP", ["C", "F", "P"]),
    ("", []),
])
def test_parse_every_spelling(text: str, expected: list[str]) -> None:
    assert names(text) == expected


@pytest.mark.parametrize(("text", "message"), [
    ("123", "digits without a suit"),
    ("m", "without digits"),
    ("8z", "no honor 8z"),
    ("1x", "bad tile character 'x'"),
    ("12f1", "digits without a suit"),
    ("0m", "bad tile character '0'"),
])
def test_parse_errors_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(TileError, match=message):
        parse_tiles(text)


def test_tile_from_name_needs_exactly_one() -> None:
    assert TILE_NAMES[tile_from_name("白")] == "P"
    with pytest.raises(TileError, match="expected one tile"):
        tile_from_name("11m")


@given(st.lists(st.integers(0, 41), max_size=20))
def test_format_parse_round_trip(tiles: list[int]) -> None:
    assert parse_tiles(format_tiles(tiles)) == tiles


def test_format_is_compact() -> None:
    assert format_tiles(parse_tiles("1m2m3m4p5pEEf1")) == "123m45pEEf1"
    assert format_tiles([26, 0], sort=True) == "1m9s"


@pytest.mark.parametrize(("indicator", "hun"), [
    ("2m", "3m"), ("9m", "1m"), ("N", "E"), ("E", "S"), ("P", "C"), ("C", "F"), ("9s", "1s"),
])
def test_next_in_cycle(indicator: str, hun: str) -> None:
    assert TILE_NAMES[next_in_cycle(tile_from_name(indicator))] == hun


def test_plain_notation_reads_as_the_full_reader_does() -> None:
    """The one-pass reader of ``123m456p55sEEE`` answers as the full reader, errors included
    (anything it cannot read, it leaves to the full reader)."""
    import random

    from scoring.tiles import _parse, _parse_any, _plain

    rng = random.Random(7)
    plain = 0
    for i in range(3000):
        parts = [rng.choice("ESWNCFP") * rng.randint(1, 3) if rng.random() < 0.3 else
                 "".join(rng.choice("123456789") for _ in range(rng.randint(i % 3 == 0, 4)))
                 + rng.choice("mpsz") for _ in range(rng.randint(0, 6))]
        text = "".join(parts)
        if i % 4 == 0 and text:
            j = rng.randrange(len(text))
            text = text[:j] + rng.choice("123456789mpsESWNCFPz f一") + text[j:]

        def read(reader, text=text):  # type: ignore[no-untyped-def]
            try:
                return reader(text)
            except TileError as exc:
                return str(exc)

        assert read(_parse) == read(_parse_any), text
        plain += _plain(text) is not None
    assert plain > 1000  # the one-pass reader did read most of them
