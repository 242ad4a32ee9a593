"""The optional referee timer: the Shanghai turn clocks, started by the referee for a seat.

The view only shows the Qt-free :class:`RefereeClock` and calls its methods; a ``QTimer`` polls
it (``tick_ms``, short in tests) and a countdown that runs out is announced with what the rules
then do. Off until the referee switches it on.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ui.dashboard.i18n import language, tr
from ui.dashboard.referee_clock import PHASES, Phase, RefereeClock


class TimerPanel(QWidget):
    timedOut = Signal(str, int)  # phase key, seat
    message = Signal(str)  # a line for the status bar

    def __init__(self, clock: RefereeClock | None = None, tick_ms: int = 200,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.clock = clock or RefereeClock()
        layout = QVBoxLayout(self)
        self.enabled_box = QCheckBox(tr("timer_enable"))
        self.enabled_box.setToolTip(tr("timer_tip"))
        self.enabled_box.toggled.connect(self._set_enabled)
        layout.addWidget(self.enabled_box)
        grid = QGridLayout()
        self.seat = QComboBox()
        self.seat.addItems([f"{tr('seat')} {k}" for k in range(4)])
        grid.addWidget(QLabel(tr("seat")), 0, 0)
        grid.addWidget(self.seat, 0, 1)
        self.buttons: dict[str, QPushButton] = {}
        for row, phase in enumerate(PHASES.values(), start=1):
            name = phase.name_zh if language() == "zh" else phase.name_en
            button = QPushButton(f"{name} {phase.seconds:g} s")
            button.clicked.connect(lambda _c=False, key=phase.key: self.start(key))
            grid.addWidget(button, row, 0, 1, 2)
            self.buttons[phase.key] = button
        self.stop_button = QPushButton(tr("timer_stop"))
        self.stop_button.clicked.connect(self.stop)
        grid.addWidget(self.stop_button, len(PHASES) + 1, 0, 1, 2)
        layout.addLayout(grid)
        self.display = QLabel(tr("timer_idle"))
        self.display.setStyleSheet("font-size: 20px")
        layout.addWidget(self.display)
        self.last = QLabel("")
        self.last.setWordWrap(True)
        layout.addWidget(self.last)
        layout.addStretch(1)
        self.timer = QTimer(self)
        self.timer.setInterval(tick_ms)
        self.timer.timeout.connect(self._tick)
        # the panel polls the clock and subscribes to none of its signals: nothing to undo
        # when the panel goes, and no reference from the core back to the view
        self._set_enabled(False)

    def _set_enabled(self, on: bool) -> None:
        for w in (self.seat, self.stop_button, *self.buttons.values()):
            w.setEnabled(on)
        if not on:
            self.stop()

    def start(self, phase: str, seat: int | None = None) -> None:
        """Start ``phase`` for ``seat`` (default: the seat chosen in the panel)."""
        if not self.enabled_box.isChecked():
            return
        if seat is not None:
            self.seat.setCurrentIndex(seat)
        self.clock.start(phase, self.seat.currentIndex())
        self.last.setText("")
        self.timer.start()
        self._tick()

    def stop(self) -> None:
        """The player acted in time, or the referee switched the timer off."""
        self.clock.stop()
        self.timer.stop()
        self.display.setText(tr("timer_idle"))

    def _tick(self) -> None:
        ran_out = self.clock.tick()
        phase, seat = self.clock.phase, self.clock.seat
        if phase is None or seat is None:
            return
        if ran_out is not None:
            self._expired(ran_out, seat)
        name = phase.name_zh if language() == "zh" else phase.name_en
        self.display.setText(f"{tr('seat')} {seat} · {name}: {self.clock.remaining():.0f} s")

    def _expired(self, phase: Phase, seat: int) -> None:
        self.timer.stop()
        what = phase.on_timeout_zh if language() == "zh" else phase.on_timeout_en
        text = tr("timer_expired").format(seat, what)
        self.last.setText(text)
        self.message.emit(text)
        self.timedOut.emit(phase.key, seat)

