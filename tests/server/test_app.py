"""The server in-process (Starlette's test client): tokens, hostile requests, referee writes,
exports and pages, on both engines."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from scoring.match import replay
from tests.server.helpers import ORIGIN, logs_for, names, seated_store, wire
from ui.server.app import create_app
from ui.server.tokens import issue


@pytest.fixture
def served(db_url):
    store = seated_store(db_url, names(8))
    secret = store.secret()
    with TestClient(create_app(store)) as client:
        yield client, store, {
            "t1": {"Authorization": f"Bearer {issue(secret, 'table', 1)}"},
            "t2": {"Authorization": f"Bearer {issue(secret, 'table', 2)}"},
            "ref": {"Authorization": f"Bearer {issue(secret, 'referee', 'Wang Li')}"},
        }
    store.close()


def post(client, url, body, headers):
    return client.post(url, content=json.dumps(body), headers={
        **headers, "Content-Type": "application/json"})


def test_a_table_posts_its_log_once_and_the_standings_are_the_logs(served):
    client, store, tok = served
    logs = logs_for(store, 4)
    for table, log in logs.items():
        r = post(client, f"/api/tables/1/{table}/events", {"events": wire(log), "log": ORIGIN},
                 tok[f"t{table}"])
        assert r.status_code == 200, r.text
        assert r.json() == {"applied": len(log), "duplicates": 0, "head": len(log),
                            "taken": 0, "referee": []}
    again = post(client, "/api/tables/1/1/events", {"events": wire(logs[1]), "log": ORIGIN},
                 tok["t1"])
    assert again.json()["applied"] == 0 and again.json()["duplicates"] == len(logs[1])
    data = client.get("/api/standings").json()
    for t in data["tables"]:
        assert t["totals"] == replay(logs[t["table"]]).totals
    assert data["zero_sum"] == []
    assert client.get("/api/tables/1/2/head").json() == {"head": 5, "referee": []}
    table = client.get("/api/tables/1/2").json()
    assert table["hands"] == 4 and table["events"][0]["seq"] == 5


def test_forged_or_misused_tokens_are_refused(served):
    client, store, tok = served
    body = {"events": wire(logs_for(store, 1)[1]), "log": ORIGIN}
    url = "/api/tables/1/1/events"
    assert post(client, url, body, {}).status_code == 401
    other = issue(b"another tournament's secret".ljust(32, b"!"), "table", 1)
    assert post(client, url, body, {"Authorization": f"Bearer {other}"}).status_code == 401
    head, _payload, mac = tok["t2"]["Authorization"][7:].split(".")
    forged = issue(b"x" * 32, "table", 1).split(".")[1]  # table 1's payload, table 2's mac
    assert post(client, url, body, {"Authorization": f"Bearer {head}.{forged}.{mac}"}
                ).status_code == 401
    assert post(client, url, body, tok["t2"]).status_code == 403  # table 2 writes table 2 only
    assert post(client, url, body, tok["ref"]).status_code == 403
    action = {"name": "adjustment", "player": "P01", "points": -5, "why": "x",
              "request_id": "req-000001"}
    assert post(client, "/api/referee/actions", action, tok["t1"]).status_code == 403
    assert client.get("/api/referee/writes", headers=tok["t1"]).status_code == 403
    assert store.head(1, 1) == 0 and store.standings().row("P01").adjustments == 0


def test_malformed_oversized_and_hostile_bodies_are_refused(served):
    client, store, tok = served
    url = "/api/tables/1/1/events"
    h = {**tok["t1"], "Content-Type": "application/json"}
    assert client.post(url, content=b"{not json", headers=h).status_code == 400
    assert client.post(url, content=b"[1, 2]", headers=h).status_code == 400
    assert client.post(url, content=b"[" * 5000 + b"]" * 5000, headers=h).status_code == 400
    assert client.post(url, content=b"\xff\xfe", headers=h).status_code == 400
    big = b'{"events": ["' + b"x" * (2 << 20) + b'"]}'
    assert client.post(url, content=big, headers=h).status_code == 413
    assert client.post(url, content=b"{}", headers=tok["t1"]).status_code == 415
    row = {"seq": 1, "event": {"type": "drop table"}, "at": "t", "hash": "0" * 64}
    assert post(client, url, {"events": [row], "log": ORIGIN}, tok["t1"]).status_code == 422
    assert post(client, url, {"events": [{**row, "seq": 10**30}], "log": ORIGIN},
                tok["t1"]).status_code == 400  # a 31-digit number is refused by the parser
    assert post(client, url, {"events": [], "x": 1}, tok["t1"]).status_code == 400
    rows = wire(logs_for(store, 1)[1])
    assert post(client, url, {"events": rows}, tok["t1"]).status_code == 400  # no log named
    for origin in ({"match": "1; DROP TABLE events", "created_at": "x"}, {"match": 1},
                   {**ORIGIN, "x": 1}, {"match": 1, "created_at": "x" * 41}):
        r = post(client, url, {"events": rows, "log": origin}, tok["t1"])
        assert r.status_code == 400 and "where the log's hash chain starts" in r.json()["error"]
    unhashed = [{k: v for k, v in r.items() if k != "hash"} for r in rows]
    assert post(client, url, {"events": unhashed, "log": ORIGIN}, tok["t1"]).status_code == 422
    assert client.get("/api/tables/1;DROP TABLE events/1").status_code == 404
    assert client.get("/api/tables/1 OR 1=1/1/head").status_code == 404
    assert client.get("/api/stream?table=1'--").status_code == 400
    assert client.get("/api/stream?table=1-9").status_code == 404
    assert store.head(1, 1) == 0


def test_a_pushed_log_whose_hash_chain_breaks_is_refused_in_one_line(served):
    client, store, tok = served
    rows = wire(logs_for(store, 3)[1])
    rows[1] = {**rows[1], "who": "someone else"}  # edited after it was logged
    r = post(client, "/api/tables/1/1/events", {"events": rows, "log": ORIGIN}, tok["t1"])
    assert r.status_code == 422
    assert r.json() == {"error": "the pushed log's hash chain breaks at event #2: does not "
                                 "match its hash: the event or one before it was changed "
                                 "outside mjtable; nothing was stored"}
    assert store.head(1, 1) == 0 and client.get("/api/tables/1/1").json()["events"] == []


def test_referee_writes_are_applied_once_and_logged_with_who_and_why(served):
    client, store, tok = served
    post(client, "/api/tables/1/1/events",
         {"events": wire(logs_for(store, 2)[1]), "log": ORIGIN}, tok["t1"])
    action = {"name": "adjustment", "player": "P01", "points": -5, "why": "slow play",
              "request_id": "req-000001"}
    first = post(client, "/api/referee/actions", action, tok["ref"])
    second = post(client, "/api/referee/actions", action, tok["ref"])
    assert first.status_code == second.status_code == 200 and second.json()["replayed"]
    assert store.standings().row("P01").adjustments == -5
    no_id = {k: v for k, v in action.items() if k != "request_id"}
    assert post(client, "/api/referee/actions", no_id, tok["ref"]).status_code == 400
    strike = {"round": 1, "table": 1, "target": 3, "event": None, "why": "misread",
              "request_id": "req-000002"}
    assert post(client, "/api/referee/amend", strike, tok["ref"]).status_code == 200
    assert store.standings().tables[0].hands == 1
    writes = client.get("/api/referee/writes", headers=tok["ref"]).json()["writes"]
    assert [(w["actor"], w["what"]) for w in writes[:2]] == [("Wang Li", "amend"),
                                                            ("Wang Li", "adjustment")]
    assert "misread" in writes[0]["why"]
    # the next round, seated by the server from the standings
    post(client, "/api/referee/actions", {"name": "round_closed", "round": 1, "why": "time",
                                          "request_id": "req-000003"}, tok["ref"])
    seat = post(client, "/api/referee/actions", {"name": "round_seated", "round": 2,
                                                 "why": "round 2", "request_id": "req-000004"},
                tok["ref"])
    assert seat.status_code == 200, seat.text
    seated = client.get("/api/tournament").json()["seatings"]
    assert sorted(p for t in seated["2"] for p in t["players"]) == names(8)
    # 8 players in 2 rounds: each new table holds two pairs who met (4 at least, and no
    # more), and the answer names them
    repeats = seat.json()["repeats"]
    met = {tuple(sorted((a, b))) for r in ("1", "2") for t in seated[r]
           for i, a in enumerate(t["players"]) for b in t["players"][i + 1:]}
    assert len(repeats) == 4 and len(met) == 24 - len(repeats)


def test_exports_and_pages(served):
    client, store, _tok = served
    for table, log in logs_for(store, 1).items():
        store.ingest(1, table, wire(log), "table", ORIGIN)
    store.act({"name": "adjustment", "player": "P02", "points": 3, "why": "fair play"}, "ref")
    csv_text = client.get("/export/standings.csv").text
    assert next(line for line in csv_text.splitlines()
                if ",P02," in line).split(",")[4] == "3.0"
    assert csv_text.splitlines()[0] == "rank,player,points,score,adjustments,firsts,tables"
    assert len(csv_text.splitlines()) == 9
    rounds = client.get("/export/rounds.json").json()["tables"]
    assert [t["table"] for t in rounds] == [1, 2]
    assert client.get("/export/standings.xml").status_code == 404
    en, zh = client.get("/?lang=en"), client.get("/", headers={"Accept-Language": "zh-CN"})
    assert "Standings" in en.text and "排名" in zh.text
    assert "script-src 'self'" in en.headers["content-security-policy"]
    assert "裁判台" in client.get("/referee?lang=zh").text
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")


def test_the_command_line_sets_up_a_tournament_and_prints_working_tokens(db_url, tmp_path,
                                                                         capsys):
    from ui.cli import main
    from ui.server.store import TournamentStore
    from ui.server.tokens import verify

    db = db_url
    spec = tmp_path / "t.json"
    spec.write_text(json.dumps({"name": "Club", "ruleset": "shanghai", "players": names(8),
                                "ranking": {"places": [3, 1, 0, -1]}, "rounds": 3}))
    assert main(["serve", "--db", db, "init", str(spec)]) == 0
    assert "8 players, 2 tables, 3 rounds" in capsys.readouterr().out
    assert main(["serve", "--db", db, "token", "table", "2"]) == 0
    token = capsys.readouterr().out.strip()
    assert main(["serve", "--db", db, "token", "table", "3"]) == 2
    assert "tables 1..2" in capsys.readouterr().err
    assert main(["serve", "--db", db, "init", str(spec)]) == 2
    assert "already holds" in capsys.readouterr().err
    spec.write_text(json.dumps({"name": "Bad", "ruleset": "shanghai", "players": names(6)}))
    assert main(["serve", "--db", str(tmp_path / "u.sqlite3"), "init", str(spec)]) == 2
    assert "fours" in capsys.readouterr().err
    with TournamentStore.open(db) as store:
        assert verify(store.secret(), token).table == 2


def test_a_server_on_a_streaming_replica_shows_the_standings_and_refuses_writes(pg_cluster):
    import time

    db_url = pg_cluster.create_db("replica_test")
    store = seated_store(db_url, names(4))
    log = wire(logs_for(store, 3)[1])
    store.ingest(1, 1, log[:3], "table 1", ORIGIN)
    token = {"Authorization": f"Bearer {issue(store.secret(), 'table', 1)}"}
    with pg_cluster.replica() as port:
        replica = db_url.replace(f":{pg_cluster.port}/", f":{port}/")
        with TestClient(create_app(replica)) as client:
            assert client.get("/api/standings").json()["tables"][0]["hands"] == 2
            r = post(client, "/api/tables/1/1/events", {"events": log, "log": ORIGIN}, token)
            assert r.status_code == 503 and "read-only" in r.json()["error"]
            store.ingest(1, 1, log, "table 1", ORIGIN)  # on the primary: the replica follows
            deadline = time.monotonic() + 20
            while client.get("/api/standings").json()["tables"][0]["hands"] != 3:
                assert time.monotonic() < deadline, "the replica did not catch up"
                time.sleep(0.05)
    store.close()


def test_a_round_seated_from_the_fixed_schedule(served):
    from scoring.tournament import fixed_schedule

    client, _store, tok = served
    body = {"name": "round_seated", "round": 2, "why": "schedule", "from": "schedule",
            "request_id": "seat-round-2"}
    assert post(client, "/api/referee/actions", {**body, "from": "luck"},
                tok["ref"]).status_code == 400
    assert post(client, "/api/referee/actions", body, tok["ref"]).status_code == 200
    expected = fixed_schedule(names(8), 2)[0][1]
    assert client.get("/api/tournament").json()["seatings"]["2"] == [t.to_json()
                                                                     for t in expected]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["seq", "event", "type", "record", "name", "round", "table", "target",
                         "why", "player", "points", "tables", "events", "request_id", "x"]),
        inner, max_size=5),
    max_leaves=20)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(path=st.sampled_from(["/api/tables/1/1/events", "/api/referee/actions",
                             "/api/referee/amend"]),
       data=json_values)
def test_no_body_makes_the_server_fail(served, path, data):
    """Whatever JSON a holder of a valid token sends, the answer is a refusal or a success,
    never a server error."""
    client, _store, tok = served
    who = tok["t1"] if "/tables/" in path else tok["ref"]
    r = post(client, path, data, who)
    assert r.status_code in (200, 400, 404, 409, 413, 415, 422), (r.status_code, r.text)
