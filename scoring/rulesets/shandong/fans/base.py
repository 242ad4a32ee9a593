"""A 番 item: Chinese name and value as class attributes, and one condition (cf. Yaku)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from scoring.rulesets.shandong.facts import WinFacts


class Fan:
    name: ClassVar[str]
    fan: ClassVar[int]
    note: ClassVar[str]  # the condition in a few English words, shown to the referee
    note_zh: ClassVar[str]  # the same in Chinese

    def is_condition_met(self, facts: WinFacts, options: Mapping[str, Any]) -> bool:
        raise NotImplementedError
