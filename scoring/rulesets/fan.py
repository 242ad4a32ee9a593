"""One fan interface for every ruleset: a scoring item is one small class (cf. a riichi Yaku).

Each item holds its Chinese name, its value per occurrence in its unit (番, 勒子, ×), and what it
needs in a few words in English and Chinese, and answers one question about the facts of a win
(``times``, or ``is_condition_met`` for an item that applies at most once). The order of the
items and the exclusions between them belong to the ruleset's evaluator, not to the items.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

from scoring.settlement import Item

FactsT = TypeVar("FactsT")  # what an item looks at (a reading, a loser's seat, a hand)
OptionsT = TypeVar("OptionsT")  # the ruleset's resolved options


class Fan(Generic[FactsT, OptionsT]):
    name: ClassVar[str]
    #: value per occurrence in ``unit``; ``None`` where the evaluator computes it (底 + 花)
    fan: ClassVar[int | None] = 1
    unit: ClassVar[str] = "fan"
    note: ClassVar[str] = ""  # the condition in a few English words, shown to the referee
    note_zh: ClassVar[str] = ""  # the same in Chinese

    def times(self, facts: FactsT, options: OptionsT) -> int:
        """How many times the item applies to these facts (0: it does not)."""
        return int(self.is_condition_met(facts, options))

    def is_condition_met(self, facts: FactsT, options: OptionsT) -> bool:
        """Does the item apply at all? (Override this or :meth:`times`.)"""
        return self.times(facts, options) > 0

    def item(self, times: int = 1, note: str = "", note_zh: str = "", **extra: Any) -> Item:
        """The referee's line for this item applied ``times`` times."""
        value = (self.fan or 0) * times
        return Item(self.name, value, self.unit, note or self.note, note_zh or self.note_zh,
                    **extra)
