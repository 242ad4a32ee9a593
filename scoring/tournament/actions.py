"""What a referee does to a tournament, as typed events: who, when, why, and the rest.

Each action is a small frozen dataclass with a stable ``name``, the ``actor`` who caused it,
its ``created`` time and a ``why``; :meth:`Action.properties` gives the rest for logs and
exports. The tournament's action log, together with the tables' match logs, is everything the
standings are folded from. Penalties, bonuses and corrections of a hand are not actions: they
are ``adjust`` and ``amend`` events of that table's match log (:mod:`scoring.match`), so a match
log alone replays to what the standings count.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from scoring.tournament.model import TableSeating, TournamentError


@dataclass(frozen=True)
class Action:
    name: ClassVar[str] = ""
    actor: str
    created: str
    why: str

    def properties(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)
                if f.name not in ("actor", "created", "why")}

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "actor": self.actor, "created": self.created,
                "why": self.why, **self.properties()}


@dataclass(frozen=True)
class RoundSeated(Action):
    """A round's tables, with the repeated opponent pairs the seating could not avoid."""

    name: ClassVar[str] = "round_seated"
    round: int
    tables: tuple[TableSeating, ...]
    repeats: tuple[tuple[str, str, int], ...] = ()


@dataclass(frozen=True)
class Adjustment(Action):
    """A penalty (negative) or a bonus (positive) to a player's score, at any time.

    It never changes table places (those come from the table scores): it moves the player's
    tournament score, the first tie-break, and is listed with its reason in the standings. A
    server writes it as an ``adjust`` event of the player's table's log (the standings show it
    in this form, its ``actor`` the referee); one kept in the action log, as servers did before,
    still counts on top.
    """

    name: ClassVar[str] = "adjustment"
    player: str
    points: float
    round: int | None = None


@dataclass(frozen=True)
class Substituted(Action):
    """``substitute`` plays ``seat`` of a table from its hand ``from_hand`` (1-based) on.

    The substitute stands in: the seat's score still counts for the registered player.
    """

    name: ClassVar[str] = "substituted"
    round: int
    table: int
    seat: int
    substitute: str
    from_hand: int = 1


@dataclass(frozen=True)
class RoundClosed(Action):
    """No more hands at this round's tables; its places and points become final."""

    name: ClassVar[str] = "round_closed"
    round: int


ACTIONS: dict[str, type[Action]] = {c.name: c for c in (RoundSeated, Adjustment, Substituted,
                                                         RoundClosed)}


def _plain(value: Any) -> Any:
    if isinstance(value, TableSeating):
        return value.to_json()
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def action_from_json(data: Any) -> Action:
    """Build and check an action from its JSON form; :class:`TournamentError` names the key."""
    if not isinstance(data, Mapping):
        raise TournamentError("an action is a JSON object")
    name = data.get("name")
    cls = ACTIONS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise TournamentError(f"unknown action {data.get('name')!r}; known: "
                              f"{', '.join(ACTIONS)}")
    allowed = {f.name: f for f in fields(cls)}
    for key in data:
        if key != "name" and key not in allowed:
            raise TournamentError(f"{cls.name}.{key}: unknown key")
    values: dict[str, Any] = {}
    for key, f in allowed.items():
        if key not in data:
            if f.default is MISSING and f.default_factory is MISSING:
                raise TournamentError(f"{cls.name}.{key}: missing")
            continue
        values[key] = _check(cls.name, key, data[key])
    return cls(**values)


def _text(where: str, value: Any, limit: int = 200) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise TournamentError(f"{where}: a text of 1..{limit} characters, got {value!r:.40}")
    return value.strip()


def _whole(where: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise TournamentError(f"{where}: a whole number {low}..{high}, got {value!r:.40}")
    return value


def _check(kind: str, key: str, value: Any) -> Any:
    where = f"{kind}.{key}"
    if key in ("actor", "substitute", "player"):
        return _text(where, value, 80)
    if key == "why":
        if isinstance(value, str) and not value.strip():
            raise TournamentError(f"{where}: give a reason")
        return _text(where, value, 500)
    if key == "created":
        return _text(where, value, 40)
    if key == "round":
        return None if value is None and kind == "adjustment" else _whole(where, value, 1, 64)
    if key == "table":
        return _whole(where, value, 1, 1024)
    if key == "seat":
        return _whole(where, value, 0, 3)
    if key == "from_hand":
        return _whole(where, value, 1, 10_000)
    if key == "points":
        if (isinstance(value, bool) or not isinstance(value, int | float)
                or not math.isfinite(value) or abs(value) > 1e9 or value == 0):
            raise TournamentError(f"{where}: a non-zero number, got {value!r:.40}")
        return value
    if key == "tables":
        if not isinstance(value, list | tuple) or not value:
            raise TournamentError(f"{where}: a list of tables")
        out = []
        for i, t in enumerate(value):
            if not isinstance(t, Mapping) or set(t) != {"round", "table", "players"}:
                raise TournamentError(f"{where}[{i}]: round, table and players")
            players = t["players"]
            if not isinstance(players, list | tuple) or len(players) != 4:
                raise TournamentError(f"{where}[{i}].players: four names")
            out.append(TableSeating(_whole(where, t["round"], 1, 64),
                                    _whole(where, t["table"], 1, 1024),
                                    tuple(_text(where, p, 80) for p in players)))  # type: ignore[arg-type]
        return tuple(out)
    if key == "repeats":
        if not isinstance(value, list | tuple):
            raise TournamentError(f"{where}: a list")
        rows = []
        for r in value:
            if not isinstance(r, list | tuple) or len(r) != 3:
                raise TournamentError(f"{where}: [player, player, times]")
            rows.append((_text(where, r[0], 80), _text(where, r[1], 80),
                         _whole(where, r[2], 1, 64)))
        return tuple(rows)
    raise TournamentError(f"{where}: unknown key")  # pragma: no cover - fields() lists them
