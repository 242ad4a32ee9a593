"""Shandong house-rule options and their defaults (shared/rules/shandong.md)."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.rulesets.base import OptionSpec, RuleOptions, option


@dataclass(frozen=True)
class ShandongOptions(RuleOptions):
    """The resolved house rules, kept apart from the facts of the win."""

    base: int = option(5, "底: the base of one share S = (底 + 花) × 番 × multipliers")
    qidui_four_of_a_kind: bool = option(True, "七对: four identical tiles count as two pairs")
    dihe_after_own_concealed_kong: bool = option(
        False, "地和 also after the winner's own 暗杠 (the original: before any 吃, 碰 or 杠)")
    escape_split: str = option(
        "split",
        "逃跑: the leaver loses (底 + 花) × 10 in all, split among the other three "
        "('split', remainder one point at a time in play order after the leaver), or "
        "pays that amount to each of them ('each')",
        choices=("split", "each"))


Options = ShandongOptions
OPTIONS: tuple[OptionSpec, ...] = ShandongOptions.specs()
