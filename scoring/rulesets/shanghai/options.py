"""Shanghai house-rule options and their defaults (shared/rules/shanghai.md)."""

from scoring.rulesets.base import OptionSpec

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("base", 2,
               "底: base value for 碰碰胡 and 混一色 (底 + 花); also the escape penalty"),
    OptionSpec("le", 10, "points in one 勒子"),
    OptionSpec("dadiaoche_counts_concealed_kong", True,
               "大吊车: a 暗杠 counts as a laid-down meld"),
    OptionSpec("hand_cap_le", 5,
               "no player pays more than this many 勒子 for one hand (0: no hand cap)"),
    OptionSpec("multi_win_dealer", "nearest_winner_next",
               "next dealer after 一炮多响: the 下家 of the winner nearest the discarder (the "
               "original), or that winner", choices=("nearest_winner_next", "nearest_winner")),
    OptionSpec("exchange", False,
               "换牌: after the deal each player may bury 5 tiles and swap them with wall tiles "
               "(a match phase: each seat is recorded as done or not)"),
    OptionSpec("chengbao_selfdraw_shares", 5,
               "承包 on a self-draw: the partner pays this many shares U in all (the original "
               "5 = U + 4U; 3 = U + 2U)", choices=(5, 3)),
)
