"""听牌 for a seat under a ruleset: the waits and how many of each tile are still unseen."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scoring.engine import waits
from scoring.record import Meld
from scoring.rulesets.registry import get_ruleset
from scoring.tiles import Tile, next_in_cycle


def wildcards_for(ruleset: str | None, options: Mapping[str, Any] | None = None,
                  context: Mapping[str, Any] | None = None) -> frozenset[Tile]:
    """The wildcard kinds this hand: the ruleset's, or without one the tile after an indicator."""
    context = context or {}
    if ruleset:
        rs = get_ruleset(ruleset)
        return rs.wildcards(rs.resolve_options(options or {}), context)
    indicator = context.get("indicator")
    return frozenset({next_in_cycle(indicator)}) if indicator is not None else frozenset()


def seat_waits(concealed: Sequence[Tile], melds: Sequence[Meld] = (), *,
               ruleset: str | None = None, options: Mapping[str, Any] | None = None,
               context: Mapping[str, Any] | None = None,
               visible: Iterable[Tile] = ()) -> list[tuple[Tile, int]]:
    """Waits of a 13-tile hand (kongs count 3) with the copies left of each.

    ``visible`` are other tiles the table shows (discards, other melds, the indicator), which
    lower the count left. With a ruleset its own winning shapes and wildcards apply; without one,
    the standard shape and seven pairs, and ``context["indicator"]`` names a Liaoyang-style 混.
    """
    context = dict(context or {})
    melds = tuple(melds)
    if len(concealed) + 3 * len(melds) != 13:
        return []
    wild = wildcards_for(ruleset, options, context)
    if ruleset:
        rs = get_ruleset(ruleset)
        opts = rs.resolve_options(options or {})
        found = waits(concealed, wild, predicate=lambda hand: rs.is_winning_hand(
            hand, melds, opts, context))
    else:
        found = waits(concealed, wild, seven_pairs=not melds)
    seen = Counter(concealed) + Counter(t for m in melds for t in m.tiles) + Counter(visible)
    return [(t, max(0, 4 - seen[t])) for t in found]
