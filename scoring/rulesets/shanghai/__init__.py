"""The shanghai ruleset (spec: shared/rules/shanghai.md).

Public pieces besides ``RULESET``: :func:`louhu.may_win_on_discard` (漏胡) for the match engine,
:func:`table.escape_room_fee` (the 25% of an escape penalty that leaves the table).
"""

from scoring.rulesets.shanghai.louhu import LouHu, may_win_on_discard
from scoring.rulesets.shanghai.ruleset import ShanghaiRuleset
from scoring.rulesets.shanghai.table import escape_room_fee

RULESET = ShanghaiRuleset()

__all__ = ["RULESET", "LouHu", "ShanghaiRuleset", "escape_room_fee", "may_win_on_discard"]
