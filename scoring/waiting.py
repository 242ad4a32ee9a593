"""听牌 for a seat under a ruleset: the waits and how many of each tile are still unseen."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scoring.engine import waits
from scoring.errors import ScoringError
from scoring.record import Meld
from scoring.rulesets.base import STANDARD, Ruleset
from scoring.rulesets.registry import get_ruleset, rules_for
from scoring.tiles import Tile


def rules_and_options(ruleset: str | None, options: Mapping[str, Any] | None = None,
                      lenient: bool = False) -> tuple[Ruleset, dict[str, Any]]:
    """The ruleset and its resolved options; ``lenient``: the standard shapes where the name or
    the options are not usable (a camera that cannot stop for a typo), else the error."""
    rs = rules_for(ruleset) if lenient else (get_ruleset(ruleset) if ruleset else STANDARD)
    try:
        return rs, rs.resolve_options(options or {})
    except ScoringError:
        if not lenient:
            raise
        return STANDARD, {}


def wildcards_for(ruleset: str | None, options: Mapping[str, Any] | None = None,
                  context: Mapping[str, Any] | None = None, *,
                  lenient: bool = False) -> frozenset[Tile]:
    """The wildcard kinds this hand, as the ruleset (or with none, :class:`StandardRules`)
    reads ``context``."""
    rs, opts = rules_and_options(ruleset, options, lenient)
    return rs.wildcards(opts, context or {})


def seat_waits(concealed: Sequence[Tile], melds: Sequence[Meld] = (), *,
               ruleset: str | None = None, options: Mapping[str, Any] | None = None,
               context: Mapping[str, Any] | None = None,
               visible: Iterable[Tile] = (), lenient: bool = False) -> list[tuple[Tile, int]]:
    """Waits of a 13-tile hand (kongs count 3) with the copies left of each.

    ``visible`` are other tiles the table shows (discards, other melds, the indicator), which
    lower the count left. With a ruleset its own winning shapes and wildcards apply; without one,
    the standard shape and seven pairs, and ``context["indicator"]`` names the tile before the
    wildcard. ``lenient``: fall back to those where the ruleset cannot answer.
    """
    context = dict(context or {})
    melds = tuple(melds)
    if len(concealed) + 3 * len(melds) != 13:
        return []
    rs, opts = rules_and_options(ruleset, options, lenient)
    try:
        found = _waits(rs, concealed, melds, opts, context)
    except ScoringError:
        if not lenient:
            raise
        found = _waits(STANDARD, concealed, melds, {}, context)
    seen = Counter(concealed) + Counter(t for m in melds for t in m.tiles) + Counter(visible)
    return [(t, max(0, 4 - seen[t])) for t in found]


def _waits(rs: Ruleset, concealed: Sequence[Tile], melds: tuple[Meld, ...],
           opts: dict[str, Any], context: dict[str, Any]) -> list[Tile]:
    wild = rs.wildcards(opts, context)
    if rs is STANDARD:  # the engine's own shape test, without a predicate per tile
        return waits(concealed, wild, seven_pairs=not melds)
    return waits(concealed, wild, predicate=lambda hand: rs.is_winning_hand(
        hand, melds, opts, context))
