"""The hand record (``shared/rules/README.md``): parse, validate by field, serialize back.

Every error names the field it is about (``seats[1].melds[0].from``) and nothing is scored from a
record that fails. Ruleset-specific prohibitions are checked by the ruleset's own ``validate``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import permutations
from operator import eq
from types import MappingProxyType
from typing import Any

from scoring.errors import RecordError, TileError
from scoring.frozen import fast_init
from scoring.jsonlimits import load_json
from scoring.memo import memo_property
from scoring.rulesets.registry import check_fields, is_known, known_rulesets, typed_options
from scoring.tiles import (
    FLOWERS,
    MEMO_LENGTH,
    NUM_KINDS,
    NUM_TILES,
    TILE_NAMES,
    Tile,
    format_tiles,
    is_flower,
    parse_tiles,
    parsed_short,
    parsed_tiles,
)

MELD_TYPES = ("chow", "pung", "exposed_kong", "added_kong", "concealed_kong")
WIN_BY = ("self_draw", "discard", "rob_kong")
REPLACEMENTS = ("kong", "flower")
DECLARATIONS = ("minglou", "anlou")
OUTCOMES = ("win", "draw")

_TOP_KEYS = {"ruleset", "options", "dealer", "seats", "outcome", "wins", "context"}
_SEAT_KEYS = {"concealed", "melds", "flowers", "ready", "declared", "hun_discarded"}
_MELD_KEYS = {"type", "tiles", "from"}
_WIN_KEYS = {"seat", "tile", "by", "from", "replacement", "kong_fed_by", "first_turn",
             "last_tiles", "discarder_after_kong"}
_WIN_FLAGS = ("first_turn", "last_tiles", "discarder_after_kong")  # Win's flag fields
_CONTEXT_KEYS = {"huangzhuang_streak", "dice", "huangfan", "indicator", "bao_tile"}


@fast_init
@dataclass(frozen=True)
class Meld:
    type: str
    tiles: tuple[Tile, ...]
    from_seat: int | None = None
    text: str = ""

    @property
    def is_kong(self) -> bool:
        return self.type.endswith("kong")

    @property
    def is_claimed(self) -> bool:
        """吃, 碰, 明杠 and 补杠 open the hand; a 暗杠 does not."""
        return self.type != "concealed_kong"

    @property
    def is_set_of_identical(self) -> bool:
        return self.type != "chow"

    @property
    def kind(self) -> Tile:
        """The tile of a pung or kong; the lowest tile of a chow."""
        return min(self.tiles)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "tiles": _text_for(self.text, self.tiles)}
        if self.from_seat is not None:
            out["from"] = self.from_seat
        return out


@fast_init
@dataclass(frozen=True)
class Seat:
    concealed: tuple[Tile, ...] = ()
    melds: tuple[Meld, ...] = ()
    flowers: tuple[Tile, ...] = ()
    ready: bool = False
    declared: str | None = None
    hun_discarded: int = 0
    concealed_text: str = ""
    flowers_form: Any = None  # the flowers as written (list of names or a string)
    explicit: frozenset[str] = frozenset()

    @property
    def tile_count(self) -> int:
        """Standing tiles plus melds, each kong counted as 3."""
        return len(self.concealed) + 3 * len(self.melds)

    def all_tiles(self) -> list[Tile]:
        """Concealed and meld tiles (kongs with all four), without flowers."""
        return [*self.concealed, *(t for m in self.melds for t in m.tiles)]

    def claims_on(self, other: int) -> int:
        """How many of this seat's melds were claimed from ``other``'s discards (承包)."""
        return self.claims_from.get(other, 0)

    @memo_property
    def claims_from(self) -> dict[int, int]:
        """Claimed melds by the seat they came from (承包), counted once; read only."""
        out: dict[int, int] = {}
        for m in self.melds:
            if m.is_claimed and m.from_seat is not None:
                out[m.from_seat] = out.get(m.from_seat, 0) + 1
        return out

    @property
    def is_open(self) -> bool:
        """A claimed meld shown (:attr:`Meld.is_claimed`, read here without its property)."""
        return any([m.type != "concealed_kong" for m in self.melds]) if self.melds else False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "concealed": _text_for(self.concealed_text, self.concealed),
            "melds": [m.to_json() for m in self.melds],
            "flowers": _flowers_for(self.flowers_form, self.flowers),
        }
        if self.ready or "ready" in self.explicit:
            out["ready"] = self.ready
        if self.declared is not None or "declared" in self.explicit:
            out["declared"] = self.declared
        if self.hun_discarded or "hun_discarded" in self.explicit:
            out["hun_discarded"] = self.hun_discarded
        return out


@fast_init
@dataclass(frozen=True)
class Win:
    seat: int
    tile: Tile
    by: str
    from_seat: int | None = None
    replacement: str | None = None
    kong_fed_by: int | None = None
    first_turn: bool = False
    last_tiles: bool = False
    discarder_after_kong: bool = False
    tile_text: str = ""
    explicit: frozenset[str] = frozenset()

    @property
    def is_self_draw(self) -> bool:
        return self.by == "self_draw"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat,
                               "tile": _text_for(self.tile_text, (self.tile,)),
                               "by": self.by}
        if self.from_seat is not None:
            out["from"] = self.from_seat
        for key, value, default in (
            ("replacement", self.replacement, None),
            ("kong_fed_by", self.kong_fed_by, None),
            ("first_turn", self.first_turn, False),
            ("last_tiles", self.last_tiles, False),
            ("discarder_after_kong", self.discarder_after_kong, False),
        ):
            if value != default or key in self.explicit:
                out[key] = value
        return out


@fast_init
@dataclass(frozen=True)
class Context:
    huangzhuang_streak: int = 0
    dice: tuple[int, int] | None = None
    huangfan: int = 0
    indicator: Tile | None = None
    bao_tile: Tile | None = None
    explicit: frozenset[str] = frozenset()
    texts: tuple[tuple[str, str], ...] = ()  # original spellings of tile fields

    def to_json(self) -> dict[str, Any]:
        texts = dict(self.texts)
        out: dict[str, Any] = {}
        if self.huangzhuang_streak or "huangzhuang_streak" in self.explicit:
            out["huangzhuang_streak"] = self.huangzhuang_streak
        if self.dice is not None:
            out["dice"] = list(self.dice)
        if self.huangfan or "huangfan" in self.explicit:
            out["huangfan"] = self.huangfan
        for key in ("indicator", "bao_tile"):
            tile = getattr(self, key)
            if tile is not None:
                out[key] = _text_for(texts.get(key, ""), (tile,))
        return out


@fast_init
@dataclass(frozen=True)
class HandRecord:
    ruleset: str
    dealer: int
    seats: tuple[Seat, Seat, Seat, Seat]
    outcome: str
    wins: tuple[Win, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    context: Context = field(default_factory=Context)
    #: (the ``options`` mapping, the ruleset's ``RuleOptions`` for it) as resolved when the
    #: record was parsed; see :attr:`resolved`
    resolved_for: tuple[Mapping[str, Any], Any] | None = field(default=None, compare=False,
                                                               repr=False)

    @property
    def resolved(self) -> Any:
        """The house rules as resolved when the record was parsed, or ``None`` (a record built
        in code, or copied with other ``options``: the ruleset resolves those itself)."""
        pair = self.resolved_for
        return pair[1] if pair is not None and pair[0] is self.options else None

    @property
    def winners(self) -> list[int]:
        return [w.seat for w in self.wins]

    def seat_wind(self, seat: int) -> int:
        """0 East (the dealer), 1 South, 2 West, 3 North."""
        return (seat - self.dealer) % 4

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ruleset": self.ruleset, "options": dict(self.options),
                               "dealer": self.dealer,
                               "seats": [s.to_json() for s in self.seats],
                               "outcome": self.outcome}
        if self.wins or self.outcome == "win":
            out["wins"] = [w.to_json() for w in self.wins]
        out["context"] = self.context.to_json()
        return out


def _text_for(text: str, tiles: tuple[Tile, ...]) -> str:
    """Keep the spelling the record was written with while it still says the same tiles."""
    if text:
        try:
            if tuple(parse_tiles(text)) == tuple(tiles):
                return text
        except TileError:
            pass
    return format_tiles(tiles)


def _flowers_for(form: Any, flowers: tuple[Tile, ...]) -> Any:
    if isinstance(form, str):
        return _text_for(form, flowers)
    if isinstance(form, list):
        try:
            if tuple(t for name in form for t in parse_tiles(name)) == flowers:
                return list(form)
        except TileError:
            pass
    return [TILE_NAMES[t] for t in flowers]


# ---------------------------------------------------------------- parsing and validation


def load_record(source: str | bytes | Mapping[str, Any]) -> HandRecord:
    """Parse JSON text or a decoded object into a validated :class:`HandRecord`."""
    if type(source) is dict:  # decoded already: the common case, decided in one test
        return parse_record(source)
    data = load_json(source) if isinstance(source, str | bytes) else source
    return parse_record(data)


def parse_record(data: Any) -> HandRecord:
    """Validate every field of a decoded hand record; see :func:`validate_counts` for counts.

    Each check is written for the valid record, the common case: a cheap test inline, the
    helper that names the field only when the test fails (the record's many field names would
    otherwise cost more than its parsing)."""
    if type(data) is not dict and not isinstance(data, Mapping):
        raise RecordError("a hand record is a JSON object")
    if not data.keys() <= _TOP_KEYS:
        _no_unknown(data, _TOP_KEYS, "")
    get: Any = data.get  # (a JSON object's values are Any, checked below)
    ruleset = get("ruleset")
    if not is_known(ruleset):
        raise RecordError(f"unknown ruleset {ruleset!r}; known: {', '.join(known_rulesets())}",
                          "ruleset")
    options = get("options", _NO_OPTIONS)
    if type(options) is not dict and not isinstance(options, Mapping):
        raise RecordError("must be an object", "options")
    resolved = typed_options(ruleset, options)
    dealer = get("dealer")
    if type(dealer) is not int or not 0 <= dealer <= 3:
        dealer = _seat_number(dealer, "dealer")
    seats_raw = get("seats")
    if not isinstance(seats_raw, list) or len(seats_raw) != 4:
        raise RecordError("must be a list of exactly 4 seats", "seats")
    seats = (_parse_seat(seats_raw[0], 0), _parse_seat(seats_raw[1], 1),
             _parse_seat(seats_raw[2], 2), _parse_seat(seats_raw[3], 3))
    outcome = get("outcome")
    if outcome not in OUTCOMES:
        raise RecordError(f"must be one of {', '.join(OUTCOMES)}, got {outcome!r}", "outcome")
    wins_raw = get("wins", _NO_WINS)
    if not isinstance(wins_raw, list):
        raise RecordError("must be a list", "wins")
    wins = ((_parse_win(wins_raw[0], 0),) if len(wins_raw) == 1  # (the usual: one winner)
            else tuple([_parse_win(w, i) for i, w in enumerate(wins_raw)]))
    context = _parse_context(get("context", _NO_OPTIONS))
    own = dict(options)
    record = _new(HandRecord)  # (HandRecord(...) filled in one step: see _new)
    record.__dict__.update(ruleset=ruleset, dealer=dealer, seats=seats, outcome=outcome,
                           wins=wins, options=own, context=context, resolved_for=(own, resolved))
    _check_wins(record)
    validate_counts(record)
    check_fields(record)
    return record


_NO_OPTIONS: Mapping[str, Any] = MappingProxyType({})  # a missing "options" or "context"
#: the usual records' objects are made by ``_new(cls)`` and filled by one ``__dict__.update``,
#: what their :func:`scoring.frozen.fast_init` ``__init__`` does without its Python frame (the
#: parser builds some ten per record; a test checks each holds exactly its fields)
_new = object.__new__
_NO_WINS: list[Any] = []  # a missing "wins" (read only)


def _is_mapping(value: Any) -> bool:
    """A JSON object: a ``dict`` (what JSON decodes to, checked first: it is the fast case) or
    any other mapping."""
    return type(value) is dict or isinstance(value, Mapping)


def _no_unknown(obj: Mapping[str, Any], allowed: set[str], where: str) -> None:
    if obj.keys() <= allowed:  # the usual case, decided in one step
        return
    for key in obj:
        if key not in allowed:
            name = f"{where}.{key}" if where else str(key)
            raise RecordError(f"unknown key (allowed: {', '.join(sorted(allowed))})", name)


def _seat_number(value: Any, where: str, key: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"must be a seat number 0..3, got {value!r}", _at(where, key))
    if not 0 <= value <= 3:
        raise RecordError(f"seat number {value} is out of range 0..3", _at(where, key))
    return value


def _bool(value: Any, where: str, key: str = "") -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"must be true or false, got {value!r}", _at(where, key))
    return value


def _count(value: Any, where: str, key: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RecordError(f"must be a whole number >= 0, got {value!r}", _at(where, key))
    return value


def _tiles(value: Any, where: str, key: str = "") -> tuple[Tile, ...]:
    """The tiles of a tile string; the field ``where.key`` is named (built) only for an error."""
    if type(value) is not str and not isinstance(value, str):
        raise RecordError(f"must be a tile string, got {value!r}", _at(where, key))
    try:
        return parsed_tiles(value)
    except TileError as exc:
        raise RecordError(exc.message, _at(where, key)) from None


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if key else where


def _one_tile(value: Any, where: str, key: str = "") -> Tile:
    if type(value) is str:
        tile = _TILE_NAMED.get(value)
        if tile is not None:  # a tile's own name ("5m", "E", "f1"): no parsing
            return tile
    tiles = _tiles(value, where, key)
    if len(tiles) != 1:
        raise RecordError(f"must be exactly one tile, got {value!r}", _at(where, key))
    return tiles[0]


_SEAT_AT = tuple(f"seats[{k}]" for k in range(4))
_MELD_AT = tuple(tuple(f"seats[{k}].melds[{i}]" for i in range(4)) for k in range(4))
_WIN_AT = tuple(f"wins[{i}]" for i in range(4))
_PLAIN_SEAT_KEYS = frozenset({"concealed", "melds", "flowers"})
#: a flower named alone, as records list them (``"f1"``, ``"梅"``): read without the parser
_FLOWER_NAMED = {name: parsed_tiles(name)[0]
                 for name in (*TILE_NAMES[NUM_KINDS:], *"梅兰蘭菊竹春夏秋冬")}
#: any tile by its own name (a winning tile, an indicator), as the parser reads it
_TILE_NAMED = {name: parsed_tiles(name)[0] for name in TILE_NAMES} | _FLOWER_NAMED


def _parse_seat(raw: Any, k: int) -> Seat:
    where = _SEAT_AT[k]
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise RecordError("must be an object", where)
    plain = raw.keys() <= _PLAIN_SEAT_KEYS  # the usual seat: no ready, declared or 混 field
    if not plain and not raw.keys() <= _SEAT_KEYS:
        _no_unknown(raw, _SEAT_KEYS, where)
    get: Any = raw.get
    concealed_text = get("concealed", "")
    if plain and type(concealed_text) is str and not concealed_text:
        melds_form = get("melds", _NO_WINS)
        flowers_form = get("flowers", _NO_WINS)
        if (type(melds_form) is list and not melds_form and type(flowers_form) is list
                and not flowers_form):  # a loser's empty seat, most seats of a Liaoyang record
            seat = _new(Seat)
            seat.__dict__.update(
                concealed=(), melds=(), flowers=(), ready=False, declared=None, hun_discarded=0,
                concealed_text=concealed_text,
                flowers_form=[] if flowers_form is _NO_WINS else flowers_form,
                explicit=_PLAIN_SEAT_KEYS if len(raw) == 3 else _plain_keys(raw))
            return seat
    try:  # (the parser directly for a string: the helper only to name the field)
        concealed = (parsed_short(concealed_text) if type(concealed_text) is str
                     and len(concealed_text) <= MEMO_LENGTH
                     else _tiles(concealed_text, where, "concealed"))
    except TileError:
        concealed = _tiles(concealed_text, where, "concealed")
    if concealed and max(concealed) >= NUM_KINDS:
        t = next(t for t in concealed if t >= NUM_KINDS)
        raise RecordError(f"flower {TILE_NAMES[t]} belongs in flowers, not in the hand",
                          f"{where}.concealed")
    melds_raw = get("melds", _NO_WINS)
    if not isinstance(melds_raw, list):
        raise RecordError("must be a list", f"{where}.melds")
    if not melds_raw:
        melds: tuple[Meld, ...] = ()
    elif len(melds_raw) <= 4:  # (each meld's field name from a table, not written each time)
        melds = tuple([_parse_meld(m, k, at)
                       for m, at in zip(melds_raw, _MELD_AT[k], strict=False)])
    else:
        melds = tuple([_parse_meld(m, k, f"{where}.melds[{i}]")
                       for i, m in enumerate(melds_raw)])
    if len(melds) > 4:
        raise RecordError(f"a hand holds at most 4 melds; seat {k} shows {len(melds)} melds",
                          f"{where}.melds")
    flowers_form = get("flowers", _NO_WINS)
    if type(flowers_form) is list:
        if flowers_form:
            named = _FLOWER_NAMED.get
            flowers = tuple([named(f, -1) if type(f) is str else -1 for f in flowers_form])
            if -1 in flowers:  # another spelling, or no tile string: the parser says which
                flowers = tuple([_one_tile(f, f"{where}.flowers[{i}]")
                                 for i, f in enumerate(flowers_form)])
        else:
            flowers = ()
            if flowers_form is _NO_WINS:
                flowers_form = []  # as a missing "flowers" always read (not the shared list)
    elif isinstance(flowers_form, str):
        flowers = _tiles(flowers_form, where, "flowers")
    elif isinstance(flowers_form, list):
        flowers = tuple([_one_tile(f, f"{where}.flowers[{i}]")
                         for i, f in enumerate(flowers_form)]) if flowers_form else ()
    else:
        raise RecordError("must be a list of flower names", f"{where}.flowers")
    if flowers and not (min(flowers) >= NUM_KINDS and max(flowers) < NUM_TILES):
        t = next(t for t in flowers if not is_flower(t))
        raise RecordError(f"{TILE_NAMES[t]} is not a flower", f"{where}.flowers")
    if plain:  # (all three keys: the keys are those of the usual seat, a frozenset already)
        seat = _new(Seat)
        seat.__dict__.update(
            concealed=concealed, melds=melds, flowers=flowers, ready=False, declared=None,
            hun_discarded=0, concealed_text=concealed_text, flowers_form=flowers_form,
            explicit=_PLAIN_SEAT_KEYS if len(raw) == 3 else _plain_keys(raw))
        return seat
    declared = get("declared")
    if declared is not None and declared not in DECLARATIONS:
        raise RecordError(f"must be one of {', '.join(DECLARATIONS)}, got {declared!r}",
                          f"{where}.declared")
    ready = get("ready", False)
    if ready is not False:
        ready = _bool(ready, where, "ready")
    hun_discarded = get("hun_discarded", 0)
    if hun_discarded != 0 or type(hun_discarded) is not int:
        hun_discarded = _count(hun_discarded, where, "hun_discarded")
    return Seat(concealed, melds, flowers, ready, declared, hun_discarded, concealed_text,
                flowers_form, frozenset(raw))


_NO_FLOWERS_KEYS = frozenset({"concealed", "melds"})


def _plain_keys(raw: Mapping[str, Any]) -> frozenset[str]:
    """A plain seat's keys: one of the two usual sets, else built (the rare seat missing a
    "concealed" or "melds")."""
    if len(raw) == 3:
        return _PLAIN_SEAT_KEYS
    if len(raw) == 2 and "flowers" not in raw:
        return _NO_FLOWERS_KEYS
    return frozenset(raw)


_MELD_SIZE = {"chow": 3, "pung": 3, "exposed_kong": 4, "added_kong": 4, "concealed_kong": 4}
#: every run of three in one suit, in any order: a chow's tiles checked in one look-up
_RUNS = frozenset(p for lo in range(27) if lo % 9 <= 6
                  for p in permutations((lo, lo + 1, lo + 2)))


def _meld_tiles() -> dict[str, tuple[Tile, ...]]:
    """A meld's tiles as records usually write them (``"123m"``, ``"312m"``, ``"555p"``,
    ``"EEEE"``), read without the parser: three in a row of one suit in any order, three or
    four of a kind (about 200 texts; a test checks each against the parser)."""
    out: dict[str, tuple[Tile, ...]] = {}
    for t in range(NUM_KINDS):
        name = TILE_NAMES[t]
        for n in (3, 4):
            out[name[0] * n + name[1:]] = (t,) * n  # "555p" ("5" * 3 + "p"), "EEE"
        if t < 27 and t % 9 <= 6:
            for run in permutations((t, t + 1, t + 2)):
                out["".join([TILE_NAMES[r][0] for r in run]) + name[1]] = run
    return out


_MELD_TILES = _meld_tiles()


def _parse_meld(raw: Any, seat: int, where: str) -> Meld:
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise RecordError("must be an object", where)
    if not raw.keys() <= _MELD_KEYS:
        _no_unknown(raw, _MELD_KEYS, where)
    get: Any = raw.get
    mtype = get("type")
    if mtype not in MELD_TYPES:
        raise RecordError(f"must be one of {', '.join(MELD_TYPES)}, got {mtype!r}",
                          f"{where}.type")
    text = get("tiles")
    tiles = _MELD_TILES.get(text) if type(text) is str else None
    if tiles is None:
        try:  # (the parser directly for a string: the helper only to name the field)
            tiles = (parsed_short(text) if type(text) is str and len(text) <= MEMO_LENGTH
                     else _tiles(text, where, "tiles"))
        except TileError:
            tiles = _tiles(text, where, "tiles")
    if mtype == "chow":
        if tiles not in _RUNS:
            _bad_meld_tiles(mtype, text, tiles, where)
    elif len(tiles) != _MELD_SIZE[mtype] or tiles[0] >= NUM_KINDS or tiles.count(
            tiles[0]) != len(tiles):
        _bad_meld_tiles(mtype, text, tiles, where)
    from_raw = get("from")
    if mtype == "concealed_kong":
        if from_raw is not None:
            raise RecordError("a concealed_kong is not claimed and has no 'from'", f"{where}.from")
        from_seat = None
    else:
        if from_raw is None:
            raise RecordError(f"a {mtype} names the seat it was claimed from", f"{where}.from")
        from_seat = (from_raw if type(from_raw) is int and 0 <= from_raw <= 3
                     else _seat_number(from_raw, where, "from"))
        if from_seat == seat:
            raise RecordError("a player cannot claim its own discard", f"{where}.from")
        if mtype == "chow" and from_seat != (seat - 1) % 4:
            raise RecordError(f"吃 (chow) only from the 上家, seat {(seat - 1) % 4}",
                              f"{where}.from")
    meld = _new(Meld)
    meld.__dict__.update(type=mtype, tiles=tiles, from_seat=from_seat, text=str(text))
    return meld


def _bad_meld_tiles(mtype: str, text: str, tiles: tuple[Tile, ...], where: str) -> None:
    """Say why these are not a meld's tiles (called once the one-look-up check failed)."""
    if any(t >= NUM_KINDS for t in tiles):
        raise RecordError("a meld cannot hold flowers", f"{where}.tiles")
    size = _MELD_SIZE[mtype]
    if len(tiles) != size:
        raise RecordError(f"a {mtype} has {size} tiles, got {len(tiles)}", f"{where}.tiles")
    if mtype == "chow":
        raise RecordError(f"{text!r} is not a run of three in one suit", f"{where}.tiles")
    raise RecordError(f"{text!r} is not {size} identical tiles", f"{where}.tiles")


