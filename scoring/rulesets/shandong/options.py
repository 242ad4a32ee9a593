"""Shandong house-rule options and their defaults (shared/rules/shandong.md)."""

from scoring.rulesets.base import OptionSpec

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("base", 5, "底: the base of one share S = (底 + 花) × 番 × multipliers"),
    OptionSpec("qidui_four_of_a_kind", True, "七对: four identical tiles count as two pairs"),
    OptionSpec("dihe_after_own_concealed_kong", False,
               "地和 also after the winner's own 暗杠 (the original: before any 吃, 碰 or 杠)"),
    OptionSpec("escape_split", "split",
               "逃跑: the leaver loses (底 + 花) × 10 in all, split among the other three "
               "('split', remainder one point at a time in play order after the leaver), or "
               "pays that amount to each of them ('each')",
               choices=("split", "each")),
)
