"""``mjtable table``: a simulator in a subprocess, commands in-process, as a user would."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from ui.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def served() -> Iterator[tuple[subprocess.Popen[str], str]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "ui.cli", "table", "simulate", "--pty", "--speed", "200",
         "--seed", "4"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    ready = select.select([proc.stdout], [], [], 20)[0]
    assert ready, "simulator printed no URL"
    url = proc.stdout.readline().strip()
    yield proc, url
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=5)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["table", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_then_identify_and_drive(served, capsys) -> None:  # type: ignore[no-untyped-def]
    proc, url = served
    assert os.path.exists(url) and os.path.realpath(url).startswith("/dev/pts/")
    code, out, _ = run(capsys, "--port", url, "identify", "--json")
    assert code == 0 and json.loads(out)["model"] == "mjtable virtual table"
    code, out, _ = run(capsys, "--port", url, "identify")
    assert "tile count: 144" in out and "protocol: default v1" in out
    assert run(capsys, "--port", url, "shuffle")[1].strip() == "shuffle done (shuffles: 1)"
    code, out, _ = run(capsys, "--port", url, "--json", "dice")
    dice = json.loads(out)["dice"]
    assert len(dice) == 2 and all(1 <= d <= 6 for d in dice)
    assert run(capsys, "--port", url, "count", "136")[1].strip() == "tile count set to 136"
    code, out, _ = run(capsys, "--port", url, "status")
    assert "state: idle" in out and "tile count: 136" in out and "shuffles: 1" in out
    assert f"last dice: {dice[0]} {dice[1]}" in out
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0
    assert not os.path.exists(url)  # the stable link is cleaned up


def test_monitor_prints_json_lines_and_audit_file(served, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    _, url = served
    audit = tmp_path / "frames.log"
    code, out, _ = run(capsys, "--port", url, "--json", "--audit", str(audit), "monitor",
                       "--seconds", "0.3")
    assert code == 0
    lines = [json.loads(ln) for ln in out.splitlines()]
    assert lines[0]["event"] == "connected" and lines[0]["model"] == "mjtable virtual table"
    assert [ln["state"] for ln in lines if "state" in ln][:1] == ["idle"]
    assert "CMD identify" in audit.read_text()


def test_errors_are_one_line_and_exit_2(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "--port", str(tmp_path / "nope"), "status")
    assert out == ""
    assert code == 2 and err.count("\n") == 1 and "cannot open table port" in err
    code, _, err = run(capsys, "--port", "loop://", "--ack-timeout", "0.01", "status")
    assert code == 2 and "no reply from table at loop://" in err
    code, _, err = run(capsys, "simulate", "--faults", "drop=3")
    assert code == 2 and "outside 0..1" in err
    code, _, err = run(capsys, "--protocol", "modbus", "--port", "loop://", "status")
    assert code == 2 and "unknown table protocol 'modbus'" in err


def test_tcp_simulator_and_smart_protocol_from_the_command_line(capsys) -> None:  # type: ignore[no-untyped-def]
    proc = subprocess.Popen(
        [sys.executable, "-m", "ui.cli", "table", "simulate", "--tcp", "0", "--protocol",
         "smart", "--speed", "200"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        assert proc.stdout is not None and select.select([proc.stdout], [], [], 20)[0]
        url = proc.stdout.readline().strip()
        assert url.startswith("socket://127.0.0.1:")
        code, out, _ = run(capsys, "--port", url, "--protocol", "smart", "dice", "--seat", "2")
        assert code == 0 and "values not reported" in out
        code, _, err = run(capsys, "--port", url, "--protocol", "smart", "status")
        assert code == 2 and "protocol 'smart' has no 'status' command" in err
    finally:
        proc.terminate()
        assert proc.wait(timeout=10) == 0
