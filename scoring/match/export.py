"""A match for people and other programs: JSON (hand records + the whole log) and CSV payments.

The JSON keeps every event as logged, amendments included, so an auditor can replay it; the
CSV has one row per settled hand (and per escape penalty) with each seat's payment and running
total.
"""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scoring.match.store import Match

FORMAT = "mjtable-match"
VERSION = 1


def match_json(match: Match) -> dict[str, Any]:
    state = match.state
    first = match.log[0].event.to_json() if match.log else {}
    return {
        "format": FORMAT,
        "version": VERSION,
        "match": {"id": match.id, "created_at": match.created_at, "ruleset": state.ruleset,
                  "title": state.title, "options": dict(state.options),
                  "players_at_start": first.get("players"), "players": list(state.players),
                  "first_dealer": state.first_dealer},
        "hands": [{"number": h.number, "seq": h.seq, "source": h.source,
                   "record": h.record.to_json(), "settlement": h.settlement.to_json(),
                   "totals_after": list(h.totals_after)} for h in state.hands],
        "departures": [{"seq": d.seq, "seat": d.seat, "player": d.player,
                        "replacement": d.replacement,
                        "transfers": [t.to_json() for t in d.transfers],
                        "payments": list(d.payments), "room_fee": d.room_fee}
                       for d in state.departures],
        "adjustments": [{"seq": a.seq, "seat": a.seat, "player": a.player, "points": a.points,
                         "who": a.who, "why": a.why} for a in state.adjustments],
        "totals": list(state.totals),
        "room": state.room,
        "dealer": state.dealer,
        "counters": dict(state.counters),
        "levels": state.levels,
        "in_play": state.hand.status() if state.hand is not None else None,
        "problem": str(match.problem) if match.problem else None,
        "events": [{"seq": row.seq, "at": row.at, "who": row.who, "event": row.event.to_json()}
                   for row in match.log],
    }


CSV_HEADER = ("row", "seq", "kind", "dealer", "outcome", "winners",
              "pay_0", "pay_1", "pay_2", "pay_3", "total_0", "total_1", "total_2", "total_3",
              "room_fee")


def match_csv(match: Match) -> str:
    """Per-hand payments in log order; escapes and referee adjustments where they happened.

    ``room_fee`` is what a row paid out of the table (Shanghai escape: the room's 25%; a
    penalty, which leaves the table; a bonus, negative, which comes into it), so each row's
    payments plus its fee add up to 0.
    """
    state = match.state
    rows: list[tuple[int, list[Any], Any]] = []
    for h in state.hands:
        s = h.settlement
        winners = " ".join(str(w.seat) for w in h.record.wins)
        rows.append((h.seq, [h.number, h.seq, f"hand ({h.source})", h.record.dealer,
                             s.outcome, winners, *s.payments], 0))
    for d in state.departures:
        rows.append((d.seq, ["", d.seq, f"escape (seat {d.seat} {d.player})", "", "", "",
                             *d.payments], d.room_fee))
    for a in state.adjustments:
        pay = [a.points if k == a.seat else 0 for k in range(4)]
        what = "penalty" if a.points < 0 else "bonus"
        rows.append((a.seq, ["", a.seq, f"{what} (seat {a.seat} {a.player}: {a.why})", "", "",
                             "", *pay], -a.points))
    rows.sort(key=lambda r: r[0])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    running: list[Any] = [0, 0, 0, 0]
    for _, row, fee in rows:
        running = [a + b for a, b in zip(running, row[6:10], strict=True)]
        writer.writerow([*row, *running, fee])
    return out.getvalue()
