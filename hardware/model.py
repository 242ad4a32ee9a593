"""Protocol-independent vocabulary: operations, table state, identity, status, events.

Both protocol plug-ins, the driver, the simulator and the dashboard speak these types, so a
second wire format changes nothing above ``plugins.py``.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from enum import Enum, IntEnum, StrEnum
from typing import Any


class Op(Enum):
    """What the host can ask a table to do; a protocol supports a subset."""

    IDENTIFY = "identify"
    STATUS = "status"
    SHUFFLE = "shuffle"
    RAISE = "raise"
    LOWER = "lower"
    ROLL_DICE = "dice"
    SET_TILE_COUNT = "count"
    HIDE_TILES = "hide"
    STOP = "stop"
    POWER = "power"
    BUZZER = "buzzer"
    MODE = "mode"


#: Operations that leave the table in the same state however often they run; the driver retries
#: only these, unless the protocol's frames carry a sequence number the table deduplicates.
IDEMPOTENT_OPS = frozenset({Op.IDENTIFY, Op.STATUS, Op.RAISE, Op.LOWER, Op.SET_TILE_COUNT,
                            Op.HIDE_TILES, Op.STOP, Op.MODE})


class TableState(StrEnum):
    """The driver's view of the table; ``OFFLINE`` is the only state the table never reports."""

    OFFLINE = "offline"
    IDLE = "idle"
    SHUFFLING = "shuffling"
    RAISING = "raising"
    BUSY = "busy"
    ERROR = "error"


#: Wire codes of the states a table reports (default protocol STATUS byte 0).
STATE_CODES: dict[int, TableState] = {0: TableState.IDLE, 1: TableState.SHUFFLING,
                                      2: TableState.RAISING, 3: TableState.BUSY,
                                      4: TableState.ERROR}
STATE_TO_CODE = {v: k for k, v in STATE_CODES.items()}


class Fault(IntEnum):
    NONE = 0
    JAM = 1
    OVERHEAT = 2
    WRONG_TILE_COUNT = 3
    LID_OPEN = 4


class Severity(IntEnum):
    """``ERROR`` stops the table until STOP clears it; lower severities are advisory."""

    INFO = 0
    WARNING = 1
    ERROR = 2


@dataclass(frozen=True)
class TableInfo:
    model: str
    firmware: str
    tile_count: int
    protocol: str
    protocol_version: int = 1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class TableStatus:
    """One STATUS reply. The counters only grow, so a missed event is recovered by comparing."""

    state: TableState
    tiles_raised: bool = False
    tiles_hidden: bool = False
    lid_open: bool = False
    tile_count: int = 0
    fault: Fault = Fault.NONE
    severity: Severity = Severity.INFO
    shuffles: int = 0
    rolls: int = 0
    dice: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["state"] = self.state.value
        d["fault"] = self.fault.name.lower()
        d["severity"] = self.severity.name.lower()
        d["dice"] = list(self.dice) if self.dice else None
        return d


class EventKind(StrEnum):
    """Events the driver delivers; each is emitted once per change, however many frames said so."""

    CONNECTED = "connected"
    DISCONNECTED = "disconnected"
    SHUFFLE_DONE = "shuffle_done"
    DICE = "dice"
    TILES_READY = "tiles_ready"
    TILES_LOWERED = "tiles_lowered"
    FAULT = "fault"
    FAULT_CLEARED = "fault_cleared"


@dataclass(frozen=True)
class TableEvent:
    kind: EventKind
    data: dict[str, Any] = field(default_factory=dict)
    at: float = field(default_factory=time.time)

    def to_dict(self) -> dict[str, Any]:
        return {"event": self.kind.value, "at": self.at, **self.data}

    def describe(self) -> str:
        extra = " ".join(f"{k}={v}" for k, v in self.data.items())
        return f"{self.kind.value} {extra}".strip()
