"""Number options of the command line: finite, of the right kind, and in range, or refused.

``float("nan")`` passes every ``x <= 0`` check and ``float("inf")`` overflows the first
``time.monotonic() + x``, so a bare ``type=float`` lets both through to hang or crash far from
the option. Each number option uses :func:`number` instead, which says the range it accepts.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

#: no option means more than this; SQLite and the C libraries behind numpy stop at 2**63
LARGEST = 2**62


def number(kind: type[int] | type[float] = float, low: float | None = None,
           high: float | None = None, *, above: bool = False,
           unit: str = "") -> Callable[[str], float]:
    """An argparse ``type``: a finite ``kind`` within ``low..high`` (``above``: more than low)."""
    def parse(text: str) -> float:
        try:
            value: float = kind(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected {describe_range(kind, low, high, above, unit)}, got {text!r}") from None
        if not math.isfinite(value) or abs(value) > LARGEST or (low is not None and (
                value < low or (above and value == low))) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(
                f"expected {describe_range(kind, low, high, above, unit)}, got {text!r}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in some messages
    return parse


def describe_range(kind: type[int] | type[float], low: float | None, high: float | None,
                   above: bool = False, unit: str = "") -> str:
    """``a whole number 1..256``, ``a finite number > 0 (seconds)`` and the like."""
    what = "a whole number" if kind is int else "a finite number"

    def show(v: float) -> str:
        return f"{v:g}" if kind is float else str(int(v))

    if low is not None and high is not None and not above:
        text = f"{what} {show(low)}..{show(high)}"
    elif low is not None and high is not None:
        text = f"{what} > {show(low)} and <= {show(high)}"
    elif low is not None:
        text = f"{what} {'>' if above else '>='} {show(low)}"
    elif high is not None:
        text = f"{what} <= {show(high)}"
    else:
        text = what
    return f"{text} ({unit})" if unit else text


#: the options that recur across subcommands
SEAT = number(int, 0, 3)
THREADS = number(int, 1, 256)
CONFIDENCE = number(float, 0, 1)
PIXELS = number(int, 32, 8192, unit="pixels")
SEED = number(int, 0, 2**32 - 1)
MATCH_ID = number(int, 1)
