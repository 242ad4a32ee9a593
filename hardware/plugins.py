"""Protocol plug-ins: how each host operation becomes a frame and how replies and events read.

A plug-in is stateless apart from its framer. The driver asks it three things: the request
frame for an operation, whether an incoming frame answers a pending request, and what an
unsolicited frame means (a partial ``TableStatus`` to merge). Retrying is decided here too:
idempotent operations always may be retried; the rest only when the frame carries a sequence
number that the table promises to deduplicate (the default protocol does, short frames do not).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from enum import IntEnum
from typing import Any, ClassVar

from hardware import messages as m
from hardware.errors import TableNak, Unsupported
from hardware.model import IDEMPOTENT_OPS, Fault, Op, Severity, TableInfo, TableState
from hardware.protocol import DefaultFramer, Frame, Framer, ShortFramer


class TableProtocol(ABC):
    name: ClassVar[str]
    #: Frames carry a sequence number and the table answers a repeated one from its cache.
    sequenced: ClassVar[bool]
    #: The table answers STATUS and sends events, so motions can be awaited to completion.
    reports_status: ClassVar[bool]
    ops: ClassVar[frozenset[Op]]

    def __init__(self) -> None:
        self.framer: Framer = self.make_framer()

    @abstractmethod
    def make_framer(self) -> Framer: ...

    def can_retry(self, op: Op) -> bool:
        return op in IDEMPOTENT_OPS or self.sequenced

    def check(self, op: Op) -> None:
        if op not in self.ops:
            raise Unsupported(f"protocol '{self.name}' has no '{op.value}' command")

    @abstractmethod
    def request(self, op: Op, arg: Any, seq: int) -> Frame: ...

    @abstractmethod
    def is_reply(self, request: Frame, frame: Frame) -> bool: ...

    @abstractmethod
    def parse_reply(self, op: Op, frame: Frame) -> Any:
        """The operation's result; raises ``TableNak`` for a refusal."""

    def parse_event(self, frame: Frame) -> dict[str, Any] | None:
        """Fields of ``TableStatus`` this unsolicited frame reports, or None if it is not one."""
        return None

    def is_resend_request(self, frame: Frame) -> bool:
        """The table says it discarded a garbled frame and asks for the last one again."""
        return False

    @abstractmethod
    def describe(self, frame: Frame) -> str:
        """A few words for the audit log: what this frame says."""


class DefaultProtocol(TableProtocol):
    """The documented binary protocol (``docs/table-protocol.md``)."""

    name = "default"
    sequenced = True
    reports_status = True
    ops = frozenset({Op.IDENTIFY, Op.STATUS, Op.SHUFFLE, Op.RAISE, Op.LOWER, Op.ROLL_DICE,
                     Op.SET_TILE_COUNT, Op.HIDE_TILES, Op.STOP})
    _CMD: ClassVar[dict[Op, m.Cmd]] = {
            Op.IDENTIFY: m.Cmd.IDENTIFY, Op.STATUS: m.Cmd.STATUS, Op.SHUFFLE: m.Cmd.SHUFFLE,
            Op.RAISE: m.Cmd.RAISE, Op.LOWER: m.Cmd.LOWER, Op.ROLL_DICE: m.Cmd.ROLL_DICE,
            Op.SET_TILE_COUNT: m.Cmd.SET_TILE_COUNT, Op.HIDE_TILES: m.Cmd.HIDE_TILES,
            Op.STOP: m.Cmd.STOP}

    def make_framer(self) -> Framer:
        return DefaultFramer()

    def request(self, op: Op, arg: Any, seq: int) -> Frame:
        self.check(op)
        payload = b""
        if op is Op.SET_TILE_COUNT:
            if not isinstance(arg, int) or not 1 <= arg <= 0xFFFF:
                raise ValueError(f"tile count must be a positive integer, got {arg!r}")
            payload = m.u16(arg)
        elif op is Op.HIDE_TILES:
            payload = bytes([1 if arg is None or arg else 0])
        return Frame(cmd=self._CMD[op], payload=payload, seq=seq & 0xFF)

    def is_reply(self, request: Frame, frame: Frame) -> bool:
        return (frame.cmd in (m.ACK, m.NAK) and frame.seq == request.seq
                and frame.payload[:1] == bytes([request.cmd]))

    def is_resend_request(self, frame: Frame) -> bool:
        return frame.cmd == m.NAK and frame.payload[:1] == b"\x00"

    def parse_reply(self, op: Op, frame: Frame) -> Any:
        data = frame.payload[1:]
        if frame.cmd == m.NAK:
            reason = m.error_name(data[0]) if data else "unspecified"
            raise TableNak(f"table refused {op.value}: {reason.replace('_', ' ')}", reason)
        if op is Op.IDENTIFY:
            return m.decode_identity(data)
        if op is Op.STATUS:
            return m.decode_status(data)
        if op in (Op.SHUFFLE, Op.ROLL_DICE):
            return m.read_u16(data)
        return None

    def parse_event(self, frame: Frame) -> dict[str, Any] | None:
        data = frame.payload
        try:
            if frame.cmd == m.Evt.STATUS_CHANGED:
                st = m.decode_status(data)
                return {k: getattr(st, k) for k in st.__dataclass_fields__}
            if frame.cmd == m.Evt.SHUFFLE_DONE:
                return {"shuffles": m.read_u16(data)}
            if frame.cmd == m.Evt.DICE_RESULT:
                if len(data) != 4 or not (1 <= data[2] <= 6 and 1 <= data[3] <= 6):
                    raise ValueError(f"bad dice event {data.hex(' ')}")
                return {"rolls": m.read_u16(data), "dice": (data[2], data[3])}
            if frame.cmd == m.Evt.TILES_READY:
                return {"tiles_raised": True}
            if frame.cmd == m.Evt.FAULT:
                if len(data) != 2:
                    raise ValueError(f"bad fault event {data.hex(' ')}")
                fault, sev = Fault(data[0]), Severity(data[1])
                patch: dict[str, Any] = {"fault": fault, "severity": sev}
                if sev is Severity.ERROR and fault is not Fault.NONE:
                    patch["state"] = TableState.ERROR
                return patch
        except ValueError:
            return {}
        return None

    def describe(self, frame: Frame) -> str:
        seq = f"seq={frame.seq}"
        if frame.cmd in (m.ACK, m.NAK) and frame.payload:
            what = _name(m.Cmd, frame.payload[0])
            if frame.cmd == m.NAK:
                reason = m.error_name(frame.payload[1]) if len(frame.payload) > 1 else "?"
                return f"NAK {what} {reason} {seq}"
            return f"ACK {what} {seq}"
        if frame.cmd >= 0xC0:
            return f"EVENT {_name(m.Evt, frame.cmd)} {seq}"
        return f"CMD {_name(m.Cmd, frame.cmd)} {seq}"


