"""The dashboard's match core without Qt: open a match, follow its dice to the wall break the
ruleset gives, start each hand with no dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scoring.match import MatchStore
from tests.match.conftest import case
from ui.dashboard.match_session import MatchSession


def test_a_match_its_dice_and_the_wall_break(tmp_path: Path) -> None:
    store = MatchStore.open(tmp_path / "m.sqlite3")
    try:
        session = MatchSession(store)
        seen: list[Any] = []
        rolls: list[tuple[int, int]] = []
        session.changed.connect(seen.append)
        session.rolled.connect(rolls.append)
        assert session.wall_break() == (None, "no dice yet")
        mid = session.new_match("shandong", {}, ["a", "b", "c", "d"], 0)
        assert seen[-1].id == mid and session.match.ruleset == "shandong"
        session.add_roll(3, 4)
        wb, why = session.wall_break()
        assert wb is None and "rolls twice" in why  # Shandong: the dealer rolls twice
        session.add_roll(2, 2)
        wb, _ = session.wall_break()
        assert wb is not None and (wb.wall_seat, wb.stacks_skipped) == (2, 11)
        assert rolls == [(3, 4), (2, 2)]
        store.add_hand(mid, case("shandong", "01-tuidaohe-discard"))
        session.refresh()
        assert session.rolls == [] and len(session.match.hands) == 1  # a new hand, no dice
        session.open(mid)
        assert session.match_id == mid and len(seen) == 3
    finally:
        store.close()


def test_events_and_hands_are_written_through_the_session(tmp_path: Path) -> None:
    store = MatchStore.open(tmp_path / "m.sqlite3")
    try:
        session = MatchSession(store)
        with pytest.raises(ValueError, match="no match is open"):
            session.log_event({"type": "dice", "seat": 0, "dice": [1, 2]}, who="camera")
        mid = session.new_match("shandong", {}, ["a", "b", "c", "d"], 0)
        session.log_event({"type": "dice", "seat": 0, "dice": [1, 2]}, who="camera")
        assert session.match.hand is not None and session.match.hand.rolls
        with pytest.raises(ValueError, match="rolls every time"):
            session.log_event({"type": "dice", "seat": 1, "dice": [1, 2]}, who="camera")
        record = case("shandong", "01-tuidaohe-discard")
        session.record_hand(record, "ref", "typed in")
        assert session.match.totals == [0, 8, 0, -8]
        seq = session.match.hands[0].seq
        session.record_hand({**record, "wins": [{**record["wins"][0], "from": 2}]}, "ref",
                            "the discarder was seat 2", replacing=seq)
        assert session.match.totals == [0, 8, -8, 0] and store.load(mid).totals == [0, 8, -8, 0]
    finally:
        store.close()
