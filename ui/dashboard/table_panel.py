"""Connect to an automatic table (a serial port or the simulator), drive it, watch its audit log.

Driver calls block (a shuffle takes seconds), so each runs on a worker thread; the driver's
callbacks arrive on its dispatcher thread and cross into Qt as queued signals.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ui.dashboard.i18n import tr, word

SIMULATOR = "simulator"
STATE_COLORS = {"offline": "#888888", "idle": "#2e9e44", "shuffling": "#1f6fd1",
                "raising": "#1f6fd1", "busy": "#d1a51f", "error": "#d12f1f"}


class TableBridge(QObject):
    """Owns the driver (and a simulator when asked); re-emits its callbacks as Qt signals.

    The driver calls back on its own threads and commands run on a worker; every signal is
    emitted on the bridge's (the Qt) thread, so whatever listens, a widget or a plain Python
    callable, runs there: a callable run on the driver's thread could touch the Qt event
    loop from outside it (seen as crashes in tests waiting on these signals)."""

    stateChanged = Signal(str)
    tableEvent = Signal(str, dict)  # kind, data (not "event": that is QObject.event)
    audit = Signal(str)
    result = Signal(str, object)  # operation, its result
    failed = Signal(str, str)  # operation, one-line message
    dice = Signal(int, int)
    _posted = Signal(str, object)  # a signal's name and arguments, from another thread

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.driver: Any = None
        self.simulator: Any = None
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="table")
        self._posted.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        self._down = False

    def _post(self, name: str, *args: Any) -> None:
        """Emit the signal ``name`` on the bridge's thread, from any thread."""
        self._posted.emit(name, args)

    @Slot(str, object)
    def _deliver(self, name: str, args: tuple[Any, ...]) -> None:
        getattr(self, name).emit(*args)

    def connect_to(self, port: str, speed: float = 10.0) -> None:
        def work() -> str:
            from hardware import open_table, start_simulator

            self._close_now()
            url = port
            if port == SIMULATOR:
                self.simulator = start_simulator(link="pty", speed=speed, seed=None)
                url = self.simulator.url
            driver = open_table(url)
            driver.on_state(lambda s: self._post("stateChanged", str(s)))
            driver.on_event(lambda e: self._post("tableEvent", str(e.kind), dict(e.data)))
            driver.audit.add_sink(lambda entry: self._post("audit", audit_text(entry)))
            self.driver = driver
            self._post("stateChanged", str(driver.state))
            return url

        self.run("connect", work)

    def run(self, name: str, fn: Callable[[], Any]) -> None:
        def call() -> None:
            try:
                value = fn()
            except Exception as exc:  # shown as status, never a dialog that blocks play
                self._post("failed", name, str(exc) or type(exc).__name__)
                return
            if name == "dice" and value:
                self._post("dice", int(value[0]), int(value[1]))
            self._post("result", name, value)

        self.pool.submit(call)

    def command(self, name: str) -> None:
        ops: dict[str, Callable[[Any], Any]] = {
            "identify": lambda d: d.identify(),
            "shuffle": lambda d: d.shuffle(),
            "raise": lambda d: d.raise_tiles(),
            "lower": lambda d: d.lower_tiles(),
            "dice": lambda d: d.roll_dice(),
        }
        if self.driver is None:
            self.failed.emit(name, tr("not_connected"))
            return
        driver = self.driver
        self.run(name, lambda: ops[name](driver))

    def _close_now(self) -> None:
        if self.driver is not None:
            self.driver.close()
            self.driver = None
        if self.simulator is not None:
            self.simulator.stop()
            self.simulator = None

    def disconnect_table(self) -> None:
        self.run("disconnect", self._close_now)
        self.stateChanged.emit("offline")

    def shutdown(self) -> None:
        """Close the table and stop the worker; a second call (a window closed twice) is a
        no-op."""
        if self._down:
            return
        self._down = True
        self.pool.submit(self._close_now)
        self.pool.shutdown(wait=True)


ARROWS = {"out": "→", "in": "←", "drop": "✗", "note": "•"}
ROUTINE = ("status",)  # the driver's polls: shown only on request


def audit_text(entry: Any) -> str:
    """One audit entry as a person reads it: local time, direction, what it was; the bytes
    when there is nothing else to say (a dropped frame)."""
    import time as _time

    millis = int(entry.at * 1000) % 1000
    stamp = _time.strftime("%H:%M:%S", _time.localtime(entry.at)) + f".{millis:03d}"
    what = entry.note or entry.data.hex(" ").upper()
    return f"{stamp} {ARROWS.get(entry.direction, entry.direction)} {what}"


