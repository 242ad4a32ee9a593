"""Shared by the server tests: a seated tournament and tables' logs as the wire sends them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from scoring.match import LoggedEvent
from scoring.tournament import Tournament, seat_round
from tests.tournament.hands import table_log
from ui.server.store import TournamentStore


def names(n: int) -> list[str]:
    return [f"P{i:02d}" for i in range(n)]


def wire(log: Sequence[LoggedEvent]) -> list[dict[str, Any]]:
    return [{"seq": r.seq, "event": r.event.to_json(), "at": r.at, "who": r.who} for r in log]


def seated_store(url: str, players: Sequence[str], ruleset: str = "shandong",
                 rounds: int = 2) -> TournamentStore:
    store = TournamentStore.open(url)
    store.init(Tournament("Club night", ruleset, tuple(players), rounds=rounds), "admin")
    tables, _ = seat_round(list(players), Counter(), 1)
    store.act({"name": "round_seated", "why": "round 1", "round": 1,
               "tables": [t.to_json() for t in tables]}, "ref")
    return store


def logs_for(store: TournamentStore, hands: int, seed: int = 1,
             round_no: int = 1) -> dict[int, list[LoggedEvent]]:
    tour = store.tournament()
    return {t.table: table_log(tour.ruleset, t.players, hands, seed + t.table, tour.options)
            for t in store.actions()[round_no - 1].tables}  # type: ignore[attr-defined]
