"""What every ruleset provides: its options, its own record checks, its winning shapes, scoring,
and the table procedure the match engine, vision and the dashboard follow.

The CLI, the match engine, vision and the dashboard talk to a ruleset only through this
interface (they never name one), so a ruleset is one package under
``scoring/rulesets/<name>/`` exporting ``RULESET``, or any :class:`Ruleset` given to
:func:`scoring.rulesets.registry.register`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar, Self

from scoring.errors import RecordError, ScoringError
from scoring.settlement import Number, Settlement, Transfer
from scoring.tiles import Tile, next_in_cycle

if TYPE_CHECKING:  # (annotations only: the record module reads the registry when it parses)
    from scoring.record import HandRecord, Meld, Seat


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


def option(default: Any, doc: str, *, choices: tuple[Any, ...] | None = None,
           kind: type | None = None, maximum: int = 1_000_000) -> Any:
    """A field of a :class:`RuleOptions` dataclass: its default and what it changes."""
    return field(default=default, metadata={"doc": doc, "choices": choices, "kind": kind,
                                            "maximum": maximum})


@dataclass(frozen=True)
class RuleOptions:
    """A ruleset's house rules, resolved once (defaults, then the validated overrides) when a
    record or a match is opened. Subclasses are frozen dataclasses of :func:`option` fields;
    ``options["name"]`` reads a field too, for code written against the mapping form."""

    @classmethod
    def specs(cls) -> tuple[OptionSpec, ...]:
        found = cls.__dict__.get("_specs")
        if found is None:
            found = tuple(OptionSpec(f.name, f.default, f.metadata["doc"], f.metadata["choices"],
                                     f.metadata["kind"], f.metadata["maximum"])
                          for f in fields(cls))
            cls._specs = found  # type: ignore[attr-defined]
        return found  # type: ignore[no-any-return]

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Self:
        """Defaults overlaid with validated overrides; unknown names and settings under which
        nothing could ever be paid (:meth:`check`) raise ``RecordError``."""
        if isinstance(values, cls):
            return values
        if not values:  # the defaults: one frozen instance serves every record
            default = cls.__dict__.get("_default")
            if default is None:
                default = cls()
                default.check()
                cls._default = default  # type: ignore[attr-defined]
            return default  # type: ignore[no-any-return]
        out = cls(**resolve_options(cls.specs(), values))
        out.check()
        return out

    def check(self) -> None:
        """Refuse settings that would zero every payment (say which option)."""

    # ``options["name"]`` is ``getattr(options, "name")``; the slot itself, so a lookup in the
    # scoring loops enters no Python frame
    __getitem__ = object.__getattribute__

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def at_least_one(options: RuleOptions, *names: str) -> None:
    """:meth:`RuleOptions.check` for numbers that every payment is a multiple of."""
    for name in names:
        if getattr(options, name) < 1:
            raise RecordError(f"must be at least 1 (with {getattr(options, name)!r} every "
                              "payment would be 0), got " + repr(getattr(options, name)),
                              f"options.{name}")


@dataclass(frozen=True)
class WinnerFacts:
    """What the match engine knows of a seat about to win, for :meth:`Ruleset.win_refusal`."""

    seat: int
    by: str  # "self_draw", "discard" or "rob_kong"
    tile: Tile
    declared: str | None = None  # a declaration of :attr:`Ruleset.declarations`
    hun_discarded: int = 0  # wildcards this seat discarded this hand
    passed: frozenset[Tile] = frozenset()  # wins passed since it last moved (漏胡)


class Ruleset(ABC):
    name: ClassVar[str]
    title: ClassVar[str]  # e.g. "山东麻将"
    #: the ruleset's name as a referee reads it: (English, 中文), e.g. ("Shandong", "山东")
    label: ClassVar[tuple[str, str]] = ("", "")
    #: one line for ``--help`` and the dashboard: what sets this ruleset apart
    summary: ClassVar[str] = ""
    options: ClassVar[tuple[OptionSpec, ...]]
    #: the house rules as a frozen dataclass (``None``: the mapping of :attr:`options` only)
    Options: ClassVar[type[RuleOptions] | None] = None
    #: hand-record fields only this ruleset reads (``context.indicator``, ``seats.declared``):
    #: another ruleset's record that sets one is refused, naming the owner
    record_fields: ClassVar[frozenset[str]] = frozenset()
    #: the settlement's detail and counter keys as a referee reads them: key -> (English, 中文)
    detail_labels: ClassVar[Mapping[str, tuple[str, str]]] = {}

    # ------------------------------------------------------------ the table, for the engine
    wall_tiles: ClassVar[int] = 136  #: tiles in the wall, flowers included
    has_flowers: ClassVar[bool] = False
    #: how many of the last drawable tiles make a win ``last_tiles`` (Liaoyang 分张: 4)
    last_tiles: ClassVar[int] = 1
    rolls: ClassVar[int] = 1  #: dice rolls that break the wall each hand
    #: several players may win on one discard (一炮多响)
    multi_win: ClassVar[bool] = False
    #: the counters a hand record's context carries in from the match (the settlement's
    #: ``context`` carries them out); a departure starts them again at 0
    counters: ClassVar[tuple[str, ...]] = ()
    turns_indicator: ClassVar[bool] = False  #: an indicator tile is turned before the deal
    #: declarations beyond 听 a seat may make (Shandong 明楼 / 暗楼)
    declarations: ClassVar[tuple[str, ...]] = ()
    #: a seat that passes a win on a discard may not win on that tile until it moves (漏胡)
    louhu: ClassVar[bool] = False
    #: when play stops, as a referee says it ("the wall is empty")
    wall_end: ClassVar[str] = "the wall is empty"
    #: 换牌: tiles each seat may swap after the deal when :meth:`exchange_on` (0: none)
    exchange_tiles: ClassVar[int] = 0
    #: the referee's clocks in seconds, by phase ("exchange", "discard", "claim"); none: no clock
    clock_seconds: ClassVar[Mapping[str, float]] = {}

    def resolve_options(self, overrides: Mapping[str, Any]) -> dict[str, Any]:
        if self.Options is None:
            return resolve_options(self.options, overrides)
        return self.Options.from_mapping(overrides).to_dict()

    def typed(self, overrides: Mapping[str, Any] | RuleOptions) -> Any:
        """The house rules as :attr:`Options` (the resolved mapping without one)."""
        if self.Options is None:
            return self.resolve_options(overrides)  # type: ignore[arg-type]
        return self.Options.from_mapping(overrides)  # type: ignore[arg-type]

    def opts(self, record: HandRecord) -> Any:
        """The record's house rules, as resolved when it was opened (or now, for a record
        built in code)."""
        resolved = record.resolved
        if self.Options is not None and isinstance(resolved, self.Options):
            return resolved
        return self.typed(record.options)

    def validate(self, record: HandRecord) -> None:  # noqa: B027 - optional hook
        """Raise :class:`RecordError` / :class:`InvalidHand` for what this ruleset forbids."""

    @abstractmethod
    def score(self, record: HandRecord) -> Settlement:
        """Check (what :meth:`validate` checks, once) and score a parsed record, searching each
        winner's shapes once. Raises :class:`RecordError` / :class:`InvalidHand` for what the
        rules refuse."""

    # ------------------------------------------------------------ the wall and the dice

    def drawable(self, undrawn: int, hun_discarded: int = 0, tail_drawn: int = 0) -> int:
        """How many more tiles may be drawn (normal draws and replacements alike) with
        ``undrawn`` tiles in the wall; by default the wall is played out."""
        return max(0, undrawn)

    def next_roller(self, dealer: int, rolls: Sequence[tuple[int, int]],
                    options: Mapping[str, Any]) -> int:
        """Who throws the dice next, after ``rolls`` (oldest first): the dealer by default."""
        return dealer

    def roll_refusal(self, dealer: int, rolls: Sequence[tuple[int, int]], seat: int,
                     options: Mapping[str, Any]) -> str | None:
        """Why ``seat`` may not throw the next roll, or ``None`` (see :meth:`next_roller`)."""
        want = self.next_roller(dealer, rolls, options)
        if seat == want:
            return None
        if want == dealer:
            return f"the dealer (seat {dealer}) rolls {'every time' if rolls else 'first'}"
        return f"seat {want} throws roll {len(rolls) + 1}, not seat {seat}"

    def wall_break(self, dealer: int, rolls: Sequence[tuple[int, int]],
                   options: Mapping[str, Any]) -> WallBreak:
        """Which wall and stack to break from this hand's dice rolls (one pair per roll)."""
        raise NotImplementedError(f"{self.name}: wall_break is not implemented")

    def read_wall_break(self, dealer: int, rolls: Sequence[Sequence[int]],
                        options: Mapping[str, Any] | None = None
                        ) -> tuple[WallBreak | None, str]:
        """:meth:`wall_break` for callers that follow a table: the break, or ``None`` and why
        it cannot be said yet (a roll still to come, dice misread, no procedure)."""
        try:
            pairs = [(int(r[0]), int(r[1])) for r in rolls if len(r) == 2]
            return self.wall_break(dealer, pairs, self.resolve_options(options or {})), ""
        except (NotImplementedError, ScoringError, ValueError) as exc:
            return None, f"no wall break yet: {exc}"

    # ------------------------------------------------------------ wildcards, claims, wins

    def wildcards(self, options: Mapping[str, Any], context: Mapping[str, Any]) -> frozenset[int]:
        """Tile kinds that are wildcards this hand (Liaoyang 混); none by default."""
        return frozenset()

    def claim_refusal(self, meld_type: str, tiles: Sequence[Tile], wildcards: frozenset[Tile],
                      options: Mapping[str, Any]) -> str | None:
        """Why a claimed meld (``chow``, ``pung``, ``exposed_kong``) may not use these tiles,
        or ``None``: any claim the record format allows is fine by default."""
        return None

    def win_refusal(self, facts: WinnerFacts, options: Mapping[str, Any]) -> str | None:
        """Why this seat may not win now (a declaration, a wildcard discarded, 漏胡), or
        ``None``."""
        return None

    def exchange_on(self, options: Mapping[str, Any]) -> bool:
        """Is 换牌 played this match (see :attr:`exchange_tiles`)?"""
        return False

    def is_winning_hand(self, concealed: list[int], melds: tuple[Meld, ...],
                        options: Mapping[str, Any], context: Mapping[str, Any]) -> bool:
        """Does this 14-tile hand have a shape this ruleset lets win (used for 听 / waits)?

        The default is the standard shape or seven pairs; rulesets narrow it.
        """
        from scoring.engine import is_complete

        wild = self.wildcards(options, context)
        return is_complete(concealed, wildcards=wild)

    # ------------------------------------------------------------ between hands

    def escape_penalty(self, leaver: int, flower_points: int,
                       options: Mapping[str, Any]) -> list[Transfer]:
        """What a player who leaves a game in progress pays, and to whom."""
        raise NotImplementedError(f"{self.name}: escape_penalty is not implemented")

    def escape_room_fee(self, options: Mapping[str, Any]) -> Number:
        """What of an escape penalty leaves the table (Shanghai: the room's 25%); 0 here."""
        return 0

    def flower_points(self, seat: Seat) -> int:
        """The points a seat's flowers and melds show, where the escape penalty counts them."""
        return 0

    def levels(self, totals: Sequence[Number]) -> list[str] | None:
        """Each player's level (Shandong 等级) for its cumulative score; ``None``: no levels."""
        return None


class StandardRules(Ruleset):
    """What is asked when no ruleset is named (or the named one cannot answer): the standard
    shape or seven pairs, and the common convention that an indicator makes the tile after it
    (1→…→9→1, E→S→W→N→E, 中→发→白→中) the wildcard."""

    name = ""
    title = "standard shapes"
    options = ()
    turns_indicator = True  # an indicator seen on the table is read by the convention above

    def score(self, record: HandRecord) -> Settlement:
        raise NotImplementedError("no ruleset: nothing is scored")

    def wildcards(self, options: Mapping[str, Any], context: Mapping[str, Any]) -> frozenset[int]:
        indicator = context.get("indicator")
        return frozenset() if indicator is None else frozenset({next_in_cycle(indicator)})

    def is_winning_hand(self, concealed: list[int], melds: tuple[Meld, ...],
                        options: Mapping[str, Any], context: Mapping[str, Any]) -> bool:
        from scoring.engine import is_complete

        return is_complete(concealed, wildcards=self.wildcards(options, context),
                           seven_pairs=not melds)


STANDARD = StandardRules()
