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

from scoring.errors import ScoringError
from scoring.jsonlimits import read_json_file
from scoring.record import HandRecord, Seat
from scoring.rulesets.registry import default_ruleset
from scoring.tiles import parse_tiles
from scoring.waiting import seat_waits
from ui.commands.waits import parse_meld
from ui.dashboard.camera_view import CameraView, Overlay
from ui.dashboard.core import Correction, HandSession, TileRef, part_size, tile_at
from ui.dashboard.i18n import default_players, seat_name, tr, word
from ui.dashboard.match_panel import MatchPanel
from ui.dashboard.palette import TilePalette
from ui.dashboard.scoring_panel import ScoringPanel
from ui.dashboard.seat_panel import SeatPanel, SeatView
from ui.dashboard.table_panel import TableBridge, TablePanel
from ui.dashboard.timer_panel import TimerPanel
from ui.errors import CommandError

# seat k sits at: 0 bottom, 1 right, 2 top, 3 left (play goes counter-clockwise);
# (row, column, column span): top and bottom seats take the whole width
SEAT_CELLS = {0: (2, 0, 3), 1: (1, 2, 1), 2: (0, 0, 3), 3: (1, 0, 1)}
SIDE_WIDTH = 200  # left and right seat panels
# camera events logged as they happen (the rest of a hand is logged when a person confirms it)
LIVE_EVENTS = ("dice", "wall_broken", "indicator")
# camera events that wait while a recognized hand waits for a person: the next hand's dice
# belong to the next hand, and its win is scored after this one
HELD_EVENTS = (*LIVE_EVENTS, "win")


