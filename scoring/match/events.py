"""The events of a match log: typed, validated dataclasses with a stable JSON form.

Each event is one thing that happened at the table (a die roll, a discard, a finished hand
entered by the referee, an amendment). ``event_from_json`` checks every key and value and names
the bad one; ``Event.to_json`` gives the form stored in the database and in exports, which
``event_from_json`` reads back unchanged. Tiles are written in the rules notation, ``?`` for a
tile that was not seen (see :mod:`scoring.match.tiletext`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar

from scoring.errors import TileError
from scoring.match.errors import BadEvent
from scoring.match.tiletext import UNKNOWN, parse_with_unknown
from scoring.tiles import parse_tiles

Check = Callable[[Any, str], Any]


# ---------------------------------------------------------------- value checks


def _seat(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise BadEvent(f"{where}: must be a seat number 0..3, got {value!r}")
    return value


def _opt_seat(value: Any, where: str) -> int | None:
    return None if value is None else _seat(value, where)


def _seats(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not value:
        raise BadEvent(f"{where}: must be a non-empty list of seats, got {value!r}")
    out = tuple(_seat(v, f"{where}[{i}]") for i, v in enumerate(value))
    if len(set(out)) != len(out):
        raise BadEvent(f"{where}: a seat is listed twice in {list(out)}")
    return out


def _opt_seats(value: Any, where: str) -> tuple[int, ...]:
    if value is None or value == []:
        return ()
    return _seats(value, where)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BadEvent(f"{where}: must be a non-empty text, got {value!r}")
    return value.strip()


def _opt_text(value: Any, where: str) -> str | None:
    return None if value is None else _text(value, where)


def _count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadEvent(f"{where}: must be a whole number >= 0, got {value!r}")
    return value


def _opt_count(value: Any, where: str) -> int | None:
    return None if value is None else _count(value, where)


def _tile(value: Any, where: str) -> str:
    """One known tile, kept in the spelling given."""
    if not isinstance(value, str):
        raise BadEvent(f"{where}: must be a tile, got {value!r}")
    try:
        tiles = parse_tiles(value)
    except TileError as exc:
        raise BadEvent(f"{where}: {exc}") from None
    if len(tiles) != 1:
        raise BadEvent(f"{where}: must be exactly one tile, got {value!r}")
    return value


def _opt_tile(value: Any, where: str) -> str | None:
    return None if value is None else _tile(value, where)


def _tile_or_unknown(value: Any, where: str) -> str | None:
    """A drawn tile: one tile, or ``None`` / ``"?"`` when nobody saw its face."""
    if value is None or value == UNKNOWN:
        return None
    return _tile(value, where)


def _tiles(value: Any, where: str, n: int | None = None, unknown_ok: bool = False) -> str:
    if not isinstance(value, str):
        raise BadEvent(f"{where}: must be a tile string, got {value!r}")
    try:
        known, unknown = parse_with_unknown(value)
    except TileError as exc:
        raise BadEvent(f"{where}: {exc}") from None
    if unknown and not unknown_ok:
        raise BadEvent(f"{where}: '?' (unknown tile) is not allowed here")
    if n is not None and len(known) + unknown != n:
        raise BadEvent(f"{where}: needs {n} tiles, got {len(known) + unknown} in {value!r}")
    return value


def _hex(value: Any, where: str) -> str:
    if not isinstance(value, str) or len(value) < 16 or any(c not in "0123456789abcdef"
                                                             for c in value):
        raise BadEvent(f"{where}: must be a lowercase hex digest, got {value!r}")
    return value


def _opt_hex(value: Any, where: str) -> str | None:
    return None if value is None else _hex(value, where)


def _dice(value: Any, where: str) -> tuple[int, int]:
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6
                       for d in value)):
        raise BadEvent(f"{where}: must be two dice values 1..6, got {value!r}")
    return (value[0], value[1])


def _players(value: Any, where: str) -> tuple[str, str, str, str]:
    if not isinstance(value, list | tuple) or len(value) != 4:
        raise BadEvent(f"{where}: must be a list of 4 player names, got {value!r}")
    names = tuple(_text(v, f"{where}[{i}]") for i, v in enumerate(value))
    return names  # type: ignore[return-value]


def _points(value: Any, where: str) -> int | float:
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not math.isfinite(value) or value == 0 or abs(value) > 1e9):
        raise BadEvent(f"{where}: must be a non-zero number of points, got {value!r}")
    return value


def _mapping(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise BadEvent(f"{where}: must be an object, got {value!r}")
    return dict(value)


def _opt_mapping(value: Any, where: str) -> dict[str, Any] | None:
    return None if value is None else _mapping(value, where)


def _reveal(value: Any, where: str) -> dict[int, str]:
    """``{seat: tiles}``: the standing tiles of a seat, shown at the end of the hand."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise BadEvent(f"{where}: must be an object of seat -> tiles, got {value!r}")
    out: dict[int, str] = {}
    for key, tiles in value.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            raise BadEvent(f"{where}: key {key!r} is not a seat number") from None
        _seat(seat, f"{where}.{key}")
        out[seat] = _tiles(tiles, f"{where}.{key}")
    return out


