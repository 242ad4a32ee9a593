"""The tournament server as an ASGI app (Starlette): JSON API, live stream, pages, exports.

Tables post their match logs' events with a table token; referees act with a referee token;
everything else is public and read-only. Bodies are bounded before they are read and parsed
with :func:`scoring.jsonlimits.load_json`; every refusal is one JSON line with a status. The
store is blocking (SQLite or psycopg), so each call runs in the thread pool.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from scoring.jsonlimits import load_json
from scoring.tournament import fixed_schedule, met_pairs, seat_round, seatings
from ui.server import pages, views
from ui.server.engines import StoreUnavailable
from ui.server.live import Changes
from ui.server.store import Refused, TournamentStore
from ui.server.tokens import Actor, verify

MAX_BODY = 1 << 20  # the same bound as load_json's
STREAM_POLL_S = 0.25


class BadBody(ValueError):
    """A body that is not the JSON it should be (load_json's refusal)."""


class HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


Handler = Callable[[Request], Awaitable[Response]]


def create_app(store: TournamentStore | str | Path) -> Starlette:
    """The app over ``store`` (an open store, or a SQLite path / postgresql:// URL)."""
    db = store if isinstance(store, TournamentStore) else TournamentStore.open(store)
    secret = db.secret()

    changes = Changes(db.changes, STREAM_POLL_S)

    def guarded(handler: Handler) -> Handler:
        async def run(request: Request) -> Response:
            try:
                return await handler(request)
            except HttpError as exc:
                return JSONResponse({"error": exc.message}, exc.status)
            except BadBody as exc:
                return JSONResponse({"error": str(exc)}, 400)
            except Refused as exc:
                return JSONResponse({"error": str(exc)}, exc.status)
            except StoreUnavailable as exc:
                return JSONResponse({"error": str(exc)}, 503)
            except ClientDisconnect:  # cut mid-request: nothing was read whole, nothing done
                return Response(status_code=400)
        return run

    def actor(request: Request, role: str) -> Actor:
        header = request.headers.get("authorization", "")
        token = header[7:].strip() if header.lower().startswith("bearer ") else None
        who = verify(secret, token)
        if who is None:
            raise HttpError(401, "a valid token is needed (Authorization: Bearer ...)")
        if who.role != role:
            raise HttpError(403, f"a {who.role} token cannot do this")
        return who

    async def body(request: Request) -> dict[str, Any]:
        size = request.headers.get("content-length")
        if size is not None and (not size.isdigit() or int(size) > MAX_BODY):
            raise HttpError(413, f"the body is larger than {MAX_BODY} bytes")
        if "json" not in request.headers.get("content-type", ""):
            raise HttpError(415, "send JSON (Content-Type: application/json)")
        chunks, total = [], 0
        async for chunk in request.stream():
            total += len(chunk)
            if total > MAX_BODY:
                raise HttpError(413, f"the body is larger than {MAX_BODY} bytes")
            chunks.append(chunk)
        data = load_json(b"".join(chunks), "the body", BadBody) if chunks else None
        if not isinstance(data, dict):
            raise HttpError(400, "the body is a JSON object")
        return data

    def number(request: Request, name: str) -> int:
        text = request.path_params[name]
        if not text.isdigit() or len(text) > 6:
            raise HttpError(404, f"{name}: not a number")
        return int(text)

    def request_id(data: dict[str, Any]) -> str:
        rid = data.pop("request_id", None)
        if not isinstance(rid, str) or not 8 <= len(rid) <= 80:
            raise HttpError(400, "request_id: a unique text of 8..80 characters per request "
                                 "(a replay of it is applied once)")
        return rid

    # ------------------------------------------------------------ tables write

    async def post_events(request: Request) -> Response:
        rnd, table = number(request, "round"), number(request, "table")
        who = actor(request, "table")
        if not who.may_write_table(table):
            raise HttpError(403, f"this token writes table {who.table} only")
        data = await body(request)
        if set(data) != {"events", "log"}:
            raise HttpError(400, "the body is {\"events\": [...], \"log\": {\"match\", "
                                 "\"created_at\"}}")
        got = await run_in_threadpool(db.ingest, rnd, table, data["events"], who.name,
                                      data["log"])
        return JSONResponse(got.to_json())

    async def get_head(request: Request) -> Response:
        """How far the server holds the table's log, and the referee's events for it."""
        rnd, table = number(request, "round"), number(request, "table")

        def read() -> dict[str, Any]:
            return {"head": db.head(rnd, table), "referee": db.pending(rnd, table)}
        return JSONResponse(await run_in_threadpool(read))

    # ------------------------------------------------------------ referee writes

    async def post_action(request: Request) -> Response:
        who = actor(request, "referee")
        data = await body(request)
        rid = request_id(data)
        if data.get("name") == "round_seated" and "tables" not in data:
            schedule = data.pop("from", "standings")
            if schedule not in ("standings", "schedule"):
                raise HttpError(400, "from: standings or schedule")
            data["tables"] = await run_in_threadpool(next_seating, data.get("round"),
                                                     schedule == "schedule")
        result = await run_in_threadpool(db.act, data, who.name, rid)
        return JSONResponse(result)

    def next_seating(round_no: Any, fixed: bool) -> list[dict[str, Any]]:
        """A round's tables: from the standings (fewest repeated opponents, near ranks
        together), or the fixed schedule made from the registration order."""
        tour = db.tournament()
        if isinstance(round_no, bool) or not isinstance(round_no, int) or not (
                1 <= round_no <= tour.rounds):
            raise Refused(f"round: 1..{tour.rounds}")
        if fixed:
            return [t.to_json() for t in fixed_schedule(tour.players, round_no)[0][-1]]
        before = [t for r, t in seatings(db.actions()).items() if r < round_no]
        order = [r.player for r in db.standings().rows] if before else list(tour.players)
        tables, _ = seat_round(order, met_pairs(before), round_no)
        return [t.to_json() for t in tables]

    async def post_amend(request: Request) -> Response:
        who = actor(request, "referee")
        data = await body(request)
        rid = request_id(data)
        if not set(data) <= {"round", "table", "target", "event", "why"}:
            raise HttpError(400, "amend: round, table, target, event (null strikes), why")
        for key in ("round", "table", "target"):
            if isinstance(data.get(key), bool) or not isinstance(data.get(key), int):
                raise HttpError(400, f"{key}: a whole number")
        why = data.get("why")
        if not isinstance(why, str) or not why.strip() or len(why) > 500:
            raise HttpError(400, "why: give a reason (1..500 characters)")
        event = data.get("event")
        if event is not None and not isinstance(event, dict):
            raise HttpError(400, "event: the corrected event, or null to strike")
        result = await run_in_threadpool(db.amend, data["round"], data["table"],
                                         data["target"], event, who.name, why, rid)
        return JSONResponse(result)

    async def get_writes(request: Request) -> Response:
        actor(request, "referee")
        return JSONResponse({"writes": await run_in_threadpool(db.writes)})

    # ------------------------------------------------------------ public reads

    def standings_payload() -> dict[str, Any]:
        return views.standings_json(db.standings(), db.tournament().name)

    async def get_standings(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(standings_payload))

    def table_payload(rnd: int, table: int) -> dict[str, Any]:
        result = next((t for t in db.standings().tables
                       if (t.round, t.table) == (rnd, table)), None)
        if result is None:
            raise HttpError(404, f"round {rnd} has no table {table}")
        return {**views.table_json(result), **views.live_table(*db.live(rnd, table))}

    async def get_table(request: Request) -> Response:
        rnd, table = number(request, "round"), number(request, "table")
        return JSONResponse(await run_in_threadpool(table_payload, rnd, table))

    async def get_tournament(request: Request) -> Response:
        tour = await run_in_threadpool(db.tournament)
        actions = await run_in_threadpool(db.actions)
        return JSONResponse({**tour.to_json(), "actions": [a.to_json() for a in actions],
                             "seatings": {r: [t.to_json() for t in ts]
                                          for r, ts in seatings(actions).items()}})

    async def stream(request: Request) -> Response:
        """Server-sent events: the standings (or one table) each time the logs change."""
        which = request.query_params.get("table", "")
        key = None
        if which:
            rnd, _, table = which.partition("-")
            if not (rnd.isdigit() and table.isdigit()) or len(which) > 12:
                raise HttpError(400, "table: ROUND-TABLE")
            key = (int(rnd), int(table))
            await run_in_threadpool(table_payload, *key)  # an unknown table: 404 now

        make = (lambda: table_payload(*key)) if key else standings_payload
        events = changes.stream(key, make, request.is_disconnected)

        return StreamingResponse(events, media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    async def export(request: Request) -> Response:
        what, fmt = request.path_params["what"], request.path_params["fmt"]
        if what not in ("standings", "rounds") or fmt not in ("csv", "json"):
            raise HttpError(404, "exports: standings or rounds, .csv or .json")
        result = await run_in_threadpool(db.standings)
        name = f"{what}.{fmt}"
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        if fmt == "json":
            data = views.standings_json(result)
            payload = data if what == "standings" else {"tables": data["tables"]}
            return JSONResponse(payload, headers=headers)
        text = views.standings_csv(result) if what == "standings" else views.rounds_csv(result)
        return Response(text, media_type="text/csv; charset=utf-8", headers=headers)

    # ------------------------------------------------------------ pages

    def page(name: str) -> Handler:
        async def render(request: Request) -> Response:
            lang = pages.language(request.query_params.get("lang"),
                                  request.headers.get("accept-language", ""))
            extra = dict(request.path_params)
            return HTMLResponse(pages.render(name, lang, extra),
                                headers={"Content-Security-Policy": pages.CSP,
                                         "X-Frame-Options": "DENY"})
        return render

    routes = [
        Route("/", guarded(page("standings"))),
        Route("/tables/{round}/{table}", guarded(page("table"))),
        Route("/referee", guarded(page("referee"))),
        Route("/static/app.js", guarded(pages.script)),
        Route("/api/tournament", guarded(get_tournament)),
        Route("/api/standings", guarded(get_standings)),
        Route("/api/stream", guarded(stream)),
        Route("/api/tables/{round}/{table}", guarded(get_table)),
        Route("/api/tables/{round}/{table}/head", guarded(get_head)),
        Route("/api/tables/{round}/{table}/events", guarded(post_events),
              methods=["POST"]),
        Route("/api/referee/actions", guarded(post_action), methods=["POST"]),
        Route("/api/referee/amend", guarded(post_amend), methods=["POST"]),
        Route("/api/referee/writes", guarded(get_writes)),
        Route("/export/{what}.{fmt}", guarded(export)),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        if db is not store:  # opened here: closed here
            db.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.store = db
    return app
