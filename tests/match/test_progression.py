"""How a match moves on, checked against the specs written out again here (not the rulesets'
``next_dealer``): after every hand and every escape of seeded random matches (live hands,
typed-in worked records, players leaving), the dealer and the counters are what the spec says.

- Shandong: the winner deals; after 一炮多响 the discarder; after a draw the dealer's 下家.
  荒庄 streak +1 per draw, 0 after any win and when a player leaves.
- Liaoyang: the dealer keeps the deal after its own win or a draw, else its 下家 deals.
- Shanghai: the winner deals; a draw keeps the dealer; 一炮多响: the winner nearest the
  discarder in play order (default option). 荒番 +1 per draw, -1 per win (not below 0),
  0 when a player leaves.
- An escape leaves the dealer where it was and sets the counters to 0 (a new game).
"""

from __future__ import annotations

import json
import random
from contextlib import suppress
from pathlib import Path

import pytest

from scoring.match import MatchStore
from scoring.match import events as ev
from scoring.match.errors import EventRefused
from scoring.record import HandRecord
from tests.match.simtable import SimTable
from tests.match.test_matches import rotated
from tests.match.test_properties import _worked_records


def spec_next(ruleset: str, rec: HandRecord, counter: int) -> tuple[int, int]:
    """(next dealer, next counter) from the spec's words."""
    d = rec.dealer
    if rec.outcome == "draw":
        return {"shandong": ((d + 1) % 4, counter + 1), "liaoyang": (d, 0),
                "shanghai": (d, counter + 1)}[ruleset]
    winners = [w.seat for w in rec.wins]
    source = rec.wins[0].from_seat
    if ruleset == "shandong":
        return (source if len(winners) > 1 else winners[0]), 0  # type: ignore[return-value]
    if ruleset == "liaoyang":
        return (d if winners == [d] else (d + 1) % 4), 0
    if len(winners) > 1:
        assert source is not None
        # "點炮者最近的一個胡牌者下家為下盤莊家": the 下家 of the winner nearest the discarder
        nearest = next((source + k) % 4 for k in (1, 2, 3) if (source + k) % 4 in winners)
        return (nearest + 1) % 4, max(0, counter - 1)
    return winners[0], max(0, counter - 1)


COUNTER = {"shandong": "huangzhuang_streak", "liaoyang": None, "shanghai": "huangfan"}


@pytest.mark.parametrize("ruleset", ["shandong", "liaoyang", "shanghai"])
def test_dealer_and_counters_follow_the_spec(ruleset: str, tmp_path: Path) -> None:
    rng = random.Random(f"progression-{ruleset}")
    records = _worked_records(ruleset)
    multi = [r for r in records if len(r.get("wins", [])) > 1] or records
    store = MatchStore.open(tmp_path / "m.sqlite3", durable=False)
    mid = store.new_match(ruleset, {}, ["a", "b", "c", "d"], 2)
    kinds = {"win": 0, "multi": 0, "draw": 0, "leave": 0}
    for _ in range(24):
        match = store.load(mid)
        op = rng.choice(["live", "typed", "typed", "typed", "leave"])
        if op == "live":
            table = SimTable(rng, ruleset, match.options, match.dealer, match.counters,
                             win=rng.choice([0.0, 0.9]), hide=0.2)
            for event in table.play():
                store.append_event(mid, event)
        elif op == "typed":
            rec = rng.choice(multi if rng.random() < 0.3 else records)
            rec = rotated(rec, match.dealer - rec["dealer"])
            rec["options"] = {}
            for key in ("huangzhuang_streak", "huangfan"):
                rec.get("context", {}).pop(key, None)
            with suppress(EventRefused):  # e.g. a record whose option the match lacks
                store.add_hand(mid, json.loads(json.dumps(rec)))
        else:
            store.append_event(mid, ev.PlayerLeft(seat=rng.randrange(4)))
    match = store.load(mid)
    state = match.state
    steps = sorted([(h.seq, h) for h in state.hands] + [(d.seq, d) for d in state.departures],
                   key=lambda x: x[0])
    dealer, counter, key = 2, 0, COUNTER[ruleset]
    for _, step in steps:
        if hasattr(step, "record"):
            rec = step.record
            assert rec.dealer == dealer, f"hand {step.number}"
            if key:
                assert getattr(rec.context, key) == counter, f"hand {step.number}"
            dealer, counter = spec_next(ruleset, rec, counter)
            if rec.outcome == "draw":
                kinds["draw"] += 1
            else:
                kinds["multi" if len(rec.wins) > 1 else "win"] += 1
        else:
            counter = 0
            kinds["leave"] += 1
    assert state.dealer == dealer
    if key:
        assert state.counters[key] == counter
    # the run covered what it claims to check
    assert kinds["win"] >= 3 and kinds["draw"] >= 1 and kinds["leave"] >= 1, kinds
    if ruleset != "liaoyang":
        assert kinds["multi"] >= 1, kinds
    store.close()
