"""Liaoyang house-rule options and their defaults (shared/rules/liaoyang.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.errors import RecordError
from scoring.rulesets.base import OptionSpec, resolve_options

BAO_SHARE_OF_DI = 10  # one 宝 is worth 10% of the 底

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("dice_count", "counter_clockwise",
               "direction in which the dealer's roll counts players to find the second roller",
               choices=("counter_clockwise", "clockwise")),
    OptionSpec("hun_claims", False,
               "a 混 may be used to 碰 or 杠 (never to 吃: \"混不能…用于吃牌\")"),
    OptionSpec("qidui_counts_bimen", True, "七对 also scores 赢家闭门"),
    OptionSpec("base", 1, "base of P_i = base × 2^(f_w + f_i)"),
    OptionSpec("di", 100, "底: cap on each loser's payment (摇 pays twice the cap)"),
    OptionSpec("bao_value", None,
               "each 宝 pays this much per loser; default (None) 10% of the 底, rounded down "
               "(\"价值为底的10％\")", kind=int),
    OptionSpec("bao_inside_cap", False, "宝 payments count inside the 底 cap"),
)


@dataclass(frozen=True)
class LiaoyangOptions:
    """The resolved house rules, kept apart from the facts of the win."""

    dice_count: str = "counter_clockwise"
    hun_claims: bool = False
    qidui_counts_bimen: bool = True
    base: int = 1
    di: int = 100
    bao_value: int | None = None
    bao_inside_cap: bool = False

    @property
    def bao_points(self) -> int:
        """What one 宝 costs each loser: ``bao_value``, or 10% of the 底 when it is not set."""
        return self.di // BAO_SHARE_OF_DI if self.bao_value is None else self.bao_value

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> LiaoyangOptions:
        """Defaults overlaid with validated overrides; unknown names raise ``RecordError``, and
        so do a base or 底 of 0 (every payment would be 0, or every win a 摇)."""
        resolved = resolve_options(OPTIONS, values)
        for name in ("base", "di"):
            if resolved[name] < 1:
                raise RecordError(f"must be at least 1, got {resolved[name]!r}", f"options.{name}")
        return cls(**resolved)
