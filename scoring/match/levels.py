"""Shandong levels (等级) from a player's cumulative score, for the match view."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.settlement import Number


def levels_for(ruleset: str, totals: Sequence[Number]) -> list[str] | None:
    """Each player's level where the ruleset has levels (Shandong), else ``None``.

    The table belongs to the ruleset: this asks ``scoring.rulesets.shandong`` for its level
    function and returns ``None`` while that ruleset has none.
    """
    if ruleset != "shandong":
        return None
    try:
        from scoring.rulesets.shandong import levels as module  # type: ignore[attr-defined]
    except ImportError:
        return None
    fn = getattr(module, "level_for", None) or getattr(module, "level", None)
    if fn is None:
        return None
    return [str(fn(t)) for t in totals]
