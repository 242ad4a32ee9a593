"""A virtual automatic table behind a pseudo-terminal or TCP port, served by a background thread.

``start_simulator()`` is what the tests, the bench, the dashboard's demo mode and
``mjtable table simulate`` use. Faults are injected per frame on the simulated wire, between
the line and the firmware's own resynchronizing parser, so a corrupted byte reaches the
firmware exactly as it would from a noisy cable.
"""

from __future__ import annotations

import logging
import random
import select
import threading
import time
from collections import Counter, deque
from typing import Any

from hardware.faults import FaultSpec
from hardware.firmware import FIRMWARES, Firmware
from hardware.links import Link, PtyLink, TcpLink
from hardware.model import Fault, Severity
from hardware.protocol import FRAMERS, StreamDecoder
from hardware.virtual_table import Event, Timings, VirtualTable

log = logging.getLogger(__name__)
FRAME_GAP_S = 0.02  # a partial frame silent this long lost its tail


class Simulator:
    """Serve ``table`` through ``link`` until ``stop()``; thread-safe controls for tests."""

    def __init__(self, link: Link, table: VirtualTable, protocol: str = "default",
                 faults: FaultSpec | None = None, seed: int | None = None) -> None:
        if protocol not in FIRMWARES:
            raise ValueError(f"unknown table protocol '{protocol}' (known: "
                             f"{', '.join(sorted(FIRMWARES))})")
        self.link = link
        self.table = table
        self.protocol = protocol
        self.faults = faults or FaultSpec()
        self.firmware: Firmware = FIRMWARES[protocol](table)
        framer = FRAMERS["short" if protocol == "smart" else "default"]()
        self._line = StreamDecoder(framer)       # sees true frames, applies the faults
        self._parser = StreamDecoder(framer)     # the firmware's own parser
        self._rng = random.Random(None if seed is None else seed + 2)
        self._outbox: deque[tuple[float, bytes]] = deque()
        self._lock = threading.Lock()
        self._calls: deque[tuple[Any, tuple[Any, ...], threading.Event]] = deque()
        self._stop = threading.Event()
        self._plugged_at: float | None = None
        self.counters: Counter[str] = Counter()
        self._started = time.monotonic()
        self._unplug_at = (None if self.faults.unplug_at is None
                           else self._started + self.faults.unplug_at)
        self._thread = threading.Thread(target=self._run, name="table-simulator", daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return self.link.url

    @property
    def plugged(self) -> bool:
        return self._plugged_at is None

    # -- controls (any thread) --------------------------------------------------------------
    def unplug(self, duration: float) -> None:
        """Pull the cable now and plug it back ``duration`` seconds later."""
        self._call(self._do_unplug, duration)

    def inject_fault(self, fault: Fault, severity: Severity = Severity.ERROR) -> None:
        self._call(lambda: self._emit(self.table.inject_fault(fault, severity)))

    def close_lid(self) -> None:
        self._call(lambda: self._emit(self.table.close_lid()))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.link.close()

    def __enter__(self) -> Simulator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _call(self, fn: Any, *args: Any) -> None:
        done = threading.Event()
        with self._lock:
            self._calls.append((fn, args, done))
        if not done.wait(timeout=5):
            raise TimeoutError("simulator thread did not answer")

    # -- the loop ---------------------------------------------------------------------------
    def _run(self) -> None:
        last_rx = time.monotonic()
        while not self._stop.is_set():
            try:
                last_rx = self._step(last_rx)
            except Exception:
                # A simulator bug must show, not silently freeze the virtual table.
                self.counters["internal_errors"] += 1
                log.exception("table simulator step failed")
                time.sleep(0.01)

    def _step(self, last_rx: float) -> float:
        """One pass: controls, timed events, output, input; returns the last receive time."""
        now = time.monotonic()
        self._run_calls()
        if self._unplug_at is not None and now >= self._unplug_at:
            self._unplug_at = None
            self._do_unplug(self.faults.unplug_for)
        if self._plugged_at is not None and now >= self._plugged_at:
            self._plugged_at = None
            self.link.replug()
            self.counters["replugs"] += 1
        self._emit(self.table.tick(now))
        self._flush(now)
        if (self._line.pending or self._parser.pending) and now - last_rx > FRAME_GAP_S:
            self._deliver(self._line.expire(), now)
            self._handle(self._parser.expire(), now)
        timeout = self._next_wakeup(now)
        fds = self.link.fds()
        try:
            ready = select.select(fds, [], [], timeout)[0] if fds else []
        except (OSError, ValueError):
            ready = []
        if not fds:
            time.sleep(timeout)
        for fd in ready:
            data = self.link.readable(fd)
            if data:
                last_rx = time.monotonic()
                self._deliver(self._line.feed(data), last_rx)
        return last_rx

    def _next_wakeup(self, now: float) -> float:
        t = 0.05
        deadlines = [self.table.next_deadline(), self._plugged_at, self._unplug_at]
        if self._outbox:
            deadlines.append(self._outbox[0][0])
        if self._line.pending or self._parser.pending:
            deadlines.append(now + FRAME_GAP_S)
        for d in deadlines:
            if d is not None:
                t = min(t, max(0.0, d - now))
        return t

    def _run_calls(self) -> None:
        while True:
            with self._lock:
                if not self._calls:
                    return
                fn, args, done = self._calls.popleft()
            try:
                fn(*args)
            finally:
                done.set()

    def _do_unplug(self, duration: float) -> None:
        self.link.unplug()
        self._outbox.clear()
        self._line = StreamDecoder(self._line.framer)
        self._parser = StreamDecoder(self._parser.framer)
        self._plugged_at = time.monotonic() + duration
        self.counters["unplugs"] += 1

    def _deliver(self, items: list[Any], now: float) -> None:
        """Inbound wire faults, per frame, then the firmware's parser."""
        f = self.faults
        for item in items:
            raw = item.raw
            if item.frame is not None:
                if self._rng.random() < f.drop:
                    self.counters["dropped_in"] += 1
                    continue
                if self._rng.random() < f.corrupt:
                    raw = self._corrupt(raw)
                    self.counters["corrupted_in"] += 1
            self._handle(self._parser.feed(raw), now)

    def _handle(self, items: list[Any], now: float) -> None:
        garbled = False
        for item in items:
            if item.frame is None:
                self.counters[f"rx_{item.error}"] += 1
                if not garbled:  # one resend request per burst of garbage, not per piece
                    garbled = True
                    for wire in self.firmware.garbled():
                        self._send(wire, now)
                continue
            self.counters["rx_frames"] += 1
            for wire in self.firmware.handle(item.frame, now):
                self._send(wire, now)

    def _emit(self, events: list[Event]) -> None:
        now = time.monotonic()
        for wire in self.firmware.encode_events(events):
            self._send(wire, now)

    def _send(self, wire: bytes, now: float) -> None:
        """Outbound wire faults, per frame; delayed frames hold back the ones after them."""
        f = self.faults
        if self._rng.random() < f.drop:
            self.counters["dropped_out"] += 1
            return
        if self._rng.random() < f.corrupt:
            wire = self._corrupt(wire)
            self.counters["corrupted_out"] += 1
        release = self._outbox[-1][0] if self._outbox else now
        if self._rng.random() < f.delay:
            release = max(release, now + f.delay_s)
            self.counters["delayed_out"] += 1
        copies = 2 if self._rng.random() < f.duplicate else 1
        if copies == 2:
            self.counters["duplicated_out"] += 1
        for _ in range(copies):
            self._outbox.append((release, wire))
        self._flush(now)

    def _flush(self, now: float) -> None:
        while self._outbox and self._outbox[0][0] <= now:
            _, wire = self._outbox.popleft()
            if self.link.write(wire):
                self.counters["tx_frames"] += 1
            else:
                self.counters["tx_lost"] += 1

    def _corrupt(self, raw: bytes) -> bytes:
        data = bytearray(raw)
        i = self._rng.randrange(len(data))
        data[i] ^= 1 << self._rng.randrange(8)
        return bytes(data)


def start_simulator(*, link: str = "pty", port: int = 0, protocol: str = "default",
                    faults: str | FaultSpec | None = None, seed: int | None = None,
                    speed: float = 1.0, tile_count: int = 144,
                    timings: Timings | None = None) -> Simulator:
    """Start a simulated table in a background thread; ``.url`` to connect, ``.stop()`` to end.

    ``link`` is ``"pty"`` (a pseudo-terminal; the URL is a stable path) or ``"tcp"`` (``port``,
    0 for any free one; the URL is ``socket://127.0.0.1:PORT``).
    """
    spec = faults if isinstance(faults, FaultSpec) else FaultSpec.parse(faults)
    table = VirtualTable(speed=speed, seed=seed, jam=spec.jam, tile_count=tile_count,
                         timings=timings)
    if link == "pty":
        wire: Link = PtyLink()
    elif link == "tcp":
        wire = TcpLink(port)
    else:
        raise ValueError(f"simulator link must be 'pty' or 'tcp', got '{link}'")
    return Simulator(wire, table, protocol=protocol, faults=spec, seed=seed)
