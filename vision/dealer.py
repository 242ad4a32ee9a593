"""Who deals the next hand, as the camera saw the last one end.

The live pipeline follows hand after hand without a match log (``mjtable watch``): when a fresh
wall stands after a win or a drawn hand (荒庄), the next dealer is the one the ruleset's
settlement names for the hand just seen, so the next hand's dice are credited to the right seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring import score
from scoring.errors import ScoringError
from scoring.record import parse_record
from vision.dice import DiceReading
from vision.geometry import TableReading
from vision.reading import build_record


def dealer_after(table: TableReading, ruleset: str | None, dealer: int, winner: int,
                 dice: DiceReading | None = None,
                 options: Mapping[str, Any] | None = None) -> int | None:
    """The next dealer after ``winner`` won on this table; ``None`` when the reading cannot be
    scored (no ruleset, tiles unread): then the dealer is left as it was."""
    if not ruleset:
        return None
    try:
        record, _ = build_record(table, ruleset=ruleset, dealer=dealer, winner=winner,
                                 dice=dice, options=options)
        return score(parse_record(record)).next_dealer
    except (ScoringError, ValueError):
        return None


def dealer_after_draw(ruleset: str | None, dealer: int,
                      options: Mapping[str, Any] | None = None) -> int | None:
    """The next dealer after a hand the wall ended without a winner, as the ruleset settles a
    drawn hand (the dealer stays, or the deal passes on); ``None`` without a ruleset."""
    if not ruleset:
        return None
    try:
        record = parse_record({"ruleset": ruleset, "dealer": dealer, "outcome": "draw",
                               "seats": [{} for _ in range(4)],
                               "options": dict(options or {})})
        return score(record).next_dealer
    except (ScoringError, ValueError):
        return None
