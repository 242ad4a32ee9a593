"""One watcher of the database per server process, shared by every live page.

Each process polls the store's change fingerprint every ``every`` seconds (this works across
processes and both engines) and bumps a version when it moves; each open page waits on that
version and gets a payload rendered once per version and shared, so a hundred spectators cost
one poll and one standings computation per change, not a hundred.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool

KEEP_ALIVE_S = 15.0


class Changes:
    def __init__(self, fingerprint: Callable[[], Any], every: float = 0.25) -> None:
        self.fingerprint = fingerprint
        self.every = every
        self.version = 0
        self._last: Any = None
        self._changed: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._rendered: dict[Any, tuple[int, str]] = {}

    def _start(self) -> asyncio.Event:
        if self._task is None or self._task.done():
            self._changed = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._poll())
        assert self._changed is not None
        return self._changed

    async def _poll(self) -> None:
        while True:
            with contextlib.suppress(Exception):  # a database hiccup: try again next time
                now = await run_in_threadpool(self.fingerprint)
                if now != self._last:
                    self._last = now
                    self.version += 1
                    assert self._changed is not None
                    self._changed.set()  # wake every waiting page...
                    self._changed = asyncio.Event()  # ...and arm the next change
            await asyncio.sleep(self.every)

    async def wait(self, seen: int, timeout: float) -> int:
        """The version after ``seen`` (at once if it moved), or ``seen`` after ``timeout``."""
        changed = self._start()
        if self.version != seen:
            return self.version
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), timeout)
        return self.version

    async def rendered(self, key: Any, make: Callable[[], Any]) -> str:
        """``make()`` as an event-stream message, computed once per version and key."""
        version = self.version
        cached = self._rendered.get(key)
        if cached is not None and cached[0] == version:
            return cached[1]
        text = f"data: {json.dumps(await run_in_threadpool(make), ensure_ascii=False)}\n\n"
        self._rendered[key] = (version, text)
        return text

    async def stream(self, key: Any, make: Callable[[], Any],
                     gone: Callable[[], Any]) -> AsyncIterator[str]:
        """Server-sent events: ``make()`` now and after every change, until ``gone()``."""
        self._start()
        seen = -1
        while not await gone():
            now = await self.wait(seen, KEEP_ALIVE_S) if seen >= 0 else self.version
            if now != seen:
                seen = now
                yield await self.rendered(key, make)
            else:
                yield ": keep-alive\n\n"
