"""A plain progress line on stderr (no dependency), redrawn at most a few times a second."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, total: int, what: str, stream: TextIO | None = None,
                 enabled: bool = True) -> None:
        self.total, self.what = total, what
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.done = 0
        self.start = time.monotonic()
        self._last = 0.0

    def update(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if self.enabled and (now - self._last > 0.25 or self.done >= self.total):
            self._last = now
            self.stream.write("\r" + self.line(now) + " " * 4)
            self.stream.flush()

    def line(self, now: float | None = None) -> str:
        elapsed = max((now or time.monotonic()) - self.start, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        pct = 100 * self.done / max(self.total, 1)
        eta = f"{int(left // 60)}m{int(left % 60):02d}s" if left != float("inf") else "?"
        return f"{self.what}: {self.done}/{self.total} ({pct:3.0f}%) {rate:.2f}/s eta {eta}"

    def close(self) -> float:
        """Finish the line; returns the rate achieved."""
        elapsed = max(time.monotonic() - self.start, 1e-9)
        if self.enabled:
            self.stream.write("\r" + self.line() + f" in {elapsed:.1f}s\n")
            self.stream.flush()
        return self.done / elapsed
