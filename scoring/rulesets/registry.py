"""The rulesets the project knows, found by name, with their options and their help text.

The three regional rulesets are packages under ``scoring/rulesets/``; another (a house variant,
a test's toy) joins with :func:`register` and is then asked exactly like them. Callers that
follow a table whatever its ruleset use :func:`rules_for`, which falls back to the standard
shapes when no ruleset is named or the named one is not known.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from scoring.errors import RecordError, RulesetNotImplemented
from scoring.rulesets.base import (
    STANDARD,
    OptionSpec,
    RuleOptions,
    Ruleset,
    WallBreak,
    resolve_options,
)

if TYPE_CHECKING:
    from scoring.record import HandRecord

_BUILT_IN = ("shandong", "liaoyang", "shanghai")
_REGISTERED: dict[str, Ruleset] = {}
_LOADED: dict[str, Ruleset] = {}
_OPTION_TYPES: dict[str, type[RuleOptions] | None] = {}  # the built-in rulesets' option types


def known_rulesets() -> tuple[str, ...]:
    """The rulesets' names, the built-in ones first (the first is the default)."""
    return _BUILT_IN + tuple(n for n in _REGISTERED if n not in _BUILT_IN)


def is_known(name: object) -> bool:
    """Is ``name`` one of :func:`known_rulesets` (asked for every record parsed)?"""
    return isinstance(name, str) and (name in _BUILT_IN or name in _REGISTERED)


def default_ruleset() -> str:
    """The ruleset a new match or an unnamed table record gets: the first known."""
    return known_rulesets()[0]


def read_wall_break(name: str | None, dealer: int, rolls: Sequence[Sequence[int]],
                    options: Mapping[str, Any] | None = None) -> tuple[WallBreak | None, str]:
    """Where the named ruleset breaks the wall after these rolls (oldest first), or ``None``
    and why it cannot say yet: the one wrapper vision and the dashboard use."""
    if not name:
        return None, "no ruleset"
    try:
        rs = get_ruleset(name)
    except RulesetNotImplemented as exc:
        return None, f"no wall break yet: {exc}"
    return rs.read_wall_break(dealer, rolls, options)


def register(ruleset: Ruleset) -> None:
    """Make ``ruleset`` known under its ``name``, beside the built-in ones."""
    name = getattr(ruleset, "name", "")
    if not isinstance(ruleset, Ruleset) or not isinstance(name, str) or not name:
        raise ValueError("register a Ruleset instance with a name")
    if name in _BUILT_IN:
        raise ValueError(f"{name!r} is a built-in ruleset")
    _REGISTERED[name] = ruleset


def unregister(name: str) -> None:
    """Forget a ruleset given to :func:`register` (tests clean up with this)."""
    _REGISTERED.pop(name, None)


def ruleset_options(name: str) -> tuple[OptionSpec, ...]:
    if name in _REGISTERED:
        return _REGISTERED[name].options
    if name not in _BUILT_IN:
        raise RulesetNotImplemented(f"unknown ruleset {name!r}; known: "
                                    f"{', '.join(known_rulesets())}")
    module = importlib.import_module(f"scoring.rulesets.{name}.options")
    return module.OPTIONS  # type: ignore[no-any-return]


def _options_type(name: str) -> type[RuleOptions] | None:
    if name in _REGISTERED:
        return _REGISTERED[name].Options
    found = _OPTION_TYPES.get(name)
    if found is None:
        module = importlib.import_module(f"scoring.rulesets.{name}.options")
        found = _OPTION_TYPES[name] = getattr(module, "Options", None)
    return found


