"""The main window: camera view ringed by the four seats, and tabs for score, match and table."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QGridLayout,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QTabWidget,
    QToolBar,
    QWidget,
)

from scoring.jsonlimits import read_json_file
from scoring.record import HandRecord, Win
from scoring.tiles import TILE_NAMES, parse_tiles
from scoring.waiting import seat_waits
from ui.commands.waits import parse_meld
from ui.dashboard.camera_view import CameraView, Overlay
from ui.dashboard.core import Correction, HandSession, TileRef
from ui.dashboard.i18n import default_players, seat_name, tr, word
from ui.dashboard.match_panel import MatchPanel
from ui.dashboard.palette import TilePalette
from ui.dashboard.scoring_panel import ScoringPanel
from ui.dashboard.seat_panel import SeatPanel, SeatView
from ui.dashboard.showdowns import Showdowns
from ui.dashboard.table_panel import TableBridge, TablePanel
from ui.dashboard.timer_panel import TimerPanel
from ui.errors import CommandError

# seat k sits at: 0 bottom, 1 right, 2 top, 3 left (play goes counter-clockwise);
# (row, column, column span): top and bottom seats take the whole width
SEAT_CELLS = {0: (2, 0, 3), 1: (1, 2, 1), 2: (0, 0, 3), 3: (1, 0, 1)}
SIDE_WIDTH = 200  # left and right seat panels


class MainWindow(QMainWindow):
    def __init__(self, session: HandSession | None = None, operator: str = "operator",
                 players: list[str] | None = None, store: Any = None) -> None:
        super().__init__()
        self.setWindowTitle(tr("app_title"))
        self.session = session or HandSession()
        self.operator = operator
        self.players = players or default_players()
        self.totals: list[float] | None = None
        self.closing = False
        self.camera: Any = None
        self.correction_log: list[Correction] = []

        central = QWidget()
        grid = QGridLayout(central)
        grid.setContentsMargins(4, 4, 4, 4)
        grid.setSpacing(4)
        self.view = CameraView()
        grid.addWidget(self.view, 1, 1)
        self.seat_panels: list[SeatPanel] = []
        for seat in range(4):
            wide = seat in (0, 2)
            panel = SeatPanel(seat, tile_height=38 if wide else 28, wide=wide)
            if not wide:
                panel.setFixedWidth(SIDE_WIDTH)
            panel.tileClicked.connect(self.correct_tile)
            panel.menuRequested.connect(self.edit_seat)
            row, col, span = SEAT_CELLS[seat]
            grid.addWidget(panel, row, col, 1, span)
            self.seat_panels.append(panel)
        grid.setColumnStretch(1, 1)
        grid.setRowStretch(1, 1)

        self.tabs = QTabWidget()
        self.tabs.setMinimumWidth(400)
        self.tabs.setMaximumWidth(480)
        self.scoring = ScoringPanel(self.session)
        self.scoring.loadRequested.connect(self.load_hand_dialog)
        self.scoring.confirmRequested.connect(self.confirm_hand)
        self.scoring.winSourceChosen.connect(self.set_win_source)
        self.tabs.addTab(self.scoring, tr("score"))
        self.store = store
        self.match_panel: MatchPanel | None = None
        if store is not None:
            self.match_panel = MatchPanel(store)
            self.match_panel.matchChanged.connect(self.show_match)
            self.match_panel.message.connect(lambda m: self.statusBar().showMessage(m, 10000))
            self.match_panel.table.cellDoubleClicked.connect(self.reopen_hand)
            self.tabs.addTab(self.match_panel, tr("match"))
        self.table_bridge = TableBridge(self)
        self.table_panel = TablePanel(self.table_bridge)
        self.tabs.addTab(self.table_panel, tr("table"))
        self.timer_panel = TimerPanel()
        self.timer_panel.message.connect(lambda m: self.statusBar().showMessage(m, 10000))
        self.tabs.addTab(self.timer_panel, tr("timer"))
        if self.match_panel is not None:
            self.table_bridge.dice.connect(self.match_panel.add_roll,
                                           Qt.ConnectionType.QueuedConnection)
        outer = QWidget()
        outer_layout = QGridLayout(outer)
        outer_layout.setContentsMargins(0, 0, 0, 0)
        outer_layout.addWidget(central, 0, 0)
        outer_layout.addWidget(self.tabs, 0, 1)
        outer_layout.setColumnStretch(0, 1)
        self.setCentralWidget(outer)

        toolbar = QToolBar()
        toolbar.setMovable(False)
        self.addToolBar(toolbar)
        load = QAction(tr("load_hand"), self)
        load.triggered.connect(self.load_hand_dialog)
        toolbar.addAction(load)
        fit = QAction(tr("zoom_fit"), self)
        fit.triggered.connect(self.view.fit)
        toolbar.addAction(fit)
        confirm = QAction(tr("confirm_hand"), self)
        confirm.setShortcut("Ctrl+Return")
        confirm.triggered.connect(self.confirm_hand)
        self.addAction(confirm)  # the shortcut works from anywhere in the window
        self.toolbar = toolbar
        self.camera_status = QLabel(tr("camera_none"))
        self.view.set_placeholder(tr("camera_none"))
        self.table_status = QLabel("")
        self.statusBar().addWidget(self.camera_status)
        self.statusBar().addWidget(self.table_status)
        self._table_state, self._table_fault = "", ""
        self.table_bridge.stateChanged.connect(self.show_table_state,
                                               Qt.ConnectionType.QueuedConnection)
        self.table_bridge.tableEvent.connect(self.show_table_event,
                                             Qt.ConnectionType.QueuedConnection)
        self.table_bridge.failed.connect(
            lambda op, msg: self.statusBar().showMessage(f"{tr('table')} · {word(op)}: {msg}",
                                                         10000),
            Qt.ConnectionType.QueuedConnection)
        self.view.boxClicked.connect(self.correct_overlay)
        self.tabs.currentChanged.connect(
            lambda i: self.mark_score_tab(False) if self.tabs.widget(i) is self.scoring else None)

        self.session.changed.connect(self.refresh_seats)
        # the camera's hands on their way to the log (after refresh_seats: a hand confirmed or
        # cleared is shown gone before what the camera saw meanwhile goes on)
        self.showdowns = Showdowns(self.session,
                                   self.match_panel.session if self.match_panel else None)
        self.showdowns.message.connect(self.statusBar().showMessage)
        self.showdowns.recognized.connect(self.show_recognized)
        self.showdowns.live_changed.connect(self.refresh_seats)
        self.session.corrected.connect(self.correction_log.append)
        self.refresh_seats()
        self.resize(1366, 768)

    # ------------------------------------------------------------ showing the hand

    def refresh_seats(self) -> None:
        record = self.session.record
        for k, panel in enumerate(self.seat_panels):
            panel.show_view(self.seat_view(k, record))

    def seat_view(self, k: int, record: HandRecord | None) -> SeatView:
        name = self.players[k]
        total = self.totals[k] if self.totals else None
        if record is None:
            dealer = self.match_panel.match.dealer if self.match_panel and \
                self.match_panel.match else 0
            live = self.showdowns.live
            if live is not None:
                return SeatView(k, name, dealer, live[k], total,
                                self.showdowns.live_waits.get(k, []),
                                hidden=self.showdowns.live_hidden.get(k, 0), live=True)
            return SeatView(k, name, dealer, total=total)
        seat = record.seats[k]
        winners = {w.seat for w in record.wins}
        waits: list[tuple[int, int]] = []
        if k not in winners and seat.concealed:
            visible = [t for j, s in enumerate(record.seats) if j != k for t in s.all_tiles()]
            waits = seat_waits(seat.concealed, seat.melds, ruleset=record.ruleset,
                               options=record.options,
                               context={"indicator": record.context.indicator},
                               visible=visible, lenient=True)
        flagged = {ref for ref in self.session.suggestions if ref.seat == k}
        return SeatView(k, name, record.dealer, seat, total, waits, flagged, k in winners)

    def show_frame(self, frame: Any, overlays: list[Overlay],
                   frame_size: tuple[int, int] | None = None) -> None:
        self.view.show_frame(frame, overlays, frame_size)
        if self.camera is not None:
            self.camera.frame_shown()  # the worker may send the next picture

    def attach_camera(self, worker: Any) -> None:
        """Show a camera worker's frames; its drop-outs become status, never a dialog."""
        self.camera = worker
        queued = Qt.ConnectionType.QueuedConnection
        worker.frameReady.connect(self.show_frame, queued)
        worker.status.connect(self.show_camera_status, queued)
        worker.reading.connect(self.show_reading, queued)
        self.camera_status.setText(tr("camera_ok"))

    def show_reading(self, result: Any, waits: dict[int, list[tuple[int, int]]]) -> None:
        """A camera reading goes to the showdown core (not once the window is closing)."""
        if not self.closing:
            self.showdowns.take_reading(result, waits)

    def show_recognized(self, win: Win | None, notes: list[str]) -> None:
        """The camera's hand waits on the Score tab: who won on what, and how it was read."""
        record = self.session.record
        if win is not None and record is not None:
            who = seat_name(win.seat, record.dealer, self.players)
            self.statusBar().showMessage(tr("recognized_as").format(
                who, TILE_NAMES[win.tile], word(win.by)), 15000)
            self.statusBar().setToolTip("\n".join(notes))
        elif record is not None:
            self.statusBar().showMessage(tr("recognized_draw"), 15000)
            self.statusBar().setToolTip("\n".join(notes))
        self.mark_score_tab(True)

    def show_table_event(self, kind: str, data: dict) -> None:
        """A table fault is a status line (red), never a dialog that stops play."""
        if kind == "fault":
            self._table_fault = f"{data.get('fault')} ({data.get('severity')})"
        elif kind == "fault_cleared":
            self._table_fault = ""
        self.show_table_state(self._table_state)

    def show_table_state(self, state: str) -> None:
        self._table_state = state
        text = f"{tr('table')}: {word(state)}"
        if self._table_fault:
            text += f" · {tr('faults')}: {self._table_fault}"
        self.table_status.setText(text)
        self.table_status.setStyleSheet("color: #b3261e" if self._table_fault
                                        or state == "error" else "")

    def mark_score_tab(self, on: bool) -> None:
        """A dot on the Score tab: a recognized hand waits there (the tab is not switched
        under the referee's hands)."""
        index = self.tabs.indexOf(self.scoring)
        self.tabs.setTabText(index, tr("score") + (" ●" if on else ""))
        if on:
            self.tabs.tabBar().setTabTextColor(index, Qt.GlobalColor.darkGreen)
        else:
            self.tabs.tabBar().setTabTextColor(index, self.tabs.tabBar().palette().text().color())

    def set_win_source(self, by: str, from_seat: int) -> None:
        self.apply_correction(lambda: self.session.set_win(
            0, by, None if from_seat < 0 else from_seat, self.operator, tr("referee_call")))

    def show_camera_status(self, kind: str, message: str) -> None:
        if kind == "no_models":
            self._no_models = message
            print(f"warning: the camera runs without recognition: {message}", file=sys.stderr)
        if kind == "failed":
            print(f"warning: the camera failed: {message}", file=sys.stderr)
        live = tr("camera_no_models") if getattr(self, "_no_models", "") else tr("camera_ok")
        if kind == "skipped":  # the stream goes on; the count and last reason stay in view
            self._skipped = getattr(self, "_skipped", 0) + 1
            self._last_skip = message
        text = {"lost": tr("camera_lost"), "opened": live, "skipped": live,
                "reconnected": live, "no_models": tr("camera_no_models"),
                "failed": f"{tr('camera_failed')}: {message}", "ended": tr("camera_replay"),
                "finished": tr("camera_ended"),
                }.get(kind, f"{tr('camera')}: {message}")
        if kind in ("lost", "failed", "finished") and (
                self.showdowns.live is not None or self.showdowns.awaiting_confirmation()):
            text += f"; {tr('hand_kept')}"  # the seats stay as last seen; nothing is logged
        if getattr(self, "_skipped", 0):
            text += f"; {tr('camera_skipped')}: {self._skipped} (last: {self._last_skip})"
        self.camera_status.setText(text)
        self.view.set_placeholder(text)
        self.camera_status.setToolTip(message if kind != "opened" or not getattr(
            self, "_no_models", "") else self._no_models)

    # ------------------------------------------------------------ entering and correcting

    def load_hand_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, tr("load_hand"), "", "Hand records (*.json)")
        if path:
            self.load_hand_file(Path(path))

    def load_hand_file(self, path: Path) -> None:
        try:
            self.session.load(read_json_file(path), source="file")
        except (OSError, ValueError) as exc:
            self.statusBar().showMessage(f"{path.name}: {exc}", 10000)

    def correct_tile(self, ref: TileRef,
                     suggestions: list[tuple[int, float]] | None = None) -> None:
        """The palette for one tile (suggestions first); the choice is applied and logged."""
        if self.session.record is None:
            self.statusBar().showMessage(tr("no_hand_to_correct"), 8000)
            return
        dialog = TilePalette(suggestions or self.session.suggestions.get(ref),
                             who=self.operator, parent=self)
        if dialog.exec() and dialog.chosen is not None:
            chosen = dialog.chosen
            self.apply_correction(lambda: self.session.replace_tile(
                ref, chosen, dialog.who.text(), dialog.why.text()))

    def correct_overlay(self, overlay: Overlay) -> None:
        """A box clicked in the camera view: correct the tile it stands for in the hand."""
        if isinstance(overlay.key, TileRef):
            self.correct_tile(overlay.key, list(overlay.topk) or None)

    def edit_seat(self, seat: int, action: str, index: int) -> None:
        who = self.operator
        if action == "add_meld":
            text, ok = QInputDialog.getText(self, tr("add_meld"), tr("meld_prompt"))
            if ok and text.strip():
                body, _, src = text.strip().partition("@")

                def add() -> None:
                    meld = parse_meld(body.strip(), seat)
                    if src.strip():
                        from dataclasses import replace

                        meld = replace(meld, from_seat=int(src))
                    self.session.add_meld(seat, meld, who, "entered")

                self.apply_correction(add)
        elif action == "remove_meld":
            self.apply_correction(lambda: self.session.remove_meld(seat, index, who, "removed"))
        elif action == "add_flower":
            text, ok = QInputDialog.getText(self, tr("add_flower"), tr("flower_prompt"))
            if ok and text.strip():
                self.apply_correction(lambda: self.session.add_flower(
                    seat, parse_tiles(text.strip())[0], who, "entered"))
        elif action == "remove_flower":
            self.apply_correction(lambda: self.session.remove_flower(seat, index, who,
                                                                     "removed"))

    def apply_correction(self, change: Any) -> None:
        if self.session.record is None:
            self.statusBar().showMessage(tr("no_hand_to_correct"), 8000)
            return
        try:
            change()
        except (ValueError, CommandError, IndexError) as exc:
            self.statusBar().showMessage(str(exc), 10000)

    def confirm_hand(self) -> None:
        """Commit the scored hand to the match log (the showdown core says why it could not)."""
        if self.showdowns.confirm(self.operator) and self.match_panel is not None:
            self.match_panel.refresh()
            self.statusBar().showMessage(tr("confirm_hand") + " ✓", 4000)

    def reopen_hand(self, row: int, _col: int = 0) -> None:
        """Load a logged hand into the scoring panel to correct it (an amendment on confirm)."""
        if self.showdowns.reopen(row):
            self.tabs.setCurrentWidget(self.scoring)

    def show_match(self, match: Any) -> None:
        self.players = list(match.players)
        self.scoring.players = self.players
        self.scoring.refresh()
        self.totals = list(match.totals)
        self.refresh_seats()

    # ------------------------------------------------------------ lifetime

    def closeEvent(self, event: QCloseEvent) -> None:
        if getattr(self, "camera", None) is not None:
            self.camera.stop()
        self.closing = True  # readings already queued must not reach a closing match log
        self.table_bridge.shutdown()
        super().closeEvent(event)


def screenshot(window: QMainWindow, path: Path, delay_ms: int = 0) -> None:
    """Save the window as a PNG (works offscreen)."""

    def grab() -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not window.grab().save(str(path)):
            QMessageBox.warning(window, "screenshot", f"could not save {path}")

    if delay_ms:
        QTimer.singleShot(delay_ms, grab)
    else:
        grab()
