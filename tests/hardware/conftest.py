"""A simulated table on a real pseudo-terminal, and a driver connected to it, per test.

Times are scaled (``speed``) so a 12 s shuffle takes 60 ms; driver timeouts are short to match.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from table_helpers import FAST

from hardware import Simulator, TableDriver, open_table, start_simulator


@pytest.fixture
def sim() -> Iterator[Simulator]:
    s = start_simulator(speed=200, seed=11)
    yield s
    s.stop()


@pytest.fixture
def table(sim: Simulator) -> Iterator[TableDriver]:
    d = open_table(sim.url, **FAST)
    yield d
    d.close()
