"""JSON from outside (files, stdin, the dashboard, the match log), bounded before it is parsed.

``json.loads`` recurses once per nesting level and turns any run of digits into an integer, so
a hostile or broken file could crash the parser (``RecursionError``) or hand the rulesets a
5,000-digit number. :func:`load_json` checks size, depth and number sizes first, and every
refusal is one line in the caller's error type.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path
from typing import Any

from scoring.errors import RecordError

MAX_BYTES = 1 << 20  # a hand record is a few kB, a whole match export well under a MB
MAX_DEPTH = 32  # a hand record nests 5 deep, a match event 7
MAX_DIGITS = 18  # integers stay inside 64 bits: no ruleset counts or pays more than that

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def load_json(source: str | bytes | bytearray, what: str = "",
              error: type[Exception] = RecordError) -> Any:
    """Decode ``source`` as UTF-8 JSON within the limits above; ``error`` for anything else.

    ``what`` (e.g. a file name) starts each message, so the line says which input is wrong.
    """
    at = f"{what}: " if what else ""
    if isinstance(source, bytes | bytearray):
        if len(source) > MAX_BYTES:
            raise error(f"{at}too large ({len(source)} bytes; at most {MAX_BYTES})")
        try:
            source = bytes(source).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise error(f"{at}not UTF-8 text (byte {exc.start})") from None
    if len(source) > MAX_BYTES:
        raise error(f"{at}too large ({len(source)} characters; at most {MAX_BYTES})")
    depth = nesting_depth(source)
    if depth > MAX_DEPTH:
        raise error(f"{at}nested deeper than {MAX_DEPTH} levels")

    def whole(text: str) -> int:
        if len(text.lstrip("-")) > MAX_DIGITS:
            raise error(f"{at}a number of {len(text.lstrip('-'))} digits "
                        f"(at most {MAX_DIGITS})")
        return int(text)

    def real(text: str) -> float:
        value = float(text)
        if not math.isfinite(value):
            raise error(f"{at}a number too large for a float: {text[:20]}")
        return value

    def constant(text: str) -> Any:
        raise error(f"{at}{text} is not JSON")

    try:
        return json.loads(source, parse_int=whole, parse_float=real, parse_constant=constant)
    except json.JSONDecodeError as exc:
        raise error(f"{at}not valid JSON: {exc.msg} at line {exc.lineno} column "
                    f"{exc.colno}") from None


def read_json_file(path: str | Path, error: type[Exception] = RecordError) -> Any:
    """:func:`load_json` of a file (``-``: stdin), reading no more than the size limit."""
    name = str(path)
    if name == "-":
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
        name = "stdin"
    else:
        with Path(path).open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    return load_json(data, name, error)


def nesting_depth(text: str) -> int:
    """How deep ``[`` and ``{`` nest in JSON text, brackets inside strings left out.

    Stops counting once past :data:`MAX_DEPTH`, so a million open brackets cost nothing.
    """
    depth = deepest = 0
    for c in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        if c in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > MAX_DEPTH:
                    break
        else:
            depth -= 1
    return deepest