_PLAIN_WIN_KEYS = frozenset({"seat", "tile", "by", "from"})


def _parse_win(raw: Any, i: int) -> Win:
    where = _WIN_AT[i] if i < 4 else f"wins[{i}]"
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise RecordError("must be an object", where)
    if not raw.keys() <= _WIN_KEYS:
        _no_unknown(raw, _WIN_KEYS, where)
    get: Any = raw.get
    seat = get("seat")
    if type(seat) is not int or not 0 <= seat <= 3:
        seat = _seat_number(seat, where, "seat")
    tile_text = get("tile")
    # a tile's own name read inline (what _one_tile does first), the helper for the rest
    tile = _TILE_NAMED.get(tile_text) if type(tile_text) is str else None
    if tile is None:
        tile = _one_tile(tile_text, where, "tile")
    by = get("by")
    if by not in WIN_BY:
        raise RecordError(f"must be one of {', '.join(WIN_BY)}, got {by!r}", f"{where}.by")
    from_raw = get("from")
    from_seat: int | None = None
    if by == "self_draw":
        if from_raw is not None:
            raise RecordError("a self-drawn win has no 'from'", f"{where}.from")
    else:
        if from_raw is None:
            raise RecordError(f"a win by {by} names the seat in 'from'", f"{where}.from")
        from_seat = (from_raw if type(from_raw) is int and 0 <= from_raw <= 3
                     else _seat_number(from_raw, where, "from"))
        if from_seat == seat:
            raise RecordError("a player cannot win on its own discard or kong", f"{where}.from")
    if raw.keys() <= _PLAIN_WIN_KEYS:  # no replacement, kong feeder or flag
        if tile >= NUM_KINDS and by != "self_draw":
            raise RecordError("a flower can only be won by self-draw (八花齐)", f"{where}.tile")
        win = _new(Win)
        win.__dict__.update(
            seat=seat, tile=tile, by=by, from_seat=from_seat, replacement=None,
            kong_fed_by=None, first_turn=False, last_tiles=False, discarder_after_kong=False,
            tile_text=str(tile_text), explicit=frozenset(raw))
        return win
    replacement = get("replacement")
    if replacement is not None:
        if replacement not in REPLACEMENTS:
            raise RecordError(f"must be one of {', '.join(REPLACEMENTS)}, got {replacement!r}",
                              f"{where}.replacement")
        if by != "self_draw":
            raise RecordError("only a self-drawn tile can be a replacement",
                              f"{where}.replacement")
    kong_fed_by = get("kong_fed_by")
    if kong_fed_by is not None:
        kong_fed_by = _seat_number(kong_fed_by, where, "kong_fed_by")
        if replacement != "kong":
            raise RecordError("kong_fed_by goes with replacement 'kong'", f"{where}.kong_fed_by")
        if kong_fed_by == seat:
            raise RecordError("the winner cannot feed its own kong", f"{where}.kong_fed_by")
    if tile >= NUM_KINDS and by != "self_draw":
        raise RecordError("a flower can only be won by self-draw (八花齐)", f"{where}.tile")
    first_turn = get("first_turn", False)
    if first_turn is not False:
        _bool(first_turn, where, "first_turn")
    last_tiles = get("last_tiles", False)
    if last_tiles is not False:
        _bool(last_tiles, where, "last_tiles")
    after_kong = get("discarder_after_kong", False)
    if after_kong is not False:
        _bool(after_kong, where, "discarder_after_kong")
    return Win(seat, tile, by, from_seat, replacement, kong_fed_by, first_turn, last_tiles,
               after_kong, str(tile_text), frozenset(raw))


