"""Fixtures of the match tests: a fresh database per test, worked hand cases by name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring.match import MatchStore

CASES = Path(__file__).resolve().parent.parent / "cases"


def case(ruleset: str, stem: str) -> dict[str, Any]:
    """A worked hand record of ``tests/cases`` (the rulesets' oracles)."""
    return json.loads((CASES / ruleset / f"{stem}.json").read_text(encoding="utf-8"))


def expect(ruleset: str, stem: str) -> dict[str, Any]:
    return json.loads((CASES / ruleset / f"{stem}.expect.json").read_text(encoding="utf-8"))


@pytest.fixture
def store(tmp_path: Path):
    s = MatchStore.open(tmp_path / "matches.sqlite3")
    yield s
    s.close()
