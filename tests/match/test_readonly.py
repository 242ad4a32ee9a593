"""A match database on a read-only disk: show, list, replay, export and verify still work."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.match.conftest import CASES, old_log
from ui.cli import main

HAND = CASES / "shandong" / "01-tuidaohe-discard.json"


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[Path]:
    """``folder`` seen through a read-only mount (as root) or with no write permission."""
    if os.geteuid() != 0:
        for p in folder.iterdir():
            p.chmod(0o444)
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    view = folder.with_name(folder.name + "-ro")
    view.mkdir()
    mount = shutil.which("mount")
    ok = mount is not None and subprocess.run(
        [mount, "--bind", str(folder), str(view)], capture_output=True).returncode == 0
    if ok and subprocess.run([mount, "-o", "remount,bind,ro", str(view)],
                             capture_output=True).returncode != 0:
        subprocess.run(["umount", str(view)], check=False)
        ok = False
    if not ok:
        pytest.skip("root without the right to mount: no read-only disk to test on")
    try:
        yield view
    finally:
        subprocess.run(["umount", str(view)], check=False)


def test_reading_commands_work_on_a_read_only_disk(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    db = folder / "m.sqlite3"
    assert main(["match", "--db", str(db), "new", "--ruleset", "shandong", "--players", "a",
                 "b", "c", "d", "--dealer", "0"]) == 0
    assert main(["match", "--db", str(db), "add-hand", "1", str(HAND)]) == 0
    capsys.readouterr()
    with read_only(folder) as view:
        ro = view / "m.sqlite3"
        with pytest.raises(OSError):
            (view / "probe").write_text("x")
        for argv in (["list"], ["show", "1", "--log"], ["replay", "1"], ["export", "1"],
                     ["verify", "1"]):
            rc = main(["match", "--db", str(ro), *argv])
            out, err = capsys.readouterr()
            assert rc == 0, (argv, err)
            assert out
        rc = main(["match", "--db", str(ro), "add-hand", "1", str(HAND)])
        assert rc == 2 and "mjtable match:" in capsys.readouterr().err


def test_an_older_log_on_a_read_only_disk_is_shown_not_chained(tmp_path: Path,
                                                                 capsys) -> None:


    folder = tmp_path / "old"
    folder.mkdir()
    path = folder / "v2.sqlite3"
    old_log(path, 2).close()
    with read_only(folder) as view:
        ro = view / "v2.sqlite3"
        assert main(["match", "--db", str(ro), "show", "1"]) == 0
        assert "seat 0 a" in capsys.readouterr().out
        assert main(["match", "--db", str(ro), "verify", "1"]) == 2
        assert "written before the hash chain (schema 2)" in capsys.readouterr().err
        rc = main(["match", "--db", str(ro), "add-hand", "1", str(HAND)])
        assert rc == 2 and "cannot be written here" in capsys.readouterr().err
