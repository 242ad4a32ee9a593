"""等级: the level name for a player's cumulative score (shared/rules/shandong.md, Levels).

Each number in the table is the score at which the level is reached; a score below 200 (negative
scores included) is 白板, so 白板 covers the table's "100 and below" and the gap up to 一万.
"""

from __future__ import annotations

from bisect import bisect_right

LEVELS: tuple[tuple[str, int], ...] = (
    ("白板", 0), ("一万", 200), ("二万", 500), ("三万", 1000), ("四万", 2000), ("五万", 5000),
    ("六万", 10000), ("七万", 20000), ("八万", 50000), ("九万", 80000), ("东风", 100000),
    ("西风", 200000), ("南风", 500000), ("北风", 800000), ("中", 1000000), ("发", 2000000),
    ("雀神", 5000000),
)
_THRESHOLDS = tuple(t for _, t in LEVELS[1:])


def level_number(score: int) -> int:
    """1 (白板) .. 17 (雀神) for a cumulative score."""
    if isinstance(score, bool) or not isinstance(score, int):
        raise ValueError(f"a cumulative score is a whole number, got {score!r}")
    return bisect_right(_THRESHOLDS, score) + 1


def level_for(score: int) -> str:
    """The level name (等级名) for a cumulative score, e.g. ``level_for(600) == "二万"``."""
    return LEVELS[level_number(score) - 1][0]
