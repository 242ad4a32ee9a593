"""Shanghai house-rule options and their defaults (shared/rules/shanghai.md)."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.rulesets.base import OptionSpec, RuleOptions, at_least_one, option


@dataclass(frozen=True)
class ShanghaiOptions(RuleOptions):
    """The resolved house rules, kept apart from the facts of the win."""

    base: int = option(2, "底: base value for 碰碰胡 and 混一色 (底 + 花); also the escape penalty")
    le: int = option(10, "points in one 勒子")
    dadiaoche_counts_concealed_kong: bool = option(
        True, "大吊车: a 暗杠 counts as a laid-down meld")
    hand_cap_le: int = option(
        5, "no player pays more than this many 勒子 for one hand (0: no hand cap)")
    multi_win_dealer: str = option(
        "nearest_winner_next",
        "next dealer after 一炮多响: the 下家 of the winner nearest the discarder (the "
        "original), or that winner", choices=("nearest_winner_next", "nearest_winner"))
    exchange: bool = option(
        False, "换牌: after the deal each player may bury 5 tiles and swap them with wall tiles "
        "(a match phase: each seat is recorded as done or not)")
    chengbao_selfdraw_shares: int = option(
        5, "承包 on a self-draw: the partner pays this many shares U in all (the original "
        "5 = U + 4U; 3 = U + 2U)", choices=(5, 3))

    def check(self) -> None:
        """A 勒子 of 0 points makes every capped payment 0."""
        at_least_one(self, "le")


Options = ShanghaiOptions
OPTIONS: tuple[OptionSpec, ...] = ShanghaiOptions.specs()
