"""Automatic mahjong tables over serial: protocol plug-ins, a driver, a simulated table.

The dashboard's API in one page (Qt-free; wrap the callbacks in Qt signals)::

    from hardware import open_table, start_simulator

    sim = start_simulator(link="pty", speed=10, seed=1, faults="drop=0.01")  # optional
    table = open_table(sim.url)            # or "/dev/ttyUSB0", "COM3", "socket://host:port"
    table.on_state(lambda state: ...)      # TableState: offline idle shuffling raising busy error
    table.on_event(lambda event: ...)      # TableEvent(kind=EventKind.SHUFFLE_DONE, data={...})
    table.audit.add_sink(lambda entry: ...)  # every frame in/out: entry.line() / entry.to_dict()

    table.identify()           # TableInfo(model, firmware, tile_count, protocol, ...)
    table.status()             # TableStatus(state, tiles_raised, fault, shuffles, rolls, dice...)
    table.shuffle()            # blocks until done (wait=False returns after the ACK)
    table.raise_tiles(); table.lower_tiles(); table.hide_tiles(True)
    table.roll_dice()          # (3, 5), or None where the protocol cannot report dice
    table.set_tile_count(136); table.stop()
    table.state, table.last_status, table.stats, table.transactions
    table.close(); sim.stop()

To miss nothing (not even the first ``connected`` event), subscribe before connecting::

    table = TableDriver(url, "default", ack_timeout=0.3, op_timeout=120, poll_interval=0.5)
    table.on_event(...); table.on_state(...)
    table.start(require=False)   # False: a table not plugged in yet is waited for (offline)

Callbacks run on the driver's dispatcher thread, never on the reader. Failures raise subclasses
of ``TableError`` with a one-line message: ``TableOffline`` (port gone; the driver reconnects
with exponential backoff in the background), ``TableTimeout`` (no reply after every retry the
command allows), ``TableNak`` (refused; ``.reason``), ``TableFault`` (jam, overheat... during a
motion), ``Unsupported`` (the protocol has no such command).

Protocols: ``"default"`` is the documented binary protocol (``docs/table-protocol.md``);
``"smart"`` is the short ``A0 cmd 01 sum`` / ``B0 idx 01 sum`` family of common smart tables.
Layers: ``protocol`` (bytes <-> frames, no I/O), ``messages`` (default protocol payloads),
``plugins`` (operations <-> frames), ``transport`` (pyserial URLs), ``driver``, ``audit``;
simulator side: ``virtual_table`` (mechanics), ``firmware`` (table end of each protocol),
``links`` (pty/TCP), ``faults``, ``simulator``.
"""

from __future__ import annotations

from hardware.audit import AuditEntry, AuditLog
from hardware.driver import TableDriver, Transaction, open_table
from hardware.errors import (
    TableError,
    TableFault,
    TableNak,
    TableOffline,
    TableTimeout,
    Unsupported,
)
from hardware.faults import FaultSpec
from hardware.model import (
    EventKind,
    Fault,
    Op,
    Severity,
    TableEvent,
    TableInfo,
    TableState,
    TableStatus,
)
from hardware.plugins import PROTOCOLS
from hardware.simulator import Simulator, start_simulator
from hardware.virtual_table import Timings

__all__ = [
    "PROTOCOLS", "AuditEntry", "AuditLog", "EventKind", "Fault", "FaultSpec", "Op", "Severity",
    "Simulator", "TableDriver", "TableError", "TableEvent", "TableFault", "TableInfo", "TableNak",
    "TableOffline", "TableState", "TableStatus", "TableTimeout", "Timings", "Transaction",
    "Unsupported", "open_table", "start_simulator",
]