def _one_of(*choices: str) -> Check:
    def check(value: Any, where: str) -> str:
        if value not in choices:
            raise BadEvent(f"{where}: must be one of {', '.join(choices)}, got {value!r}")
        return value  # type: ignore[no-any-return]
    return check


def _hands(value: Any, where: str) -> tuple[str, str, str, str]:
    if not isinstance(value, list | tuple) or len(value) != 4:
        raise BadEvent(f"{where}: must be a list of 4 tile strings (one per seat)")
    return tuple(_tiles(v, f"{where}[{i}]", unknown_ok=True)  # type: ignore[return-value]
                 for i, v in enumerate(value))


def _chow_tiles(value: Any, where: str) -> str:
    return _tiles(value, where, n=3)


def _f(check: Check, default: Any = MISSING) -> Any:
    """A checked field; a dict default becomes a factory so events stay independent."""
    if default is MISSING:
        return field(metadata={"check": check})
    if isinstance(default, dict):
        return field(default_factory=dict, metadata={"check": check})
    return field(default=default, metadata={"check": check})


def _default(f: Any) -> Any:
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    return MISSING


# ---------------------------------------------------------------- events


@dataclass(frozen=True)
class Event:
    """Base of all events; ``type`` is the stable name used in JSON."""

    type: ClassVar[str] = ""
    #: events that belong to a hand in progress (the rest act on the match)
    in_hand: ClassVar[bool] = True

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            value = getattr(self, f.name)
            default = _default(f)
            if default is not MISSING and value == default:
                continue
            if isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, dict):
                value = {str(k): v for k, v in value.items()}
            out[f.name] = value
        return out

    def describe(self) -> str:
        """One line for people: the JSON form without the braces."""
        body = self.to_json()
        body.pop("type")
        parts = ", ".join(f"{k}={v}" for k, v in body.items() if k not in ("record", "event"))
        return f"{self.type}({parts})"


@dataclass(frozen=True)
class MatchCreated(Event):
    """The first event of every match: ruleset, house rules, players by seat, first dealer."""

    type: ClassVar[str] = "match_created"
    in_hand: ClassVar[bool] = False
    ruleset: str = _f(_text)
    players: tuple[str, str, str, str] = _f(_players)
    first_dealer: int = _f(_seat)
    options: dict[str, Any] = _f(_mapping, {})  # noqa: RUF009 - _f is a checked field()
    title: str | None = _f(_opt_text, None)


@dataclass(frozen=True)
class HandRecorded(Event):
    """A finished hand entered directly as a hand record (``shared/rules/README.md``)."""

    type: ClassVar[str] = "hand_recorded"
    in_hand: ClassVar[bool] = False
    record: dict[str, Any] = _f(_mapping)  # noqa: RUF009 - _f is a checked field()

    def describe(self) -> str:
        wins = self.record.get("wins") or []
        who = ", ".join(f"seat {w.get('seat')} by {w.get('by')}" for w in wins
                        if isinstance(w, Mapping))
        return f"hand_recorded({self.record.get('outcome')}{': ' + who if who else ''})"


@dataclass(frozen=True)
class PlayerLeft(Event):
    """A player leaves a game in progress: escape penalty, counters reset, a hand is abandoned.

    ``flower_points`` is the leaver's 花 (Shandong penalty); ``replacement`` names who takes the
    seat from now on (the seat keeps its running total).
    """

    type: ClassVar[str] = "player_left"
    in_hand: ClassVar[bool] = False
    seat: int = _f(_seat)
    flower_points: int | None = _f(_opt_count, None)
    replacement: str | None = _f(_opt_text, None)


