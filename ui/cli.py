"""The ``mjtable`` command line: a thin layer over each package's public functions.

Every subcommand lives in ``ui/commands/<name>.py`` with ``register(subparsers)``, which adds its
parser and sets ``func(args) -> int``. Errors are one line on stderr and exit status 2; a
traceback is shown only with ``MJTABLE_DEBUG=1``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from typing import NoReturn

from ui import commands
from ui.errors import CommandError

__all__ = ["CommandError", "build_parser", "main"]


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a bad option is one line (which option, what it wants), not the usage."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="mjtable",
        description="Physical-table mahjong assistant: score hands, read tiles and dice, "
                    "drive automatic tables.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"ui.commands.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # a bad option: its one line is printed already
        if exc.code == 2:
            return 2
        raise
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # the CLI promises one line, never a traceback
        if os.environ.get("MJTABLE_DEBUG"):
            raise
        print(f"mjtable {args.command}: {error_line(exc)}", file=sys.stderr)
        return 2


def error_line(exc: BaseException) -> str:
    """One readable line for any error; unexpected ones are labelled as internal."""
    from scoring.errors import ScoringError

    if isinstance(exc, CommandError | ScoringError | ValueError | OSError):
        text = str(exc) or type(exc).__name__
        if isinstance(exc, OSError) and exc.filename and str(exc.filename) not in text:
            text = f"{exc.filename}: {text}"
        return text.replace("\n", " ")
    return f"internal error ({type(exc).__name__}): {exc}".replace("\n", " ")


if __name__ == "__main__":
    sys.exit(main())