def _parse_context(raw: Any) -> Context:
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise RecordError("must be an object", "context")
    if not raw.keys() <= _CONTEXT_KEYS:
        _no_unknown(raw, _CONTEXT_KEYS, "context")
    get: Any = raw.get
    dice = get("dice")
    if dice is not None:
        if (not isinstance(dice, list) or len(dice) != 2
                or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6
                           for d in dice)):
            raise RecordError(f"must be two dice values 1..6, got {dice!r}", "context.dice")
        dice = (dice[0], dice[1])
    indicator = get("indicator")
    bao_text = get("bao_tile")
    texts: tuple[tuple[str, str], ...] = ()
    bao_tile: Tile | None = None
    if indicator is not None:
        texts = (("indicator", indicator),)
        named = _TILE_NAMED.get(indicator) if type(indicator) is str else None
        indicator = named if named is not None else _one_tile(indicator, "context", "indicator")
        if indicator >= NUM_KINDS:
            raise RecordError("must be a playing tile, not a flower", "context.indicator")
    if bao_text is not None:
        bao_tile = _one_tile(bao_text, "context", "bao_tile")
        if bao_tile >= NUM_KINDS:
            raise RecordError("must be a playing tile, not a flower", "context.bao_tile")
        texts = (*texts, ("bao_tile", bao_text))
    streak = get("huangzhuang_streak", 0)
    if type(streak) is not int or streak < 0:
        streak = _count(streak, "context", "huangzhuang_streak")
    huangfan = get("huangfan", 0)
    if type(huangfan) is not int or huangfan < 0:
        huangfan = _count(huangfan, "context", "huangfan")
    context = _new(Context)
    context.__dict__.update(huangzhuang_streak=streak, dice=dice, huangfan=huangfan,
                            indicator=indicator, bao_tile=bao_tile, explicit=frozenset(raw),
                            texts=texts)
    return context