@dataclass(frozen=True)
class Amendment(Event):
    """A correction of event ``target``: its replacement (``event``) or ``None`` to strike it.

    The original stays in the log; replay uses the latest amendment of each event.
    """

    type: ClassVar[str] = "amend"
    in_hand: ClassVar[bool] = False
    target: int = _f(_count)
    who: str = _f(_text)
    why: str = _f(_text)
    event: dict[str, Any] | None = _f(_opt_mapping, None)  # noqa: RUF009 - _f is a checked field()
    #: set when a tournament server's referee desk wrote it (see :class:`Adjusted`)
    ref: str | None = _f(_opt_text, None)
    key: str | None = _f(_opt_hex, None)
    mac: str | None = _f(_opt_hex, None)


@dataclass(frozen=True)
class Adjusted(Event):
    """A referee's penalty (negative ``points``) or bonus (positive) to ``seat``, at any time.

    The points come from outside the table (no other seat pays them), so the seat's total moves
    and the table's payments still sum to zero with them set apart; a hand in play goes on.
    ``ref``, ``key`` and ``mac`` are set when a tournament server's referee desk wrote it: the
    write's id and an HMAC by the server's key over the event and the log it belongs to
    (:func:`scoring.match.chain.referee_mac`), so a table cannot make one up.
    """

    type: ClassVar[str] = "adjust"
    in_hand: ClassVar[bool] = False
    seat: int = _f(_seat)
    points: int | float = _f(_points)
    who: str = _f(_text)
    why: str = _f(_text)
    ref: str | None = _f(_opt_text, None)
    key: str | None = _f(_opt_hex, None)
    mac: str | None = _f(_opt_hex, None)

    def describe(self) -> str:
        what = "penalty" if self.points < 0 else "bonus"
        return f"adjust(seat {self.seat} {what} {self.points:+g} by {self.who}: {self.why})"


#: the events a referee writes on a log (a table's own events are the rest)
REFEREE_EVENTS = (Amendment, Adjusted)


@dataclass(frozen=True)
class SignOff(Event):
    """A referee signs hand ``target``: an HMAC, with a key kept outside the database, over the
    log's hash chain as it stood (``head``). A chain rewritten before it no longer matches."""

    type: ClassVar[str] = "signoff"
    in_hand: ClassVar[bool] = False
    target: int = _f(_count)
    referee: str = _f(_text)
    key: str = _f(_hex)  # the key's public id (scoring.match.chain.key_id)
    head: str = _f(_hex)
    mac: str = _f(_hex)

    def describe(self) -> str:
        return f"signoff(hand #{self.target} by {self.referee}, key {self.key})"


@dataclass(frozen=True)
class DiceRolled(Event):
    """A roll of two dice by ``seat`` (the dealer first; Liaoyang's second roller after)."""

    type: ClassVar[str] = "dice"
    seat: int = _f(_seat)
    dice: tuple[int, int] = _f(_dice)


@dataclass(frozen=True)
class WallBroken(Event):
    """The wall is broken; ``wall_seat``/``stacks`` as seen at the table, checked against dice."""

    type: ClassVar[str] = "wall_broken"
    wall_seat: int | None = _f(_opt_seat, None)
    stacks: int | None = _f(_opt_count, None)


@dataclass(frozen=True)
class IndicatorTurned(Event):
    """Liaoyang: the tile turned over on the broken wall; the 混 is the next tile in its cycle."""

    type: ClassVar[str] = "indicator"
    tile: str = _f(_tile)


@dataclass(frozen=True)
class Dealt(Event):
    """The deal: 14 tiles to the dealer, 13 to the others (``?`` where not seen)."""

    type: ClassVar[str] = "deal"
    hands: tuple[str, str, str, str] = _f(_hands)


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise BadEvent(f"{where}: must be true or false, got {value!r}")
    return value


def _exchange_tiles(value: Any, where: str) -> str | None:
    """The tiles of a 换牌 (how many the ruleset swaps is checked as the hand is played)."""
    return None if value is None else _tiles(value, where, unknown_ok=True)


@dataclass(frozen=True)
class Exchanged(Event):
    """Shanghai 换牌 (house option ``exchange``): after the deal ``seat`` buried 5 tiles
    (``given``) and took 5 from the wall (``taken``), or did not (``done`` false: it declined,
    ran out of time or dropped out). Tiles are optional (``?`` where unseen)."""

    type: ClassVar[str] = "exchange"
    seat: int = _f(_seat)
    done: bool = _f(_flag, True)
    given: str | None = _f(_exchange_tiles, None)
    taken: str | None = _f(_exchange_tiles, None)