class SmartProtocol(TableProtocol):
    """Short frames of common smart tables: ``A0 cmd 01 sum`` and ``B0 idx 01 sum``.

    The table echoes each frame as its acknowledgement. There is no sequence number, no
    identify, no status and no events, so only idempotent commands are retried and the driver
    never claims a motion finished; dice values must come from the camera.
    """

    name = "smart"
    sequenced = False
    reports_status = False
    ops = frozenset({Op.RAISE, Op.LOWER, Op.HIDE_TILES, Op.ROLL_DICE, Op.SET_TILE_COUNT,
                     Op.POWER, Op.BUZZER, Op.MODE})
    A0, B0 = 0xA0, 0xB0
    POWER, HIDE, SHOW, DICE_SEAT1, PANEL_UP, PANEL_DOWN, BUZZER, MODE0 = (
        0x01, 0x02, 0x03, 0x11, 0x21, 0x22, 0x31, 0x40)
    #: ``B0 idx``: tile-count steps selectable on the table's panel.
    TILE_COUNT_STEPS = (108, 112, 116, 120, 136, 144, 152)

    def make_framer(self) -> Framer:
        return ShortFramer()

    def request(self, op: Op, arg: Any, seq: int) -> Frame:
        self.check(op)
        if op is Op.SET_TILE_COUNT:
            if arg not in self.TILE_COUNT_STEPS:
                steps = ", ".join(map(str, self.TILE_COUNT_STEPS))
                raise ValueError(f"tile count {arg!r} is not a step of this table ({steps})")
            return Frame(cmd=self.TILE_COUNT_STEPS.index(arg), family=self.B0)
        if op is Op.ROLL_DICE:
            seat = 1 if arg is None else arg
            if seat not in (1, 2, 3, 4):
                raise ValueError(f"dice seat must be 1..4 (East, South, West, North), got {arg!r}")
            return Frame(cmd=self.DICE_SEAT1 + seat - 1, family=self.A0)
        if op is Op.MODE:
            if not isinstance(arg, int) or not 0 <= arg <= 15:
                raise ValueError(f"mode must be 0..15, got {arg!r}")
            return Frame(cmd=self.MODE0 + arg, family=self.A0)
        cmd = {Op.RAISE: self.PANEL_UP, Op.LOWER: self.PANEL_DOWN, Op.POWER: self.POWER,
               Op.BUZZER: self.BUZZER,
               Op.HIDE_TILES: self.SHOW if arg is False else self.HIDE}[op]
        return Frame(cmd=cmd, family=self.A0)

    def is_reply(self, request: Frame, frame: Frame) -> bool:
        return frame == request

    def parse_reply(self, op: Op, frame: Frame) -> Any:
        return None

    def describe(self, frame: Frame) -> str:
        if frame.family == self.B0:
            steps = self.TILE_COUNT_STEPS
            count = steps[frame.cmd] if frame.cmd < len(steps) else "?"
            return f"B0 tile count step {frame.cmd} ({count})"
        names = {self.POWER: "power", self.HIDE: "hide tiles", self.SHOW: "show tiles",
                 self.PANEL_UP: "panel up", self.PANEL_DOWN: "panel down",
                 self.BUZZER: "buzzer"}
        if self.DICE_SEAT1 <= frame.cmd < self.DICE_SEAT1 + 4:
            return f"A0 dice seat {frame.cmd - self.DICE_SEAT1 + 1}"
        if self.MODE0 <= frame.cmd < self.MODE0 + 16:
            return f"A0 mode {frame.cmd - self.MODE0}"
        return f"A0 {names.get(frame.cmd, f'0x{frame.cmd:02X}')}"

    def identity(self) -> TableInfo:
        return TableInfo(model="smart table (short frames)", firmware="unknown", tile_count=0,
                         protocol=self.name, protocol_version=0)


def _name(kind: type[IntEnum], code: int) -> str:
    try:
        return kind(code).name.lower()
    except ValueError:
        return f"0x{code:02X}"


PROTOCOLS: dict[str, type[TableProtocol]] = {"default": DefaultProtocol, "smart": SmartProtocol}


def get_protocol(name: str) -> TableProtocol:
    try:
        return PROTOCOLS[name]()
    except KeyError:
        known = ", ".join(sorted(PROTOCOLS))
        raise ValueError(f"unknown table protocol '{name}' (known: {known})") from None
