"""Typed house rules: resolved once when a record is opened, another ruleset's options and fields
refused by name, and settings under which nothing could be paid refused."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from scoring import RecordError, get_ruleset, known_rulesets, parse_record, score
from scoring.match import EventRefused, MatchState
from scoring.match.events import MatchCreated

CASES = Path(__file__).resolve().parent.parent / "cases"


def case(ruleset: str, name: str) -> dict[str, Any]:
    path = next(p for p in sorted((CASES / ruleset).glob(f"{name}*.json"))
                if not p.name.endswith(".expect.json"))
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_every_ruleset_has_typed_frozen_options_with_help() -> None:
    for name in known_rulesets():
        rs = get_ruleset(name)
        assert rs.Options is not None and dataclasses.is_dataclass(rs.Options)
        defaults = rs.typed({})
        assert all(spec.doc and getattr(defaults, spec.name) == spec.default
                   for spec in rs.options), name
        with pytest.raises(dataclasses.FrozenInstanceError):
            defaults.base = 7  # type: ignore[misc]


def test_a_record_is_resolved_once_when_it_is_opened() -> None:
    record = parse_record({**case("shandong", "01-"), "options": {"base": 10}})
    rs = get_ruleset("shandong")
    assert isinstance(record.resolved, rs.Options) and record.resolved.base == 10
    assert rs.opts(record) is record.resolved
    # the record keeps the options as written, so it round-trips unchanged
    assert record.to_json()["options"] == {"base": 10}
    # a copy with other options is resolved again, not read from the original's
    copy = dataclasses.replace(record, options={"base": 20})
    assert copy.resolved is None and rs.opts(copy).base == 20
    assert score(record).payments == [0, 13, 0, -13]  # (底 10 + 3 花) × 1 番


@pytest.mark.parametrize("ruleset, case_name, option, owner", [
    ("shandong", "01-", "hun_claims", "liaoyang"),
    ("liaoyang", "01-", "escape_split", "shandong"),
    ("shanghai", "01-", "qidui_four_of_a_kind", "shandong"),
])
def test_an_option_of_another_ruleset_is_refused_by_name(ruleset: str, case_name: str,
                                                         option: str, owner: str) -> None:
    data = {**case(ruleset, case_name), "options": {option: True}}
    with pytest.raises(RecordError, match=rf"{option} is an option of {owner}, not of "
                                          rf"{ruleset}") as err:
        score(data)
    assert err.value.field == f"options.{option}"


def test_an_unknown_option_still_lists_the_rulesets_own() -> None:
    with pytest.raises(RecordError, match=r"unknown option \(this ruleset has: base, "):
        score({**case("shandong", "01-"), "options": {"bsae": 10}})


@pytest.mark.parametrize("ruleset, where, value, owner", [
    ("shandong", "context.indicator", "1m", "liaoyang"),  # tile 0 is set too
    ("shanghai", "context.huangzhuang_streak", 2, "shandong"),
    ("liaoyang", "context.huangfan", 1, "shanghai"),
    ("shanghai", "seats.2.declared", "minglou", "shandong"),
])
def test_a_field_of_another_ruleset_is_refused_by_name(ruleset: str, where: str, value: Any,
                                                       owner: str) -> None:
    data = json.loads(json.dumps(case(ruleset, "01-")))
    node = data
    keys = where.split(".")
    for key in keys[:-1]:
        node = node.setdefault(key, {}) if not key.isdigit() else node[int(key)]
    node[keys[-1]] = value
    with pytest.raises(RecordError, match=f"belongs to {owner} records; {ruleset} does not "
                                          "read it"):
        score(data)


@pytest.mark.parametrize("ruleset, option", [
    ("shanghai", "le"), ("liaoyang", "base"), ("liaoyang", "di")])
def test_options_that_would_zero_every_payment_are_refused(ruleset: str, option: str) -> None:
    with pytest.raises(RecordError, match="must be at least 1") as err:
        score({**case(ruleset, "01-"), "options": {option: 0}})
    assert err.value.field == f"options.{option}"


def test_a_match_refuses_another_rulesets_option_when_it_is_opened() -> None:
    created = MatchCreated(ruleset="shanghai", players=("a", "b", "c", "d"), first_dealer=0,
                           options={"hun_claims": True})
    with pytest.raises(EventRefused, match="hun_claims is an option of liaoyang, not of "
                                           "shanghai"):
        MatchState.create(created)