@dataclass(frozen=True)
class Drew(Event):
    """A draw from the wall (a replacement from the tail after a kong or flower is inferred)."""

    type: ClassVar[str] = "draw"
    seat: int = _f(_seat)
    tile: str | None = _f(_tile_or_unknown, None)


@dataclass(frozen=True)
class FlowerSetAside(Event):
    """A flower laid aside; the same seat then draws a replacement from the tail."""

    type: ClassVar[str] = "flower"
    seat: int = _f(_seat)
    tile: str = _f(_tile)


@dataclass(frozen=True)
class Discarded(Event):
    type: ClassVar[str] = "discard"
    seat: int = _f(_seat)
    tile: str = _f(_tile)


@dataclass(frozen=True)
class Chowed(Event):
    """吃 of the last discard: ``tiles`` is the whole run, the claimed tile included."""

    type: ClassVar[str] = "chow"
    seat: int = _f(_seat)
    tiles: str = _f(_chow_tiles)


@dataclass(frozen=True)
class Punged(Event):
    """碰 of the last discard."""

    type: ClassVar[str] = "pung"
    seat: int = _f(_seat)


@dataclass(frozen=True)
class Konged(Event):
    """明杠 (``exposed``, on the last discard), 补杠 (``added``) or 暗杠 (``concealed``)."""

    type: ClassVar[str] = "kong"
    seat: int = _f(_seat)
    kind: str = _f(_one_of("exposed", "added", "concealed"))
    tile: str | None = _f(_opt_tile, None)


@dataclass(frozen=True)
class Declared(Event):
    """听 (``ting``), Shandong 明楼 (``minglou``) or 暗楼 (``anlou``)."""

    type: ClassVar[str] = "declare"
    seat: int = _f(_seat)
    what: str = _f(_one_of("ting", "minglou", "anlou"))


@dataclass(frozen=True)
class Won(Event):
    """和: one seat, or several on one discard (一炮多响); 抢杠 when a 补杠 is pending.

    ``tile`` names a self-drawn winning tile the camera did not see; ``reveal`` gives standing
    tiles (``{seat: tiles}``) where some were unknown; ``ready`` lists seats that were 听;
    ``bao_tile`` is Liaoyang's 宝 turned over after the win.
    """

    type: ClassVar[str] = "win"
    seats: tuple[int, ...] = _f(_seats)
    tile: str | None = _f(_opt_tile, None)
    reveal: dict[int, str] = _f(_reveal, {})  # noqa: RUF009 - _f is a checked field()
    ready: tuple[int, ...] = _f(_opt_seats, ())
    bao_tile: str | None = _f(_opt_tile, None)


@dataclass(frozen=True)
class DrawGame(Event):
    """The wall reached its end without a winner (荒庄 / 黄庄 / 流局)."""

    type: ClassVar[str] = "draw_game"
    reveal: dict[int, str] = _f(_reveal, {})  # noqa: RUF009 - _f is a checked field()
    ready: tuple[int, ...] = _f(_opt_seats, ())


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (MatchCreated, HandRecorded, PlayerLeft, Amendment, Adjusted, SignOff, DiceRolled,
                WallBroken, IndicatorTurned, Dealt, Exchanged, Drew, FlowerSetAside, Discarded,
                Chowed, Punged, Konged, Declared, Won, DrawGame)
}


def event_from_json(data: Any) -> Event:
    """Build and check an event from its JSON form; :class:`BadEvent` names the bad key."""
    if not isinstance(data, Mapping):
        raise BadEvent(f"an event is a JSON object, got {type(data).__name__}")
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise BadEvent(f"type: unknown event type {kind!r}; known: {', '.join(EVENT_TYPES)}")
    allowed = {f.name: f for f in fields(cls)}
    for key in data:
        if key != "type" and key not in allowed:
            raise BadEvent(f"{kind}.{key}: unknown key (allowed: {', '.join(allowed)})")
    values: dict[str, Any] = {}
    for name, f in allowed.items():
        if name not in data:
            if _default(f) is MISSING:
                raise BadEvent(f"{kind}.{name}: missing")
            continue
        values[name] = f.metadata["check"](data[name], f"{kind}.{name}")
    return cls(**values)
