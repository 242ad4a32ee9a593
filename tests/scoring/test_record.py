"""Hand-record parsing: every error of shared/rules/README.md names its field; JSON round trips."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from scoring.errors import RecordError
from scoring.record import load_record, parse_record
from scoring.tiles import TILE_NAMES

SAMPLE = Path(__file__).resolve().parents[2] / "ui" / "samples" / "hand.json"


def sample() -> dict[str, Any]:
    return json.loads(SAMPLE.read_text(encoding="utf-8"))


def with_change(path: str, value: Any) -> dict[str, Any]:
    """Copy of the sample with one field set; ``path`` like ``seats.1.concealed``."""
    data = copy.deepcopy(sample())
    node: Any = data
    keys = path.split(".")
    for k in keys[:-1]:
        node = node[int(k)] if isinstance(node, list) else node[k]
    last = keys[-1]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return data


def test_sample_parses_into_typed_objects() -> None:
    r = parse_record(sample())
    assert r.ruleset == "shandong" and r.dealer == 0 and r.outcome == "win"
    s1 = r.seats[1]
    assert len(s1.concealed) == 11 and s1.tile_count == 14
    assert s1.melds[0].type == "pung" and s1.melds[0].from_seat == 0
    assert [TILE_NAMES[f] for f in s1.flowers] == ["f1", "f5"]
    assert r.seats[3].ready and r.wins[0].from_seat == 3
    assert r.seat_wind(1) == 1


def test_round_trip_is_unchanged() -> None:
    data = sample()
    assert load_record(json.dumps(data)).to_json() == data


def test_round_trip_keeps_explicit_defaults_and_spellings() -> None:
    data = with_change("seats.1.concealed", "二三四万678m345p55s")
    data["seats"][0]["ready"] = False
    data["wins"][0]["first_turn"] = False
    data["wins"][0]["tile"] = "5筒"
    data["context"]["dice"] = [3, 4]
    assert parse_record(data).to_json() == data


ERRORS = [
    # (change, value, field in the message, words in the message)
    ("extra", 1, "extra", "unknown key"),
    ("seats.1.colour", "red", "seats[1].colour", "unknown key"),
    ("ruleset", "riichi", "ruleset", "unknown ruleset"),
    ("options", {"no_such_option": 1}, "options.no_such_option", "unknown option"),
    ("options", {"base": "five"}, "options.base", "must be a int"),
    ("dealer", 4, "dealer", "out of range"),
    ("dealer", True, "dealer", "seat number"),
    ("seats", [], "seats", "exactly 4"),
    ("outcome", "lost", "outcome", "must be one of"),
    ("seats.1.concealed", "234m678m345p55x", "seats[1].concealed", "bad tile character 'x'"),
    ("seats.1.concealed", "234m678m345p5s", "seats[1]", "needs 14"),
    ("seats.1.concealed", "234m678m345p555s", "seats[1]", "needs 14"),
    ("seats.1.concealed", "234m678m345s55s", "seats[1].concealed",
     "does not hold its winning tile 5p"),
    ("seats.1.concealed", "234m678m3f1p55s", "seats[1].concealed", "digits without a suit"),
    ("seats.1.concealed", "234m678m34p5s55s梅", "seats[1].concealed", "belongs in flowers"),
    ("seats.1.flowers", ["f1", "5m"], "seats[1].flowers", "not a flower"),
    ("seats.1.flowers", ["f1", "f1"], "seats", "2 copies of f1"),
    ("seats.1.melds", [{"type": "pong", "tiles": "EEE", "from": 0}], "seats[1].melds[0].type",
     "must be one of"),
    ("seats.1.melds", [{"type": "pung", "tiles": "EES", "from": 0}], "seats[1].melds[0].tiles",
     "not 3 identical"),
    ("seats.1.melds", [{"type": "chow", "tiles": "89m1p", "from": 0}],
     "seats[1].melds[0].tiles", "not a run"),
    ("seats.1.melds", [{"type": "chow", "tiles": "EEE", "from": 0}],
     "seats[1].melds[0].tiles", "not a run"),
    ("seats.1.melds", [{"type": "chow", "tiles": "123p", "from": 2}],
     "seats[1].melds[0].from", "上家"),
    ("seats.1.melds", [{"type": "pung", "tiles": "EEE"}], "seats[1].melds[0].from",
     "names the seat"),
    ("seats.1.melds", [{"type": "pung", "tiles": "EEE", "from": 1}], "seats[1].melds[0].from",
     "own discard"),
    ("seats.1.melds", [{"type": "concealed_kong", "tiles": "EEEE", "from": 0}],
     "seats[1].melds[0].from", "no 'from'"),
    ("seats.1.melds", [{"type": "exposed_kong", "tiles": "EEE", "from": 0}],
     "seats[1].melds[0].tiles", "has 4 tiles"),
    ("seats.1.ready", "yes", "seats[1].ready", "true or false"),
    ("seats.1.declared", "open", "seats[1].declared", "must be one of"),
    ("seats.1.hun_discarded", -1, "seats[1].hun_discarded", "whole number"),
    ("seats.2.concealed", "EE123m456p78s", "seats", "5 copies of E"),
    ("seats.2.concealed", "1234m", "seats[2]", "non-winner holds 13"),
    ("wins", [], "wins", "at least one winner"),
    ("wins.0.seat", 7, "wins[0].seat", "out of range"),
    ("wins.0.by", "tsumo", "wins[0].by", "must be one of"),
    ("wins.0.from", 1, "wins[0].from", "own discard"),
    ("wins.0.tile", "5p6p", "wins[0].tile", "exactly one tile"),
    ("wins.0.replacement", "kong", "wins[0].replacement", "only a self-drawn tile"),
    ("wins.0.kong_fed_by", 2, "wins[0].kong_fed_by", "goes with replacement"),
    ("wins.0.first_turn", 1, "wins[0].first_turn", "true or false"),
    ("wins.0.tile", "f1", "wins[0].tile", "only be won by self-draw"),
    ("context.dice", [0, 7], "context.dice", "two dice values"),
    ("context.indicator", "f2", "context.indicator", "not a flower"),
    ("context.huangzhuang_streak", -2, "context.huangzhuang_streak", "whole number"),
    ("context.weather", "rain", "context.weather", "unknown key"),
    ("outcome", "draw", "wins", "no winners"),
]


@pytest.mark.parametrize(("path", "value", "field", "words"), ERRORS,
                         ids=[f"{p}={v!r}" for p, v, _, _ in ERRORS])
def test_each_error_names_its_field(path: str, value: Any, field: str, words: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_record(with_change(path, value))
    assert info.value.field == field
    assert words in str(info.value)


def test_self_draw_has_no_from() -> None:
    data = sample()
    data["wins"][0] = {"seat": 1, "tile": "5p", "by": "self_draw", "from": 3}
    with pytest.raises(RecordError, match="self-drawn win has no 'from'"):
        parse_record(data)


def test_several_winners_need_one_discard() -> None:
    data = sample()
    data["seats"][2]["concealed"] = "456p789sNN123s"
    data["wins"].append({"seat": 2, "tile": "5p", "by": "discard", "from": 0})
    with pytest.raises(RecordError, match="same tile from the same seat"):
        parse_record(data)
    data["wins"][1]["from"] = 3
    parse_record(data)  # 一炮多响: the discarded 5p is counted once


def test_copies_count_melds_indicator_and_bao() -> None:
    data = sample()
    data["context"]["indicator"] = "E"
    with pytest.raises(RecordError, match="5 copies of E"):
        parse_record(with_change("seats.0.concealed", "") | {"context": {"indicator": "E",
                                                                          "bao_tile": "E"}})
    data["context"] = {"bao_tile": "5s", "indicator": "5s"}
    with pytest.raises(RecordError, match="6 copies of 5s"):
        data["seats"][3]["concealed"] = "55s123m456p789pEN"
        parse_record(data)


def test_flower_win_shape() -> None:
    data = {
        "ruleset": "shanghai", "dealer": 0, "outcome": "win",
        "seats": [{"concealed": "123m456m789m1p2p3pE",
                   "flowers": ["f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8"]},
                  {}, {}, {}],
        "wins": [{"seat": 0, "tile": "f8", "by": "self_draw"}],
    }
    parse_record(data)
    data["seats"][0]["flowers"] = ["f1", "f2", "f3", "f4", "f5", "f6", "f8"]
    with pytest.raises(RecordError, match="all eight flowers"):
        parse_record(data)


def test_not_json() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record("{")
    with pytest.raises(RecordError, match="JSON object"):
        load_record("[]")


def _win_variant(**win: Any) -> dict[str, Any]:
    data = sample()
    data["wins"][0] = {"seat": 1, "tile": "5p", **win}
    return data


@pytest.mark.parametrize(("win", "field", "words"), [
    ({"by": "self_draw", "replacement": "kong"}, "wins[0].replacement", "needs a kong"),
    ({"by": "self_draw", "replacement": "kong", "kong_fed_by": 0}, "wins[0].replacement",
     "needs a kong"),
    ({"by": "rob_kong", "from": 2}, "wins[0].from", "only a 补杠 can be robbed"),
])
def test_win_sources_must_exist(win: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_record(_win_variant(**win))
    assert info.value.field == field and words in str(info.value)


def test_flower_replacement_needs_a_flower() -> None:
    data = _win_variant(by="self_draw", replacement="flower")
    parse_record(data)  # seat 1 has flowers
    data["seats"][1]["flowers"] = []
    with pytest.raises(RecordError, match="needs a flower"):
        parse_record(data)


def test_at_most_four_melds() -> None:
    data = sample()
    data["seats"][2]["concealed"] = ""
    data["seats"][2]["melds"] = [{"type": "pung", "tiles": t, "from": 0}
                                 for t in ("111p", "222p", "333p", "444p", "666p")]
    with pytest.raises(RecordError, match="seat 2 shows 5 melds"):
        parse_record(data)


def test_meld_texts_read_without_the_parser_read_as_the_parser_does() -> None:
    """``_MELD_TILES`` (a meld's usual texts, read by one look-up) says what the parser says."""
    from scoring.record import _MELD_TILES
    from scoring.tiles import parse_tiles

    assert len(_MELD_TILES) == 7 * 3 * 6 + 34 * 2
    for text, tiles in _MELD_TILES.items():
        assert tuple(parse_tiles(text)) == tiles, text


def test_parsed_objects_hold_exactly_their_fields() -> None:
    """The parser fills the usual records' objects through their ``__dict__`` (no
    ``__init__``): each must hold exactly its dataclass fields and equal the object its
    constructor builds from them, on every worked case."""
    import dataclasses
    import json
    from pathlib import Path

    cases = Path(__file__).resolve().parent.parent / "cases"
    seen = 0
    for path in sorted(cases.glob("*/*.json")):
        if path.name.endswith(".expect.json"):
            continue
        try:
            record = load_record(json.loads(path.read_text(encoding="utf-8")))
        except RecordError:
            continue
        objects = [record, record.context, *record.seats, *record.wins,
                   *(m for s in record.seats for m in s.melds)]
        for obj in objects:
            names = [f.name for f in dataclasses.fields(obj)]
            assert list(vars(obj)) == names, type(obj).__name__
            assert type(obj)(*[getattr(obj, n) for n in names]) == obj
            seen += 1
    assert seen > 1000
