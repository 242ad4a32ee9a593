"""The table driver: one port, a reader thread, one request on the wire at a time.

Threads: the *reader* owns the port (reads, decodes, matches replies by sequence number,
applies events, reopens the port with exponential backoff after it disappears); the
*supervisor* polls STATUS as a heartbeat and resynchronizes after a reconnect; the
*dispatcher* runs user callbacks so a slow callback never delays the line. Callers block in
``_request`` for the reply (short ACK timeout, retried when safe) and in ``_await`` for a
motion to finish (long timeout; events or STATUS polls tell when).

Events reach callbacks exactly once per change of the table's status (shuffle counter, roll
counter, tiles raised, fault), however many event frames were dropped or duplicated: they are
derived from status diffs, and STATUS polls fill any gap.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import math
import queue
import random
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import serial

from hardware.audit import AuditLog
from hardware.errors import TableError, TableFault, TableOffline, TableTimeout
from hardware.model import (
    EventKind,
    Fault,
    Op,
    TableEvent,
    TableInfo,
    TableState,
    TableStatus,
)
from hardware.plugins import SmartProtocol, TableProtocol, get_protocol
from hardware.protocol import Decoded, Frame, StreamDecoder
from hardware.transport import LINK_ERRORS, open_port, read_some

log = logging.getLogger(__name__)
#: What pyserial raises when another thread closes the port during a call (its socket or fd
#: becomes None); the link is gone either way.
_CLOSED_UNDER_US: tuple[type[BaseException], ...] = (TypeError, AttributeError, ValueError)
_FIELDS = frozenset(f.name for f in dataclasses.fields(TableStatus))


@dataclass
class Transaction:
    """One command as the driver saw it; ``ok`` False means the caller got an exception."""

    seq: int | None
    op: Op
    attempts: int = 0
    ok: bool = False
    error: str = ""


@dataclass
class _Pending:
    op: Op
    request: Frame
    done: bool = False
    result: Any = None
    error: TableError | None = None
    status_gen: int = 0
    resend: bool = False  # the reply (or our request) was garbled: resend without waiting
    may_resend: bool = True


class TableDriver:
    """Drive one automatic table; see ``hardware/__init__.py`` for the API in one page."""

    def __init__(self, url: str, protocol: str | TableProtocol = "default", *,
                 baudrate: int = 115200, ack_timeout: float = 0.3, retries: int = 4,
                 op_timeout: float = 120.0, poll_interval: float = 0.5,
                 frame_gap: float = 0.05, reconnect: bool = True,
                 backoff: tuple[float, float] = (0.1, 5.0), heartbeat_misses: int = 3,
                 audit: AuditLog | None = None, history: int = 1000) -> None:
        if not all(0 < t < math.inf for t in (ack_timeout, op_timeout, poll_interval)):
            raise ValueError("timeouts and poll interval must be positive and finite, got "
                             f"{ack_timeout}, {op_timeout}, {poll_interval}")
        if retries < 0:
            raise ValueError(f"retries must be 0 or more, got {retries}")
        self.url = url
        self.protocol = get_protocol(protocol) if isinstance(protocol, str) else protocol
        self.baudrate = baudrate
        self.ack_timeout, self.retries, self.op_timeout = ack_timeout, retries, op_timeout
        self.poll_interval, self.frame_gap = poll_interval, frame_gap
        self.reconnect, self.backoff, self.heartbeat_misses = reconnect, backoff, heartbeat_misses
        self.audit = audit if audit is not None else AuditLog()
        self.info: TableInfo | None = None
        self.stats: Counter[str] = Counter()
        self.transactions: deque[Transaction] = deque(maxlen=history)
        self._decoder = StreamDecoder(self.protocol.framer)
        self._cond = threading.Condition()
        self._io = threading.Lock()
        self._port: serial.SerialBase | None = None
        self._conn_gen = 0
        self._pending: _Pending | None = None
        self._status: TableStatus | None = None
        self._status_gen = 0
        self._full_gen = 0  # generation of the last complete status (reply or STATUS_CHANGED)
        self._state = TableState.OFFLINE
        self._seq = random.randrange(256)
        self._last_reply = 0.0
        self._closing = threading.Event()
        self._synced_gen = -1  # connection generation whose identify+status succeeded
        self._callbacks: dict[str, list[Callable[[Any], None]]] = {"event": [], "state": []}
        self._queue: queue.SimpleQueue[tuple[str, Any] | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []

    # -- lifecycle --------------------------------------------------------------------------
    def start(self, require: bool = True) -> TableDriver:
        """Open the port and identify the table. With ``require`` False a table that is not
        there yet is waited for in the background (state ``offline`` until it appears)."""
        try:
            self._open()
        except TableOffline:
            if require or not self.reconnect:
                raise
        for name, target in (("reader", self._reader), ("supervisor", self._supervisor),
                             ("dispatcher", self._dispatcher)):
            t = threading.Thread(target=target, name=f"table-{name}", daemon=True)
            t.start()
            self._threads.append(t)
        if self._port is not None:
            try:
                self._sync()
            except TableError:
                if require:
                    self.close()
                    raise
        return self

    def close(self) -> None:
        """Stop the threads and release the port; callbacks get a final ``offline`` state."""
        if self._closing.is_set():
            return
        self._closing.set()
        with self._cond:
            self._cond.notify_all()  # wake a caller or the heartbeat waiting for a reply
        for t in self._threads[:2]:
            t.join(timeout=2)
        with self._cond:
            port, self._port = self._port, None
            self._conn_gen += 1
            self._cond.notify_all()
        if port is not None:
            with contextlib.suppress(*LINK_ERRORS):
                port.close()
        self._set_state(TableState.OFFLINE)
        self._queue.put(None)
        if len(self._threads) > 2:
            self._threads[2].join(timeout=2)

    def __enter__(self) -> TableDriver:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- public commands ----------------------------------------------------------------------
    @property
    def state(self) -> TableState:
        return self._state

    @property
    def last_status(self) -> TableStatus | None:
        """The newest status known (no I/O); None before the first one."""
        return self._status

    def on_event(self, callback: Callable[[TableEvent], None]) -> Callable[[], None]:
        """Call ``callback(TableEvent)`` on the dispatcher thread; returns an unsubscribe."""
        return self._subscribe("event", callback)

    def on_state(self, callback: Callable[[TableState], None]) -> Callable[[], None]:
        return self._subscribe("state", callback)

    def identify(self) -> TableInfo:
        """Ask the table who it is (``Unsupported`` on protocols without IDENTIFY)."""
        info: TableInfo = self._request(Op.IDENTIFY)
        self.info = info
        return info

    def status(self) -> TableStatus:
        result: TableStatus = self._request(Op.STATUS)
        return result

    def shuffle(self, wait: bool = True, timeout: float | None = None) -> TableStatus | None:
        """Start a shuffle; with ``wait``, return the status once it is done."""
        ticket, gen = self._request_gen(Op.SHUFFLE)
        if not wait:
            return None
        return self._await("shuffle", lambda s: _reached(s.shuffles, ticket)
                           and s.state is not TableState.SHUFFLING, gen, timeout)

    def raise_tiles(self, wait: bool = True, timeout: float | None = None) -> TableStatus | None:
        """Raise the walls; with ``wait`` (and a protocol that reports status) until they are up."""
        _, gen = self._request_gen(Op.RAISE)
        if not wait or not self.protocol.reports_status:
            return None
        return self._await("raise", lambda s: s.tiles_raised and s.state is TableState.IDLE,
                           gen, timeout)

    def lower_tiles(self, wait: bool = True, timeout: float | None = None) -> TableStatus | None:
        _, gen = self._request_gen(Op.LOWER)
        if not wait or not self.protocol.reports_status:
            return None
        return self._await("lower", lambda s: not s.tiles_raised and s.state is TableState.IDLE,
                           gen, timeout)

    def roll_dice(self, wait: bool = True, seat: int | None = None,
                  timeout: float | None = None) -> tuple[int, int] | None:
        """Roll; returns the two dice, or None when the protocol cannot report them."""
        ticket, gen = self._request_gen(Op.ROLL_DICE, seat)
        if not wait or not self.protocol.reports_status:
            return None
        st = self._await("dice roll", lambda s: _reached(s.rolls, ticket)
                         and s.state is not TableState.BUSY, gen, timeout)
        return st.dice

    def set_tile_count(self, count: int) -> None:
        self._request(Op.SET_TILE_COUNT, count)

    def hide_tiles(self, hidden: bool = True, wait: bool = True,
                   timeout: float | None = None) -> TableStatus | None:
        _, gen = self._request_gen(Op.HIDE_TILES, hidden)
        if not wait or not self.protocol.reports_status:
            return None
        return self._await("hide" if hidden else "show",
                           lambda s: s.tiles_hidden == hidden and s.state is TableState.IDLE,
                           gen, timeout)

    def stop(self) -> None:
        """Abort the motion under way and clear a fault the table can clear."""
        self._request(Op.STOP)

    def command(self, op: Op, arg: Any = None) -> Any:
        """Send any operation the protocol supports (power, buzzer, mode...) and return its
        reply without waiting for motion."""
        return self._request(op, arg)

    # -- requests -----------------------------------------------------------------------------
    def _request(self, op: Op, arg: Any = None) -> Any:
        return self._request_gen(op, arg)[0]

    def _request_gen(self, op: Op, arg: Any = None,
                     retries: int | None = None) -> tuple[Any, int]:
        """Send one command and wait for its reply; returns (result, status generation at the
        reply), so a waiter only trusts statuses the table sent after accepting it."""
        self.protocol.check(op)
        with self._io:
            with self._cond:
                if self._port is None:
                    raise TableOffline(f"table at {self.url} is offline; {op.value} was not sent")
                gen = self._conn_gen
            self._seq = (self._seq + 1) & 0xFF
            frame = self.protocol.request(op, arg, self._seq)
            wire = self.protocol.framer.encode(frame)
            retries = self.retries if retries is None else retries
            attempts = 1 + (retries if self.protocol.can_retry(op) else 0)
            tx = Transaction(frame.seq, op)
            self.transactions.append(tx)
            what = self.protocol.describe(frame)
            fast_resent = False
            try:
                for attempt in range(1, attempts + 1):
                    tx.attempts = attempt
                    # One early resend per command: the rest of a garbled burst must not use
                    # up every attempt in a few milliseconds.
                    pending = _Pending(op, frame, may_resend=not fast_resent)
                    with self._cond:
                        self._pending = pending
                    self._write(wire, f"{what} (attempt {attempt}/{attempts})", gen)
                    # Each retry waits twice as long (up to 8x): a drop costs one short
                    # timeout, while a busy host or table still gets a generous total.
                    wait = self.ack_timeout * min(2 ** (attempt - 1), 8)
                    if self._wait_reply(pending, gen, wait):
                        self._last_reply = time.monotonic()
                        if pending.error is not None:
                            raise pending.error
                        tx.ok = True
                        return pending.result, pending.status_gen
                    fast_resent = fast_resent or pending.resend
                    if not pending.resend:
                        self.stats["timeouts"] += 1
                    if attempt < attempts:
                        self.stats["retries"] += 1
                self.audit.record("note", b"", f"gave up: {what} unanswered after {attempts} "
                                                f"attempt(s)")
                may = "" if attempts > 1 or op in (Op.STATUS, Op.IDENTIFY) else \
                    " (not retried: it is not safe to repeat; it may or may not have run)"
                raise TableTimeout(f"no reply from table at {self.url} to {op.value} after "
                                   f"{attempts} attempt(s) from {self.ack_timeout:g}s{may}")
            except TableError as exc:
                tx.error = str(exc)
                self.stats[f"failed_{exc.code}"] += 1
                raise
            finally:
                with self._cond:
                    self._pending = None

    def _write(self, wire: bytes, note: str, gen: int) -> None:
        port = self._port
        if port is None or gen != self._conn_gen:
            raise TableOffline(f"table at {self.url} went offline")
        self.audit.record("out", wire, note)
        try:
            port.write(wire)
            self.stats["frames_out"] += 1
        except (*LINK_ERRORS, *_CLOSED_UNDER_US) as exc:
            self._lost(f"write failed: {exc}", gen)
            raise TableOffline(f"table at {self.url} went offline: {exc}") from None

    def _wait_reply(self, pending: _Pending, gen: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not pending.done:
                if pending.resend:
                    self.stats["fast_resends"] += 1
                    return False
                if gen != self._conn_gen or self._closing.is_set():
                    raise TableOffline(f"table at {self.url} went offline while waiting for the "
                                       f"reply to {pending.op.value}; it may or may not have run")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
            return True

    def _await(self, what: str, done: Callable[[TableStatus], bool], since_gen: int,
               timeout: float | None) -> TableStatus:
        """Wait until a status newer than the command's acceptance satisfies ``done``."""
        limit = timeout if timeout is not None else self.op_timeout
        deadline = time.monotonic() + limit
        gen = self._conn_gen
        next_poll = time.monotonic() + self.poll_interval
        while True:
            with self._cond:
                if gen != self._conn_gen or self._closing.is_set():
                    raise TableOffline(f"table at {self.url} went offline during {what}")
                st = self._status
                if st is not None and self._status_gen > since_gen:
                    if done(st):
                        return st
                    if st.state is TableState.ERROR:
                        raise TableFault(f"{what} failed: table reports "
                                         f"{st.fault.name.lower().replace('_', ' ')} "
                                         f"({st.severity.name.lower()})")
                    if st.state is TableState.IDLE and self._full_gen > since_gen:
                        # Only a complete status may say so: a lone event merged into an
                        # older status could show "idle" from before the command.
                        raise TableError(f"{what} was stopped before it finished")
                now = time.monotonic()
                if now >= deadline:
                    raise TableTimeout(f"{what} did not finish within {limit:g}s")
                if now < next_poll:
                    self._cond.wait(min(next_poll, deadline) - now)
                    continue
            next_poll = time.monotonic() + self.poll_interval
            try:
                self.status()
            except TableTimeout:
                continue  # the heartbeat decides when silence means offline
            except TableOffline:
                raise TableOffline(f"table at {self.url} went offline during {what}") from None

    # -- reader thread --------------------------------------------------------------------------
    def _open(self) -> None:
        port = open_port(self.url, self.baudrate, read_timeout=min(0.05, self.frame_gap))
        with contextlib.suppress(*LINK_ERRORS):
            port.reset_input_buffer()
        self._decoder = StreamDecoder(self.protocol.framer)
        with self._cond:
            self._port = port
            self._conn_gen += 1
        self.audit.record("note", b"", f"opened {self.url} ({self.protocol.name} protocol)")

    def _reader(self) -> None:
        delay = self.backoff[0]
        last_rx = time.monotonic()
        while not self._closing.is_set():
            port = self._port
            if port is None:
                if not self.reconnect or self._closing.wait(delay):
                    if not self.reconnect:
                        self._closing.wait(0.1)
                    continue
                try:
                    self._open()
                except TableOffline:
                    self.stats["reconnect_failures"] += 1
                    delay = min(delay * 2, self.backoff[1])
                    continue
                delay = self.backoff[0]
                self.stats["reconnects"] += 1
                continue
            try:
                data = read_some(port)
            except LINK_ERRORS as exc:
                self._lost(f"read failed: {exc}", self._conn_gen)
                continue
            except _CLOSED_UNDER_US:  # another thread closed the port mid-read
                continue
            now = time.monotonic()
            if data:
                last_rx = now
                items = self._decoder.feed(data)
            elif self._decoder.pending and now - last_rx > self.frame_gap:
                items = self._decoder.expire()
            else:
                continue
            for item in items:
                self._on_item(item)

    def _on_item(self, item: Decoded) -> None:
        if item.frame is None:
            self.stats[f"dropped_{item.error}"] += 1
            self.audit.record("drop", item.raw, f"discarded: {item.error}")
            if item.error != "junk":
                self._ask_resend()  # most likely the reply we are waiting for
            return
        frame = item.frame
        self.stats["frames_in"] += 1
        self.audit.record("in", item.raw, self.protocol.describe(frame))
        if self.protocol.is_resend_request(frame):
            self._ask_resend()
            return
        with self._cond:
            p = self._pending
            if p is not None and not p.done and self.protocol.is_reply(p.request, frame):
                try:
                    p.result = self.protocol.parse_reply(p.op, frame)
                except TableError as exc:
                    p.error = exc
                except ValueError as exc:
                    p.error = TableError(f"malformed reply to {p.op.value}: {exc}")
                if isinstance(p.result, TableStatus):
                    self._apply_locked({f: getattr(p.result, f) for f in _FIELDS})
                p.status_gen = self._status_gen
                p.done = True
                self._cond.notify_all()
                return
            patch = self.protocol.parse_event(frame)
            if patch is None:
                self.stats["unmatched"] += 1  # a late or duplicated reply: already answered
                return
            self.stats["events_in"] += 1
            if patch:
                self._apply_locked(patch)

    def _ask_resend(self) -> None:
        """Cut the wait short when a retry is safe (same sequence number, deduplicated)."""
        with self._cond:
            p = self._pending
            if (p is not None and not p.done and p.may_resend and self.protocol.sequenced
                    and self.protocol.can_retry(p.op)):
                p.resend = True
                self._cond.notify_all()

    def _lost(self, reason: str, gen: int) -> None:
        with self._cond:
            if gen != self._conn_gen or self._port is None:
                return
            port, self._port = self._port, None
            self._conn_gen += 1
            self._cond.notify_all()
        with contextlib.suppress(*LINK_ERRORS):
            port.close()
        self.stats["disconnects"] += 1
        self.audit.record("note", b"", f"lost {self.url}: {reason}")
        self._set_state(TableState.OFFLINE)
        self._emit(TableEvent(EventKind.DISCONNECTED, {"reason": reason}))

    # -- status and events ----------------------------------------------------------------------
    def _apply_locked(self, patch: dict[str, Any]) -> None:
        """Merge a (partial) status under the lock; emit one event per change."""
        old = self._status
        full = patch.keys() >= _FIELDS
        if old is None:
            if not full:
                return
            new = TableStatus(**patch)
        else:
            merged = {f: getattr(old, f) for f in _FIELDS} | patch
            if not full:  # a lone event never moves a counter backwards
                merged["shuffles"] = max(old.shuffles, merged["shuffles"])
                merged["rolls"] = max(old.rolls, merged["rolls"])
            new = TableStatus(**merged)
        self._status = new
        self._status_gen += 1
        if full:
            self._full_gen = self._status_gen
        self._cond.notify_all()
        if old is not None:
            for ev in _diff(old, new):
                self._emit(ev)
        if self._port is not None and self._synced_gen == self._conn_gen:
            self._set_state(new.state)

    def _set_state(self, state: TableState) -> None:
        if state is not self._state:
            self._state = state
            self._queue.put(("state", state))

    def _emit(self, event: TableEvent) -> None:
        self._queue.put(("event", event))

    def _subscribe(self, kind: str, callback: Callable[[Any], None]) -> Callable[[], None]:
        with self._cond:
            self._callbacks[kind].append(callback)

        def unsubscribe() -> None:
            with self._cond:
                if callback in self._callbacks[kind]:
                    self._callbacks[kind].remove(callback)
        return unsubscribe

    def _dispatcher(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            kind, value = item
            with self._cond:
                callbacks = list(self._callbacks[kind])
            for cb in callbacks:
                try:
                    cb(value)
                except Exception:
                    log.exception("table %s callback failed", kind)

    # -- supervisor thread ----------------------------------------------------------------------
    def _sync(self) -> None:
        """After (re)connecting: who is there, and where did it get to while we were away."""
        gen = self._conn_gen
        if self.protocol.reports_status:
            self.identify()
        else:
            assert isinstance(self.protocol, SmartProtocol)
            self.info = self.protocol.identity()
        info = self.info
        self._emit(TableEvent(EventKind.CONNECTED,
                              {"model": info.model if info else "", "url": self.url}))
        if self.protocol.reports_status:
            self.status()  # events missed while away follow "connected"
        with self._cond:
            if gen != self._conn_gen:
                raise TableOffline(f"table at {self.url} went offline while connecting")
            self._synced_gen = gen
            st = self._status
        self._set_state(st.state if st is not None else TableState.IDLE)

    def _supervisor(self) -> None:
        misses = 0
        while not self._closing.wait(min(self.poll_interval, 0.25)):
            if self._port is None:
                continue
            gen = self._conn_gen
            try:
                if self._synced_gen != gen:
                    self._sync()
                elif (self.protocol.reports_status
                      and time.monotonic() - self._last_reply >= self.poll_interval):
                    self._request_gen(Op.STATUS, retries=0)  # a miss is counted, not retried
                misses = 0
            except TableTimeout:
                misses += 1
                if misses >= self.heartbeat_misses:
                    misses = 0
                    self._lost(f"no reply to {self.heartbeat_misses} status polls", gen)
            except TableOffline:
                pass
            except TableError as exc:
                log.warning("table poll failed: %s", exc)


def _reached(counter: int, ticket: int) -> bool:
    """Counters are 16-bit and wrap; ``counter`` has reached ``ticket`` if it is at most half
    the range past it."""
    return (counter - ticket) & 0xFFFF < 0x8000


def _diff(old: TableStatus, new: TableStatus) -> list[TableEvent]:
    events = []
    if new.shuffles != old.shuffles and _reached(new.shuffles, old.shuffles):
        events.append(TableEvent(EventKind.SHUFFLE_DONE, {"shuffles": new.shuffles}))
    if new.rolls != old.rolls and _reached(new.rolls, old.rolls):
        events.append(TableEvent(EventKind.DICE, {"rolls": new.rolls,
                                                  "dice": list(new.dice or ())}))
    if new.tiles_raised and not old.tiles_raised:
        events.append(TableEvent(EventKind.TILES_READY, {"tile_count": new.tile_count}))
    if old.tiles_raised and not new.tiles_raised:
        events.append(TableEvent(EventKind.TILES_LOWERED))
    if new.fault is not Fault.NONE and (new.fault, new.severity) != (old.fault, old.severity):
        events.append(TableEvent(EventKind.FAULT, {"fault": new.fault.name.lower(),
                                                   "severity": new.severity.name.lower()}))
    if new.fault is Fault.NONE and old.fault is not Fault.NONE:
        events.append(TableEvent(EventKind.FAULT_CLEARED, {"fault": old.fault.name.lower()}))
    return events


def open_table(url: str, protocol: str = "default", *, require: bool = True,
               **options: Any) -> TableDriver:
    """Open, identify and return a running driver (see ``TableDriver`` for ``options``)."""
    return TableDriver(url, protocol, **options).start(require=require)
