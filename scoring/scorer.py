"""One entry point for scoring a hand record under its ruleset."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.record import HandRecord, load_record
from scoring.rulesets.registry import get_ruleset
from scoring.settlement import Settlement


def score(record: HandRecord | str | bytes | Mapping[str, Any]) -> Settlement:
    """Validate and score a hand record (object, JSON text or decoded JSON).

    Raises :class:`~scoring.errors.RecordError` for a malformed record,
    :class:`~scoring.errors.InvalidHand` for a win the ruleset refuses and
    :class:`~scoring.errors.RulesetNotImplemented` for a ruleset not built yet.
    """
    if not isinstance(record, HandRecord):
        record = load_record(record)
    ruleset = get_ruleset(record.ruleset)
    settlement = ruleset.score(record)  # validates once, as the ruleset's own checks say
    if abs(sum(settlement.payments)) > 1e-9:
        raise AssertionError(f"{record.ruleset} produced a settlement that is not zero-sum: "
                             f"{settlement.payments}")
    return settlement
