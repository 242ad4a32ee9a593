"""推倒和: the small hand, 1 番, scored only when no 大和 item applies (the evaluator decides)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.rulesets.shandong.facts import WinFacts
from scoring.rulesets.shandong.fans.base import Fan


class TuiDaoHe(Fan):
    name = "推倒和"
    fan = 1
    note = "no big-hand item applies"
    note_zh = "没有任何大和项目"

    def is_condition_met(self, facts: WinFacts, options: Mapping[str, Any]) -> bool:
        return True
