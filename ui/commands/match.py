"""`mjtable match new|list|show|export|replay|verify|add-hand|amend|event|sign|keygen`.

The referee's match log.

A thin layer over :class:`scoring.match.MatchStore`; ``--db`` picks the database file (default:
``matches.sqlite3`` in the user's data folder).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from scoring.errors import RecordError
from scoring.jsonlimits import load_json, read_json_file
from scoring.match import Match, MatchStore
from scoring.match.events import Amendment, SignOff
from scoring.match.state import Adjustment
from scoring.rulesets.registry import help_text
from ui.commands._numbers import MATCH_ID, number
from ui.errors import CommandError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("match", help="referee log: follow a match hand by hand",
                       description="Create matches, append finished hands or table events, "
                                   "amend them, and show, replay or export a match.")
    p.add_argument("--db", help="match database file (default: the user's data folder)")
    msub = p.add_subparsers(dest="match_command", metavar="ACTION")

    q = msub.add_parser("new", help="start a match")
    q.add_argument("--ruleset", required=True, metavar="RULESET",
                   help=help_text())
    q.add_argument("--players", nargs=4, required=True, metavar="NAME",
                   help="four names, in seat order 0..3 (play order)")
    q.add_argument("--dealer", default="random",
                   help="first dealer's seat 0..3, or 'random' (default)")
    q.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="house-rule option (repeatable), e.g. base=10")
    q.add_argument("--title", help="a name for the match")
    q.add_argument("--who", default="", help="who creates it (kept in the log)")
    q.set_defaults(func=run_new)

    q = msub.add_parser("list", help="list matches")
    q.set_defaults(func=run_list)

    q = msub.add_parser("show", help="totals, dealer, counters and every hand of a match")
    q.add_argument("match", type=MATCH_ID)
    q.add_argument("--log", action="store_true", help="also print every logged event")
    q.add_argument("--json", action="store_true", help="print the export JSON instead")
    q.set_defaults(func=run_show)

    q = msub.add_parser("export", help="export a match as JSON (records + events) or CSV")
    q.add_argument("match", type=MATCH_ID)
    q.add_argument("--format", choices=("json", "csv"), default="json")
    q.add_argument("-o", "--output", help="write to this file instead of stdout")
    q.set_defaults(func=run_export)

    q = msub.add_parser("replay", help="replay a match from its log and print it hand by hand")
    q.add_argument("match", type=MATCH_ID)
    q.set_defaults(func=run_replay)

    q = msub.add_parser("verify", help="check the log's hash chain and the referees' sign-offs")
    q.add_argument("match", type=MATCH_ID)
    q.add_argument("--key", help="the referee key file, to check the sign-offs made with it")
    q.set_defaults(func=run_verify)

    q = msub.add_parser("sign", help="sign a finished hand with the referee's key")
    q.add_argument("match", type=MATCH_ID)
    q.add_argument("seq", type=MATCH_ID, help="the event that finished the hand (show --log)")
    q.add_argument("--key", required=True, help="the referee key file (kept off this machine's "
                                               "database, e.g. on the referee's USB stick)")
    q.add_argument("--referee", required=True, help="who signs")
    q.set_defaults(func=run_sign)

    q = msub.add_parser("keygen", help="write a new referee key file (never overwrites)")
    q.add_argument("file")
    q.set_defaults(func=run_keygen)

    q = msub.add_parser("add-hand", help="append a finished hand record (JSON; '-' = stdin)")
    q.add_argument("match", type=MATCH_ID)
    q.add_argument("file")
    q.add_argument("--who", default="", help="who enters it")
    q.add_argument("--why", default="", help="a note kept with it")
    q.set_defaults(func=run_add_hand)

    q = msub.add_parser("amend", help="correct or strike a logged event (the original stays)")
    q.add_argument("match", type=MATCH_ID)
    q.add_argument("seq", type=MATCH_ID, help="the event's number in the log (see show --log)")
    what = q.add_mutually_exclusive_group(required=True)
    what.add_argument("--event", metavar="FILE",
                      help="the corrected event (JSON; '-' = stdin); for a hand, a hand record")
    what.add_argument("--strike", action="store_true", help="strike the event out")
    q.add_argument("--also", nargs=2, action="append", default=[], metavar=("SEQ", "FILE"),
                   help="another event corrected in the same go (FILE, or 'strike'), for a "
                        "correction that moves later hands (repeatable)")
    q.add_argument("--who", required=True, help="who makes the correction")
    q.add_argument("--why", required=True, help="why")
    q.set_defaults(func=run_amend)

    q = msub.add_parser("event", help="append one table event (JSON; '-' = stdin)")
    q.add_argument("match", type=MATCH_ID)
    q.add_argument("file")
    q.add_argument("--who", default="")
    q.set_defaults(func=run_event)

    q = msub.add_parser("push", help="send a match's log to the tournament server (outbox)",
                        description="Send the events the server lacks; the first push binds "
                                    "the match to a server, round and table. Safe to repeat: "
                                    "the server stores each event once.")
    q.add_argument("match", type=MATCH_ID)
    q.add_argument("--server", help="the tournament server, e.g. http://192.168.1.10:8765")
    q.add_argument("--round", type=MATCH_ID, help="the tournament round this match is")
    q.add_argument("--table", type=MATCH_ID, help="this table's number")
    q.add_argument("--token", help="this table's token (or MJTABLE_TABLE_TOKEN)")
    q.add_argument("--outbox", help="outbox file (default: the user's data folder)")
    q.add_argument("--retry", action="store_true",
                   help="while the server cannot be reached, keep trying (pauses up to 30 s)")
    q.add_argument("--watch", type=number(float, 0.2, 3600, unit="seconds"),
                   help="keep pushing new events every this many seconds (Ctrl-C stops)")
    q.set_defaults(func=run_push)

    p.set_defaults(func=lambda args: _usage(p))


def _usage(p: argparse.ArgumentParser) -> int:
    p.print_help()
    return 2


def _store(args: argparse.Namespace, create: bool = False) -> MatchStore:
    return MatchStore.open(args.db, create=create)


def _reader(args: argparse.Namespace) -> MatchStore:
    """The database opened read-only: reading works on a read-only disk and writes nothing."""
    return MatchStore.open(args.db, readonly=True)


def _chain_warning(match: Match) -> str | None:
    """The loud line a broken hash chain earns (``None`` when the chain is intact)."""
    if match.chain_break is None:
        return None
    return (f"WARNING: match {match.id}'s log was changed outside mjtable: {match.chain_break}; "
            f"what follows may not be what the table recorded (mjtable match verify "
            f"{match.id})")


def _read_json(path: str) -> Any:
    return read_json_file(path, CommandError)


def _option(text: str) -> tuple[str, Any]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise CommandError(f"--option wants NAME=VALUE, got {text!r}")
    try:
        return name, load_json(value, f"--option {name}")
    except RecordError:  # not JSON: the text itself (the ruleset says if a text is wanted)
        return name, value


def run_new(args: argparse.Namespace) -> int:
    if args.dealer == "random":
        dealer = None
    elif args.dealer in ("0", "1", "2", "3"):
        dealer = int(args.dealer)
    else:
        raise CommandError(f"--dealer is a seat 0..3 or 'random', got {args.dealer!r}")
    options = dict(_option(o) for o in args.option)
    with _store(args, create=True) as store:
        mid = store.new_match(args.ruleset, options, args.players, dealer, title=args.title,
                              who=args.who)
        match = store.load(mid)
        print(f"match {mid} ({match.ruleset}) in {store.path}: seat {match.dealer} "
              f"({match.players[match.dealer]}) deals first")
    return 0


def run_list(args: argparse.Namespace) -> int:
    with _reader(args) as store:
        for m in store.list_matches():
            title = f" {m.title!r}" if m.title else ""
            print(f"{m.id:4d}  {m.created_at}  {m.ruleset:<9}{title}  "
                  f"{' / '.join(m.players)}  ({m.events} events)")
    return 0


def _num(x: Any) -> str:
    return f"{x:+g}" if isinstance(x, float) else f"{x:+d}"


def format_match(match: Match, log: bool = False) -> str:
    """A referee's view: players, totals, counters, every hand and every correction."""
    s = match.state
    lines = [f"match {match.id} — {s.ruleset}{' — ' + s.title if s.title else ''}"
             f" (created {match.created_at})"]
    levels = s.levels
    for k, name in enumerate(s.players):
        level = f"  {levels[k]}" if levels else ""
        dealer = "  dealer" if k == s.dealer else ""
        lines.append(f"  seat {k} {name:<12} {_num(s.totals[k]):>8}{level}{dealer}")
    if s.room:
        lines.append(f"  paid out of the table (room's fee): {s.room:g}")
    if s.counters:
        lines.append("  counters: " + ", ".join(f"{k} {v}" for k, v in s.counters.items()))
    lines.append(f"  {s.status}")
    if s.hand is not None and s.hand.dealt:
        w = s.hand.wall()
        where = (f"broken at seat {w['wall_seat']}'s wall after {w['stacks_skipped']} stacks; "
                 if w["stacks_skipped"] is not None else "")
        hun = f"; 混 {w['hun']}" if w["hun"] else ""
        lines.append(f"  wall: {where}{w['undrawn']} undrawn, {w['drawable']} drawable, "
                     f"{w['kept_back']} kept back{hun}")
    events = {h.seq: h for h in s.hands}
    gone = {d.seq: d for d in s.departures}
    adjusted = {a.seq: a for a in s.adjustments}
    for seq in sorted([*events, *gone, *adjusted]):
        if seq in adjusted:
            lines.append(f"  {_adjustment(adjusted[seq])}")
        elif seq in events:
            h = events[seq]
            rec = h.record
            if rec.outcome == "draw":
                what = "draw"
            else:
                what = ", ".join(
                    f"seat {w.seat} wins {w.by.replace('_', ' ')}"
                    + (f" from {w.from_seat}" if w.from_seat is not None else "")
                    for w in rec.wins)
            pay = " ".join(_num(p) for p in h.settlement.payments)
            lines.append(f"  hand {h.number:>2} (#{h.seq}, {h.source}, dealer "
                         f"{rec.dealer}): {what}; pays [{pay}]")
        else:
            d = gone[seq]
            pay = " ".join(_num(p) for p in d.payments)
            lines.append(f"  #{d.seq}: seat {d.seat} ({d.player}) left"
                         + (f", {d.replacement} sits in" if d.replacement else "")
                         + f"; pays [{pay}]")
    for row in match.amendments:
        a = row.event
        what = "struck" if a.event is None else "replaced"  # type: ignore[attr-defined]
        lines.append(f"  correction #{row.seq} at {row.at}: event #{a.target} "  # type: ignore
                     f"{what} by {a.who}: {a.why}")  # type: ignore[attr-defined]
    for row in match.signoffs:
        sig = row.event
        assert isinstance(sig, SignOff)
        later = [f"#{a.seq}" for a in match.amendments
                 if isinstance(a.event, Amendment) and a.event.target == sig.target
                 and a.seq > row.seq]
        lines.append(f"  sign-off #{row.seq} at {row.at}: hand #{sig.target} signed by "
                     f"{sig.referee}"
                     + (f"; amended after signing by {', '.join(later)}" if later else ""))
    if match.problem:
        lines.append(f"  PROBLEM: {match.problem}")
    warning = _chain_warning(match)
    if warning:
        lines.insert(1, f"  {warning}")
    if log:
        lines.append("  log:")
        for row in match.log:
            who = f" [{row.who}]" if row.who else ""
            lines.append(f"    #{row.seq:<4} {row.at}{who} {row.event.describe()}")
    return "\n".join(lines)


