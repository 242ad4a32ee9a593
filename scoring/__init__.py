"""Tiles, hand records, the hand engine, regional rulesets and settlements.

This package imports nothing else of ours. The public API:

- :func:`parse_tiles`, :func:`format_tiles` — the notation of ``shared/rules/README.md``;
- :func:`load_record` / :class:`HandRecord` — the hand record, validated by field;
- :func:`score` — a :class:`Settlement` under the record's ruleset;
- :func:`is_complete`, :func:`decompositions`, :func:`waits` — the hand engine;
- :func:`get_ruleset`, :func:`known_rulesets` — the rulesets.
"""

from scoring.engine import Decomposition, Group, decompositions, is_complete, waits
from scoring.errors import InvalidHand, RecordError, RulesetNotImplemented, ScoringError, TileError
from scoring.record import HandRecord, Meld, Seat, Win, load_record, parse_record
from scoring.rulesets.registry import get_ruleset, known_rulesets
from scoring.scorer import score
from scoring.settlement import Item, Settlement, Transfer, WinScore
from scoring.tiles import TILE_NAMES, format_tiles, parse_tiles, tile_name

__all__ = [
    "TILE_NAMES", "Decomposition", "Group", "HandRecord", "InvalidHand", "Item", "Meld",
    "RecordError", "RulesetNotImplemented", "ScoringError", "Seat", "Settlement", "TileError",
    "Transfer", "Win", "WinScore", "decompositions", "format_tiles", "get_ruleset",
    "is_complete", "known_rulesets", "load_record", "parse_record", "parse_tiles", "score",
    "tile_name", "waits",
]
