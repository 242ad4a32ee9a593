"""The dashboard's showdown core without Qt: the bundled game video's readings go in, each
recognized hand waits for a person, the next hand's events wait with it, and the confirmed hands
reach the match log exactly as through the window (``test_live_game``).

The detector is the labeled-truth detector of ``tests/vision/labeled_truth.py``.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from scoring.match import MatchStore
from tests.vision.labeled_truth import VIDEO, LabeledTruthDetector, script
from ui.dashboard import i18n
from ui.dashboard.core import HandSession
from ui.dashboard.match_session import MatchSession
from ui.dashboard.showdowns import Showdowns
from vision.pipeline import Pipeline

PLAYERS = ["Ann", "Bo", "Chen", "Dee"]


@dataclasses.dataclass
class Desk:
    """A Shandong match open in a log, the showdown core over it, and what it said."""

    store: MatchStore
    mid: int
    hand: HandSession
    flow: Showdowns
    recognized: list[Any]  # each recognized hand's win (None: a drawn hand)
    messages: list[str]


def open_desk(tmp_path: Path) -> Desk:
    i18n.set_language("en")
    store = MatchStore.open(tmp_path / "log.sqlite3")
    match = MatchSession(store)
    mid = match.new_match("shandong", {}, PLAYERS, first_dealer=0)
    hand = HandSession()
    flow = Showdowns(hand, match)
    desk = Desk(store, mid, hand, flow, [], [])
    flow.recognized.connect(lambda win, _notes: desk.recognized.append(win))
    flow.message.connect(lambda text, _ms: desk.messages.append(text))
    return desk


def test_the_camera_hands_reach_the_log_through_the_core_alone(tmp_path: Path) -> None:
    desk = open_desk(tmp_path)
    store, mid, hand, flow, messages = desk.store, desk.mid, desk.hand, desk.flow, desk.messages

    pipe = Pipeline(str(VIDEO), LabeledTruthDetector(), ruleset="shandong", dealer=0)
    held_at_confirm: list[int] = []
    last_win = None
    try:
        for n, result in enumerate(pipe.frames()):
            if result.events or n % 10 == 0:  # as the camera worker sends them
                flow.take_reading(result, pipe.waits(result))
            if any(e.type == "win" for e in result.events):
                last_win = result
            # the referee confirms once the next hand's dice have come (and waited)
            if flow.awaiting_confirmation() and flow.held:
                held_at_confirm.append(len(flow.held))
                assert flow.confirm("referee"), messages
    finally:
        pipe.close()
    assert flow.awaiting_confirmation()  # the last hand waits for its person
    assert flow.confirm("referee"), messages
    assert held_at_confirm and all(held_at_confirm)  # the next hand's events did wait
    assert not flow.held and not flow.awaiting_confirmation()

    want = [h["record"] for h in script()["hands"]]
    assert [(win.seat, win.by) for win in desk.recognized] == [
        (w["wins"][0]["seat"], "self_draw") for w in want]
    logged = store.load(mid)
    assert [list(h.settlement.payments) for h in logged.hands] == [[-8, 24, -8, -8],
                                                                    [-5, -5, 15, -5]]
    assert list(logged.totals) == [-13, 19, 7, -13] and logged.dealer == 2
    assert [h.record.dealer for h in logged.hands] == [w["dealer"] for w in want]
    # each hand's dice and wall break went in as they settled, by the camera, before its hand
    live = [(e.event.type, e.who) for e in logged.log if e.event.type in ("dice", "wall_broken")]
    assert live == [("dice", "camera"), ("dice", "camera"), ("wall_broken", "camera")] * 2
    assert [sorted(h.record.context.dice) for h in logged.hands] == [[3, 4], [1, 6]]

    # the same showdown seen again (a looping video) is not a second hand
    assert last_win is not None
    flow.take_reading(dataclasses.replace(last_win, events=[
        e for e in last_win.events if e.type == "win"]), {})
    assert hand.record is None and messages[-1] == i18n.tr("showdown_seen_again")

    # a logged hand reopened and confirmed again is amended, not logged twice
    assert flow.reopen(0) and hand.source.endswith("#1") and not flow.reopen(5)
    assert flow.confirm("referee")
    assert len(store.load(mid).hands) == 2 and flow.logged_seq is None
    store.close()


def test_a_drawn_hand_seen_by_the_camera_is_confirmed_into_the_log(tmp_path: Path) -> None:
    """The camera's ``draw_game`` (the wall played out, no win seen) loads the table as a
    drawn hand to confirm; confirmed, it is logged and the ruleset deals the next hand; the
    same drawn end seen again is not a second hand."""
    from vision.stability import VisionEvent

    desk = open_desk(tmp_path)
    store, mid, hand, flow, messages = desk.store, desk.mid, desk.hand, desk.flow, desk.messages
    pipe = Pipeline(str(VIDEO), LabeledTruthDetector(), ruleset="shandong", dealer=0)
    try:
        seen = next(r for r in pipe.frames() if any(e.type == "win" for e in r.events))
    finally:
        pipe.close()
    drawn = dataclasses.replace(seen, events=[VisionEvent("draw_game", {}, seen.frame.index,
                                                          seen.frame.timestamp)])
    flow.take_reading(drawn, {})
    assert desk.recognized == [None] and flow.awaiting_confirmation()
    assert hand.record is not None and hand.record.outcome == "draw"
    assert flow.confirm("referee"), messages
    logged = store.load(mid)
    assert [h.record.outcome for h in logged.hands] == ["draw"]
    assert logged.dealer == 1  # Shandong passes the deal on after a drawn hand
    flow.take_reading(drawn, {})  # the same end seen again
    assert hand.record is None and messages[-1] == i18n.tr("showdown_seen_again")
    store.close()