def run_show(args: argparse.Namespace) -> int:
    with _reader(args) as store:
        match = store.load(args.match)
        warning = _chain_warning(match)
        if warning:
            print(warning, file=sys.stderr)
        if args.json:
            print(json.dumps(store.export_json(args.match), ensure_ascii=False, indent=2))
        else:
            print(format_match(match, log=args.log))
    if warning:
        print(warning, file=sys.stderr)  # again after a long listing, where it is seen
        return 2
    return 0


def run_export(args: argparse.Namespace) -> int:
    with _reader(args) as store:
        warning = _chain_warning(store.load(args.match))
        if warning:
            raise CommandError(f"{warning}; nothing exported")
        if args.format == "csv":
            text = store.export_csv(args.match)
        else:
            text = json.dumps(store.export_json(args.match), ensure_ascii=False, indent=2) + "\n"
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def run_verify(args: argparse.Namespace) -> int:
    from scoring.match.chain import read_key

    key = read_key(args.key) if args.key else None
    with _reader(args) as store:
        found = store.verify(args.match, key)
    first = found.first_break
    if first is not None:
        raise CommandError(f"match {args.match}: the log is broken at {first}")
    unchecked = found.signoffs - found.checked
    note = ("" if not found.signoffs else
            f"; {found.checked} of {found.signoffs} sign-offs checked against the key"
            + (f" ({unchecked} not checked: no key given, or made with another key)"
               if unchecked else ""))
    print(f"match {args.match}: {found.events} events, the hash chain is intact{note}")
    return 0


