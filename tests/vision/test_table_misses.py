"""``bench/table_misses.py``: how a missed seat's and winner's readings are told apart."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from scoring.tiles import parse_tiles
from vision.manifest import recorded_tiles

_SPEC = importlib.util.spec_from_file_location(
    "table_misses", Path(__file__).resolve().parents[2] / "bench" / "table_misses.py")
assert _SPEC is not None and _SPEC.loader is not None
table_misses = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(table_misses)


def _seat(hand: str, melds: tuple[str, ...] = (), flowers: str = ""):
    return (sorted(parse_tiles(hand)), sorted(tuple(sorted(parse_tiles(m))) for m in melds),
            sorted(parse_tiles(flowers)))


@pytest.mark.parametrize(("got", "category"), [
    (_seat("123m456p789sEEE", (), "f1"), "1 misread"),
    (_seat("123m456p789sEE"), "1 missing +flowers"),
    (_seat("123m456p789s"), "3 missing +flowers"),
    (_seat("123m456p789s11sEE", (), "f1"), "1 extra"),
    (_seat("123m456p789s1sEE", (), "f1f2"), "flowers only -0+1"),
    (_seat("456p789s1sEE", ("123m",), "f1"), "melds cut wrong"),
    (_seat("123m456p789s1p1pEE", (), "f1"), "mixed"),
])
def test_a_missed_seat_is_counted_by_how_its_tiles_differ(got, category: str) -> None:
    want = _seat("123m456p789s1sEE", (), "f1")
    assert table_misses.seat_category(want, got) == category


def test_a_missed_win_is_counted_by_what_the_record_says() -> None:
    want = (sorted(parse_tiles("123m456p789s11sEE")), [])
    record = {"wins": [{"seat": 2}], "seats": [{}, {}, {"concealed": "11sEE123m456p789s"},
                                               {}]}
    assert recorded_tiles(record, 2) == want
    assert table_misses.winner_category(record, 2, *want) is None
    assert table_misses.winner_category(None, 2, *want) == "no win"
    assert table_misses.winner_category({**record, "wins": [{"seat": 1}]}, 2, *want) \
        == "another seat's win"
    other = {**record, "seats": [{}, {}, {"concealed": "11sEE123m456p78s", "melds": [
        {"tiles": "999s"}]}, {}]}
    assert table_misses.winner_category(other, 2, *want) == "a win with other tiles"
    cut = {**record, "seats": [{}, {}, {"concealed": "11sEE456p789s", "melds": [
        {"tiles": "123m"}]}, {}]}
    assert table_misses.winner_category(cut, 2, *want) == "a win, melds cut otherwise"
