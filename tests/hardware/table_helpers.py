"""Helpers shared by the table tests (a plain module: conftest names collide across folders)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from hardware import TableDriver, TableError, TableEvent, TableState

#: Driver timings to match a time-scaled simulator.
#: Five missed heartbeats (not three) before "offline", so a busy CI box is not a lost cable.
FAST = {"ack_timeout": 0.05, "poll_interval": 0.05, "backoff": (0.02, 0.2), "op_timeout": 10.0,
        "heartbeat_misses": 5}


def collect(driver: TableDriver) -> tuple[list[TableEvent], list[TableState]]:
    """Lists that fill with the driver's events and state changes."""
    events: list[TableEvent] = []
    states: list[TableState] = []
    driver.on_event(events.append)
    driver.on_state(states.append)
    return events, states


def wait_for(cond: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.01)


def shuffle_in_background(driver: TableDriver) -> tuple[threading.Thread, list[object]]:
    """Start ``driver.shuffle()`` on a thread; the list receives its result or its TableError."""
    outcome: list[object] = []

    def shuffle() -> None:
        try:
            outcome.append(driver.shuffle())
        except TableError as exc:
            outcome.append(exc)

    worker = threading.Thread(target=shuffle)
    worker.start()
    return worker, outcome
