"""What a player never wants: a dialog that stops play. A lost camera and a jammed table show
as status; the match features (new, open, export) work from the Match tab."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

pytest.importorskip("pytestqt", reason="pytest-qt is part of the dev extra")

from PySide6.QtWidgets import QApplication, QDialog, QListWidget

from hardware import Fault
from ui.dashboard import i18n
from ui.dashboard.main_window import MainWindow
from ui.dashboard.match_panel import MatchPanel, NewMatchDialog
from ui.dashboard.vision_worker import CameraWorker

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "ui" / "samples" / "hand.json"




def test_a_camera_that_cannot_open_is_a_status_not_a_dialog(window: MainWindow, qtbot,
                                                            tmp_path: Path) -> None:
    worker = CameraWorker(str(tmp_path / "no-such-video.mp4"), loop=False, parent=window,
                          detector=object())
    window.attach_camera(worker)
    worker.start()
    qtbot.waitUntil(lambda: window.camera_status.text().startswith(i18n.tr("camera_failed")),
                    timeout=10000)
    assert "no-such-video" in window.camera_status.text()  # the reason, not just "failed"
    assert "no-such-video" in window.camera_status.toolTip()
    assert QApplication.activeModalWidget() is None


def test_a_frame_the_camera_cannot_use_is_shown_and_skipped(window: MainWindow, qtbot,
                                                            tmp_path: Path) -> None:
    import cv2
    import numpy as np

    from scoring.tiles import CLASS_NAMES
    from tests.vision.onnx_graphs import fixed_detector
    from vision.detector import load_detector

    models = tmp_path / "models"
    models.mkdir()
    fixed_detector(models / "detector.onnx", [*CLASS_NAMES[:42], "die"],
                   [(320, 320, 100, 50, 13, 0.9)])
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0.png"), np.full((480, 640, 3), 40, np.uint8))
    cv2.imwrite(str(frames / "1.png"), np.zeros((1, 2000, 3), np.uint8))
    cv2.imwrite(str(frames / "2.png"), np.full((480, 640, 3), 90, np.uint8))
    worker = CameraWorker(str(frames), loop=False, parent=window,
                          detector=load_detector(models))
    seen: list[tuple[str, str]] = []
    worker.status.connect(lambda kind, message: seen.append((kind, message)))
    window.attach_camera(worker)
    worker.start()
    qtbot.waitUntil(lambda: worker.isFinished(), timeout=20000)
    qtbot.waitUntil(lambda: any(k == "skipped" for k, _ in seen), timeout=5000)
    assert worker.frames_done == 2  # the frame after the bad one was read too
    assert "failed" not in [k for k, _ in seen]
    text = window.camera_status.text()
    assert f"{i18n.tr('camera_skipped')}: 1 (last: " in text and "a 2000x1 picture" in text


def test_a_table_fault_is_a_status_not_a_dialog(window: MainWindow, qtbot) -> None:
    bridge = window.table_bridge
    with qtbot.waitSignal(bridge.stateChanged, timeout=15000,
                          check_params_cb=lambda s: s == "idle"):
        bridge.connect_to("simulator", speed=50)
    bridge.simulator.inject_fault(Fault.JAM)
    qtbot.waitUntil(lambda: "jam" in window.table_panel.faults.text().lower(), timeout=10000)
    qtbot.waitUntil(lambda: "jam" in window.table_status.text().lower(), timeout=5000)
    assert QApplication.activeModalWidget() is None
    # a command the jammed table refuses is a line in the panel too
    window.table_panel.buttons["shuffle"].click()
    qtbot.waitUntil(lambda: "shuffle" in window.table_panel.faults.text().lower()
                    or "jam" in window.table_panel.faults.text().lower(), timeout=10000)


def test_new_match_dialog_shows_defaults_and_keeps_only_changes(qtbot) -> None:
    i18n.set_language("en")
    dialog = NewMatchDialog()
    qtbot.addWidget(dialog)
    dialog.ruleset.setCurrentIndex(dialog.ruleset.findData("shanghai"))
    labels = [dialog.options_form.itemAt(r, dialog.options_form.ItemRole.LabelRole).widget()
              .text() for r in range(dialog.options_form.rowCount())]
    assert any(t.startswith("base") and "[2]" in t for t in labels), labels
    dialog.option_widgets["base"].setValue(5)
    dialog.names[2].setText("Chen")
    dialog.dealer.setCurrentIndex(3)  # seat 2
    v = dialog.values()
    assert v == {"ruleset": "shanghai", "options": {"base": 5},
                 "players": ["Player 1", "Player 2", "Chen", "Player 4"], "first_dealer": 2}


def test_new_match_dialog_keeps_option_types(qtbot) -> None:
    """A numeric choice comes back as a number, and a derived default (宝 = 底/10) is left out
    until the referee sets a value."""
    i18n.set_language("en")
    dialog = NewMatchDialog()
    qtbot.addWidget(dialog)
    dialog.ruleset.setCurrentIndex(dialog.ruleset.findData("shanghai"))
    assert dialog.values()["options"] == {}
    combo = dialog.option_widgets["chengbao_selfdraw_shares"]
    combo.setCurrentIndex(combo.findText("3"))
    assert dialog.values()["options"] == {"chengbao_selfdraw_shares": 3}
    dialog.ruleset.setCurrentIndex(dialog.ruleset.findData("liaoyang"))
    assert dialog.values()["options"] == {}
    dialog.option_widgets["bao_value"].setValue(10)
    assert dialog.values()["options"] == {"bao_value": 10}


def test_export_and_reopen(window: MainWindow, qtbot, tmp_path: Path, monkeypatch) -> None:
    window.session.load(json.loads(SAMPLE.read_text(encoding="utf-8")))
    window.confirm_hand()
    panel = window.match_panel
    first = panel.match_id
    panel.export(tmp_path / "m.json")
    panel.export(tmp_path / "m.csv")
    exported = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    assert exported["totals"] == [0, 8, 0, -8]
    rows = list(csv.DictReader(io.StringIO((tmp_path / "m.csv").read_text(encoding="utf-8"))))
    assert rows[0]["pay_1"] == "8" and rows[0]["total_3"] == "-8"
    # a second match, then the first reopened through the Open dialog
    panel.new_match("shanghai", {}, list("ABCD"), 1)
    assert panel.match_id != first and panel.table.rowCount() == 1  # just the totals row

    def choose_first(dialog: QDialog) -> int:
        listing = dialog.findChild(QListWidget)
        row = next(i for i in range(listing.count()) if listing.item(i).text().startswith(
            f"#{first} "))
        listing.setCurrentRow(row)
        return 1

    monkeypatch.setattr(QDialog, "exec", choose_first)
    panel.open_dialog()
    assert panel.match_id == first and panel.table.item(0, 3).text() == "+8 → 8"
    assert "荒庄 0" in panel.header.text()
    assert window.seat_panels[1].header.text().count("+8") == 1
    assert isinstance(panel, MatchPanel)


def test_dice_tell_where_to_break_the_wall(window: MainWindow) -> None:
    panel = window.match_panel
    panel.add_roll(3, 4)
    assert "3+4" in panel.wall.text() and "another" in panel.wall.text()  # Shandong rolls twice
    panel.add_roll(2, 5)
    # dealer Ann (seat 0): the first sum 7 counts walls from the dealer -> Chen's wall;
    # both sums (7 + 7) count the stacks
    assert "wall of Chen, after 14 stacks" in panel.wall.text(), panel.wall.text()
    window.session.load(json.loads(SAMPLE.read_text(encoding="utf-8")))
    window.confirm_hand()
    assert panel.wall.text() == ""  # the next hand rolls again


def test_camera_view_zooms_and_fits(qtbot) -> None:
    import numpy as np
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent

    from ui.dashboard.camera_view import CameraView, Overlay, display_image

    view = CameraView()
    qtbot.addWidget(view)
    view.resize(480, 270)
    view.show()
    frame = np.zeros((1080, 1920, 3), np.uint8)
    box = Overlay((100, 100, 160, 180), "5m", 0.4, 0, True)
    view.show_frame(display_image(frame), [box], (1920, 1080))
    assert view.sceneRect().width() == 1920  # boxes stay in frame pixels
    fitted = view.transform().m11()
    wheel = QWheelEvent(QPointF(240, 135), QPointF(240, 135), QPoint(0, 0), QPoint(0, 120),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    view.wheelEvent(wheel)
    assert view.transform().m11() > fitted * 1.2
    view.show_frame(display_image(frame), [box], (1920, 1080))  # a new frame keeps the zoom
    assert view.transform().m11() > fitted * 1.2
    view.fit()
    assert abs(view.transform().m11() - fitted) < 1e-6
    assert view.overlays() == [box]


def test_the_table_bridge_shuts_down_once(qtbot) -> None:
    from ui.dashboard.table_panel import TableBridge

    bridge = TableBridge()
    bridge.shutdown()
    bridge.shutdown()  # a window closed twice: no "cannot schedule new futures after shutdown"
    assert bridge.driver is None and bridge.simulator is None
