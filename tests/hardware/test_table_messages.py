"""Default-protocol payloads, the fault spec and the simulated mechanics, without any port."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware import messages as m
from hardware.faults import FaultSpec
from hardware.model import Fault, Op, Severity, TableState, TableStatus
from hardware.plugins import DefaultProtocol, SmartProtocol, get_protocol
from hardware.protocol import Frame
from hardware.virtual_table import Refused, VirtualTable

statuses = st.builds(
    TableStatus, state=st.sampled_from([s for s in TableState if s is not TableState.OFFLINE]),
    tiles_raised=st.booleans(), tiles_hidden=st.booleans(), lid_open=st.booleans(),
    tile_count=st.integers(0, 0xFFFF), fault=st.sampled_from(Fault),
    severity=st.sampled_from(Severity), shuffles=st.integers(0, 0xFFFF),
    rolls=st.integers(0, 0xFFFF),
    dice=st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))


@given(statuses)
def test_status_block_roundtrip(s: TableStatus) -> None:
    assert m.decode_status(m.encode_status(s)) == s


def test_status_block_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="12 bytes"):
        m.decode_status(b"\x00")
    with pytest.raises(ValueError, match="state code 9"):
        m.decode_status(bytes([9]) + bytes(11))


def test_identity_roundtrip_and_truncation() -> None:
    info = m.decode_identity(m.encode_identity("T-900", "2.1", 136))
    assert (info.model, info.firmware, info.tile_count, info.protocol_version) == \
        ("T-900", "2.1", 136, 1)
    with pytest.raises(ValueError, match="too short"):
        m.decode_identity(b"\x01\x00")


def test_fault_spec_parses_every_fault() -> None:
    f = FaultSpec.parse("drop=1%, corrupt=0.02,duplicate=0.5,delay=0.1@0.3,jam=1,unplug=2:0.5")
    assert (f.drop, f.corrupt, f.duplicate, f.delay, f.delay_s, f.jam, f.unplug_at,
            f.unplug_for) == (0.01, 0.02, 0.5, 0.1, 0.3, 1.0, 2.0, 0.5)
    assert FaultSpec.parse("") == FaultSpec() and FaultSpec().describe() == "none"


@pytest.mark.parametrize(("spec", "message"), [
    ("drop", "NAME=VALUE"), ("drop=2", "outside 0..1"), ("drop=x", "not a probability"),
    ("unplug=-1", "negative"), ("melt=0.1", "unknown fault 'melt'")])
def test_fault_spec_errors_name_the_problem(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        FaultSpec.parse(spec)


def test_retry_policy_follows_idempotence_and_sequence_numbers() -> None:
    assert DefaultProtocol().can_retry(Op.ROLL_DICE)  # same seq, the table deduplicates
    smart = SmartProtocol()
    assert smart.can_retry(Op.RAISE) and smart.can_retry(Op.SET_TILE_COUNT)
    assert not smart.can_retry(Op.ROLL_DICE) and not smart.can_retry(Op.POWER)
    with pytest.raises(ValueError, match="unknown table protocol 'modbus'"):
        get_protocol("modbus")


def test_smart_requests_are_the_documented_bytes() -> None:
    p = SmartProtocol()
    enc = p.framer.encode
    assert enc(p.request(Op.RAISE, None, 0)) == bytes.fromhex("A0 21 01 C2")
    assert enc(p.request(Op.ROLL_DICE, 3, 0)) == bytes.fromhex("A0 13 01 B4")
    assert enc(p.request(Op.SET_TILE_COUNT, 136, 0)) == bytes.fromhex("B0 04 01 B5")
    with pytest.raises(ValueError, match="not a step"):
        p.request(Op.SET_TILE_COUNT, 100, 0)
    with pytest.raises(ValueError, match=r"seat must be 1\.\.4"):
        p.request(Op.ROLL_DICE, 5, 0)


def test_default_reply_matching_needs_seq_and_command() -> None:
    p = DefaultProtocol()
    req = p.request(Op.STATUS, None, 7)
    assert p.is_reply(req, Frame(cmd=m.ACK, payload=bytes([m.Cmd.STATUS]), seq=7))
    assert not p.is_reply(req, Frame(cmd=m.ACK, payload=bytes([m.Cmd.STATUS]), seq=8))
    assert not p.is_reply(req, Frame(cmd=m.ACK, payload=bytes([m.Cmd.IDENTIFY]), seq=7))


# -- mechanics -------------------------------------------------------------------------------
def test_shuffle_takes_its_time_then_counts() -> None:
    t = VirtualTable(speed=2.0, seed=1)
    ticket, events = t.execute(Op.SHUFFLE, None, now=0.0)
    assert ticket == 1 and t.status.state is TableState.SHUFFLING and events
    assert t.tick(5.9) == [] and t.status.shuffles == 0
    done = t.tick(6.0)
    assert ("shuffle_done", {"shuffles": 1}) in done and t.status.state is TableState.IDLE


def test_busy_table_refuses_motion_but_answers_status() -> None:
    t = VirtualTable(seed=1)
    t.execute(Op.SHUFFLE, None, 0.0)
    with pytest.raises(Refused) as exc:
        t.execute(Op.ROLL_DICE, None, 0.1)
    assert exc.value.code is m.ErrorCode.BUSY
    assert t.execute(Op.STATUS, None, 0.1)[0].state is TableState.SHUFFLING


def test_idempotent_commands_do_nothing_the_second_time() -> None:
    t = VirtualTable(seed=1)
    t.execute(Op.RAISE, None, 0.0)
    assert t.execute(Op.RAISE, None, 0.1) == (None, [])  # already raising: fine, not busy
    t.tick(100.0)
    assert t.status.tiles_raised and t.execute(Op.RAISE, None, 101.0) == (None, [])
    with pytest.raises(Refused) as exc:
        t.execute(Op.SHUFFLE, None, 102.0)
    assert exc.value.code is m.ErrorCode.TILES_RAISED


def test_dice_are_seeded_and_fair_enough() -> None:
    def rolls(seed: int) -> list[tuple[int, int]]:
        t = VirtualTable(seed=seed, speed=1000)
        out = []
        for i in range(300):
            t.execute(Op.ROLL_DICE, None, float(i))
            t.tick(i + 0.5)
            assert t.status.dice is not None
            out.append(t.status.dice)
        return out
    a = rolls(5)
    assert a == rolls(5) and a != rolls(6)
    faces = [d for pair in a for d in pair]
    assert {faces.count(v) for v in range(1, 7)} <= set(range(70, 131))
    assert a[-1] and VirtualTable(seed=5).status.rolls == 0


def test_jam_stops_the_table_until_stop() -> None:
    t = VirtualTable(seed=3, jam=1.0)
    t.execute(Op.SHUFFLE, None, 0.0)
    events = t.tick(100.0)
    assert ("fault", {"fault": Fault.JAM, "severity": Severity.ERROR}) in events
    assert t.status.state is TableState.ERROR and t.status.shuffles == 0
    with pytest.raises(Refused):
        t.execute(Op.SHUFFLE, None, 101.0)
    t.execute(Op.STOP, None, 102.0)
    assert t.status.state is TableState.IDLE and t.status.fault is Fault.NONE


def test_states_and_event_kinds_print_as_their_names() -> None:
    """The dashboard shows ``str(state)`` and keys its colours on it."""
    from hardware.model import EventKind

    assert [str(s) for s in TableState] == ["offline", "idle", "shuffling", "raising", "busy",
                                            "error"]
    assert str(EventKind.DICE) == "dice" and str(EventKind.FAULT_CLEARED) == "fault_cleared"