def typed_options(name: str, overrides: Mapping[str, Any]) -> Any:
    """The ruleset's house rules resolved once: its ``RuleOptions`` (or the resolved mapping).

    An option of another ruleset is refused naming that ruleset; settings under which nothing
    could be paid are refused by the ruleset's own check.
    """
    # a built-in ruleset already asked once: its type straight from the table
    kind = (_OPTION_TYPES.get(name) if type(name) is str and name not in _REGISTERED
            else None)
    if kind is None:
        if not is_known(name):
            ruleset_options(name)  # an unknown ruleset is refused, naming the known ones
        kind = _options_type(name)
    try:
        if kind is not None:
            return kind.from_mapping(overrides)
        return resolve_options(ruleset_options(name), overrides)
    except RecordError as exc:
        key = exc.field.removeprefix("options.") if exc.field else ""
        if key in overrides and not any(s.name == key for s in ruleset_options(name)):
            owners = [n for n in known_rulesets()
                      if n != name and any(s.name == key for s in ruleset_options(n))]
            if owners:
                raise RecordError(f"{key} is an option of {' and '.join(owners)}, not of "
                                  f"{name} (its options: "
                                  f"{', '.join(s.name for s in ruleset_options(name)) or 'none'})",
                                  exc.field) from None
        raise


def check_options(name: str, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`typed_options` as a plain mapping (for comparing two sets of options)."""
    resolved = typed_options(name, overrides)
    return resolved.to_dict() if isinstance(resolved, RuleOptions) else dict(resolved)


def check_fields(record: HandRecord) -> None:
    """Refuse a record field that only another ruleset reads (``context.indicator`` in a
    Shandong record), naming the ruleset it belongs to."""
    found = _special_fields(record)
    if not found:
        return  # most records set none of them
    mine = get_ruleset(record.ruleset).record_fields
    for where, key in found:
        if key in mine:
            continue
        owners = [n for n in known_rulesets() if n != record.ruleset
                  and key in get_ruleset(n).record_fields]
        if owners:
            raise RecordError(f"{key} belongs to {' and '.join(owners)} records; {record.ruleset} "
                              "does not read it (leave it out)", where)


def _special_fields(record: HandRecord) -> list[tuple[str, str]]:
    """(where, field) for each field a record sets beyond its default."""
    out: list[tuple[str, str]] = []
    ctx = record.context
    if ctx.huangzhuang_streak != 0:
        out.append(("context.huangzhuang_streak", "context.huangzhuang_streak"))
    if ctx.huangfan != 0:
        out.append(("context.huangfan", "context.huangfan"))
    if ctx.indicator is not None:  # (a tile 0, 1m, is set)
        out.append(("context.indicator", "context.indicator"))
    if ctx.bao_tile is not None:
        out.append(("context.bao_tile", "context.bao_tile"))
    for k, seat in enumerate(record.seats):
        if seat.declared is not None:
            out.append((f"seats[{k}].declared", "seats.declared"))
        if seat.hun_discarded:
            out.append((f"seats[{k}].hun_discarded", "seats.hun_discarded"))
    return out


def get_ruleset(name: str) -> Ruleset:
    found = _REGISTERED.get(name) or _LOADED.get(name)
    if found is not None:
        return found
    if name not in _BUILT_IN:
        raise RulesetNotImplemented(f"unknown ruleset {name!r}; known: "
                                    f"{', '.join(known_rulesets())}")
    module = importlib.import_module(f"scoring.rulesets.{name}")
    ruleset = getattr(module, "RULESET", None)
    if ruleset is None:
        raise RulesetNotImplemented(f"the {name} ruleset is not implemented yet", "ruleset")
    _LOADED[name] = ruleset
    return ruleset  # type: ignore[no-any-return]


def rules_for(name: str | None) -> Ruleset:
    """The named ruleset, or the standard shapes when there is no name or it is not known:
    the one "try the ruleset, else fall back" of vision, the dashboard and 听."""
    if not name:
        return STANDARD
    try:
        return get_ruleset(name)
    except RulesetNotImplemented:
        return STANDARD


def describe(name: str) -> str:
    """``name: title — summary`` for a help text or a picker."""
    rs = get_ruleset(name)
    return f"{name} ({rs.title}{': ' + rs.summary if rs.summary else ''})"


def help_text() -> str:
    """The rulesets, one clause each, for an option's ``--help``."""
    return "; ".join(describe(n) for n in known_rulesets())
