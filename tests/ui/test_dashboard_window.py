"""The dashboard window under pytest-qt (offscreen): scoring, corrections, the match log, the
table panel against the simulator, and screenshots for the README."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pytestqt", reason="pytest-qt is part of the dev extra")

from PySide6.QtCore import QPoint, Qt

from scoring.tiles import tile_from_name
from ui.dashboard import i18n
from ui.dashboard.core import TileRef
from ui.dashboard.main_window import MainWindow
from ui.dashboard.palette import TilePalette
from ui.dashboard.seat_panel import SeatPanel

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "ui" / "samples" / "hand.json"


@pytest.fixture
def window(window: MainWindow) -> MainWindow:
    """The window with the sample hand scored."""
    window.session.load(json.loads(SAMPLE.read_text(encoding="utf-8")))
    return window


def test_settlement_is_shown_for_the_referee(window: MainWindow) -> None:
    text = window.scoring.payments.text()
    assert "+8" in text and "-8" in text
    items = [window.scoring.tree.topLevelItem(0).child(i).text(0)
             for i in range(window.scoring.tree.topLevelItem(0).childCount())]
    assert "推倒和" in items
    assert window.seat_panels[1].header.text().count("Bo") == 1


def test_shanghai_pattern_line_shows_its_parts_in_the_chosen_language(window: MainWindow) -> None:
    """碰碰胡 = 底 + each 花: the parts are child rows of the pattern line; notes follow the
    language."""
    case = ROOT / "tests" / "cases" / "shanghai" / "01-pengpenghu-discard.json"
    window.session.load(json.loads(case.read_text(encoding="utf-8")))
    win = window.scoring.tree.topLevelItem(0)
    rows = {win.child(i).text(0): win.child(i) for i in range(win.childCount())}
    pattern = rows["碰碰胡"]
    parts = [(pattern.child(i).text(0), pattern.child(i).text(1))
             for i in range(pattern.childCount())]
    assert parts[0] == ("底", "2 pt") and len(parts) == 4  # 底, two flowers, the East pung
    assert "standard shape" in pattern.text(2)
    i18n.set_language("zh")
    try:
        window.scoring.refresh()
        win = window.scoring.tree.topLevelItem(0)
        texts = [win.child(i).text(2) for i in range(win.childCount())]
        assert any("标准牌型" in t for t in texts), texts
    finally:
        i18n.set_language("en")


def test_clicking_a_tile_corrects_it_and_logs_who_and_why(window: MainWindow, qtbot,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    flower_index = 0

    def choose(self: TilePalette) -> int:
        self.chosen = tile_from_name("f3")
        self.why.setText("the camera saw 菊 as 梅")
        return 1

    monkeypatch.setattr(TilePalette, "exec", choose)
    strip = window.seat_panels[1].melds
    keys = [t.key for t in strip.tiles()]
    target = keys.index(TileRef(1, "flowers", flower_index))
    rect = strip._rects[target]
    qtbot.mouseClick(strip, Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.session.corrections[-1].what == "flowers[0]: f1 -> f3"
    window.confirm_hand()
    match = window.store.load(window.match_panel.match_id)
    assert match.totals == [0, 8, 0, -8]
    logged = match.log[-1]
    assert "f1 -> f3" in logged.note and logged.who == "referee"
    assert window.match_panel.table.item(0, 3).text() == "+8 → 8"
    assert window.session.record is None  # ready for the next hand


def test_reopened_hand_is_amended_not_duplicated(window: MainWindow) -> None:
    window.confirm_hand()
    mid = window.match_panel.match_id
    window.reopen_hand(0)
    window.session.remove_flower(1, 0, "referee", "f1 was not his")
    assert window.session.settlement.payments == [0, 7, 0, -7]
    window.confirm_hand()
    match = window.store.load(mid)
    assert len(match.hands) == 1 and match.totals == [0, 7, 0, -7]
    assert match.amendments and "f1 was not his" in match.amendments[-1].event.why


def test_table_buttons_reach_the_simulator(window: MainWindow, qtbot) -> None:
    panel = window.table_panel
    with qtbot.waitSignal(window.table_bridge.stateChanged, timeout=15000,
                          check_params_cb=lambda s: s == "idle"):
        window.table_bridge.connect_to("simulator", speed=50)
    qtbot.waitUntil(lambda: panel.buttons["dice"].isEnabled(), timeout=5000)  # shown connected
    with qtbot.waitSignal(window.table_bridge.dice, timeout=15000) as blocker:
        qtbot.mouseClick(panel.buttons["dice"], Qt.MouseButton.LeftButton)
    a, b = blocker.args
    assert 1 <= a <= 6 and 1 <= b <= 6
    qtbot.waitUntil(lambda: "dice" in window.match_panel.wall.text().lower(), timeout=5000)
    # the audit log shows the command and its answer, not the twice-a-second status polls
    qtbot.waitUntil(lambda: "→ CMD roll_dice" in panel.audit.toPlainText()
                    and "← ACK roll_dice" in panel.audit.toPlainText(), timeout=5000)
    assert "CMD status" not in panel.audit.toPlainText()
    assert window.table_bridge.simulator is not None


def test_language_switch_labels(window: MainWindow) -> None:
    i18n.set_language("zh")
    try:
        assert i18n.tr("confirm_hand") == "确认本局"
    finally:
        i18n.set_language("en")
    assert QPoint(0, 0).x() == 0


def test_seat_menu_adds_and_removes_melds_and_flowers(window: MainWindow, monkeypatch) -> None:
    from PySide6.QtWidgets import QInputDialog

    def choose(panel: SeatPanel, prefix: str) -> list[str]:
        menu = panel.build_menu()
        texts = [a.text() for a in menu.actions()]
        next(a for a in menu.actions() if a.text().startswith(prefix)).trigger()
        menu.deleteLater()
        return texts

    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("pung:SSS@0", True))
    panel = window.seat_panels[3]
    choose(panel, i18n.tr("add_meld"))
    meld = window.session.record.seats[3].melds[-1]
    assert meld.type == "pung" and meld.from_seat == 0
    assert window.session.corrections[-1].what == "meld added: pung SSS from 0"
    assert window.session.corrections[-1].who == "referee"
    # the menu now offers to remove it; a flower goes the same way
    texts = choose(panel, f"{i18n.tr('remove_meld')} SSS")
    assert window.session.record.seats[3].melds == ()
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("竹", True))
    choose(panel, i18n.tr("add_flower"))
    assert window.session.record.seats[3].flowers[-1] == tile_from_name("f4")
    assert len(window.session.corrections) == 3
    assert f"{i18n.tr('remove_meld')} SSS" in texts


def test_a_tile_strip_wraps_at_its_own_width(qtbot) -> None:
    """Qt asks heightForWidth about widths the strip never gets; the tiles must still be laid
    out for the width it has (a narrow seat panel once lost its second row that way)."""
    from ui.dashboard.tile_strip import StripTile, TileStrip

    strip = TileStrip(28)
    qtbot.addWidget(strip)
    strip.resize(186, 80)
    strip.show()
    strip.set_tiles([StripTile(t) for t in range(10)])
    assert strip.heightForWidth(186) == 58  # two rows of 28 (+2)
    strip.heightForWidth(1000)  # a question, not a layout
    strip.grab()
    assert all(r.right() < strip.width() for r in strip._rects)
    assert {r.y() for r in strip._rects} == {0, 30}


def test_screenshots_of_named_tabs(window: MainWindow, tmp_path: Path) -> None:
    from ui.dashboard.app import save_screenshots

    saved = save_screenshots(window, tmp_path / "shot.png", ("score", "table"))
    assert [p.name for p in saved] == ["shot-score.png", "shot-table.png"]
    assert all(p.stat().st_size > 5_000 for p in saved)
    assert window.tabs.currentWidget() is window.table_panel
    with pytest.raises(ValueError, match="no 'log' tab"):
        save_screenshots(window, tmp_path / "x.png", ("log",))
