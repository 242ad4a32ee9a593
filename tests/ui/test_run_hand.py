"""`mjtable run --hand FILE` with a hostile record: one line, not a RecursionError (issue 19)."""

from __future__ import annotations

from pathlib import Path

from ui.cli import main


def test_a_deeply_nested_hand_file_is_one_line(tmp_path: Path, capsys) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    rc = main(["run", "--hand", str(deep), "--camera", "none", "--port", "none", "--db",
               str(tmp_path / "m.sqlite3"), "--screenshot", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1
    assert f"cannot read the hand record: {deep}: nested deeper than 32 levels" in err