class MainWindow(QMainWindow):
    def __init__(self, session: HandSession | None = None, operator: str = "operator",
                 players: list[str] | None = None, store: Any = None) -> None:
        super().__init__()
        self.setWindowTitle(tr("app_title"))
        self.session = session or HandSession()
        self.operator = operator
        self.players = players or default_players()
        self.totals: list[float] | None = None
        self.live: list[Seat] | None = None  # what the camera shows while no hand is finished
        self.live_waits: dict[int, list[tuple[int, int]]] = {}
        self.live_hidden: dict[int, int] = {}
        self.last_reading: Any = None  # the camera's latest vision.pipeline.FrameResult
        self.closing = False
        self.save_examples: Path | None = None  # where confirmed showdowns become examples
        self.showdown_result: Any = None  # the camera reading the hand being scored came from
        self.showdown_record: HandRecord | None = None
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
        self.logged_seq: int | None = None  # the log event of a confirmed hand being corrected
        # (winner, seat state key) of the camera's showdown being scored, and of the last one
        # confirmed: the same showdown seen again is not a new hand
        self.pending_showdown: tuple[int, Any] | None = None
        self.confirmed_showdowns: set[tuple[int, Any]] = set()
        self.held: list[tuple[Any, Any]] = []  # (reading, event) waiting for a confirmation
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
        # a hand confirmed or cleared: what the camera saw meanwhile goes on
        self.session.changed.connect(
            lambda: self.release_held() if self.session.record is None and self.held else None)
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
            if self.live is not None:
                return SeatView(k, name, dealer, self.live[k], total,
                                self.live_waits.get(k, []), hidden=self.live_hidden.get(k, 0),
                                live=True)
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
        """Live seats while a hand is played; a recognized win becomes the hand to score."""
        from ui.dashboard.vision_worker import hidden_counts, live_seats

        if self.closing:
            return
        self.live = live_seats(result)
        self.last_reading = result
        self.live_waits = waits
        self.live_hidden = hidden_counts(result)
        # what one picture shows belongs together: dice still lying at a showdown are that
        # hand's; only later pictures wait for the recognized hand
        hold = bool(self.held) or self.awaiting_confirmation()
        for event in result.events:
            if hold and event.type in HELD_EVENTS:
                self.held.append((result, event))
            else:
                self.camera_event(result, event)
        if self.session.record is None:
            self.refresh_seats()

    def awaiting_confirmation(self) -> bool:
        """A hand the camera recognized waits for a person to confirm or correct it."""
        return self.session.record is not None and self.session.source == "camera"

    def camera_event(self, result: Any, event: Any) -> None:
        from ui.dashboard.vision_worker import suggestions_from

        if event.type in LIVE_EVENTS:
            self.log_live_event(event)
        if event.type == "dice" and self.match_panel is not None:
            a, b = event.data["dice"][:2]
            self.match_panel.add_roll(int(a), int(b))
        elif event.type == "win":
            winner = event.data["seats"][0]
            state = result.hands[winner]  # the stable state the win was seen in
            key = None if state is None else (winner, state.key)
            if key is not None and key in self.confirmed_showdowns:
                # a showdown already logged, seen again (a looping video, a camera glitch)
                self.statusBar().showMessage(tr("showdown_seen_again"), 8000)
            elif self.session.record is None or (self.session.source == "sample"
                                                 and not self.session.corrections):
                self.take_recognized_win(result, winner, suggestions_from(result))
                self.pending_showdown = key
            else:
                self.statusBar().showMessage(tr("recognized_pending"), 10000)

    def release_held(self) -> None:
        """Camera events that waited for the last hand's confirmation, in the order seen (up
        to the next recognized hand, which waits in turn)."""
        held, self.held = self.held, []
        for n, (result, event) in enumerate(held):
            if self.awaiting_confirmation() and result is not self.showdown_result:
                self.held = held[n:]
                return
            self.camera_event(result, event)

    def log_live_event(self, event: Any) -> None:
        """A camera event of :data:`LIVE_EVENTS` goes into the match log in the engine's own
        form (who: camera); one the match refuses is shown, and the hand goes on without it."""
        panel = self.match_panel
        if panel is None or panel.match_id is None or self.store is None:
            return
        try:
            panel.session.log_event(event.to_json(), who="camera")
        except ValueError as exc:  # the match's refusals and the store's errors alike
            self.statusBar().showMessage(f"{tr('not_logged')}: {exc}", 10000)

    def take_recognized_win(self, result: Any, winner: int,
                            suggestions: dict[TileRef, list[tuple[int, float]]]) -> None:
        from vision.reading import build_record

        match = self.match_panel.match if self.match_panel else None
        ruleset = match.ruleset if match else default_ruleset()
        dealer = match.dealer if match else 0
        try:
            record, notes = build_record(result.table, ruleset=ruleset, dealer=dealer,
                                         winner=winner, dice=result.hand_dice,
                                         options=match.options if match else None)
            self.session.load(record, source="camera", suggestions=suggestions)
            self.showdown_result = result
            self.showdown_record = self.session.record  # as the camera read it
        except (ValueError, ScoringError) as exc:
            self.statusBar().showMessage(f"{tr('not_usable')}: {exc}", 10000)
            return
        self.logged_seq = None
        from scoring.tiles import TILE_NAMES

        win = self.session.record.wins[0] if self.session.record else None
        if win is not None:
            who = seat_name(win.seat, self.session.record.dealer, self.players)
            self.statusBar().showMessage(tr("recognized_as").format(
                who, TILE_NAMES[win.tile], word(win.by)), 15000)
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
        if kind in ("lost", "failed", "finished") and (self.live is not None
                                                       or self.awaiting_confirmation()):
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
        """Commit the scored hand to the match log, with every correction as the reason.

        A hand reopened from the log is amended instead: the original stays in the log.
        """
        record, st = self.session.record, self.session.settlement
        if record is None or st is None:
            return
        panel = self.match_panel
        if panel is None or panel.match_id is None:
            self.statusBar().showMessage(tr("no_match_open"), 8000)
            return
        why = "; ".join(f"seat {c.seat} {c.what} ({c.who}: {c.why})"
                        for c in self.session.corrections) or "confirmed"
        try:
            panel.session.record_hand(record.to_json(), self.operator, why, self.logged_seq)
        except ValueError as exc:
            self.statusBar().showMessage(str(exc), 10000)
            return
        self.logged_seq = None
        if self.session.source == "camera":
            if self.pending_showdown is not None:
                self.confirmed_showdowns.add(self.pending_showdown)
            if self.save_examples is not None and self.showdown_result is not None:
                self.save_example(self.showdown_result, record)
        self.pending_showdown = None
        self.session.clear()
        panel.refresh()
        self.statusBar().showMessage(tr("confirm_hand") + " ✓", 4000)

    def save_example(self, result: Any, record: HandRecord) -> None:
        """The confirmed showdown as a labeled example (``--save-examples``): the frame, the
        corrected tiles where a person confirmed them, the camera's reading elsewhere."""
        from ui.dashboard.vision_worker import tile_refs
        from vision.examples import example_manifest, save_example

        confirmed = {}
        seen = self.showdown_record
        for row, ref in tile_refs(result).items():
            # a part that gained or lost tiles has moved its places: those boxes stay unchecked
            if seen is None or part_size(seen, ref) != part_size(record, ref):
                continue
            tile = tile_at(record, ref)
            if tile is not None:
                confirmed[row] = tile
        image = result.frame.image
        manifest = example_manifest(result.detections, record.to_json(),
                                    (image.shape[1], image.shape[0]), confirmed,
                                    session=self.operator)
        try:
            path = save_example(self.save_examples, image, manifest)
        except (OSError, ValueError) as exc:
            self.statusBar().showMessage(f"{tr('example_not_saved')}: {exc}", 10000)
            return
        self.statusBar().showMessage(tr("example_saved").format(path.stem), 6000)

    def reopen_hand(self, row: int, _col: int = 0) -> None:
        """Load a logged hand into the scoring panel to correct it (an amendment on confirm)."""
        panel = self.match_panel
        if panel is None or panel.match is None or row >= len(panel.match.hands):
            return
        hand = panel.match.hands[row]
        self.session.load(hand.record, source=f"{tr('log')} #{hand.number}")
        self.logged_seq = hand.seq
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
