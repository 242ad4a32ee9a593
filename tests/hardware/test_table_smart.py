"""The short-frame plug-in end to end: same driver, second wire format, weaker guarantees."""

from __future__ import annotations

import pytest
from table_helpers import wait_for

from hardware import (
    FaultSpec,
    Op,
    TableState,
    TableTimeout,
    Unsupported,
    open_table,
    start_simulator,
)

FAST = {"ack_timeout": 0.03, "poll_interval": 0.05, "backoff": (0.02, 0.2)}


def test_smart_table_commands_reach_the_table() -> None:
    with start_simulator(protocol="smart", speed=500, seed=1) as sim, \
            open_table(sim.url, "smart", **FAST) as table:
        assert table.state is TableState.IDLE and table.info is not None
        # No status in this family: the driver cannot wait, and a moving table ignores
        # commands, so the test watches the simulated mechanics between motions.
        idle = lambda: sim.table.status.state is TableState.IDLE  # noqa: E731
        assert table.raise_tiles() is None
        wait_for(idle)
        table.set_tile_count(136)
        assert table.roll_dice(seat=3) is None  # dice values come from the camera
        wait_for(idle)
        table.hide_tiles(True)
        wait_for(idle)
        table.command(Op.BUZZER)
        table.command(Op.MODE, 2)
        ops = [op for _, op in sim.table.executed]
        assert ops == [Op.RAISE, Op.SET_TILE_COUNT, Op.ROLL_DICE, Op.HIDE_TILES, Op.BUZZER,
                       Op.MODE]
        assert sim.table.status.tile_count == 136 and sim.table.mode == 2
        out = [e.line() for e in table.audit.entries if e.direction == "out"]
        assert any("A0 21 01 C2" in ln and "panel up" in ln for ln in out)
        assert any("B0 04 01 B5" in ln for ln in out)


def test_smart_protocol_refuses_what_it_cannot_say() -> None:
    with start_simulator(protocol="smart", speed=500) as sim, \
            open_table(sim.url, "smart", **FAST) as table:
        for call in (table.identify, table.status, table.shuffle, table.stop):
            with pytest.raises(Unsupported, match="protocol 'smart' has no"):
                call()


def test_unsafe_commands_are_never_retried_without_sequence_numbers() -> None:
    with start_simulator(protocol="smart", speed=500) as sim, \
            open_table(sim.url, "smart", retries=3, **FAST) as table:
        sim.faults = FaultSpec(drop=1.0)
        with pytest.raises(TableTimeout, match=r"after 1 attempt.*may or may not have run"):
            table.roll_dice()
        with pytest.raises(TableTimeout, match="after 4 attempt"):
            table.raise_tiles()
        assert [tx.attempts for tx in table.transactions] == [1, 4]


def test_retried_panel_command_is_not_lost_when_echo_is_dropped() -> None:
    with start_simulator(protocol="smart", speed=500, seed=2) as sim, \
            open_table(sim.url, "smart", retries=5, **FAST) as table:
        sim.faults = FaultSpec(drop=0.1)
        for _ in range(20):
            table.lower_tiles()
            table.raise_tiles()
        assert all(tx.ok for tx in table.transactions)
        assert table.stats["retries"] > 0
