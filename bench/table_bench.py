"""Table round-trip latency over a pseudo-terminal, against a named reference.

    .venv/bin/python bench/table_bench.py [--count 2000] [--port URL] [--soak 10000]

Reference: a bare pty echo (one thread writes a 7-byte frame, another echoes it back with
os.read/os.write), which is the floor the OS and Python threads set. The driver's STATUS
round trip goes through the full stack: framing, CRC, the simulator firmware, the reader
thread, sequence matching and the audit log. ``--soak N`` also runs the exactly-once check
(N mixed commands, 2% corrupted and 1% dropped frames). ``--port`` measures a real table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
import tty
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hardware import open_table, start_simulator
from hardware.soak import soak


def percentiles(samples: list[float]) -> dict[str, float]:
    q = statistics.quantiles(samples, n=100, method="inclusive")
    return {"p50": q[49], "p90": q[89], "p99": q[98], "max": max(samples)}


def raw_pty_echo(count: int) -> list[float]:
    master, slave = os.openpty()
    tty.setraw(slave)
    stop = threading.Event()

    def echo() -> None:
        while not stop.is_set():
            try:
                data = os.read(master, 64)
            except OSError:
                return
            os.write(master, data)
    t = threading.Thread(target=echo, daemon=True)
    t.start()
    frame = bytes.fromhex("AA 00 10 02 89 CF 55")
    out = []
    for _ in range(count):
        t0 = time.perf_counter()
        os.write(slave, frame)
        got = b""
        while len(got) < len(frame):
            got += os.read(slave, 64)
        out.append(time.perf_counter() - t0)
    stop.set()
    os.write(slave, b"\x00")
    t.join(timeout=1)
    os.close(slave)
    os.close(master)
    return out


def timed(fn, count: int) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(count):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def row(name: str, samples: list[float], ref: float | None) -> str:
    p = percentiles(samples)
    ms = "  ".join(f"{k} {v * 1000:7.3f} ms" for k, v in p.items())
    ratio = f"  x{p['p50'] / ref:5.1f} ref p50" if ref else ""
    return f"{name:<28}{ms}{ratio}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=2000, help="round trips per measurement")
    ap.add_argument("--port", help="a real table's URL instead of the simulator")
    ap.add_argument("--protocol", default="default")
    ap.add_argument("--soak", type=int, default=0, metavar="N",
                    help="also run N commands with 2%% corrupt / 1%% dropped frames")
    args = ap.parse_args()

    ref = raw_pty_echo(args.count)
    ref_p50 = percentiles(ref)["p50"]
    print(f"table round trips, {args.count} each (load {os.getloadavg()[0]:.1f})")
    print(row("reference: bare pty echo", ref, None))
    sim = None if args.port else start_simulator(speed=1e5, seed=1)
    url = args.port or sim.url  # type: ignore[union-attr]
    try:
        with open_table(url, args.protocol, poll_interval=60.0) as table:
            table.status()
            print(row("driver STATUS (pty + sim)", timed(table.status, args.count), ref_p50))
            print(row("driver IDENTIFY", timed(table.identify, args.count), ref_p50))
            dice = timed(table.roll_dice, max(1, args.count // 4))
            print(row("driver ROLL_DICE + result", dice, ref_p50))
    finally:
        if sim is not None:
            sim.stop()
    if args.soak:
        report = soak(args.soak, faults="drop=0.01,corrupt=0.02", seed=1)
        print("soak:", report.summary(), "OK" if report.ok else "FAILED")
        return 0 if report.ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