def _check_wins(record: HandRecord) -> None:
    wins = record.wins
    if record.outcome == "draw":
        if wins:
            raise RecordError("a drawn hand has no winners", "wins")
        return
    if not wins:
        raise RecordError("outcome 'win' needs at least one winner", "wins")
    if len(wins) > 1:
        seen: set[int] = set()
        for i, w in enumerate(wins):
            if w.seat in seen:
                raise RecordError(f"seat {w.seat} wins twice", f"wins[{i}].seat")
            seen.add(w.seat)
        first = wins[0]
        for i, w in enumerate(wins[1:], start=1):
            if w.by == "self_draw" or first.by == "self_draw":
                raise RecordError("several winners only on one discard (一炮多响)", f"wins[{i}].by")
            if (w.by, w.from_seat, w.tile) != (first.by, first.from_seat, first.tile):
                raise RecordError("several winners must win the same tile from the same seat",
                                  f"wins[{i}]")
            if w.seat == first.from_seat:
                raise RecordError("the discarder cannot also win", f"wins[{i}].seat")
    seats = record.seats
    for w in wins:
        seat = seats[w.seat]
        count = len(seat.concealed) + 3 * len(seat.melds)  # Seat.tile_count
        if w.tile >= NUM_KINDS:
            where = f"seats[{w.seat}]"
            if w.tile not in seat.flowers or sorted(seat.flowers) != list(FLOWERS):
                raise RecordError("a win by flowers holds all eight flowers, the last drawn "
                                  "as the winning tile", f"{where}.flowers")
            if count != 13:
                raise RecordError(f"a win by flowers has 13 standing tiles, got {count}", where)
            continue
        if count != 14:
            raise RecordError(f"winner holds {count} tiles (kongs count 3), needs 14",
                              f"seats[{w.seat}]")
        if w.tile not in seat.concealed:
            raise RecordError(f"winner does not hold its winning tile {TILE_NAMES[w.tile]} "
                              "among its concealed tiles", f"seats[{w.seat}].concealed")
    for i, w in enumerate(wins):
        if w.replacement is not None or w.kong_fed_by is not None or w.by == "rob_kong":
            _check_win_source(record, w, f"wins[{i}]")
    winners = [w.seat for w in wins] if len(wins) > 1 else (wins[0].seat,)
    for k in range(4):
        seat = seats[k]
        if k in winners or not seat.concealed:
            continue
        count = len(seat.concealed) + 3 * len(seat.melds)
        if count != 13 and not (count == 14 and record.outcome == "draw"):
            allowed = (13, 14) if record.outcome == "draw" else (13,)
            raise RecordError(f"a non-winner holds {' or '.join(map(str, allowed))} tiles "
                              f"(kongs count 3), got {count}", f"seats[{k}]")


