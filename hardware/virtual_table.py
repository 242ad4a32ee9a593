"""The simulated table's mechanics, protocol-free: state, motions with durations, dice, faults.

Time is passed in (``now``, seconds on any monotonic clock) so the mechanics are deterministic
under test. Durations are realistic at ``speed=1`` and divided by ``speed``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from hardware.messages import ErrorCode
from hardware.model import Fault, Op, Severity, TableState, TableStatus


@dataclass(frozen=True)
class Timings:
    """Seconds each motion takes on a typical table at ``speed=1``."""

    shuffle: float = 12.0
    raise_tiles: float = 4.0
    lower_tiles: float = 3.0
    dice: float = 1.5
    hide: float = 1.0


class Refused(Exception):
    """The firmware refuses a command with a protocol error code."""

    def __init__(self, code: ErrorCode) -> None:
        super().__init__(code.name)
        self.code = code


#: Events the mechanics produce; firmware encodes them for its wire format.
Event = tuple[str, dict[str, Any]]

TILE_COUNTS = (108, 112, 116, 120, 136, 144, 152)


class VirtualTable:
    def __init__(self, *, speed: float = 1.0, seed: int | None = None, jam: float = 0.0,
                 tile_count: int = 144, timings: Timings | None = None,
                 model: str = "mjtable virtual table", firmware: str = "sim-1.0") -> None:
        if speed <= 0:
            raise ValueError(f"speed must be positive, got {speed}")
        if tile_count not in TILE_COUNTS:
            raise ValueError(f"tile count {tile_count} is not one of {TILE_COUNTS}")
        self.speed = speed
        self.timings = timings or Timings()
        self.model, self.firmware = model, firmware
        self.jam = jam
        self._dice_rng = random.Random(seed)
        self._jam_rng = random.Random(None if seed is None else seed + 1)
        self.status = TableStatus(state=TableState.IDLE, tile_count=tile_count)
        self._motion: tuple[str, float] | None = None  # (kind, finishes at)
        self.powered = True
        self.mode = 0
        self.buzzes = 0
        self.executed: list[tuple[int | None, Op]] = []  # (sequence number, op) per execution

    # -- commands ---------------------------------------------------------------------------
    def execute(self, op: Op, arg: Any, now: float,
                seq: int | None = None) -> tuple[Any, list[Event]]:
        """Run one command; returns (result, events). Raises ``Refused``."""
        result, events = self._execute(op, arg, now)
        self.executed.append((seq, op))
        return result, events

    def _execute(self, op: Op, arg: Any, now: float) -> tuple[Any, list[Event]]:
        st = self.status
        if op is Op.IDENTIFY:
            return (self.model, self.firmware, st.tile_count), []
        if op is Op.STATUS:
            return st, []
        if op is Op.STOP:
            self._motion = None
            fault = Fault.LID_OPEN if st.lid_open else Fault.NONE
            self.status = replace(st, state=TableState.IDLE, fault=fault,
                                  severity=Severity.WARNING if st.lid_open else Severity.INFO)
            return None, [self._status_event()]
        if op is Op.POWER:
            self.powered = not self.powered
            return None, []
        if op is Op.BUZZER:
            self.buzzes += 1
            return None, []
        if op is Op.MODE:
            self.mode = int(arg)
            return None, []
        # Idempotent commands already done (or under way) succeed without moving anything.
        moving = self._motion[0] if self._motion else None
        if op is Op.RAISE and (moving == "raise" or (st.tiles_raised and moving is None)):
            return None, []
        if op is Op.LOWER and (moving == "lower" or (not st.tiles_raised and moving is None)):
            return None, []
        if op is Op.HIDE_TILES and (moving == ("hide" if arg else "show")
                                    or (st.tiles_hidden == bool(arg) and moving is None)):
            return None, []
        if op is Op.SET_TILE_COUNT and arg == st.tile_count:
            return None, []
        if st.state is TableState.ERROR:
            raise Refused(ErrorCode.FAULT)
        if self._motion is not None:
            raise Refused(ErrorCode.BUSY)
        if op is Op.SET_TILE_COUNT:
            if arg not in TILE_COUNTS:
                raise Refused(ErrorCode.UNSUPPORTED_TILE_COUNT)
            self.status = replace(st, tile_count=int(arg))
            return None, [self._status_event()]
        if st.lid_open and op in (Op.SHUFFLE, Op.RAISE, Op.LOWER):
            raise Refused(ErrorCode.LID_OPEN)
        t = self.timings
        if op is Op.SHUFFLE:
            if st.tiles_raised:
                raise Refused(ErrorCode.TILES_RAISED)
            duration = t.shuffle / self.speed
            if self.jam and self._jam_rng.random() < self.jam:
                self._motion = ("jam", now + duration * self._jam_rng.uniform(0.2, 0.8))
            else:
                self._motion = ("shuffle", now + duration)
            return self._start(TableState.SHUFFLING, st.shuffles + 1)
        if op is Op.RAISE:
            self._motion = ("raise", now + t.raise_tiles / self.speed)
            return self._start(TableState.RAISING, None)
        if op is Op.LOWER:
            self._motion = ("lower", now + t.lower_tiles / self.speed)
            return self._start(TableState.BUSY, None)
        if op is Op.ROLL_DICE:
            self._motion = ("dice", now + t.dice / self.speed)
            return self._start(TableState.BUSY, (st.rolls + 1) & 0xFFFF)
        if op is Op.HIDE_TILES:
            self._motion = ("hide" if arg else "show", now + t.hide / self.speed)
            return self._start(TableState.BUSY, None)
        raise Refused(ErrorCode.UNKNOWN_COMMAND)

    def _start(self, state: TableState, result: Any) -> tuple[Any, list[Event]]:
        self.status = replace(self.status, state=state)
        return result, [self._status_event()]

    # -- time -------------------------------------------------------------------------------
    def next_deadline(self) -> float | None:
        return self._motion[1] if self._motion else None

    def tick(self, now: float) -> list[Event]:
        """Finish the motion whose time has come; returns the events it raises."""
        if self._motion is None or now < self._motion[1]:
            return []
        kind, _ = self._motion
        self._motion = None
        st = replace(self.status, state=TableState.IDLE)
        events: list[Event] = []
        if kind == "shuffle":
            st = replace(st, shuffles=(st.shuffles + 1) & 0xFFFF)
            events.append(("shuffle_done", {"shuffles": st.shuffles}))
        elif kind == "jam":
            st = replace(st, state=TableState.ERROR, fault=Fault.JAM, severity=Severity.ERROR)
            events.append(("fault", {"fault": Fault.JAM, "severity": Severity.ERROR}))
        elif kind == "raise":
            st = replace(st, tiles_raised=True)
            events.append(("tiles_ready", {"tile_count": st.tile_count}))
        elif kind == "lower":
            st = replace(st, tiles_raised=False)
        elif kind == "dice":
            dice = (self._dice_rng.randint(1, 6), self._dice_rng.randint(1, 6))
            st = replace(st, rolls=(st.rolls + 1) & 0xFFFF, dice=dice)
            events.append(("dice", {"rolls": st.rolls, "dice": dice}))
        elif kind in ("hide", "show"):
            st = replace(st, tiles_hidden=kind == "hide")
        self.status = st
        return [*events, self._status_event()]

    def inject_fault(self, fault: Fault, severity: Severity = Severity.ERROR) -> list[Event]:
        """A fault the table raises by itself (overheat, lid opened, wrong tile count...)."""
        st = replace(self.status, fault=fault, severity=severity,
                     lid_open=self.status.lid_open or fault is Fault.LID_OPEN)
        if severity is Severity.ERROR:
            self._motion = None
            st = replace(st, state=TableState.ERROR)
        self.status = st
        return [("fault", {"fault": fault, "severity": severity}), self._status_event()]

    def close_lid(self) -> list[Event]:
        self.status = replace(self.status, lid_open=False)
        return [self._status_event()]

    def _status_event(self) -> Event:
        return ("status", {"status": self.status})
