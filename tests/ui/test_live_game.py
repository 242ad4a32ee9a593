"""Two whole hands played live: the bundled game video through the real capture, pipeline and
window; each recognized hand confirmed into the match log; ``mjtable match replay`` agrees.

The detector is the labeled-truth detector of ``tests/vision/labeled_truth.py`` (each frame
answered with the boxes the generator labeled for it), not the shipped models: this tests the
live loop around the models. What the shipped models read from the video is not tested here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pytestqt", reason="pytest-qt is part of the dev extra")

from scoring.match import MatchStore
from tests.vision.labeled_truth import VIDEO, LabeledTruthDetector, script
from ui.dashboard import i18n
from ui.dashboard.app import RunOptions, build_window

PLAYERS = ["Ann", "Bo", "Chen", "Dee"]


@pytest.fixture
def game(qtbot, tmp_path: Path):
    i18n.set_language("en")
    db = tmp_path / "log.sqlite3"
    store = MatchStore.open(db)
    mid = store.new_match("shandong", {}, PLAYERS, first_dealer=0)
    store.close()
    window = build_window(RunOptions(camera=str(VIDEO), port="none", match=mid, db=db,
                                     operator="referee", hand=None, realtime=False, loop=False,
                                     detector=LabeledTruthDetector()))
    qtbot.addWidget(window)
    window.show()
    yield window, db, mid
    window.close()
    window.store.close()


def test_two_hands_in_a_row_into_the_match_log_and_replay_agrees(game, qtbot, capsys) -> None:
    window, db, mid = game
    hands = [h["record"] for h in script()["hands"]]
    for n, want in enumerate(hands):
        # the worker runs ahead; the next hand's dice and win wait for this confirmation
        qtbot.waitUntil(lambda: window.showdowns.awaiting_confirmation(), timeout=30000)
        record = window.session.record
        assert record.dealer == want["dealer"] == window.match_panel.match.dealer
        assert [(w.seat, w.by) for w in record.wins] == [(want["wins"][0]["seat"],
                                                          "self_draw")]
        assert window.session.settlement is not None, window.session.error
        window.confirm_hand()
        assert len(window.store.load(mid).hands) == n + 1, window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: window.camera.isFinished(), timeout=30000)
    qtbot.waitUntil(lambda: i18n.tr("camera_ended") in window.camera_status.text(),
                    timeout=5000)
    assert not window.showdowns.held and not window.showdowns.awaiting_confirmation()
    match = window.store.load(mid)
    assert [list(h.settlement.payments) for h in match.hands] == [[-8, 24, -8, -8],
                                                                   [-5, -5, 15, -5]]
    assert list(match.totals) == [-13, 19, 7, -13] and match.dealer == 2
    # each hand's dice and wall break went into the log as they settled, by the camera, before
    # the hand they belong to
    live = [(e.event.type, e.who) for e in match.log if e.event.type in ("dice", "wall_broken")]
    assert live == [("dice", "camera"), ("dice", "camera"), ("wall_broken", "camera")] * 2
    assert [sorted(h.record.context.dice) for h in match.hands] == [[3, 4], [1, 6]]

    from ui.cli import main

    capsys.readouterr()
    assert main(["match", "--db", str(db), "replay", str(mid)]) == 0
    out = capsys.readouterr().out
    assert "totals [-13 +19 +7 -13], dealer 2" in out, out


def test_a_camera_that_stops_mid_hand_keeps_the_hand_and_logs_nothing(game, qtbot) -> None:
    window, _db, mid = game
    qtbot.waitUntil(lambda: window.showdowns.live is not None and any(
        s.melds for s in window.showdowns.live), timeout=30000)  # the first claim was seen
    window.camera.stop()
    qtbot.wait(200)  # the readings already sent arrive
    seen = [(list(s.melds), list(s.flowers)) for s in window.showdowns.live]
    window.show_camera_status("lost", "camera 0 lost")
    qtbot.wait(50)
    text = window.camera_status.text()
    assert text.startswith(i18n.tr("camera_lost")) and i18n.tr("hand_kept") in text
    assert [(list(s.melds), list(s.flowers)) for s in window.showdowns.live] == seen  # as last seen
    assert window.store.load(mid).hands == []  # nothing logged until a person confirms
