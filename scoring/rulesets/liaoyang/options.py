"""Liaoyang house-rule options and their defaults (shared/rules/liaoyang.md)."""

from scoring.rulesets.base import OptionSpec

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("dice_count", "counter_clockwise",
               "direction in which the dealer's roll counts players to find the second roller",
               choices=("counter_clockwise", "clockwise")),
    OptionSpec("hun_claims", False, "a 混 may be used to 吃, 碰 or 杠"),
    OptionSpec("qidui_counts_bimen", True, "七对 also scores 赢家闭门"),
    OptionSpec("base", 1, "base of P_i = base × 2^(f_w + f_i)"),
    OptionSpec("di", 100, "底: cap on each loser's payment (摇 pays twice the cap)"),
    OptionSpec("bao_value", 10, "each 宝 pays this much per loser"),
    OptionSpec("bao_inside_cap", False, "宝 payments count inside the 底 cap"),
)
