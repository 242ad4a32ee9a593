"""The driver against the simulated table, through real pseudo-terminals (and one TCP port)."""

from __future__ import annotations

import threading
import time

import pytest
from table_helpers import FAST, collect, shuffle_in_background, wait_for

from hardware import (
    AuditLog,
    EventKind,
    Fault,
    Op,
    Severity,
    Simulator,
    TableDriver,
    TableError,
    TableEvent,
    TableFault,
    TableNak,
    TableOffline,
    TableState,
    TableTimeout,
    Unsupported,
    open_table,
    start_simulator,
)


def test_identify_and_status_over_a_pty(table: TableDriver, sim: Simulator) -> None:
    assert sim.url.endswith("/table") and sim.link.device.startswith("/dev/pts/")  # type: ignore[attr-defined]
    info = table.identify()
    assert (info.model, info.tile_count, info.protocol) == ("mjtable virtual table", 144,
                                                            "default")
    st = table.status()
    assert st.state is TableState.IDLE and not st.tiles_raised and table.state is TableState.IDLE


def test_a_whole_hand_cycle_with_events_once_each(table: TableDriver, sim: Simulator) -> None:
    events, states = collect(table)
    st = table.shuffle()
    assert st is not None and st.shuffles == 1 and st.state is TableState.IDLE
    assert table.raise_tiles().tiles_raised  # type: ignore[union-attr]
    dice = table.roll_dice()
    assert dice is not None and all(1 <= d <= 6 for d in dice)
    assert table.last_status.dice == dice  # type: ignore[union-attr]
    table.set_tile_count(136)
    assert table.hide_tiles(True).tiles_hidden  # type: ignore[union-attr]
    assert not table.lower_tiles().tiles_raised  # type: ignore[union-attr]
    wait_for(lambda: any(e.kind is EventKind.TILES_LOWERED for e in events))
    kinds = [e.kind for e in events]
    assert kinds.count(EventKind.SHUFFLE_DONE) == 1 and kinds.count(EventKind.DICE) == 1
    assert kinds.count(EventKind.TILES_READY) == 1
    assert next(e for e in events if e.kind is EventKind.DICE).data["dice"] == list(dice)
    assert TableState.SHUFFLING in states and TableState.RAISING in states
    assert sim.table.status.tile_count == 136


def test_refusal_is_a_nak_with_a_reason(table: TableDriver) -> None:
    table.shuffle(wait=False)
    with pytest.raises(TableNak, match="busy") as exc:
        table.roll_dice()
    assert exc.value.reason == "busy"
    table.stop()
    with pytest.raises(TableNak, match="unsupported tile count"):
        table.set_tile_count(137)


def test_jam_raises_a_fault_and_stop_clears_it() -> None:
    with start_simulator(speed=200, seed=1, faults="jam=1") as sim, \
            open_table(sim.url, **FAST) as table:
        events, _ = collect(table)
        with pytest.raises(TableFault, match="jam"):
            table.shuffle()
        assert table.state is TableState.ERROR
        table.stop()
        wait_for(lambda: table.state is TableState.IDLE)
        wait_for(lambda: EventKind.FAULT_CLEARED in [e.kind for e in events])
        fault = next(e for e in events if e.kind is EventKind.FAULT)
        assert fault.data == {"fault": "jam", "severity": "error"}


def test_faults_raised_by_the_table_reach_callbacks(table: TableDriver, sim: Simulator) -> None:
    events, _ = collect(table)
    sim.inject_fault(Fault.OVERHEAT, Severity.WARNING)
    wait_for(lambda: EventKind.FAULT in [e.kind for e in events])
    assert table.state is TableState.IDLE  # a warning does not stop the table
    sim.inject_fault(Fault.LID_OPEN, Severity.ERROR)
    wait_for(lambda: table.state is TableState.ERROR)
    table.stop()
    assert table.status().lid_open
    with pytest.raises(TableNak, match="lid open"):
        table.shuffle()
    sim.close_lid()
    table.stop()
    assert table.shuffle() is not None