def _check_win_source(record: HandRecord, win: Win, where: str) -> None:
    """What the README defines for every ruleset: a replacement win needs the kong or flower it
    replaced, 杠爆 the exposed kong fed by that seat, and 抢杠 the pung its 补杠 was adding to."""
    seat = record.seats[win.seat]
    if win.replacement == "kong" and not any(m.is_kong for m in seat.melds):
        raise RecordError("a win on a kong's replacement tile (杠开) needs a kong among the "
                          "winner's melds", f"{where}.replacement")
    if win.replacement == "flower" and not seat.flowers:
        raise RecordError("a win on a flower's replacement tile (杠开) needs a flower among "
                          "the winner's flowers", f"{where}.replacement")
    fed = win.kong_fed_by
    if fed is not None and not any(m.type == "exposed_kong" and m.from_seat == fed
                                   for m in seat.melds):
        raise RecordError(f"杠爆 needs an exposed_kong claimed from seat {fed} among the "
                          "winner's melds", f"{where}.kong_fed_by")
    if win.by == "rob_kong":
        assert win.from_seat is not None
        robbed = record.seats[win.from_seat]
        if not any(m.type == "pung" and m.kind == win.tile for m in robbed.melds):
            raise RecordError(f"only a 补杠 can be robbed (抢杠): seat {win.from_seat} shows no "
                              f"pung of {TILE_NAMES[win.tile]} to add to", f"{where}.from")


