"""Soak test: many mixed commands through a (possibly faulty) line, checked for exactly-once.

Against the simulator the check is complete: every command the driver reports as done ran
exactly once on the table, every failure raised an exception, and the table ran nothing the
driver did not send. The tests run it small, the slow test and ``bench/table_bench.py`` run
10,000 commands with 2% corrupted and 1% dropped frames.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from hardware.driver import TableDriver, Transaction, open_table
from hardware.errors import TableError
from hardware.model import Op
from hardware.simulator import Simulator, start_simulator


@dataclass
class SoakReport:
    commands: int
    seconds: float
    failures: list[str] = field(default_factory=list)
    executed: int = 0
    lost: list[Transaction] = field(default_factory=list)        # reported done, never ran
    doubled: list[Any] = field(default_factory=list)             # ran more often than sent
    unreported: list[Transaction] = field(default_factory=list)  # failed silently
    driver: dict[str, int] = field(default_factory=dict)
    line: dict[str, int] = field(default_factory=dict)
    replayed: int = 0

    @property
    def ok(self) -> bool:
        return not (self.lost or self.doubled or self.unreported)

    def summary(self) -> str:
        return (f"{self.commands} commands in {self.seconds:.1f}s "
                f"({self.commands / self.seconds:.0f}/s): {len(self.failures)} reported "
                f"failures, {len(self.lost)} lost, {len(self.doubled)} executed twice, "
                f"{len(self.unreported)} unreported; retries {self.driver.get('retries', 0)}, "
                f"timeouts {self.driver.get('timeouts', 0)}, table replays {self.replayed}")


def run_commands(table: TableDriver, n: int, seed: int = 0) -> list[str]:
    """A seeded mix of safe and unsafe-to-repeat commands; returns the failure messages."""
    rng = random.Random(seed)
    failures = []
    for _ in range(n):
        r = rng.random()
        try:
            if r < 0.4:
                table.status()
            elif r < 0.55:
                table.identify()
            elif r < 0.75:
                table.roll_dice()
            elif r < 0.9:
                table.set_tile_count(rng.choice((136, 144)))
            else:
                table.hide_tiles(rng.random() < 0.5)
        except TableError as exc:
            failures.append(str(exc))
    return failures


def check_exactly_once(executed: list[tuple[int | None, Op]],
                       transactions: list[Transaction], report: SoakReport) -> None:
    """Align the table's execution log with the driver's transactions (both in wire order)."""
    j = 0
    for tx in transactions:
        ran = j < len(executed) and executed[j] == (tx.seq, tx.op)
        if ran:
            j += 1
            while j < len(executed) and executed[j] == (tx.seq, tx.op):
                report.doubled.append(executed[j])
                j += 1
        elif tx.ok:
            report.lost.append(tx)
        if not tx.ok and not tx.error:
            report.unreported.append(tx)
    report.doubled.extend(executed[j:])


def soak(n: int = 10_000, faults: str = "drop=0.01,corrupt=0.02", seed: int = 1,
         speed: float = 1e5, ack_timeout: float = 0.02, sim: Simulator | None = None) -> SoakReport:
    """Run ``n`` commands against a simulated table and check exactly-once execution."""
    own = sim is None
    sim = sim or start_simulator(speed=speed, seed=seed, faults=faults)
    try:
        table = open_table(sim.url, ack_timeout=ack_timeout, poll_interval=0.05, retries=5,
                           history=n + 1000)
        t0 = time.perf_counter()
        try:
            failures = run_commands(table, n, seed)
        finally:
            seconds = time.perf_counter() - t0
            table.close()
        time.sleep(0.05)  # let the table finish the last frame it received
        report = SoakReport(commands=n, seconds=seconds, failures=failures,
                            executed=len(sim.table.executed), driver=dict(table.stats),
                            line=dict(sim.counters), replayed=sim.firmware.replayed)
        check_exactly_once(list(sim.table.executed), list(table.transactions), report)
        return report
    finally:
        if own:
            sim.stop()
