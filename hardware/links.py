"""The simulator's end of the cable: a pseudo-terminal or a TCP port that can be unplugged.

``PtyLink`` publishes a stable path (a symlink to the current ``/dev/pts/N``, as socat's
``link=`` does) so a driver reconnecting after an unplug finds the new terminal under the same
URL. ``TcpLink`` serves one client at a time on a fixed port (``socket://host:port``).
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import socket
import tempfile
import tty


class Link:
    url: str

    def fds(self) -> list[int]:
        raise NotImplementedError

    def readable(self, fd: int) -> bytes:
        """Bytes that arrived on ``fd`` (empty if none or if it was a connection event)."""
        raise NotImplementedError

    def write(self, data: bytes) -> bool:
        """Send; False when nobody is listening or the line is full (the bytes are lost)."""
        raise NotImplementedError

    def unplug(self) -> None:
        raise NotImplementedError

    def replug(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class PtyLink(Link):
    def __init__(self, directory: str | None = None) -> None:
        self._dir = tempfile.mkdtemp(prefix="mjtable-sim-", dir=directory)
        self.path = os.path.join(self._dir, "table")
        self.url = self.path
        self.device = ""
        self._master = self._slave = -1
        self.replug()

    def replug(self) -> None:
        if self._master >= 0:
            return
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no CR/LF translation: a binary line like a UART
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.device = os.ttyname(slave)
        tmp = self.path + ".new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(self.device, tmp)
        os.replace(tmp, self.path)

    def fds(self) -> list[int]:
        return [self._master] if self._master >= 0 else []

    def readable(self, fd: int) -> bytes:
        try:
            return os.read(self._master, 4096)
        except BlockingIOError:
            return b""
        except OSError as exc:
            if exc.errno == errno.EIO:
                return b""
            raise

    def write(self, data: bytes) -> bool:
        if self._master < 0:
            return False
        try:
            return os.write(self._master, data) == len(data)
        except (BlockingIOError, OSError):
            return False

    def unplug(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        for fd in (self._master, self._slave):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1

    def close(self) -> None:
        self.unplug()
        shutil.rmtree(self._dir, ignore_errors=True)


class TcpLink(Link):
    def __init__(self, port: int = 0, host: str = "127.0.0.1") -> None:
        self.host = host
        self._listener: socket.socket | None = None
        self._client: socket.socket | None = None
        self.port = port
        self.replug()
        self.url = f"socket://{host}:{self.port}"

    def replug(self) -> None:
        if self._listener is not None:
            return
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
        except OSError as exc:
            sock.close()
            raise OSError(exc.errno, f"cannot listen on {self.host}:{self.port}: "
                                     f"{exc.strerror}") from None
        sock.listen(1)
        sock.setblocking(False)
        self.port = sock.getsockname()[1]
        self._listener = sock

    def fds(self) -> list[int]:
        return [s.fileno() for s in (self._listener, self._client) if s is not None]

    def readable(self, fd: int) -> bytes:
        if self._listener is not None and fd == self._listener.fileno():
            with contextlib.suppress(BlockingIOError):
                conn, _ = self._listener.accept()
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                conn.setblocking(False)
                if self._client is not None:
                    self._client.close()  # one cable, one host: the newest wins
                self._client = conn
            return b""
        if self._client is None or fd != self._client.fileno():
            return b""
        try:
            data = self._client.recv(4096)
        except BlockingIOError:
            return b""
        except OSError:
            data = b""
        if not data:
            self._client.close()
            self._client = None
        return data

    def write(self, data: bytes) -> bool:
        if self._client is None:
            return False
        try:
            self._client.sendall(data)
            return True
        except OSError:
            return False

    def unplug(self) -> None:
        for s in (self._client, self._listener):
            if s is not None:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
        self._client = self._listener = None

    def close(self) -> None:
        self.unplug()
