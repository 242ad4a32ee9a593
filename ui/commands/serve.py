"""`mjtable serve [init FILE | token table N | token referee NAME]`: the tournament server.

``mjtable serve --db tournament.sqlite3`` runs the standings pages, the referee desk and the
API the tables sync to (uvicorn; the ``server`` extra). ``--db postgresql://...`` runs it on
PostgreSQL, where several server processes share one database. ``init`` stores the tournament
(a JSON file: name, ruleset, options, players, ranking, rounds) and ``token`` prints the token a
table or a referee writes with. A thin layer over :mod:`ui.server`.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from scoring.jsonlimits import read_json_file
from scoring.tournament import Tournament, TournamentError
from ui.commands._numbers import number
from ui.errors import CommandError


def _default_db() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("mjtable")) / "tournament.sqlite3"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="tournament server: standings, referee desk, table sync",
                       description="Run the tournament server (default), or set it up.")
    p.add_argument("--db", help="SQLite file or postgresql://... URL (default: "
                                "tournament.sqlite3 in the user's data folder)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=number(int, 1, 65535), default=8765)
    p.add_argument("--workers", type=number(int, 1, 64), default=1,
                   help="server processes (PostgreSQL only; SQLite has one writer)")
    ssub = p.add_subparsers(dest="serve_command", metavar="ACTION")
    q = ssub.add_parser("init", help="store the tournament (players, ruleset, ranking)")
    q.add_argument("file", help="tournament JSON: name, ruleset, players, options, ranking, "
                                "rounds")
    q.add_argument("--who", default="admin", help="who sets it up (kept in the write log)")
    q.set_defaults(func=run_init)
    q = ssub.add_parser("token", help="print the token of a table or a referee")
    q.add_argument("role", choices=("table", "referee"))
    q.add_argument("who", help="the table number, or the referee's name")
    q.set_defaults(func=run_token)
    p.set_defaults(func=run_serve)


def _url(args: argparse.Namespace) -> str:
    return args.db or str(_default_db())


def _open(args: argparse.Namespace):  # -> TournamentStore
    try:
        from ui.server.store import TournamentStore
    except ImportError as exc:
        raise CommandError(f"the server needs the 'server' extra ({exc.name} is missing): "
                           "pip install 'mjtable[server]'") from None
    url = _url(args)
    if not url.startswith(("postgresql://", "postgres://")):
        Path(url).parent.mkdir(parents=True, exist_ok=True)
    return TournamentStore.open(url)


def run_init(args: argparse.Namespace) -> int:
    data = read_json_file(args.file, CommandError)
    try:
        tour = Tournament.from_json(data)
    except TournamentError as exc:
        raise CommandError(f"{args.file}: {exc}") from None
    with _open(args) as store:
        store.init(tour, args.who)
    print(f"{tour.name}: {len(tour.players)} players, {tour.tables} tables, {tour.rounds} "
          f"rounds, {tour.ruleset}; now `mjtable serve token table N` for each table")
    return 0


def run_token(args: argparse.Namespace) -> int:
    from ui.server.tokens import issue

    who: str | int = args.who
    if args.role == "table":
        if not args.who.isdigit() or int(args.who) < 1:
            raise CommandError(f"a table number >= 1, got {args.who!r}")
        who = int(args.who)
    with _open(args) as store:
        tour = store.tournament()
        if args.role == "table" and int(who) > tour.tables:
            raise CommandError(f"the tournament has tables 1..{tour.tables}")
        print(issue(store.secret(), args.role, who))
    return 0


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:
        raise CommandError("the server needs the 'server' extra: "
                           "pip install 'mjtable[server]'") from None
    url = _url(args)
    if args.workers > 1 and not url.startswith(("postgresql://", "postgres://")):
        raise CommandError("--workers > 1 needs PostgreSQL (SQLite has one writer)")
    with _open(args) as store:
        store.tournament()  # refuse a database without a tournament now, in one line
    from ui.server.asgi import ENV

    os.environ[ENV] = url
    uvicorn.run("ui.server.asgi:app", factory=True, host=args.host, port=int(args.port),
                workers=int(args.workers), log_level="warning", timeout_keep_alive=30)
    return 0
