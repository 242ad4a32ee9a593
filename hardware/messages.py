"""Default protocol vocabulary: command, reply and event codes and their payload layouts.

Everything here is documented byte for byte in ``docs/table-protocol.md``; the host plug-in
(``plugins.DefaultProtocol``) and the simulated firmware (``simulator``) share these codecs, so
the two sides cannot drift apart.
"""

from __future__ import annotations

import struct
from enum import IntEnum
from typing import TypeVar

from hardware.model import STATE_CODES, STATE_TO_CODE, Fault, Severity, TableInfo, TableStatus

PROTOCOL_VERSION = 1
E = TypeVar("E", bound=IntEnum)


class Cmd(IntEnum):
    IDENTIFY = 0x01
    STATUS = 0x02
    SHUFFLE = 0x10
    RAISE = 0x11
    LOWER = 0x12
    ROLL_DICE = 0x13
    SET_TILE_COUNT = 0x14
    HIDE_TILES = 0x15
    STOP = 0x16


ACK = 0x80
NAK = 0x81


class Evt(IntEnum):
    STATUS_CHANGED = 0xC0
    SHUFFLE_DONE = 0xC1
    DICE_RESULT = 0xC2
    TILES_READY = 0xC3
    FAULT = 0xC4


class ErrorCode(IntEnum):
    UNKNOWN_COMMAND = 0x01
    BAD_PAYLOAD = 0x02
    BUSY = 0x03
    FAULT = 0x04
    UNSUPPORTED_TILE_COUNT = 0x05
    LID_OPEN = 0x06
    TILES_RAISED = 0x07
    BAD_FRAME = 0x08  # NAK with command byte 0 and seq 0: "I discarded garbage, resend"


def error_name(code: int) -> str:
    try:
        return ErrorCode(code).name.lower()
    except ValueError:
        return f"error_0x{code:02x}"


_STATUS = struct.Struct(">BBHBBHHBB")
STATUS_SIZE = _STATUS.size


def encode_status(st: TableStatus) -> bytes:
    flags = (st.tiles_raised << 0) | (st.tiles_hidden << 1) | (st.lid_open << 2)
    d1, d2 = st.dice or (0, 0)
    return _STATUS.pack(STATE_TO_CODE[st.state], flags, st.tile_count, int(st.fault),
                        int(st.severity), st.shuffles & 0xFFFF, st.rolls & 0xFFFF, d1, d2)


def decode_status(data: bytes) -> TableStatus:
    if len(data) != STATUS_SIZE:
        raise ValueError(f"status block must be {STATUS_SIZE} bytes, got {len(data)}")
    code, flags, count, fault, sev, shuffles, rolls, d1, d2 = _STATUS.unpack(data)
    if code not in STATE_CODES:
        raise ValueError(f"unknown table state code {code}")
    return TableStatus(
        state=STATE_CODES[code], tiles_raised=bool(flags & 1), tiles_hidden=bool(flags & 2),
        lid_open=bool(flags & 4), tile_count=count, fault=_enum(Fault, fault, "fault"),
        severity=_enum(Severity, sev, "severity"), shuffles=shuffles, rolls=rolls,
        dice=(d1, d2) if d1 and d2 else None)


def _enum(kind: type[E], value: int, what: str) -> E:
    try:
        return kind(value)
    except ValueError:
        raise ValueError(f"unknown {what} code {value}") from None


def encode_identity(model: str, firmware: str, tile_count: int) -> bytes:
    m, f = model.encode()[:24], firmware.encode()[:24]
    return (bytes([PROTOCOL_VERSION]) + struct.pack(">H", tile_count)
            + bytes([len(m)]) + m + bytes([len(f)]) + f)


def decode_identity(data: bytes) -> TableInfo:
    try:
        version = data[0]
        (count,) = struct.unpack(">H", data[1:3])
        mlen = data[3]
        model = data[4:4 + mlen].decode("utf-8", "replace")
        flen = data[4 + mlen]
        firmware = data[5 + mlen:5 + mlen + flen].decode("utf-8", "replace")
    except (IndexError, struct.error):
        raise ValueError(f"identity block too short: {data.hex(' ')}") from None
    return TableInfo(model=model, firmware=firmware, tile_count=count, protocol="default",
                     protocol_version=version)


def u16(value: int) -> bytes:
    return struct.pack(">H", value & 0xFFFF)


def read_u16(data: bytes, offset: int = 0) -> int:
    if len(data) < offset + 2:
        raise ValueError(f"expected a 16-bit value at byte {offset} of {data.hex(' ')}")
    return int.from_bytes(data[offset:offset + 2], "big")
