"""A throwaway PostgreSQL cluster for tests and the bench: Debian's binaries, a temp folder,
a free loopback port, torn down after. No system service is used or needed.

PostgreSQL refuses to run as root, so as root the cluster runs as ``nobody``.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def binaries() -> Path | None:
    """The newest ``/usr/lib/postgresql/*/bin`` holding ``initdb`` and ``pg_ctl``."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parent.parent.name))
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """``with Cluster() as c: c.url("dbname")``; ``c.create_db(name)`` makes a fresh database."""

    def __init__(self, max_connections: int = 100) -> None:
        bin_dir = binaries()
        if bin_dir is None:
            raise FileNotFoundError("PostgreSQL is not installed (apt-get install postgresql)")
        self.bin = bin_dir
        self.max_connections = max_connections
        self.root = Path(tempfile.mkdtemp(prefix="mjtable-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.user: str | None = "nobody" if os.geteuid() == 0 else None

    def _run(self, *args: str) -> None:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=120)

    def __enter__(self) -> Cluster:
        if self.user:
            shutil.chown(self.root, self.user)
            os.chmod(self.root, 0o700)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "--no-sync", "-E", "UTF8", "--locale=C")
        opts = (f"-c listen_addresses=127.0.0.1 -c port={self.port} "
                f"-c unix_socket_directories={self.root} -c fsync=off "
                f"-c synchronous_commit=off -c full_page_writes=off "
                f"-c max_connections={self.max_connections}")
        self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.root / "log"),
                  "-w", "-t", "60", "start")
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        return self

    def url(self, db: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{db}"

    def create_db(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            # a plain file copy of the template is twice as fast as logging it (PostgreSQL 15+)
            fast = " STRATEGY = FILE_COPY" if conn.info.server_version >= 150000 else ""
            conn.execute(f'CREATE DATABASE "{name}"{fast}')  # name from the test, not input
        return self.url(name)

    def drop_db(self, name: str) -> None:
        """Drop a test's database (its connections closed by force), keeping the cluster small."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def dump(self, db: str) -> Path:
        """``pg_dump -Fc`` of a database (what docs/tournament.md says to back up with)."""
        out = self.root / f"{db}.dump"
        self._run("pg_dump", "-Fc", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
                  "-d", db, "-f", str(out))
        return out

    def restore(self, db: str, dump: Path) -> None:
        """The database replaced by a dump: dropped, created again, ``pg_restore``."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE "{db}" WITH (FORCE)')  # names from tests only
            conn.execute(f'CREATE DATABASE "{db}"')
        self._run("pg_restore", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
                  "-d", db, str(dump))

    @contextmanager
    def replica(self) -> Iterator[int]:
        """A streaming hot standby of this cluster on its own free port (yields the port)."""
        data = self.root / f"replica{free_port()}"
        port = free_port()
        self._run("pg_basebackup", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
                  "-D", str(data), "-R", "-X", "stream", "--no-sync", "--checkpoint=fast")
        opts = (f"-c listen_addresses=127.0.0.1 -c port={port} "
                f"-c unix_socket_directories={self.root} -c hot_standby=on -c fsync=off")
        self._run("pg_ctl", "-D", str(data), "-o", opts, "-l", str(data) + ".log", "-w",
                  "-t", "60", "start")
        try:
            yield port
        finally:
            self._run("pg_ctl", "-D", str(data), "-m", "immediate", "-w", "stop")

    def __exit__(self, *exc: object) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
