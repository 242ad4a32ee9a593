"""`mjtable score` and `mjtable waits`: outputs, and one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ui.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    rc = main(args)
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize(("args", "words"), [
    (["score", "/no/such/file.json"], "No such file"),
    (["waits", "123m"], "holds 13 tiles"),
    (["waits", "123m456p789s1x2z"], "bad tile character 'x'"),
    (["waits", "11111m456p789s12z"], "5 copies of 1m"),
    (["waits", "123m456p7s", "--melds", "EEF"], "not a valid"),
    (["waits", "123m456p789s1234z", "--ruleset", "mahjong-soul"], "unknown ruleset"),
])
def test_errors_are_one_line(args: list[str], words: str,
                             capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = run(args, capsys)
    assert rc == 2 and out == ""
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_score_reports_bad_records_by_field(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads((ROOT / "ui" / "samples" / "hand.json").read_text(encoding="utf-8"))
    data["seats"][1]["melds"][0]["from"] = 9
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    rc, _, err = run(["score", str(path)], capsys)
    assert rc == 2
    assert "seats[1].melds[0].from: seat number 9 is out of range" in err


def test_score_reads_stdin() -> None:
    proc = subprocess.run([sys.executable, "-m", "ui.cli", "score", "-"], input="{",
                          capture_output=True, text=True, cwd=ROOT, check=False)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "mjtable score: stdin: not valid JSON: Expecting property name " \
                                  "enclosed in double quotes at line 1 column 2"


def test_waits_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(["waits", "1112345678999m"], capsys)
    assert rc == 0 and out.startswith("waits: 1m (1 left)  2m (3 left)")
    rc, out, _ = run(["waits", "123m45p88p", "--melds", "EEE", "999s", "--json"], capsys)
    assert json.loads(out)["waits"] == ["3p", "6p"]


def test_waits_with_an_indicator_uses_the_wildcard(capsys: pytest.CaptureFixture[str]) -> None:
    # indicator W makes N the wildcard: 123m11m E N waits on E (EEE, or EE with N), 1m (111m),
    # 4m (111m 234m, N+E the pair), and another N
    rc, out, _ = run(["waits", "123m456p789s11mEN", "--indicator", "W", "--json"], capsys)
    result = json.loads(out)
    assert rc == 0 and result["wildcards"] == ["N"]
    assert result["waits"] == ["1m", "4m", "E", "N"]


def test_help_lists_the_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "score" in out and "waits" in out