def run_sign(args: argparse.Namespace) -> int:
    from scoring.match.chain import read_key

    key = read_key(args.key)
    with _store(args) as store:
        match = store.sign(args.match, args.seq, key, args.referee)
        print(f"hand #{args.seq} signed by {args.referee} as #{match.last_seq}")
    return 0


def run_keygen(args: argparse.Namespace) -> int:
    from scoring.match.chain import new_key_file

    kid = new_key_file(args.file)
    print(f"referee key {kid} written to {args.file} (readable by you only); keep it off the "
          "table's computer")
    return 0


def _adjustment(a: Adjustment) -> str:
    what = "penalty" if a.points < 0 else "bonus"
    return f"#{a.seq}: {what} {_num(a.points)} to seat {a.seat} ({a.player}) by {a.who}: {a.why}"


def run_replay(args: argparse.Namespace) -> int:
    with _reader(args) as store:
        match = store.replay(args.match)
        cached = store.load(args.match)
    warning = _chain_warning(match)
    if warning:
        raise CommandError(f"{warning}; not replayed")
    s = match.state
    print(f"match {match.id}: replayed {len(match.log)} logged events "
          f"({len(match.amendments)} corrections)")
    for h in s.hands:
        print(f"  hand {h.number:>2} (#{h.seq}): pays "
              f"[{' '.join(_num(p) for p in h.settlement.payments)}]  totals "
              f"[{' '.join(_num(t) for t in h.totals_after)}]  next dealer "
              f"{h.settlement.next_dealer}")
    for a in s.adjustments:
        print(f"  {_adjustment(a)}")
    print(f"  totals [{' '.join(_num(t) for t in s.totals)}], dealer {s.dealer}")
    if match.problem:
        raise CommandError(f"the log stops replaying: {match.problem}")
    if list(cached.totals) != list(s.totals):
        raise CommandError("replay disagrees with the stored view: "
                           f"{cached.totals} vs {s.totals}")
    return 0


