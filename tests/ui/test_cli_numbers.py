"""Every number option is finite and in range, refused in one line otherwise (issue 19)."""

from __future__ import annotations

import argparse

import pytest

from ui.cli import build_parser, main
from ui.commands._numbers import number


@pytest.mark.parametrize("argv", [
    ["table", "--ack-timeout", "inf", "status"],
    ["table", "--port", "loop://", "--ack-timeout", "nan", "status"],
    ["table", "--port", "loop://", "--timeout", "nan", "status"],
    ["table", "--port", "loop://", "status", "--timeout", "-1"],
    ["table", "simulate", "--speed", "nan"],
    ["table", "simulate", "--tcp", "99999"],
    ["table", "--port", "loop://", "monitor", "--seconds", "inf"],
    ["detect", "--threads", "0", "x.png"],
    ["detect", "--threads", "-3", "x.png"],
    ["detect", "--conf", "nan", "x.png"],
    ["detect", "--detect-size", "0", "x.png"],
    ["read", "x.png", "--ruleset", "shanghai", "--corners", "0,0,1,1,nan,2,3,4"],
    ["read", "x.png", "--ruleset", "shanghai", "--corners", "0,0,1,1,inf,2,3,4"],
    ["read", "x.png", "--ruleset", "shanghai", "--dealer", "7"],
    ["watch", "x", "--stable-readings", "0"],
    ["watch", "x", "--stable-s", "nan"],
    ["run", "--stable-s", "-1"],
    ["run", "--exit-after", "nan"],
    ["match", "show", "0"],
    ["match", "show", "99999999999999999999999"],
    ["eval", "m.onnx", "--data", "d", "--threads", "0"],
    ["dataset", "synth", "--out", "x", "--val", "nan"],
    ["dataset", "synth", "--out", "x", "--size", "0x0"],
])
def test_bad_numbers_are_one_line(argv: list[str], capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ("expected" in err or "must" in err), err
    assert "Traceback" not in err and "usage:" not in err


def test_every_number_option_is_checked() -> None:
    """No subcommand option is a bare int or float: each goes through ``number``."""
    bare = []

    def walk(parser: argparse.ArgumentParser, where: str) -> None:
        for action in parser._actions:
            if action.type in (int, float):
                bare.append(f"{where} {'/'.join(action.option_strings) or action.dest}")
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, f"{where} {name}")
    walk(build_parser(), "mjtable")
    assert bare == []


def test_number_accepts_its_range() -> None:
    seconds = number(float, 0, 60, above=True)
    assert seconds("0.5") == 0.5 and seconds("60") == 60
    for text in ("0", "nan", "inf", "-inf", "61", "x", "1e400"):
        with pytest.raises(argparse.ArgumentTypeError):
            seconds(text)
    assert number(int, 1)("7") == 7


@pytest.mark.parametrize("value", ["nan", "1e999", "1" * 30, "-1", "10000001"])
def test_option_numbers_are_bounded(value: str, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    rc = main(["match", "--db", str(tmp_path / "m.sqlite3"), "new", "--ruleset", "shandong",
               "--players", "a", "b", "c", "d", "--option", f"base={value}"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "options.base" in err
