"""A tournament's fixed facts: who plays, under which rules, how places become points.

Everything that happens later (seatings, hands, penalties, substitutes, closed rounds) is an
event of a log (:mod:`scoring.tournament.actions` and the tables' match logs); the standings are
folded from those logs (:mod:`scoring.tournament.standings`), never stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.errors import ScoringError
from scoring.match import EventRefused, MatchState
from scoring.match.events import MatchCreated
from scoring.rulesets.registry import check_options


class TournamentError(ValueError):
    """A tournament definition or an action that cannot be accepted; the message says why."""


#: what may break a tie in ranking points, in the order a tournament lists them
TIE_BREAKS = ("score", "firsts", "best_table")


@dataclass(frozen=True)
class Ranking:
    """Ranking points per place at a table, and the tie-breaks after them.

    ``places`` gives the points of 1st..4th (e.g. 4/2/1/0). Players level on table score share
    the places they cover (two tied for 1st each get (4+2)/2 = 3). ``tie_breaks`` order the
    standings among players level on ranking points: ``score`` (total table score plus
    adjustments), ``firsts`` (tables won), ``best_table`` (best single table score).
    """

    places: tuple[float, float, float, float] = (4, 2, 1, 0)
    tie_breaks: tuple[str, ...] = ("score",)

    def __post_init__(self) -> None:
        if len(self.places) != 4 or not all(isinstance(p, int | float)
                                            and not isinstance(p, bool) for p in self.places):
            raise TournamentError(f"ranking places: four numbers, got {self.places!r}")
        for name in self.tie_breaks:
            if name not in TIE_BREAKS:
                raise TournamentError(f"unknown tie-break {name!r}; known: "
                                      f"{', '.join(TIE_BREAKS)}")
        if len(set(self.tie_breaks)) != len(self.tie_breaks):
            raise TournamentError("a tie-break is listed twice")

    def to_json(self) -> dict[str, Any]:
        return {"places": list(self.places), "tie_breaks": list(self.tie_breaks)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Ranking:
        if not isinstance(data, Mapping):
            raise TournamentError("ranking: must be an object")
        places = data.get("places", (4, 2, 1, 0))
        breaks = data.get("tie_breaks", ("score",))
        if not isinstance(places, list | tuple) or not isinstance(breaks, list | tuple):
            raise TournamentError("ranking: places and tie_breaks are lists")
        return cls(tuple(places), tuple(breaks))  # type: ignore[arg-type]


@dataclass(frozen=True)
class Tournament:
    """Name, ruleset and house options, registered players, ranking; 4 players per table."""

    name: str
    ruleset: str
    players: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    ranking: Ranking = field(default_factory=Ranking)
    rounds: int = 1

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise TournamentError("a tournament needs a name")
        try:  # the match engine's own check of a ruleset and its options
            MatchState.create(MatchCreated(ruleset=self.ruleset, players=("1", "2", "3", "4"),
                                           first_dealer=0, options=dict(self.options)))
        except EventRefused as exc:
            raise TournamentError(exc.reason) from None
        names = [p.strip() for p in self.players]
        if any(not n for n in names):
            raise TournamentError("a player name is empty")
        if len(set(names)) != len(names):
            dup = sorted({n for n in names if names.count(n) > 1})
            raise TournamentError(f"a player is registered twice: {', '.join(dup)}")
        if not names or len(names) % 4:
            raise TournamentError(f"players come in fours (one table each); got {len(names)}")
        if not 1 <= self.rounds <= 64:
            raise TournamentError(f"rounds: 1..64, got {self.rounds}")

    @property
    def tables(self) -> int:
        return len(self.players) // 4

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "ruleset": self.ruleset, "players": list(self.players),
                "options": dict(self.options), "ranking": self.ranking.to_json(),
                "rounds": self.rounds}

    @classmethod
    def from_json(cls, data: Any) -> Tournament:
        if not isinstance(data, Mapping):
            raise TournamentError("a tournament is a JSON object")
        unknown = set(data) - {"name", "ruleset", "players", "options", "ranking", "rounds"}
        if unknown:
            raise TournamentError(f"unknown key {sorted(unknown)[0]!r} in the tournament")
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise TournamentError("players: a list of names")
        options = data.get("options") or {}
        if not isinstance(options, Mapping):
            raise TournamentError("options: must be an object")
        rounds = data.get("rounds", 1)
        if isinstance(rounds, bool) or not isinstance(rounds, int):
            raise TournamentError("rounds: a whole number")
        name, ruleset = data.get("name"), data.get("ruleset")
        if not isinstance(name, str) or not isinstance(ruleset, str):
            raise TournamentError("name and ruleset are texts")
        return cls(name, ruleset, tuple(p.strip() for p in players), dict(options),
                   Ranking.from_json(data.get("ranking") or {}), rounds)


@dataclass(frozen=True)
class TableSeating:
    """Who sits where at one table of one round: ``players[seat]``, seat 0 deals first."""

    round: int
    table: int  # 1-based
    players: tuple[str, str, str, str]

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "players": list(self.players)}


def same_rules(ruleset: str, options: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
    """Whether two sets of house options are the same rules (a default written out or left
    out makes no difference); :class:`TournamentError` for options the ruleset refuses."""
    try:
        return check_options(ruleset, options) == check_options(ruleset, other)
    except ScoringError as exc:
        raise TournamentError(str(exc)) from None


def check_seating(tournament: Tournament, tables: Sequence[TableSeating]) -> None:
    """Every registered player sits exactly once, at tables 1..N of one round."""
    if len({t.round for t in tables}) != 1:
        raise TournamentError("a seating is for one round")
    numbers = sorted(t.table for t in tables)
    if numbers != list(range(1, tournament.tables + 1)):
        raise TournamentError(f"tables 1..{tournament.tables} each seated once, got {numbers}")
    seated = [p for t in tables for p in t.players]
    if sorted(seated) != sorted(tournament.players):
        missing = sorted(set(tournament.players) - set(seated))
        twice = sorted({p for p in seated if seated.count(p) > 1})
        unknown = sorted(set(seated) - set(tournament.players))
        raise TournamentError("every player sits once: "
                              + "; ".join(f"{what} {', '.join(who)}" for what, who in
                                          (("missing", missing), ("twice", twice),
                                           ("not registered", unknown)) if who))
