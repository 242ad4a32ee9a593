"""The liaoyang ruleset (spec: shared/rules/liaoyang.md)."""

from scoring.rulesets.liaoyang.dice import draw_threshold, is_fenzhang, second_roller
from scoring.rulesets.liaoyang.ruleset import RULESET, LiaoyangRuleset
from scoring.rulesets.liaoyang.wild import hun_may_be_claimed, hun_of, jiqiang_of

__all__ = ["RULESET", "LiaoyangRuleset", "draw_threshold", "hun_may_be_claimed", "hun_of",
           "is_fenzhang", "jiqiang_of", "second_roller"]
