"""Random legal streams (live hands, typed-in hands, escapes, corrections) keep the books.

Invariants: the totals plus what left the table (Shanghai's room fee) sum to zero; the totals
are the sum of every hand's and every escape's payments; replaying the log from scratch, or
re-entering the exported events into a new database, gives exactly the same match.
"""

from __future__ import annotations

import json
import random
import tempfile
from contextlib import suppress
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.match import MatchStore, event_from_json
from scoring.match import events as ev
from scoring.match.errors import EventRefused
from tests.match.conftest import CASES
from tests.match.simtable import SimTable


def _worked_records(ruleset: str) -> list[dict]:
    out = []
    for path in sorted((CASES / ruleset).glob("*.json")):
        if path.name.endswith(".expect.json"):
            continue
        answer = json.loads(path.with_name(path.stem + ".expect.json").read_text("utf-8"))
        if "error" not in answer:
            out.append(json.loads(path.read_text("utf-8")))
    return out


def _typed_in(record: dict, match) -> dict:
    """A worked record re-dealt for this point of the match (dealer and counters from it)."""
    rec = json.loads(json.dumps(record))
    rec["dealer"] = match.dealer
    rec["options"] = {}
    for key in ("huangzhuang_streak", "huangfan"):
        rec.get("context", {}).pop(key, None)
    return rec


def _fingerprint(match) -> tuple:
    return (tuple(match.totals), match.dealer, tuple(sorted(match.counters.items())),
            match.state.room,
            tuple(json.dumps(h.record.to_json(), sort_keys=True) for h in match.hands),
            tuple(tuple(h.settlement.payments) for h in match.hands))


ops = st.lists(st.sampled_from(["live", "live", "typed", "leave", "amend"]), min_size=1,
               max_size=5)


@pytest.mark.slow
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), ruleset=st.sampled_from(["shandong", "liaoyang",
                                                                 "shanghai"]),
       plan=ops, hide=st.sampled_from([0.0, 0.3, 1.0]))
def test_random_streams_stay_zero_sum_and_replay_exactly(seed, ruleset, plan, hide) -> None:
    rng = random.Random(seed)
    records = _worked_records(ruleset)
    with tempfile.TemporaryDirectory() as tmp:
        # durability against power cuts is not the point here (test_crash keeps the default)
        store = MatchStore.open(Path(tmp) / "m.sqlite3", durable=False)
        mid = store.new_match(ruleset, {}, ["a", "b", "c", "d"], rng.randrange(4))
        for op in plan:
            match = store.load(mid)
            if op == "live":
                table = SimTable(rng, ruleset, match.options, match.dealer, match.counters,
                                 hide=hide)
                events = table.play()
                stop = rng.randrange(len(events) + 1) if rng.random() < 0.2 else len(events)
                for event in events[:stop]:
                    store.append_event(mid, event)
                if stop < len(events):  # someone walks out of the hand in progress
                    store.append_event(mid, ev.PlayerLeft(seat=rng.randrange(4)))
            elif op == "typed" and records:
                # e.g. a 天和 record at another dealer: the rules refuse it
                with suppress(EventRefused):
                    store.add_hand(mid, _typed_in(rng.choice(records), match), who="ref")
            elif op == "leave":
                store.append_event(mid, ev.PlayerLeft(seat=rng.randrange(4),
                                                      replacement="sub"))
            elif op == "amend":
                hands = [row for row in match.log if row.event.type == "hand_recorded"]
                if hands:
                    # striking it may make a later hand illegal: then it is refused
                    with suppress(EventRefused):
                        store.amend(mid, rng.choice(hands).seq, None, who="ref", why="test")
        match = store.load(mid)
        assert match.problem is None
        # zero-sum: what the players lost went to players or to the room
        assert abs(sum(match.totals) + match.state.room) < 1e-9
        # totals are exactly the sum of what was settled
        settled = [0.0] * 4
        for h in match.hands:
            assert sum(h.settlement.payments) == 0
            settled = [a + b for a, b in zip(settled, h.settlement.payments, strict=True)]
        for d in match.state.departures:
            settled = [a + b for a, b in zip(settled, d.payments, strict=True)]
        assert [abs(a - b) < 1e-9 for a, b in zip(settled, match.totals, strict=True)] == [True] * 4
        # replay from scratch is exact
        assert _fingerprint(store.replay(mid)) == _fingerprint(match)
        # the export re-entered into a fresh database gives the same match
        exported = store.export_json(mid)
        store.close()
        again = MatchStore.open(Path(tmp) / "again.sqlite3", durable=False)
        rows = exported["events"]
        first = event_from_json(rows[0]["event"])
        mid2 = again.new_match(first.ruleset, first.options, first.players,  # type: ignore
                               first.first_dealer)  # type: ignore[attr-defined]
        for row in rows[1:]:
            again.append_event(mid2, row["event"], who=row["who"])
        assert _fingerprint(again.load(mid2)) == _fingerprint(match)
        again.close()
