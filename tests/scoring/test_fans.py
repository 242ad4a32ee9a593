"""One fan interface: every scoring item of every ruleset is a :class:`Fan` that names itself
in both languages, says its unit and answers how often it applies."""

from __future__ import annotations

import pytest

from scoring.rulesets.fan import Fan
from scoring.rulesets.liaoyang.fans import LOSER_FANS, WINNER_FANS
from scoring.rulesets.shandong.fans import BIG_HANDS, SMALL_HAND
from scoring.rulesets.shanghai.fans import FLOORS, MULTIPLIERS, PATTERNS

ITEMS = [*BIG_HANDS, SMALL_HAND, *WINNER_FANS, *LOSER_FANS, *PATTERNS, *FLOORS, *MULTIPLIERS]


@pytest.mark.parametrize("item", ITEMS, ids=lambda f: f"{type(f).__module__}.{type(f).__name__}")
def test_every_item_is_a_fan_that_names_itself(item: Fan) -> None:
    assert isinstance(item, Fan)
    assert item.name and item.note and item.note_zh and item.unit in ("fan", "le", "x")
    assert item.fan is None or item.fan >= 1


def test_names_are_unique_within_each_family() -> None:
    for family in (BIG_HANDS, WINNER_FANS, LOSER_FANS, PATTERNS, FLOORS, MULTIPLIERS):
        names = [f.name for f in family]
        assert len(names) == len(set(names)), names


def test_times_and_is_condition_met_agree() -> None:
    """An item that counts (Liaoyang) and one that checks (Shandong) answer both questions."""

    class Counts(Fan[int, None]):
        name, note, note_zh = "n", "n", "n"

        def times(self, facts: int, options: None) -> int:
            return facts

    class Checks(Fan[int, None]):
        name, note, note_zh = "c", "c", "c"

        def is_condition_met(self, facts: int, options: None) -> bool:
            return facts > 2

    assert [Counts().is_condition_met(n, None) for n in (0, 3)] == [False, True]
    assert [Checks().times(n, None) for n in (0, 3)] == [0, 1]
    assert Counts().item(3).value == 3 and Counts().item(3).unit == "fan"
