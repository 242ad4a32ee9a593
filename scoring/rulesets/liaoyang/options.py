"""Liaoyang house-rule options and their defaults (shared/rules/liaoyang.md)."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.rulesets.base import OptionSpec, RuleOptions, at_least_one, option

BAO_SHARE_OF_DI = 10  # one 宝 is worth 10% of the 底


@dataclass(frozen=True)
class LiaoyangOptions(RuleOptions):
    """The resolved house rules, kept apart from the facts of the win."""

    dice_count: str = option(
        "counter_clockwise",
        "direction in which the dealer's roll counts players to find the second roller",
        choices=("counter_clockwise", "clockwise"))
    hun_claims: bool = option(
        False, "a 混 may be used to 碰 or 杠 (never to 吃: \"混不能…用于吃牌\")")
    qidui_counts_bimen: bool = option(True, "七对 also scores 赢家闭门")
    base: int = option(1, "base of P_i = base × 2^(f_w + f_i)")
    di: int = option(100, "底: cap on each loser's payment (摇 pays twice the cap)")
    bao_value: int | None = option(
        None, "each 宝 pays this much per loser; default (None) 10% of the 底, rounded down "
        "(\"价值为底的10％\")", kind=int)
    bao_inside_cap: bool = option(False, "宝 payments count inside the 底 cap")

    @property
    def bao_points(self) -> int:
        """What one 宝 costs each loser: ``bao_value``, or 10% of the 底 when it is not set."""
        return self.di // BAO_SHARE_OF_DI if self.bao_value is None else self.bao_value

    def check(self) -> None:
        """A base or 底 of 0: every payment would be 0, or every win a 摇."""
        at_least_one(self, "base", "di")


Options = LiaoyangOptions
OPTIONS: tuple[OptionSpec, ...] = LiaoyangOptions.specs()
