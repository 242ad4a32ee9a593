"""The shandong ruleset (spec: shared/rules/shandong.md).

``RULESET`` scores hand records; :func:`level_for` gives the 等级 for a cumulative score and
:func:`hua_points` a player's 花 (for the escape penalty).
"""

from scoring.rulesets.shandong.hua import hua_points
from scoring.rulesets.shandong.levels import LEVELS, level_for, level_number
from scoring.rulesets.shandong.ruleset import ShandongRuleset

RULESET = ShandongRuleset()

__all__ = ["LEVELS", "RULESET", "ShandongRuleset", "hua_points", "level_for", "level_number"]
