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


def old_log(path: Path, version: int, ruleset: str = "shandong", first_dealer: int = 0):
    """A match log at an older schema ``version`` holding one match (just created): what an
    earlier mjtable left on disk. Returns the open connection (the caller closes it)."""
    import sqlite3

    from scoring.match import schema

    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    schema.migrate(db, 0, upto=version)
    body = json.dumps({"first_dealer": first_dealer, "players": ["a", "b", "c", "d"],
                       "ruleset": ruleset, "type": "match_created"}, sort_keys=True)
    db.execute("INSERT INTO matches VALUES (1, '2026-01-01T00:00:00Z', ?, NULL)", (ruleset,))
    db.execute("INSERT INTO events (match_id, seq, at, who, type, body) VALUES "
               "(1, 1, '2026-01-01T00:00:00Z', 'ref', 'match_created', ?)", (body,))
    return db
