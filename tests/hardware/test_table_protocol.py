"""Framers and the resynchronizing stream decoder: no I/O, so exhaustive and property-based."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.errors import TableError
from hardware.firmware import DefaultFirmware
from hardware.model import Op
from hardware.plugins import DefaultProtocol
from hardware.protocol import DefaultFramer, Frame, ShortFramer, StreamDecoder, crc16
from hardware.virtual_table import VirtualTable

DF = DefaultFramer()
SF = ShortFramer()

frames = st.builds(Frame, cmd=st.integers(0, 255), payload=st.binary(max_size=64),
                   seq=st.integers(0, 255))
short_frames = st.builds(Frame, cmd=st.integers(0, 255), family=st.sampled_from([0xA0, 0xB0]))


def test_crc_is_ccitt_false() -> None:
    assert crc16(b"123456789") == 0x29B1


def test_default_frame_layout_is_the_documented_one() -> None:
    wire = DF.encode(Frame(cmd=0x02, seq=0x05))
    assert wire[:4] == bytes([0xAA, 0x00, 0x05, 0x02]) and wire[-1] == 0x55
    assert int.from_bytes(wire[4:6], "big") == crc16(bytes([0x00, 0x05, 0x02]))
    assert len(DF.encode(Frame(cmd=1, seq=1, payload=b"xyz"))) == 10


def test_encode_rejects_what_the_wire_cannot_carry() -> None:
    with pytest.raises(ValueError, match="exceeds 64"):
        DF.encode(Frame(cmd=1, seq=1, payload=bytes(65)))
    with pytest.raises(ValueError, match="sequence"):
        DF.encode(Frame(cmd=1))
    with pytest.raises(ValueError, match="A0/B0"):
        SF.encode(Frame(cmd=1, family=0xC0))


def test_short_frame_checksum_example() -> None:
    assert SF.encode(Frame(cmd=0x21, family=0xA0)) == bytes([0xA0, 0x21, 0x01, 0xC2])
    assert SF.encode(Frame(cmd=0x04, family=0xB0)) == bytes([0xB0, 0x04, 0x01, 0xB5])


@given(st.lists(frames, max_size=8), st.data())
def test_any_chunking_decodes_the_same_frames(fs: list[Frame], data: st.DataObject) -> None:
    wire = b"".join(DF.encode(f) for f in fs)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=6)))
    dec = StreamDecoder(DF)
    out = []
    for a, b in zip([0, *cuts], [*cuts, len(wire)], strict=True):
        out += dec.feed(wire[a:b])
    assert [d.frame for d in out] == fs
    assert dec.pending == 0 and dec.counters["frames"] == len(fs)


@given(st.binary(max_size=300))
def test_random_bytes_never_crash_and_every_byte_is_accounted_for(noise: bytes) -> None:
    for framer in (DF, SF):
        dec = StreamDecoder(framer)
        items = dec.feed(noise)
        while dec.pending:
            items += dec.expire()
        assert b"".join(i.raw for i in items) == noise
        for i in items:
            assert (i.frame is None) != (i.error is None)
            if i.frame is not None:
                assert framer.encode(i.frame) == i.raw  # only genuine frames come out


@given(frames, st.binary(max_size=40).filter(lambda b: 0xAA not in b), st.binary(max_size=40))
def test_frame_after_garbage_without_start_byte_survives(f: Frame, junk: bytes,
                                                         tail: bytes) -> None:
    dec = StreamDecoder(DF)
    items = dec.feed(junk + DF.encode(f) + tail)
    assert f in [i.frame for i in items]


@given(frames, frames, st.integers(0, 200), st.integers(0, 7))
def test_one_flipped_bit_loses_at_most_that_frame(a: Frame, b: Frame, pos: int, bit: int) -> None:
    first = bytearray(DF.encode(a))
    first[pos % len(first)] ^= 1 << bit
    dec = StreamDecoder(DF)
    items = dec.feed(bytes(first) + DF.encode(b))
    while dec.pending:
        items += dec.expire()
    got = [i.frame for i in items if i.frame is not None]
    assert a not in got or a == b
    assert b in got
    assert sum(i.error is not None for i in items) >= 1


def test_drop_reasons_are_counted() -> None:
    good = DF.encode(Frame(cmd=2, seq=9))
    bad_crc = bytearray(good)
    bad_crc[4] ^= 0xFF
    bad_end = bytearray(good)
    bad_end[-1] = 0x00
    dec = StreamDecoder(DF)
    items = dec.feed(b"\x00\x01" + bytes(bad_crc) + bytes(bad_end) + b"\xaa\xff" + good)
    assert [i.frame for i in items if i.frame] == [Frame(cmd=2, seq=9)]
    for reason in ("junk", "bad_crc", "bad_end", "oversized"):
        assert dec.counters[reason] >= 1, reason


def test_truncated_frame_is_dropped_on_expiry_and_the_next_frame_kept() -> None:
    good = DF.encode(Frame(cmd=2, seq=1))
    dec = StreamDecoder(DF)
    assert dec.feed(DF.encode(Frame(cmd=1, seq=2, payload=b"abcdef"))[:6]) == []
    assert dec.pending == 6
    items = dec.expire()
    assert items[0].error == "truncated" and dec.pending == 0
    assert [i.frame for i in dec.feed(good)] == [Frame(cmd=2, seq=1)]


@given(st.lists(short_frames, max_size=8), st.binary(max_size=20))
def test_short_frames_roundtrip_after_noise(fs: list[Frame], noise: bytes) -> None:
    dec = StreamDecoder(SF)
    items = dec.feed(noise)
    while dec.pending:
        items += dec.expire()
    out = dec.feed(b"".join(SF.encode(f) for f in fs))
    assert [i.frame for i in out] == fs


def test_short_frame_bad_sum_and_mark_are_dropped() -> None:
    dec = StreamDecoder(SF)
    items = dec.feed(bytes.fromhex("A0 21 01 00  A0 21 02 C3  A0 21 01 C2"))
    assert [i.frame for i in items if i.frame] == [Frame(cmd=0x21, family=0xA0)]
    assert dec.counters["bad_sum"] == 1 and dec.counters["bad_mark"] == 1


@given(st.integers(0x80, 0xFF), st.binary(max_size=64), st.sampled_from(list(Op)))
def test_random_replies_and_events_only_raise_named_errors(cmd: int, payload: bytes,
                                                           op: Op) -> None:
    proto = DefaultProtocol()
    frame = Frame(cmd=cmd, payload=payload, seq=1)
    proto.describe(frame)
    patch = proto.parse_event(frame)
    assert patch is None or isinstance(patch, dict)
    with contextlib.suppress(TableError, ValueError):
        proto.parse_reply(op, frame)


@given(st.binary(min_size=1, max_size=200))
def test_firmware_survives_any_bytes(noise: bytes) -> None:
    table = VirtualTable(seed=1)
    fw = DefaultFirmware(table)
    dec = StreamDecoder(fw.framer)
    for item in dec.feed(noise) + dec.expire():
        if item.frame is not None:
            for wire in fw.handle(item.frame, now=0.0):
                assert StreamDecoder(DefaultFramer()).feed(wire)[0].frame is not None
