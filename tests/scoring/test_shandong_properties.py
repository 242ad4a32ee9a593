"""Shandong invariants: zero-sum, deterministic, unchanged by turning the table, and 承包 only
moves payments.

Random hands are built from sets + a 258 pair (or seven pairs) with random melds, kongs, flowers,
win modes, declarations and 荒庄 streaks; every worked case is also turned round the table.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring import score
from scoring.errors import ScoringError
from scoring.record import load_record
from scoring.rulesets.shandong import RULESET
from scoring.tiles import NUM_KINDS, TILE_NAMES, is_suit, rank_of

CASES = Path(__file__).resolve().parent.parent / "cases" / "shandong"
SCORED_CASES = sorted(p for p in CASES.glob("*.json") if not p.name.endswith(".expect.json")
                      and "error" not in json.loads(p.with_name(p.stem + ".expect.json")
                                                    .read_text(encoding="utf-8")))
JIANG = [t for t in range(27) if rank_of(t) in (2, 5, 8)]


def _names(tiles: list[int]) -> str:
    return "".join(TILE_NAMES[t] if not is_suit(t) else f"{rank_of(t)}{'mps'[t // 9]}"
                   for t in tiles)


def rotate(record: dict[str, Any], r: int) -> dict[str, Any]:
    """The same hand with every seat number moved r places round the table (play order kept)."""
    out = copy.deepcopy(record)
    seats = [None] * 4
    for k, seat in enumerate(out["seats"]):
        for meld in seat.get("melds", []):
            if "from" in meld:
                meld["from"] = (meld["from"] + r) % 4
        seats[(k + r) % 4] = seat
    out["seats"] = seats
    out["dealer"] = (out["dealer"] + r) % 4
    for win in out.get("wins", []):
        for key in ("seat", "from", "kong_fed_by"):
            if win.get(key) is not None:
                win[key] = (win[key] + r) % 4
    return out


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    dealer = draw(st.integers(0, 3))
    winner = draw(st.integers(0, 3))
    others = [(winner + i) % 4 for i in (1, 2, 3)]
    flowers = draw(st.lists(st.sampled_from([f"f{i}" for i in range(1, 9)]), max_size=8,
                            unique=True))
    seats: list[dict[str, Any]] = [{"concealed": "", "melds": [], "flowers": []}
                                   for _ in range(4)]
    seats[winner]["flowers"] = flowers
    concealed: list[int] = []
    melds: list[dict[str, Any]] = []
    if draw(st.booleans()) and draw(st.booleans()):  # seven pairs, about a quarter of hands
        kinds = draw(st.lists(st.integers(0, NUM_KINDS - 1), min_size=7, max_size=7))
        concealed = sorted(k for k in kinds for _ in range(2))
    else:
        feeder = draw(st.sampled_from(others))  # a favourite feeder makes 承包 common
        for _ in range(4):
            if draw(st.booleans()):
                s, r = draw(st.integers(0, 2)), draw(st.integers(0, 6))
                run = [9 * s + r + i for i in range(3)]
                if draw(st.integers(0, 2)) == 0:
                    melds.append({"type": "chow", "tiles": _names(run),
                                  "from": (winner - 1) % 4})
                else:
                    concealed += run
            else:
                t = draw(st.integers(0, NUM_KINDS - 1))
                how = draw(st.sampled_from(["in_hand", "pung", "exposed_kong", "added_kong",
                                            "concealed_kong"]))
                if how == "in_hand":
                    concealed += [t] * 3
                    continue
                meld = {"type": how, "tiles": _names([t] * (3 if how == "pung" else 4))}
                if how != "concealed_kong":
                    meld["from"] = feeder if draw(st.booleans()) else draw(st.sampled_from(others))
                melds.append(meld)
        concealed += [draw(st.sampled_from(JIANG))] * 2
    all_tiles = list(concealed)
    for m in melds:
        from scoring.tiles import parse_tiles
        all_tiles += parse_tiles(m["tiles"])
    assume(max(all_tiles.count(t) for t in set(all_tiles)) <= 4)
    tile = draw(st.sampled_from(concealed))
    seats[winner]["concealed"] = _names(concealed)
    seats[winner]["melds"] = melds
    win: dict[str, Any] = {"seat": winner, "tile": _names([tile])}
    by = draw(st.sampled_from(["self_draw", "discard", "rob_kong"]))
    if by == "rob_kong":
        assume(all_tiles.count(tile) == 1)
        robbed = draw(st.sampled_from(others))
        seats[robbed]["melds"] = [{"type": "pung", "tiles": _names([tile] * 3),
                                   "from": (robbed + 1) % 4 if (robbed + 1) % 4 != robbed
                                   else (robbed + 2) % 4}]
        win.update(by="rob_kong", **{"from": robbed})
    elif by == "discard":
        discarder = draw(st.sampled_from(others))
        if draw(st.booleans()):
            seats[discarder]["declared"] = "minglou"
        win.update(by="discard", **{"from": discarder})
    else:
        win["by"] = "self_draw"
        if draw(st.booleans()):
            seats[winner]["declared"] = "minglou"
        kongs = [m for m in melds if m["type"].endswith("kong")]
        choice = draw(st.sampled_from(["none", "kong", "flower"]))
        if choice == "kong" and kongs:
            win["replacement"] = "kong"
            fed = [m["from"] for m in kongs if m["type"] == "exposed_kong"]
            # when every kong is a 明杠 from one seat, the record must name it (杠爆)
            forced = len(fed) == len(kongs) and len(set(fed)) == 1
            if fed and (forced or draw(st.booleans())):
                win["kong_fed_by"] = fed[0]
        elif choice == "flower" and flowers:
            win["replacement"] = "flower"
        no_claim = not any(m["type"] != "concealed_kong" for m in melds)
        if no_claim and (not melds or "replacement" in win) and draw(st.booleans()):
            win["first_turn"] = True
    return {"ruleset": "shandong", "options": {"base": draw(st.sampled_from([5, 10]))},
            "dealer": dealer, "seats": seats, "outcome": "win", "wins": [win],
            "context": {"huangzhuang_streak": draw(st.integers(0, 8))}}


def _score_or_skip(record: dict[str, Any]):  # type: ignore[no-untyped-def]
    try:
        return score(record)
    except ScoringError as exc:
        # only the shape can fail here: a random set + 258 pair always wins, so it must not
        raise AssertionError(f"generated hand refused: {exc}\n{json.dumps(record)}") from exc


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records(), st.integers(1, 3))
def test_zero_sum_deterministic_and_rotation_invariant(record: dict[str, Any], r: int) -> None:
    first = _score_or_skip(record)
    assert sum(first.payments) == 0
    again = score(json.loads(json.dumps(record)))
    assert again.to_json() == first.to_json()
    turned = score(rotate(record, r))
    assert turned.payments == [first.payments[(k - r) % 4] for k in range(4)]
    assert turned.next_dealer == (first.next_dealer + r) % 4
    assert turned.context == first.context == {"huangzhuang_streak": 0}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_winner_collects_the_same_with_or_without_chengbao(record: dict[str, Any]) -> None:
    s = _score_or_skip(record)
    (win,) = record["wins"]
    (ws,) = s.wins
    share = ws.share
    parsed = load_record(json.dumps(record))
    if win["by"] == "discard":
        times = 2 if parsed.seats[win["from"]].declared == "minglou" else 1
    else:
        times = 3
    assert s.payments[win["seat"]] == times * share
    payers = {t.payer for t in s.transfers}
    liable = ws.details.get("chengbao_payer")
    if liable is not None:
        assert payers == {liable}
        assert parsed.seats[win["seat"]].claims_on(liable) >= 3
    assert share == (ws.details["hua"] + record["options"]["base"]) * ws.details["fan"] \
        * ws.details["multiplier"]


@settings(max_examples=100, deadline=None)
@given(records())
def test_is_winning_hand_agrees_with_scoring(record: dict[str, Any]) -> None:
    parsed = load_record(json.dumps(record))
    seat = parsed.seats[parsed.wins[0].seat]
    assert RULESET.is_winning_hand(list(seat.concealed), seat.melds, {}, {})


@pytest.mark.parametrize("path", SCORED_CASES, ids=[p.stem for p in SCORED_CASES])
def test_worked_cases_turn_round_the_table(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    base = score(record)
    for r in (1, 2, 3):
        turned = score(rotate(record, r))
        assert turned.payments == [base.payments[(k - r) % 4] for k in range(4)], r
        assert turned.next_dealer == (base.next_dealer + r) % 4
        assert turned.context == base.context
