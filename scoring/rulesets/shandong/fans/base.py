"""A Shandong 番 item: the shared :class:`scoring.rulesets.fan.Fan`, one condition per item."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from scoring.rulesets.fan import Fan as BaseFan
from scoring.rulesets.shandong.facts import WinFacts


class Fan(BaseFan[WinFacts, Mapping[str, Any]]):
    fan: ClassVar[int]

    def is_condition_met(self, facts: WinFacts, options: Mapping[str, Any]) -> bool:
        raise NotImplementedError
