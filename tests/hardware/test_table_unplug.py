"""The cable is pulled: the driver goes offline, backs off, reconnects and catches up."""

from __future__ import annotations

import time

import pytest
from table_helpers import FAST, collect, shuffle_in_background, wait_for

from hardware import (
    EventKind,
    FaultSpec,
    TableOffline,
    TableState,
    open_table,
    start_simulator,
)


@pytest.mark.parametrize("link", ["pty", "tcp"])
def test_unplug_mid_shuffle_goes_offline_then_reconnects(link: str) -> None:
    with start_simulator(link=link, speed=20, seed=5) as sim, \
            open_table(sim.url, **FAST) as table:
        events, states = collect(table)
        worker, outcome = shuffle_in_background(table)
        wait_for(lambda: table.state is TableState.SHUFFLING)
        sim.unplug(1.0)  # the 0.6 s shuffle finishes while the cable is out
        worker.join(timeout=5)
        assert isinstance(outcome[0], TableOffline), outcome
        assert "offline during shuffle" in str(outcome[0])
        wait_for(lambda: TableState.OFFLINE in states)
        with pytest.raises(TableOffline):
            table.status()
        wait_for(lambda: table.state is TableState.IDLE, timeout=10)
        assert table.stats["reconnect_failures"] >= 1  # it kept trying while unplugged
        assert table.status().shuffles == 1
        wait_for(lambda: EventKind.SHUFFLE_DONE in [e.kind for e in events])
        kinds = [e.kind for e in events]
        after = kinds[kinds.index(EventKind.DISCONNECTED):]
        assert after == [EventKind.DISCONNECTED, EventKind.CONNECTED, EventKind.SHUFFLE_DONE]
        assert states[states.index(TableState.OFFLINE):] == [TableState.OFFLINE,
                                                             TableState.IDLE]


def test_unplug_from_the_fault_spec() -> None:
    with start_simulator(speed=200, seed=5, faults="unplug=0.3:0.3") as sim, \
            open_table(sim.url, **FAST) as table:
        _, states = collect(table)
        wait_for(lambda: TableState.OFFLINE in states)
        wait_for(lambda: table.state is TableState.IDLE)
        assert sim.counters["unplugs"] == 1 and sim.counters["replugs"] == 1


def test_a_table_that_stops_answering_is_declared_offline_and_recovered() -> None:
    with start_simulator(speed=200, seed=5) as sim, open_table(sim.url, **FAST) as table:
        _, states = collect(table)
        sim.faults = FaultSpec(drop=1.0)  # firmware hangs: the port stays, nothing answers
        wait_for(lambda: TableState.OFFLINE in states)
        assert table.stats["disconnects"] >= 1
        sim.faults = FaultSpec()
        wait_for(lambda: table.state is TableState.IDLE)
        assert table.status().state is TableState.IDLE


def test_start_without_a_table_waits_for_it() -> None:
    sim = start_simulator(link="tcp", speed=200)
    url = sim.url
    sim.stop()
    table = open_table(url, require=False, **FAST)
    try:
        assert table.state is TableState.OFFLINE
        with start_simulator(link="tcp", port=int(url.rsplit(":", 1)[1]), speed=200):
            wait_for(lambda: table.state is TableState.IDLE)
            assert table.info is not None and table.identify().tile_count == 144
    finally:
        table.close()


def test_reconnect_attempts_back_off_exponentially(tmp_path) -> None:  # type: ignore[no-untyped-def]
    table = open_table(str(tmp_path / "not-plugged-in"), require=False,
                       **{**FAST, "backoff": (0.01, 0.08)})
    try:
        time.sleep(0.6)
        # 0.01, 0.02, 0.04, then every 0.08 s: about 9 tries; without backoff about 60.
        assert 3 <= table.stats["reconnect_failures"] <= 14, table.stats
        assert table.state is TableState.OFFLINE
    finally:
        table.close()