def run_add_hand(args: argparse.Namespace) -> int:
    record = _read_json(args.file)
    with _store(args) as store:
        match = store.add_hand(args.match, record, who=args.who, why=args.why)
        h = match.hands[-1]
        print(f"hand {h.number} logged as #{h.seq}: pays "
              f"[{' '.join(_num(p) for p in h.settlement.payments)}]; totals "
              f"[{' '.join(_num(t) for t in match.totals)}]; seat {match.dealer} deals next")
    return 0


def _correction(store: MatchStore, match_id: int, seq: int, path: str | None) -> Any:
    """The corrected event read from ``path`` (``None``: strike); a plain hand record is
    accepted for a ``hand_recorded`` event."""
    if path is None:
        return None
    data = _read_json(path)
    if not isinstance(data, dict):
        raise CommandError(f"{path}: an event or hand record is a JSON object, "
                           f"got {type(data).__name__}")
    target = next((r for r in store.events(match_id) if r.seq == seq), None)
    if target is not None and target.event.type == "hand_recorded" and data.get("type") is None:
        data = {"type": "hand_recorded", "record": data}
    return data


def run_amend(args: argparse.Namespace) -> int:
    with _store(args) as store:
        corrections = [(args.seq, _correction(store, args.match, args.seq, args.event))]
        for seq_text, path in args.also:
            try:
                seq = int(MATCH_ID(seq_text))
            except argparse.ArgumentTypeError:
                raise CommandError(f"--also wants an event number, got {seq_text!r}") from None
            corrections.append((seq, _correction(store, args.match, seq,
                                                 None if path == "strike" else path)))
        if len(corrections) == 1:
            match = store.amend(args.match, args.seq, corrections[0][1], who=args.who,
                                why=args.why)
        else:
            match = store.amend_many(args.match, corrections, who=args.who, why=args.why)
        done = ", ".join(f"#{seq} {'struck' if event is None else 'corrected'}"
                         for seq, event in corrections)
        print(f"event {done} (correction #{match.last_seq}); totals "
              f"[{' '.join(_num(t) for t in match.totals)}]; seat {match.dealer} deals next")
    return 0


def run_event(args: argparse.Namespace) -> int:
    data = _read_json(args.file)
    with _store(args) as store:
        match = store.append_event(args.match, data, who=args.who)
        print(f"#{match.last_seq} logged; {match.status}")
    return 0


def run_push(args: argparse.Namespace) -> int:
    """Send the match's events the tournament server lacks (:mod:`ui.outbox`)."""
    import os
    import time

    from ui.outbox import Outbox, SyncError, push_until_done

    token = args.token or os.environ.get("MJTABLE_TABLE_TOKEN")
    with Outbox(args.outbox) as outbox, _store(args) as store:
        store.load(args.match)  # an unknown match is refused before anything is bound
        if args.server and args.round and args.table and token:
            outbox.bind(args.match, args.server, args.round, args.table, token)
        elif outbox.binding(args.match) is None:
            raise CommandError("the first push names --server, --round, --table and --token")

        def report(line: str) -> None:
            print(line, file=sys.stderr)

        while True:
            try:
                got = (push_until_done(outbox, store, args.match, report=report)
                       if args.retry or args.watch else outbox.push(store, args.match))
            except SyncError as exc:
                if args.watch and not exc.permanent:
                    report(str(exc))
                    time.sleep(args.watch)
                    continue
                raise CommandError(f"{exc}; the events wait in the match log, push again "
                                   "later") from None
            took = (f", {got.taken} referee events (penalties, corrections) taken into the "
                    "log" if got.taken else "")
            print(f"match {args.match}: {got.sent} sent, {got.duplicates} already there, "
                  f"the server holds #{got.head}{took}")
            if not args.watch:
                return 0
            time.sleep(args.watch)
