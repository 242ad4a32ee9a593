"""A real server on 127.0.0.1 for end-to-end tests and the bench, and a proxy in front of it
that cuts connections: mid-request (the server never sees it whole) or after the request and
before the answer (the server applied it, the client does not know)."""

from __future__ import annotations

import random
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

from tests.server.pgcluster import free_port


@contextmanager
def uvicorn_thread(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn in a thread; yields its base URL."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error",
                                           lifespan="off", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


class FlakyProxy:
    """Forwards 127.0.0.1:``port`` to ``upstream``; cuts a ``cut`` share of connections, half
    of them mid-request, half after the request and before the answer. ``down`` refuses all."""

    def __init__(self, upstream: tuple[str, int], cut: float = 0.1, seed: int = 0) -> None:
        self.upstream = upstream
        self.cut = cut
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.down = False
        self.cuts = {"mid_request": 0, "before_answer": 0, "passed": 0}
        self.sock = socket.create_server(("127.0.0.1", 0), backlog=256)
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            if self.down:
                client.close()
                continue
            with self.lock:
                roll = self.rng.random()
                mode = ("mid_request" if roll < self.cut / 2 else "before_answer"
                        if roll < self.cut else "passed")
                self.cuts[mode] += 1
            threading.Thread(target=self._serve, args=(client, mode), daemon=True).start()

    def _serve(self, client: socket.socket, mode: str) -> None:
        try:
            upstream = socket.create_connection(self.upstream, timeout=30)
        except OSError:
            client.close()
            return
        client.settimeout(30)
        done = threading.Event()

        def pump(src: socket.socket, dst: socket.socket, limit: int | None) -> None:
            sent = 0
            try:
                while True:
                    data = src.recv(65536)
                    if not data:
                        break
                    if limit is not None and sent + len(data) > limit:
                        dst.sendall(data[:max(0, limit - sent)])
                        break
                    dst.sendall(data)
                    sent += len(data)
            except OSError:
                pass
            finally:
                done.set()

        if mode == "mid_request":
            first = b""
            try:
                first = client.recv(65536)
                upstream.sendall(first[: len(first) // 2])
            except OSError:
                pass
        elif mode == "before_answer":
            # the whole request reaches the server; its answer is dropped
            t = threading.Thread(target=pump, args=(client, upstream, None), daemon=True)
            t.start()
            with suppress(OSError):
                upstream.recv(1)  # the server answered: it has applied the request
        else:
            t1 = threading.Thread(target=pump, args=(client, upstream, None), daemon=True)
            t2 = threading.Thread(target=pump, args=(upstream, client, None), daemon=True)
            t1.start()
            t2.start()
            done.wait(60)
            t2.join(30)
        for s in (client, upstream):
            with suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def close(self) -> None:
        self.sock.close()
