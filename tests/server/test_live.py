"""Live pages over server-sent events on a real server: every spectator sees each change,
and one watcher per process polls the database for all of them."""

from __future__ import annotations

import json
import threading
import time

import httpx

from tests.server.helpers import ORIGIN, logs_for, names, seated_store, wire
from tests.server.live import uvicorn_thread
from ui.server.app import create_app


def wait_until(check, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_live_pages_share_one_watcher_and_all_see_each_change(db_url):
    """Three spectators: each gets the standings, then the change; the database is polled
    by one watcher for all of them."""
    store = seated_store(db_url, names(4))
    polls = []
    fingerprint = store.changes
    store.changes = lambda: polls.append(1) or fingerprint()  # type: ignore[method-assign]
    log = wire(logs_for(store, 2)[1])
    seen: list[list[int]] = [[], [], []]

    def watch(k: int, url: str) -> None:
        with httpx.stream("GET", f"{url}/api/stream", timeout=20) as resp:
            for line in resp.iter_lines():
                if line.startswith("data: "):
                    seen[k].append(json.loads(line[6:])["tables"][0]["hands"])
                    if seen[k][-1] == 2:
                        return

    with uvicorn_thread(create_app(store)) as url:
        threads = [threading.Thread(target=watch, args=(k, url), daemon=True) for k in range(3)]
        for t in threads:
            t.start()
        wait_until(lambda: all(seen))
        before, start = len(polls), time.monotonic()
        time.sleep(1.0)
        per_second = (len(polls) - before) / (time.monotonic() - start)
        store.ingest(1, 1, log, "table 1", ORIGIN)
        for t in threads:
            t.join(15)
    assert all(s[0] == 0 and s[-1] == 2 for s in seen), seen
    assert per_second <= 6  # one watcher at 4 polls a second, not one per spectator
    store.close()
