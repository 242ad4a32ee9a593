"""A referee's penalty or bonus is an event of the match log: checked like the others, in the
totals a replay gives, struck or replaced by an amendment, and events written elsewhere (a
tournament server's) join a log only where they chain to it."""

from __future__ import annotations

import csv
import io
from dataclasses import replace
from pathlib import Path

import pytest

from scoring.match import BadEvent, EventRefused, MatchStore, StoreError, event_from_json
from scoring.match.chain import body_text, event_hash
from scoring.match.events import Adjusted, DiceRolled
from tests.match.conftest import case
from ui.cli import main

PENALTY = {"type": "adjust", "seat": 2, "points": -10, "who": "Ref Wang", "why": "late"}


@pytest.mark.parametrize(("change", "message"), [
    ({"points": 0}, "non-zero"),
    ({"points": True}, "non-zero"),
    ({"points": float("nan")}, "non-zero"),
    ({"points": 1e12}, "non-zero"),
    ({"seat": 4}, "seat number"),
    ({"why": " "}, "non-empty text"),
    ({"who": None}, "non-empty text"),
    ({"mac": "XYZ"}, "hex digest"),
])
def test_a_bad_adjustment_is_named(change, message):
    with pytest.raises(BadEvent, match=message):
        event_from_json({**PENALTY, **change})


def test_a_penalty_moves_the_totals_even_in_a_hand_in_play(store):
    mid = store.new_match("shandong", {}, ["a", "b", "c", "d"], first_dealer=0)
    store.append_event(mid, DiceRolled(seat=0, dice=(3, 4)))
    match = store.append_event(mid, PENALTY, who="Ref Wang", note="late")
    assert match.totals == [0, 0, -10, 0] and match.hand is not None  # the hand goes on
    assert match.state.adjusted == [0, 0, -10, 0]
    store.append_event(mid, {**PENALTY, "seat": 0, "points": 2.5, "why": "fair play"})
    replayed = store.replay(mid)
    assert replayed.totals == [2.5, 0, -10, 0]
    assert [(a.seat, a.player, a.points) for a in replayed.state.adjustments] == [
        (2, "c", -10), (0, "a", 2.5)]


def test_a_struck_penalty_leaves_the_totals_and_a_hand_cannot_replace_it(store):
    mid = store.new_match("shandong", {}, ["a", "b", "c", "d"], first_dealer=0)
    store.add_hand(mid, case("shandong", "01-tuidaohe-discard"))
    before = store.load(mid).totals
    store.append_event(mid, PENALTY)
    with pytest.raises(EventRefused, match="replaced only by a penalty"):
        store.amend(mid, 3, case_event(), who="ref", why="typo")
    store.amend(mid, 3, {**PENALTY, "points": -5}, who="ref", why="it was -5")
    assert store.load(mid).totals == [t - 5 * (k == 2) for k, t in enumerate(before)]
    store.amend(mid, 3, None, who="ref", why="not late after all")
    assert store.replay(mid).totals == before


def case_event() -> dict:
    return {"type": "hand_recorded", "record": case("shandong", "01-tuidaohe-discard")}


def test_replay_export_and_show_include_the_penalty(tmp_path: Path, capsys):
    db = tmp_path / "m.sqlite3"
    with MatchStore.open(db) as store:
        mid = store.new_match("shandong", {}, ["a", "b", "c", "d"], first_dealer=0)
        store.add_hand(mid, case("shandong", "01-tuidaohe-discard"))
        totals = store.load(mid).totals
        store.append_event(mid, PENALTY)
        rows = list(csv.DictReader(io.StringIO(store.export_csv(mid))))
        data = store.export_json(mid)
    assert data["adjustments"] == [{"seq": 3, "seat": 2, "player": "c", "points": -10,
                                    "who": "Ref Wang", "why": "late"}]
    last = rows[-1]
    assert last["kind"] == "penalty (seat 2 c: late)" and last["room_fee"] == "10"
    assert sum(float(last[f"pay_{k}"]) for k in range(4)) + float(last["room_fee"]) == 0
    assert main(["match", "--db", str(db), "replay", str(mid)]) == 0
    out = capsys.readouterr().out
    expected = [t - 10 * (k == 2) for k, t in enumerate(totals)]
    assert f"totals [{' '.join(f'{t:+d}' for t in expected)}]" in out
    assert "#3: penalty -10 to seat 2 (c) by Ref Wang: late" in out
    assert main(["match", "--db", str(db), "show", str(mid)]) == 0
    assert "#3: penalty -10 to seat 2 (c)" in capsys.readouterr().out


def _after(store: MatchStore, mid: int, event: dict, at: str, who: str = "Ref Wang",
           note: str = "late") -> list:
    """A row another copy of the log would append next: chained to this log's head."""
    last = store.chain_rows(mid)[-1]
    from scoring.match.chain import Row

    body = body_text(event_from_json(event).to_json())
    row = Row(last.seq + 1, at, who, event["type"], body, note, "")
    return [replace(row, hash=event_hash(last.hash, row))]


def test_events_written_elsewhere_join_only_where_they_chain(store):
    mid = store.new_match("shandong", {}, ["a", "b", "c", "d"], first_dealer=0)
    later = "2999-01-01T00:00:00.000Z"
    rows = _after(store, mid, PENALTY, later)
    assert store.append_chained(mid, rows) == 1
    assert store.verify(mid).ok and store.load(mid).totals == [0, 0, -10, 0]
    assert store.chain_rows(mid)[-1] == rows[0]
    # the log moved on since the rows were made: nothing appended, the next sync places them
    stale = _after(store, mid, {**PENALTY, "seat": 1}, later)
    store.append_event(mid, DiceRolled(seat=0, dice=(3, 4)))
    assert store.append_chained(mid, stale) == 0
    # another copy of the log (its hash does not follow this one's): refused, nothing stored
    other = _after(store, mid, {**PENALTY, "seat": 1}, later)
    with pytest.raises(StoreError, match="another copy"):
        store.append_chained(mid, [replace(other[0], hash="0" * 64)])
    assert len(store.events(mid)) == 3 and store.verify(mid).ok
    with pytest.raises(EventRefused, match="no event #9"):
        store.append_chained(mid, _after(store, mid, {
            "type": "amend", "target": 9, "who": "ref", "why": "x"}, later))


def test_the_event_round_trips():
    event = event_from_json({**PENALTY, "ref": "req-1", "key": "ab" * 8, "mac": "cd" * 32})
    assert isinstance(event, Adjusted) and event_from_json(event.to_json()) == event
    assert event.describe() == "adjust(seat 2 penalty -10 by Ref Wang: late)"