def is_routine(line: str) -> bool:
    """A status poll or its answer (twice a second while connected)."""
    return any(f"CMD {w} " in line or f"ACK {w} " in line for w in ROUTINE)


def list_ports() -> list[str]:
    """The simulator first, then the serial ports the system reports."""
    try:
        from serial.tools import list_ports as lp

        ports = [p.device for p in lp.comports()]
    except Exception:
        ports = []
    return [SIMULATOR, *ports]


class TablePanel(QWidget):
    def __init__(self, bridge: TableBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        layout = QVBoxLayout(self)
        row = QHBoxLayout()
        self.port = QComboBox()
        self.port.setEditable(True)
        self.port.addItems(list_ports())
        self.port.setToolTip("serial port or URL: /dev/ttyUSB0, COM3, socket://host:port")
        self.connect_button = QPushButton(tr("connect"))
        self.disconnect_button = QPushButton(tr("disconnect"))
        self.rescan = QPushButton("↻")
        self.rescan.setToolTip(tr("rescan_ports"))
        self.rescan.setFixedWidth(32)
        self.rescan.clicked.connect(self.rescan_ports)
        row.addWidget(QLabel(tr("port")))
        row.addWidget(self.port, 1)
        row.addWidget(self.rescan)
        row.addWidget(self.connect_button)
        row.addWidget(self.disconnect_button)
        layout.addLayout(row)
        state_row = QHBoxLayout()
        self.light = QLabel("●")
        self.state = QLabel("offline")
        self.dice_label = QLabel("")
        state_row.addWidget(self.light)
        state_row.addWidget(self.state, 1)
        state_row.addWidget(self.dice_label)
        layout.addLayout(state_row)
        grid = QGridLayout()
        self.buttons: dict[str, QPushButton] = {}
        for i, (op, key) in enumerate((("shuffle", "shuffle"), ("raise", "raise"),
                                       ("lower", "lower"), ("dice", "roll_dice"))):
            b = QPushButton(tr(key))
            b.clicked.connect(lambda _=False, op=op: bridge.command(op))
            grid.addWidget(b, i // 2, i % 2)
            self.buttons[op] = b
        layout.addLayout(grid)
        self.faults = QLabel("")
        self.faults.setWordWrap(True)
        self.faults.setStyleSheet("color: #b3261e")
        layout.addWidget(self.faults)
        audit_row = QHBoxLayout()
        audit_row.addWidget(QLabel(tr("audit")))
        audit_row.addStretch(1)
        self.show_polls = QCheckBox(tr("show_polls"))
        audit_row.addWidget(self.show_polls)
        layout.addLayout(audit_row)
        self.audit = QPlainTextEdit()
        self.audit.setReadOnly(True)
        self.audit.setMaximumBlockCount(500)
        self.audit.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.audit.setStyleSheet("font-family: monospace; font-size: 10px")
        layout.addWidget(self.audit, 1)
        self.connect_button.clicked.connect(lambda: bridge.connect_to(self.port.currentText()))
        self.disconnect_button.clicked.connect(bridge.disconnect_table)
        queued = Qt.ConnectionType.QueuedConnection
        bridge.stateChanged.connect(self.show_state, queued)
        bridge.audit.connect(self.add_audit, queued)
        bridge.failed.connect(self.show_failure, queued)
        bridge.tableEvent.connect(self.show_event, queued)
        bridge.dice.connect(self.show_dice, queued)
        self.show_state("offline")

    def rescan_ports(self) -> None:
        """A table plugged in after start: list the ports again, keeping what was typed."""
        typed = self.port.currentText()
        self.port.clear()
        self.port.addItems(list_ports())
        self.port.setCurrentText(typed)

    def show_state(self, state: str) -> None:
        self.state.setText(word(state))
        self.light.setStyleSheet(f"color: {STATE_COLORS.get(state, '#888888')}; font-size: 18px")
        for b in self.buttons.values():
            b.setEnabled(state not in ("offline",))

    def show_failure(self, op: str, message: str) -> None:
        self.faults.setText(f"{word(op)}: {message}")

    def show_event(self, kind: str, data: dict) -> None:
        if kind == "fault":
            self.faults.setText(f"{tr('faults')}: {data.get('fault')} ({data.get('severity')})")
        elif kind == "fault_cleared":
            self.faults.setText("")
        elif kind == "dice" and len(data.get("dice", ())) >= 2:
            a, b = data["dice"][:2]
            self.show_dice(int(a), int(b))

    def show_dice(self, a: int, b: int) -> None:
        self.dice_label.setText(f"{tr('dice')}: <b>{a} + {b} = {a + b}</b>")

    def add_audit(self, line: str) -> None:
        if self.show_polls.isChecked() or not is_routine(line):
            self.audit.appendPlainText(line)
