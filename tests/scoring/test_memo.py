"""``forget_all`` empties every memo, ``memo_table`` ones too, so a cold score is a true one."""

from __future__ import annotations

import json
from pathlib import Path

from scoring import ScoringError, score
from scoring.memo import forget_all, memo_table

CASES = Path(__file__).resolve().parents[1] / "cases" / "liaoyang"


def test_forget_all_empties_memo_tables() -> None:
    table = memo_table()
    table["key"] = 1
    forget_all()
    assert table == {}


def test_liaoyang_losers_score_alike_cold_and_warm() -> None:
    """The loser memo's first evaluation reads the loser itself: a cold pass gives what the
    remembered one does."""
    records = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(CASES.glob("*.json"))
               if not p.name.endswith(".expect.json")]
    settled = []
    for data in records:
        try:
            settled.append((data, score(data).to_json()))
        except ScoringError:  # (refused records are not what this is about)
            continue
    assert len(settled) > 10
    for data, warm in settled:
        assert score(data).to_json() == warm
    forget_all()
    for data, warm in reversed(settled):
        assert score(data).to_json() == warm
