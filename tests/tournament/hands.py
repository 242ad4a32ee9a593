"""Finished hands for tournament tests and the bench: the rulesets' worked cases, re-dealt.

A worked hand record of ``tests/cases`` is typed into a table's match at the point it has
reached (its dealer, counters cleared from the record so the match fills them); the match log
is built through the match engine's own store, so every event is one a table really writes.
"""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

from scoring.match import EventRefused, LoggedEvent, MatchState, event_from_json
from scoring.match.events import HandRecorded, MatchCreated

CASES = Path(__file__).resolve().parent.parent / "cases"


@cache
def worked_records(ruleset: str) -> tuple[str, ...]:
    out = []
    for path in sorted((CASES / ruleset).glob("*.json")):
        if path.name.endswith(".expect.json"):
            continue
        answer = json.loads(path.with_name(path.stem + ".expect.json").read_text("utf-8"))
        if "error" not in answer:
            out.append(path.read_text("utf-8"))
    return tuple(out)


def typed_in(record: dict[str, Any], state: MatchState) -> dict[str, Any]:
    rec = json.loads(json.dumps(record))
    rec["dealer"] = state.dealer
    rec["options"] = {}
    for key in ("huangzhuang_streak", "huangfan"):
        rec.get("context", {}).pop(key, None)
    return rec


def next_hand(state: MatchState, rng: random.Random) -> tuple[HandRecorded, MatchState]:
    """A hand the match accepts at this point, and the match after it."""
    records = list(worked_records(state.ruleset))
    rng.shuffle(records)
    for text in records:
        event = HandRecorded(record=typed_in(json.loads(text), state))
        try:
            return event, state.apply(event, state.seq + 1)
        except EventRefused:
            continue
    raise AssertionError(f"no worked {state.ruleset} case fits this point of the match")


def table_log(ruleset: str, players: tuple[str, ...], hands: int, seed: int,
              options: dict[str, Any] | None = None) -> list[LoggedEvent]:
    """A match log of ``hands`` typed-in hands, as (seq, event) rows with increasing times."""
    rng = random.Random(seed)
    created = MatchCreated(ruleset=ruleset, players=tuple(players),  # type: ignore[arg-type]
                           first_dealer=0, options=dict(options or {}))
    created = event_from_json(created.to_json())  # type: ignore[assignment]
    state = MatchState.create(created)
    state.seq = 1
    log = [LoggedEvent(1, created, _at(seed, 0), "table")]
    for n in range(hands):
        event, state = next_hand(state, rng)
        log.append(LoggedEvent(n + 2, event, _at(seed, n + 1), "table"))
    return log


def _at(seed: int, n: int) -> str:
    return f"2026-12-02T08:{n // 60:02d}:{n % 60:02d}.{seed % 1000:03d}Z"
