"""Audit log: every frame in and out, in hex, with a wall-clock timestamp and what it meant.

Referees need to see what the table was told and what it answered. Entries go to an in-memory
ring (what the dashboard shows), optionally a file (one line each, appended) and any number of
callbacks. Writing is thread-safe; a failing callback never stops the driver.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class AuditEntry:
    at: float            # time.time()
    direction: str       # "out", "in", "drop" (bytes discarded by the parser) or "note"
    data: bytes
    note: str = ""

    @property
    def hex(self) -> str:
        return self.data.hex(" ").upper()

    def line(self) -> str:
        stamp = datetime.fromtimestamp(self.at, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        parts = [stamp, f"{self.direction:<4}", self.hex]
        if self.note:
            parts.append(f"| {self.note}")
        return "  ".join(p for p in parts if p)

    def to_dict(self) -> dict[str, object]:
        return {"at": self.at, "dir": self.direction, "hex": self.hex, "note": self.note}


class AuditLog:
    def __init__(self, path: str | Path | None = None, keep: int = 2000,
                 callback: Callable[[AuditEntry], None] | None = None) -> None:
        self.entries: deque[AuditEntry] = deque(maxlen=keep)
        self._sinks: list[Callable[[AuditEntry], None]] = [callback] if callback else []
        self._lock = threading.Lock()
        self._file: TextIO | None = None
        if path is not None:
            self._file = Path(path).open("a", encoding="utf-8")  # noqa: SIM115 - long-lived

    def add_sink(self, callback: Callable[[AuditEntry], None]) -> Callable[[], None]:
        """Call ``callback`` for every new entry; returns a function that removes it."""
        with self._lock:
            self._sinks.append(callback)

        def remove() -> None:
            with self._lock:
                if callback in self._sinks:
                    self._sinks.remove(callback)
        return remove

    def record(self, direction: str, data: bytes, note: str = "") -> AuditEntry:
        entry = AuditEntry(time.time(), direction, bytes(data), note)
        with self._lock:
            self.entries.append(entry)
            if self._file is not None:
                self._file.write(entry.line() + "\n")
                self._file.flush()
            sinks = list(self._sinks)
        for sink in sinks:
            try:
                sink(entry)
            except Exception:
                log.exception("audit sink failed")
        return entry

    def lines(self) -> list[str]:
        with self._lock:
            return [e.line() for e in self.entries]

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None