def test_audit_has_every_frame_in_hex_with_timestamps(sim: Simulator, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "audit.log"
    seen = []
    audit = AuditLog(path, callback=seen.append)
    with open_table(sim.url, audit=audit, **FAST) as table:
        table.status()
    audit.close()
    lines = path.read_text().splitlines()
    out = [ln for ln in lines if "  out " in ln]
    inn = [ln for ln in lines if "  in " in ln]
    assert out and inn and len(seen) == len(lines)
    assert any("CMD status" in ln and "AA 00" in ln for ln in out)
    assert any("ACK status" in ln for ln in inn)
    assert lines[0][:4].isdigit() and lines[0][10] == "T" and "Z" in lines[0][:30]


def test_unsupported_and_bad_arguments_fail_before_sending(table: TableDriver) -> None:
    sent = table.stats["frames_out"]
    with pytest.raises(Unsupported, match="no 'buzzer'"):
        table.command(Op.BUZZER)
    with pytest.raises(ValueError, match="positive integer"):
        table.set_tile_count(-1)
    assert table.stats["frames_out"] == sent


def test_silent_port_times_out_and_names_the_command() -> None:
    with pytest.raises(TableTimeout, match="to identify after 3 attempt"):
        open_table("loop://", ack_timeout=0.01, retries=2)


def test_missing_port_is_offline_with_the_url() -> None:
    with pytest.raises(TableOffline, match="/nonexistent/tty"):
        open_table("/nonexistent/tty")


def test_tcp_link_and_callbacks_survive_a_failing_subscriber() -> None:
    with start_simulator(link="tcp", speed=200, seed=2) as sim, \
            open_table(sim.url, **FAST) as table:
        assert sim.url.startswith("socket://127.0.0.1:")
        got: list[TableEvent] = []
        table.on_event(lambda e: 1 / 0)  # a broken dashboard widget
        unsubscribe = table.on_event(got.append)
        table.roll_dice()
        wait_for(lambda: any(e.kind is EventKind.DICE for e in got))
        unsubscribe()
        table.roll_dice()
        time.sleep(0.1)
        assert [e.kind for e in got].count(EventKind.DICE) == 1


def test_concurrent_callers_are_serialized(table: TableDriver) -> None:
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            for _ in range(50):
                assert table.status().state is TableState.IDLE
        except BaseException as exc:
            errors.append(exc)
    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and all(tx.ok for tx in table.transactions)


def test_stop_during_shuffle_is_reported_not_mistaken_for_done() -> None:
    with start_simulator(speed=20, seed=1) as sim, open_table(sim.url, **FAST) as table:
        worker, outcome = shuffle_in_background(table)
        wait_for(lambda: table.state is TableState.SHUFFLING)
        table.stop()
        worker.join(timeout=5)
        assert isinstance(outcome[0], TableError)
        assert "stopped before it finished" in str(outcome[0])
        assert table.status().shuffles == 0


def test_a_motion_longer_than_its_timeout_times_out() -> None:
    with start_simulator(speed=1, seed=1) as sim, open_table(sim.url, **FAST) as table:
        with pytest.raises(TableTimeout, match=r"shuffle did not finish within 0\.2s"):
            table.shuffle(timeout=0.2)
        table.stop()


def test_events_arrive_exactly_once_although_event_frames_are_lost() -> None:
    with start_simulator(speed=2000, seed=8, faults="drop=0.05,duplicate=0.05") as sim, \
            open_table(sim.url, **FAST) as table:
        events, _ = collect(table)
        rolls = [table.roll_dice() for _ in range(40)]
        wait_for(lambda: sum(e.kind is EventKind.DICE for e in events) >= 40)
        time.sleep(0.1)
        dice_events = [e for e in events if e.kind is EventKind.DICE]
        assert [e.data["rolls"] for e in dice_events] == list(range(1, 41))
        assert [tuple(e.data["dice"]) for e in dice_events] == rolls
        assert sim.counters["dropped_out"] > 0 and sim.counters["duplicated_out"] > 0


def test_the_url_chooses_the_transport_spy_wraps_the_pty(sim: Simulator, tmp_path) -> None:  # type: ignore[no-untyped-def]
    dump = tmp_path / "spy.txt"
    with open_table(f"spy://{sim.url}?file={dump}", **FAST) as table:
        assert table.status().state is TableState.IDLE
    text = dump.read_text()
    assert "TX" in text and "AA 00" in text  # pyserial's own hexdump of our frames


def test_garbage_on_the_line_is_survived_and_audited(sim: Simulator) -> None:
    import os
    import random

    fd = os.open(sim.url, os.O_RDWR | os.O_NOCTTY)
    try:
        os.write(fd, random.Random(1).randbytes(4096) + bytes.fromhex("AA 40 00"))
    finally:
        os.close(fd)
    with open_table(sim.url, **FAST) as table:
        assert table.status().state is TableState.IDLE
        assert table.roll_dice() is not None
    assert sim.counters["rx_junk"] > 0 and sim.table.status.rolls == 1


def test_a_second_program_cannot_grab_the_same_table(table: TableDriver, sim: Simulator) -> None:
    with pytest.raises(TableOffline, match="another program already has it open"):
        open_table(sim.url, **FAST)
    assert table.status().state is TableState.IDLE


def test_corrupted_replies_are_audited_as_drops_and_resent() -> None:
    with start_simulator(speed=200, seed=3, faults="corrupt=0.1") as sim, \
            open_table(sim.url, **{**FAST, "retries": 6}) as table:
        for _ in range(30):
            table.status()
        drops = [e for e in table.audit.entries if e.direction == "drop"]
        assert drops and any("bad_crc" in e.note or "bad_end" in e.note for e in drops)
        assert table.stats["fast_resends"] > 0 and sim.firmware.replayed > 0
