"""Shared by the server tests: a seated tournament and tables' logs as the wire sends them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from scoring.match import Event, LoggedEvent
from scoring.match.chain import body_text, event_hash, genesis
from scoring.tournament import Tournament, seat_round
from tests.tournament.hands import table_log
from ui.server.store import TournamentStore


def names(n: int) -> list[str]:
    return [f"P{i:02d}" for i in range(n)]


#: the table's log the tests push: its match id and creation time start its hash chain
ORIGIN = {"match": 1, "created_at": "2026-12-02T07:59:00.000Z"}


def wire(log: Sequence[LoggedEvent], origin: dict[str, Any] = ORIGIN) -> list[dict[str, Any]]:
    """The rows a table's outbox sends of ``log``, hash-chained as its match log is."""
    previous = genesis(origin["match"], origin["created_at"])
    out = []
    for r in log:
        body = body_text(r.event.to_json())
        previous = event_hash(previous, (r.seq, r.at, r.who, r.event.type, body, r.note))
        out.append({"seq": r.seq, "event": r.event.to_json(), "at": r.at, "who": r.who,
                    "note": r.note, "hash": previous})
    return out


def next_row(store: TournamentStore, round_no: int, table: int, event: Event,
             at: str | None = None, who: str = "table") -> dict[str, Any]:
    """The row a table sends for its next event: chained to the last one the server holds
    from it (referee events it has not taken yet come after), dated ``at`` or a second after
    that last one (a referee event the server wrote bears the real clock's time)."""
    last = store.chain_rows(round_no, table)[store.head(round_no, table) - 1]
    if at is None:
        then = datetime.strptime(last.at, "%Y-%m-%dT%H:%M:%S.%fZ") + timedelta(seconds=1)
        at = then.strftime("%Y-%m-%dT%H:%M:%S.") + f"{then.microsecond // 1000:03d}Z"
    body = body_text(event.to_json())
    digest = event_hash(last.hash, (last.seq + 1, at, who, event.type, body, ""))
    return {"seq": last.seq + 1, "event": event.to_json(), "at": at, "who": who, "note": "",
            "hash": digest}


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
