"""What the pages and exports show, as JSON and CSV: standings, tables, rounds, last events."""

from __future__ import annotations

import csv
import io
from typing import Any

from scoring.match import LoggedEvent
from scoring.match.state import MatchState
from scoring.tournament import Standings, TableResult, zero_sum_problems


def table_json(t: TableResult) -> dict[str, Any]:
    return {"round": t.round, "table": t.table, "players": list(t.players),
            "totals": list(t.totals), "places": list(t.places), "points": list(t.points),
            "hands": t.hands, "final": t.final, "problem": t.problem, "room": t.room,
            "substitutes": [{"seat": s.seat, "substitute": s.substitute,
                             "from_hand": s.from_hand, "why": s.why} for s in t.substitutes]}


def standings_json(s: Standings, tournament_name: str = "") -> dict[str, Any]:
    return {
        "tournament": tournament_name,
        "rows": [{"rank": r.rank, "player": r.player, "points": r.points, "score": r.score,
                  "adjustments": r.adjustments, "firsts": r.firsts, "tables": r.tables,
                  "tied": r.tied} for r in s.rows],
        "tables": [table_json(t) for t in s.tables],
        "adjustments": [a.to_json() for a in s.adjustments],
        "closed_rounds": list(s.closed_rounds),
        "problems": list(s.problems),
        "zero_sum": zero_sum_problems(s),
    }


def live_table(log: list[LoggedEvent], state: MatchState | None, problem: str | None,
               last: int = 12) -> dict[str, Any]:
    """The hand in play and the last events of one table's log (as the server holds it)."""
    return {
        "status": state.status if state is not None else "",
        "dealer": state.dealer if state is not None else None,
        "problem": problem,
        "events": [{"seq": r.seq, "at": r.at, "who": r.who, "what": r.event.describe()}
                   for r in log[-last:]][::-1],
    }


def _csv(header: list[str], rows: list[list[Any]]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    for row in rows:
        # a cell a spreadsheet would run as a formula is kept as text
        w.writerow([f"'{v}" if isinstance(v, str) and v[:1] in "=+-@" else v for v in row])
    return out.getvalue()


def standings_csv(s: Standings) -> str:
    return _csv(["rank", "player", "points", "score", "adjustments", "firsts", "tables"],
                [[r.rank, r.player, r.points, r.score, r.adjustments, r.firsts, r.tables]
                 for r in s.rows])


def rounds_csv(s: Standings) -> str:
    rows = []
    for t in s.tables:
        for seat, player in enumerate(t.players):
            rows.append([t.round, t.table, seat, player, t.totals[seat], t.places[seat],
                         t.points[seat], t.hands, "final" if t.final else "provisional"])
    return _csv(["round", "table", "seat", "player", "score", "place", "points", "hands",
                 "status"], rows)
