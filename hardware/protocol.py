"""Wire formats: bytes to frames and back, with no I/O (pymodbus framer style).

A ``Framer`` decodes one frame from the front of a buffer and says how many bytes it used; the
``StreamDecoder`` keeps the rest, resynchronizes after garbage and counts every drop. Bad CRC,
bad end byte, oversized length and stalled (truncated) frames cost one byte each and decoding
resumes at the next start byte, so one corrupt byte never loses the frame after it.
"""

from __future__ import annotations

import binascii
from abc import ABC, abstractmethod
from collections import Counter
from dataclasses import dataclass


@dataclass(frozen=True)
class Frame:
    """A decoded frame. ``family`` is the start byte (0xAA default, 0xA0/0xB0 short frames)."""

    cmd: int
    payload: bytes = b""
    seq: int | None = None
    family: int = 0xAA


@dataclass(frozen=True)
class Decoded:
    """One result of decoding: a frame, or ``raw`` bytes dropped for ``error``."""

    raw: bytes
    frame: Frame | None = None
    error: str | None = None


def crc16(data: bytes | bytearray) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection); check("123456789")=0x29B1."""
    return binascii.crc_hqx(bytes(data), 0xFFFF)


class Framer(ABC):
    """One wire format. ``decode`` returns (bytes used, frame or None, error or None)."""

    name: str
    max_frame: int

    @abstractmethod
    def encode(self, frame: Frame) -> bytes: ...

    @abstractmethod
    def decode(self, buf: bytes | bytearray) -> tuple[int, Frame | None, str | None]:
        """(0, None, None) means "need more bytes"; (n, None, err) drops n bytes."""

    def is_start(self, byte: int) -> bool:
        return True


class DefaultFramer(Framer):
    """``AA LEN SEQ CMD PAYLOAD[LEN] CRC16_HI CRC16_LO 55``; CRC over LEN..PAYLOAD."""

    name = "default"
    START = 0xAA
    END = 0x55
    MAX_PAYLOAD = 64
    OVERHEAD = 7
    max_frame = MAX_PAYLOAD + OVERHEAD

    def encode(self, frame: Frame) -> bytes:
        if len(frame.payload) > self.MAX_PAYLOAD:
            raise ValueError(f"payload of {len(frame.payload)} bytes exceeds {self.MAX_PAYLOAD}")
        if frame.seq is None or not 0 <= frame.seq <= 255:
            raise ValueError(f"default frames need a sequence number 0..255, got {frame.seq}")
        if not 0 <= frame.cmd <= 255:
            raise ValueError(f"command byte {frame.cmd} out of range")
        body = bytes([len(frame.payload), frame.seq, frame.cmd]) + frame.payload
        crc = crc16(body)
        return bytes([self.START]) + body + bytes([crc >> 8, crc & 0xFF, self.END])

    def is_start(self, byte: int) -> bool:
        return byte == self.START

    def decode(self, buf: bytes | bytearray) -> tuple[int, Frame | None, str | None]:
        if not buf:
            return 0, None, None
        if buf[0] != self.START:
            nxt = buf.find(self.START)
            return (len(buf) if nxt < 0 else nxt), None, "junk"
        if len(buf) < 2:
            return 0, None, None
        length = buf[1]
        if length > self.MAX_PAYLOAD:
            return 1, None, "oversized"
        total = length + self.OVERHEAD
        if len(buf) < total:
            return 0, None, None
        if buf[total - 1] != self.END:
            return 1, None, "bad_end"
        body = bytes(buf[1:4 + length])
        crc = (buf[4 + length] << 8) | buf[5 + length]
        if crc16(body) != crc:
            return 1, None, "bad_crc"
        return total, Frame(cmd=buf[3], payload=body[3:], seq=buf[2]), None


class ShortFramer(Framer):
    """Smart-table short frames: ``A0 cmd 01 sum`` and ``B0 idx 01 sum``, sum = low byte of
    the first three bytes. No sequence number: the table echoes the frame as its reply."""

    name = "short"
    FAMILIES = (0xA0, 0xB0)
    MARK = 0x01
    max_frame = 4

    @staticmethod
    def checksum(family: int, cmd: int, mark: int) -> int:
        return (family + cmd + mark) & 0xFF

    def encode(self, frame: Frame) -> bytes:
        if frame.family not in self.FAMILIES or not 0 <= frame.cmd <= 255:
            raise ValueError(f"short frame needs family A0/B0 and a byte command, got {frame}")
        return bytes([frame.family, frame.cmd, self.MARK,
                      self.checksum(frame.family, frame.cmd, self.MARK)])

    def is_start(self, byte: int) -> bool:
        return byte in self.FAMILIES

    def decode(self, buf: bytes | bytearray) -> tuple[int, Frame | None, str | None]:
        if not buf:
            return 0, None, None
        if buf[0] not in self.FAMILIES:
            for i, b in enumerate(buf):
                if b in self.FAMILIES:
                    return i, None, "junk"
            return len(buf), None, "junk"
        if len(buf) < 4:
            return 0, None, None
        if buf[2] != self.MARK:
            return 1, None, "bad_mark"
        if self.checksum(buf[0], buf[1], buf[2]) != buf[3]:
            return 1, None, "bad_sum"
        return 4, Frame(cmd=buf[1], family=buf[0]), None


FRAMERS: dict[str, type[Framer]] = {"default": DefaultFramer, "short": ShortFramer}


class StreamDecoder:
    """Buffers a byte stream and yields frames and drops, counting each drop reason.

    ``expire()`` is for the caller's inter-frame gap timer: a partial frame that stalls (its
    tail was lost) is dropped one byte at a time so the frames behind it still decode.
    """

    def __init__(self, framer: Framer) -> None:
        self.framer = framer
        self.buffer = bytearray()
        self.counters: Counter[str] = Counter()

    @property
    def pending(self) -> int:
        return len(self.buffer)

    def feed(self, data: bytes) -> list[Decoded]:
        self.buffer += data
        return self._drain()

    def expire(self) -> list[Decoded]:
        """Drop the stalled partial frame's first byte, then decode what follows."""
        if not self.buffer:
            return []
        out = [self._drop(1, "truncated")]
        return out + self._drain()

    def _drop(self, n: int, reason: str) -> Decoded:
        raw = bytes(self.buffer[:n])
        del self.buffer[:n]
        self.counters[reason] += 1
        self.counters["dropped_bytes"] += n
        return Decoded(raw=raw, error=reason)

    def _drain(self) -> list[Decoded]:
        out: list[Decoded] = []
        while self.buffer:
            used, frame, error = self.framer.decode(self.buffer)
            if used == 0:
                break
            if frame is not None:
                out.append(Decoded(raw=bytes(self.buffer[:used]), frame=frame))
                del self.buffer[:used]
                self.counters["frames"] += 1
                continue
            dropped = self._drop(used, error or "junk")
            # One audit record per run of drops with the same reason, not one per byte.
            if out and out[-1].frame is None and out[-1].error == dropped.error:
                out[-1] = Decoded(raw=out[-1].raw + dropped.raw, error=dropped.error)
            else:
                out.append(dropped)
        return out
