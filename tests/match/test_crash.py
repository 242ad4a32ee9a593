"""Kill a writer with SIGKILL at random points: every committed event survives and replays."""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scoring.match import MatchStore

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL")
def test_sigkilled_writer_loses_no_committed_event(tmp_path: Path) -> None:
    path = tmp_path / "m.sqlite3"
    rng = random.Random(6)
    reported: dict[tuple[int, int], str] = {}
    deadline = time.monotonic() + 15
    iterations = 0
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    while iterations < 4 and time.monotonic() < deadline:
        iterations += 1
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.match.writer_proc", str(path), str(rng.randrange(10**6))],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        kill_after = rng.randrange(5, 250)
        for _ in range(kill_after):
            line = proc.stdout.readline()
            if not line:
                break
            mid, seq, digest = line.split()
            reported[(int(mid), int(seq))] = digest
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL, proc.stderr.read() if proc.stderr else ""
        # reopen after the crash: every reported event is there, unchanged, and all replays
        with MatchStore.open(path) as store:
            for summary in store.list_matches():
                match = store.replay(summary.id)
                assert match.problem is None, match.problem
                stored = {(summary.id, row.seq): hashlib.sha256(json.dumps(
                    row.event.to_json(), sort_keys=True).encode()).hexdigest()
                    for row in match.log}
                for key, digest in reported.items():
                    if key[0] == summary.id:
                        assert stored.get(key) == digest, f"event {key} lost or changed"
                assert [r.seq for r in match.log] == list(range(1, len(match.log) + 1))
                assert sum(match.totals) == 0
    assert iterations >= 2
    assert len(reported) >= 20
