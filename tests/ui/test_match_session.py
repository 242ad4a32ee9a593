"""The dashboard's match core without Qt: open a match, follow its dice to the wall break the
ruleset gives, start each hand with no dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
