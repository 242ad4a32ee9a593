"""The rulesets the project knows, found by name; their options load without their scoring."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from scoring.errors import RulesetNotImplemented
from scoring.rulesets.base import OptionSpec, Ruleset, resolve_options

_NAMES = ("shandong", "liaoyang", "shanghai")


def known_rulesets() -> tuple[str, ...]:
    return _NAMES


def ruleset_options(name: str) -> tuple[OptionSpec, ...]:
    module = importlib.import_module(f"scoring.rulesets.{name}.options")
    return module.OPTIONS  # type: ignore[no-any-return]


def check_options(name: str, overrides: Mapping[str, Any]) -> dict[str, Any]:
    return resolve_options(ruleset_options(name), overrides)


def get_ruleset(name: str) -> Ruleset:
    if name not in _NAMES:
        raise RulesetNotImplemented(f"unknown ruleset {name!r}; known: {', '.join(_NAMES)}")
    module = importlib.import_module(f"scoring.rulesets.{name}")
    ruleset = getattr(module, "RULESET", None)
    if ruleset is None:
        raise RulesetNotImplemented(f"the {name} ruleset is not implemented yet", "ruleset")
    return ruleset  # type: ignore[no-any-return]
