"""What every ruleset provides: its options, its own record checks, its winning shapes, scoring.

The CLI, the match engine and the dashboard talk to a ruleset only through this interface, so a
ruleset is one package under ``scoring/rulesets/<name>/`` exporting ``RULESET``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from scoring.errors import RecordError
from scoring.record import HandRecord, Meld
from scoring.settlement import Settlement, Transfer


@dataclass(frozen=True)
class WallBreak:
    """Where the wall is broken, from the dice: what a referee reads out at the table."""

    rollers: tuple[int, ...]  # the seats that rolled, in order
    wall_seat: int  # the seat in front of which the broken wall stands
    stacks_skipped: int  # stacks (墩) counted from that wall's right end; drawing starts after
    indicator_stack: int | None = None  # Liaoyang: the stack whose top tile is turned over
    explanation: str = ""


@dataclass(frozen=True)
class OptionSpec:
    """A house-rule option: its name, default, accepted values and what it changes."""

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None  # None: any value of the default's type
    kind: type | None = None  # the values' type when the default is None (a derived default)
    #: the largest number accepted: a house rule beyond it is a typo, and payments stay exact
    maximum: int = 1_000_000

    def check(self, value: Any, where: str) -> Any:
        if self.choices is not None:
            if value not in self.choices:
                raise RecordError(f"must be one of {', '.join(map(repr, self.choices))}, "
                                  f"got {value!r}", where)
            return value
        if value is None and self.default is None:
            return value
        kind = self.kind or type(self.default)
        if kind is bool:
            ok = isinstance(value, bool)
        elif kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        elif kind is float:
            ok = isinstance(value, int | float) and not isinstance(value, bool) and value >= 0
        else:
            ok = isinstance(value, kind)
        if not ok:
            raise RecordError(f"must be a {kind.__name__} like the default {self.default!r}, "
                              f"got {_short(value)}", where)
        if kind in (int, float) and not value <= self.maximum:  # also refuses NaN
            raise RecordError(f"must be at most {self.maximum}, got {_short(value)}", where)
        return value


def _short(value: Any) -> str:
    """``repr`` cut to a readable length (a 5,000-digit number is not shown whole)."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**30 else "a huge number"
    return text if len(text) <= 60 else text[:57] + "..."


def resolve_options(specs: tuple[OptionSpec, ...], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults overlaid with validated overrides; an unknown name is an error."""
    by_name = {s.name: s for s in specs}
    out = {s.name: s.default for s in specs}
    for key, value in overrides.items():
        spec = by_name.get(key)
        if spec is None:
            known = ", ".join(sorted(by_name)) or "none"
            raise RecordError(f"unknown option (this ruleset has: {known})", f"options.{key}")
        out[key] = spec.check(value, f"options.{key}")
    return out


class Ruleset(ABC):
    name: ClassVar[str]
    title: ClassVar[str]  # e.g. "山东麻将"
    options: ClassVar[tuple[OptionSpec, ...]]
    #: the settlement's detail and counter keys as a referee reads them: key -> (English, 中文)
    detail_labels: ClassVar[Mapping[str, tuple[str, str]]] = {}

    def resolve_options(self, overrides: Mapping[str, Any]) -> dict[str, Any]:
        return resolve_options(self.options, overrides)

    def validate(self, record: HandRecord) -> None:  # noqa: B027 - optional hook
        """Raise :class:`RecordError` / :class:`InvalidHand` for what this ruleset forbids."""

    @abstractmethod
    def score(self, record: HandRecord) -> Settlement:
        """Score a validated record. Raises :class:`InvalidHand` for a win the rules refuse."""

    def wall_break(self, dealer: int, rolls: Sequence[tuple[int, int]],
                   options: Mapping[str, Any]) -> WallBreak:
        """Which wall and stack to break from this hand's dice rolls (one pair per roll)."""
        raise NotImplementedError(f"{self.name}: wall_break is not implemented")

    def escape_penalty(self, leaver: int, flower_points: int,
                       options: Mapping[str, Any]) -> list[Transfer]:
        """What a player who leaves a game in progress pays, and to whom."""
        raise NotImplementedError(f"{self.name}: escape_penalty is not implemented")

    def wildcards(self, options: Mapping[str, Any], context: Mapping[str, Any]) -> frozenset[int]:
        """Tile kinds that are wildcards this hand (Liaoyang 混); none by default."""
        return frozenset()

    def is_winning_hand(self, concealed: list[int], melds: tuple[Meld, ...],
                        options: Mapping[str, Any], context: Mapping[str, Any]) -> bool:
        """Does this 14-tile hand have a shape this ruleset lets win (used for 听 / waits)?

        The default is the standard shape or seven pairs; rulesets narrow it.
        """
        from scoring.engine import is_complete

        wild = self.wildcards(options, context)
        return is_complete(concealed, wildcards=wild)