def validate_counts(record: HandRecord) -> None:
    """No more than 4 copies of a tile, and each flower once, among everything shown."""
    shown: list[Tile] = []
    for seat in record.seats:
        shown += seat.concealed
        for m in seat.melds:
            shown += m.tiles
        shown += seat.flowers
    context = record.context
    if context.indicator is not None:
        shown.append(context.indicator)
    if context.bao_tile is not None:
        shown.append(context.bao_tile)
    wins = record.wins
    discard_wins = [w for w in wins if w.by != "self_draw"] if len(wins) > 1 else wins
    if len(discard_wins) <= 1:
        # sorted, a fifth copy of a kind sits 4 places after the first (a flower: 1 place)
        shown.sort()
        split = bisect_left(shown, NUM_KINDS)
        playing, flowers = shown[:split], shown[split:]
        if not any(map(eq, playing, playing[4:])) and not any(map(eq, flowers, flowers[1:])):
            return
    counts = [0] * len(TILE_NAMES)
    for t in shown:
        counts[t] += 1
    if len(discard_wins) > 1:
        # the one discarded tile sits in every winner's hand: count it once
        counts[discard_wins[0].tile] -= len(discard_wins) - 1
        if max(counts[:NUM_KINDS]) <= 4 and max(counts[NUM_KINDS:]) <= 1:
            return
    for tile, n in enumerate(counts):
        limit = 1 if is_flower(tile) else 4
        if n > limit:
            raise RecordError(f"{n} copies of {TILE_NAMES[tile]} shown; the set has {limit}",
                              "seats")
