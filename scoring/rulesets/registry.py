"""The rulesets the project knows, found by name; their options load without their scoring.

The three regional rulesets are packages under ``scoring/rulesets/``; another (a house variant,
a test's toy) joins with :func:`register` and is then asked exactly like them. Callers that
follow a table whatever its ruleset use :func:`rules_for`, which falls back to the standard
shapes when no ruleset is named or the named one is not known.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from scoring.errors import RulesetNotImplemented
from scoring.rulesets.base import STANDARD, OptionSpec, Ruleset, WallBreak, resolve_options

_BUILT_IN = ("shandong", "liaoyang", "shanghai")
_REGISTERED: dict[str, Ruleset] = {}
_LOADED: dict[str, Ruleset] = {}


def known_rulesets() -> tuple[str, ...]:
    """The rulesets' names, the built-in ones first (the first is the default)."""
    return _BUILT_IN + tuple(n for n in _REGISTERED if n not in _BUILT_IN)


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


def check_options(name: str, overrides: Mapping[str, Any]) -> dict[str, Any]:
    return get_ruleset(name).resolve_options(overrides) if name in _REGISTERED else \
        resolve_options(ruleset_options(name), overrides)


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
