"""Simulated table firmware: turns received frames into ``VirtualTable`` commands and answers.

``DefaultFirmware`` implements the table side of ``docs/table-protocol.md``, including the
retry cache: a request identical to one of the last 16 (same sequence number, command and
payload) is answered with the cached reply and NOT executed again. ``SmartFirmware`` echoes
short frames. Both are what a real adapter board would have to do.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from typing import Any

from hardware import messages as m
from hardware.model import Op
from hardware.plugins import DefaultProtocol, SmartProtocol
from hardware.protocol import DefaultFramer, Frame, Framer, ShortFramer
from hardware.virtual_table import Event, Refused, VirtualTable

MOTIONS = frozenset({Op.SHUFFLE, Op.RAISE, Op.LOWER, Op.ROLL_DICE, Op.HIDE_TILES})
_OPS = {int(cmd): op for op, cmd in DefaultProtocol._CMD.items()}


class Firmware:
    framer: Framer

    def __init__(self, table: VirtualTable) -> None:
        self.table = table
        self.replayed = 0

    def handle(self, frame: Frame, now: float) -> list[bytes]:
        """Wire bytes to send back for one received frame (replies and resulting events)."""
        raise NotImplementedError

    def encode_events(self, events: list[Event]) -> list[bytes]:
        return []

    def garbled(self) -> list[bytes]:
        return []


class DefaultFirmware(Firmware):
    CACHE = 16

    def __init__(self, table: VirtualTable) -> None:
        super().__init__(table)
        self.framer = DefaultFramer()
        self._cache: OrderedDict[tuple[int, int, bytes], bytes] = OrderedDict()
        self._event_seq = 0

    def handle(self, frame: Frame, now: float) -> list[bytes]:
        if frame.cmd >= 0x80:
            return []  # replies and events travel table -> host only; ignore echoes
        assert frame.seq is not None
        key = (frame.seq, frame.cmd, frame.payload)
        if key in self._cache:
            self.replayed += 1
            return [self._cache[key]]
        if frame.cmd == m.Cmd.IDENTIFY:
            self._cache.clear()  # a new host session: forget the old retry cache
        events: list[Event] = []
        try:
            op, arg = self._decode(frame)
            result, events = self.table.execute(op, arg, now, seq=frame.seq)
            reply = self._ack(frame, op, result)
            if op in MOTIONS and not events:
                # Even a motion with nothing to do reports the status after its ACK, so the
                # host learns at once that it is finished.
                events = [("status", {"status": self.table.status})]
        except Refused as exc:
            reply = Frame(cmd=m.NAK, payload=bytes([frame.cmd, exc.code]), seq=frame.seq)
        wire = self.framer.encode(reply)
        self._cache[key] = wire
        while len(self._cache) > self.CACHE:
            self._cache.popitem(last=False)
        return [wire, *self.encode_events(events)]

    def garbled(self) -> list[bytes]:
        """The parser discarded bytes: ask the host to resend (NAK BAD_FRAME, seq 0)."""
        nak = Frame(cmd=m.NAK, payload=bytes([0, m.ErrorCode.BAD_FRAME]), seq=0)
        return [self.framer.encode(nak)]

    def _decode(self, frame: Frame) -> tuple[Op, Any]:
        op = _OPS.get(frame.cmd)
        if op is None:
            raise Refused(m.ErrorCode.UNKNOWN_COMMAND)
        if op is Op.SET_TILE_COUNT:
            if len(frame.payload) != 2:
                raise Refused(m.ErrorCode.BAD_PAYLOAD)
            return op, m.read_u16(frame.payload)
        if op is Op.HIDE_TILES:
            if len(frame.payload) != 1 or frame.payload[0] > 1:
                raise Refused(m.ErrorCode.BAD_PAYLOAD)
            return op, bool(frame.payload[0])
        if frame.payload:
            raise Refused(m.ErrorCode.BAD_PAYLOAD)
        return op, None

    def _ack(self, frame: Frame, op: Op, result: Any) -> Frame:
        data = b""
        if op is Op.IDENTIFY:
            model, firmware, count = result
            data = m.encode_identity(model, firmware, count)
        elif op is Op.STATUS:
            data = m.encode_status(result)
        elif op in (Op.SHUFFLE, Op.ROLL_DICE):
            data = m.u16(result)
        return Frame(cmd=m.ACK, payload=bytes([frame.cmd]) + data, seq=frame.seq)

    def encode_events(self, events: list[Event]) -> list[bytes]:
        out = []
        for kind, data in events:
            if kind == "status":
                cmd, payload = m.Evt.STATUS_CHANGED, m.encode_status(data["status"])
            elif kind == "shuffle_done":
                cmd, payload = m.Evt.SHUFFLE_DONE, m.u16(data["shuffles"])
            elif kind == "dice":
                cmd, payload = m.Evt.DICE_RESULT, m.u16(data["rolls"]) + bytes(data["dice"])
            elif kind == "tiles_ready":
                cmd, payload = m.Evt.TILES_READY, m.u16(data["tile_count"])
            elif kind == "fault":
                cmd, payload = m.Evt.FAULT, bytes([data["fault"], data["severity"]])
            else:
                continue
            self._event_seq = (self._event_seq + 1) & 0xFF
            out.append(self.framer.encode(Frame(cmd=cmd, payload=payload, seq=self._event_seq)))
        return out


class SmartFirmware(Firmware):
    """Echoes every valid short frame (that is the acknowledgement), then acts on it."""

    def __init__(self, table: VirtualTable) -> None:
        super().__init__(table)
        self.framer = ShortFramer()

    def handle(self, frame: Frame, now: float) -> list[bytes]:
        sp = SmartProtocol
        op: Op | None = None
        arg: Any = None
        if frame.family == sp.B0:
            if frame.cmd < len(sp.TILE_COUNT_STEPS):
                op, arg = Op.SET_TILE_COUNT, sp.TILE_COUNT_STEPS[frame.cmd]
        elif sp.DICE_SEAT1 <= frame.cmd < sp.DICE_SEAT1 + 4:
            op, arg = Op.ROLL_DICE, frame.cmd - sp.DICE_SEAT1 + 1
        elif sp.MODE0 <= frame.cmd < sp.MODE0 + 16:
            op, arg = Op.MODE, frame.cmd - sp.MODE0
        else:
            op, arg = {sp.POWER: (Op.POWER, None), sp.HIDE: (Op.HIDE_TILES, True),
                       sp.SHOW: (Op.HIDE_TILES, False), sp.PANEL_UP: (Op.RAISE, None),
                       sp.PANEL_DOWN: (Op.LOWER, None), sp.BUZZER: (Op.BUZZER, None)
                       }.get(frame.cmd, (None, None))
        if op is None:
            return []  # unknown command: a real table stays silent
        with contextlib.suppress(Refused):  # no NAK in this family: the echo says "received"
            self.table.execute(op, arg, now)
        return [self.framer.encode(frame)]


FIRMWARES: dict[str, type[Firmware]] = {"default": DefaultFirmware, "smart": SmartFirmware}
