"""The tournament store on both engines: exactly-once ingest validated by the match engine,
referee actions and amendments logged with who and why, replayed requests applied once."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import threading
from dataclasses import replace

import pytest

from scoring.match import replay
from scoring.match.chain import body_text, check_chain, genesis, referee_mac
from scoring.match.events import Adjusted, HandRecorded
from scoring.tournament import Adjustment, Tournament, standings
from tests.server.helpers import ORIGIN, logs_for, names, next_row, seated_store, wire
from tests.tournament.hands import next_hand
from ui.server.engines import StoreUnavailable
from ui.server.migrations import LATEST
from ui.server.store import Refused, TournamentStore


def test_standings_equal_the_replayed_logs_of_every_table(db_url):
    with seated_store(db_url, names(8)) as store:
        logs = logs_for(store, 5)
        for table, log in logs.items():
            got = store.ingest(1, table, wire(log), "table", ORIGIN)
            assert got.applied == len(log) and got.head == log[-1].seq
        result = store.standings()
        for t in result.tables:
            assert list(t.totals) == replay(logs[t.table]).totals
        # the same standings as the pure model folds from the same logs
        pure = standings(store.tournament(), store.actions(),
                         {(1, k): v for k, v in logs.items()})
        assert result.rows == pure.rows


def test_a_resent_event_is_stored_once_and_a_different_one_is_refused(db_url):
    with seated_store(db_url, names(4)) as store:
        log = wire(logs_for(store, 3)[1])
        store.ingest(1, 1, log[:3], "table", ORIGIN)
        again = store.ingest(1, 1, log, "table", ORIGIN)  # the first three again, then the rest
        assert (again.applied, again.duplicates, again.head) == (1, 3, 4)
        assert len(store.log(1, 1)) == 4
        other = wire(logs_for(store, 3, seed=50)[1])
        with pytest.raises(Refused, match="another body") as info:
            store.ingest(1, 1, [other[2]], "table", ORIGIN)
        assert info.value.status == 409


def test_a_gap_or_an_illegal_event_refuses_the_whole_batch_and_stores_nothing(db_url):
    with seated_store(db_url, names(4)) as store:
        log = wire(logs_for(store, 3)[1])
        with pytest.raises(Refused, match="before #1"):
            store.ingest(1, 1, log[1:], "table", ORIGIN)
        raw = logs_for(store, 3)[1]
        wrong = HandRecorded(record={**raw[2].event.record, "dealer": 3})  # type: ignore
        bad = wire([*raw[:2], replace(raw[2], event=wrong)])  # chained, but illegal
        with pytest.raises(Refused, match="deals this hand"):
            store.ingest(1, 1, bad[:3], "table", ORIGIN)
        assert store.head(1, 1) == 0 and store.log(1, 1) == []


def test_a_match_that_is_not_the_seating_is_refused(db_url):
    with seated_store(db_url, names(8)) as store:
        logs = logs_for(store, 1)
        with pytest.raises(Refused, match="seats"):
            store.ingest(1, 2, wire(logs[1]), "table", ORIGIN)
        with pytest.raises(Refused, match="no table 9"):
            store.ingest(1, 9, wire(logs[1]), "table", ORIGIN)


def test_a_match_must_play_the_tournament_s_rules_however_they_are_written(db_url):
    from tests.tournament.hands import table_log

    with seated_store(db_url, names(8)) as store:
        first, second = (store.seating(1, t).players for t in (1, 2))
        spelled_out = table_log("shandong", first, 1, 1, {"base": 5})  # the default
        assert store.ingest(1, 1, wire(spelled_out), "table", ORIGIN).applied == 2
        house = table_log("shandong", second, 1, 1, {"base": 10})
        with pytest.raises(Refused, match="options differ"):
            store.ingest(1, 2, wire(house), "table", ORIGIN)


def test_hostile_text_is_stored_as_text(db_url):
    evil = ["Robert'); DROP TABLE events;--", "x' OR '1'='1", "李雷", "P03"]
    with seated_store(db_url, evil) as store:
        log = logs_for(store, 2)[1]
        store.ingest(1, 1, wire(log), "table'; DELETE FROM writes;--", ORIGIN)
        store.act({"name": "adjustment", "why": "'; DROP TABLE actions;--", "player": evil[0],
                   "points": -5}, "ref")
        assert store.standings().row(evil[0]).adjustments == -5
        assert len(store.log(1, 1)) == 4  # the penalty is an event of the table's log
        assert store.log(1, 1)[-1].note == "'; DROP TABLE actions;--"
        assert store.writes()[1]["actor"] == "table'; DELETE FROM writes;--"


def test_a_referee_strike_changes_the_standings_and_a_replayed_request_applies_once(db_url):
    with seated_store(db_url, names(4)) as store:
        log = logs_for(store, 2)[1]
        store.ingest(1, 1, wire(log), "table", ORIGIN)
        before = store.standings().tables[0]
        first = store.amend(1, 1, 3, None, "Ref Wang", "wrong table", request_id="r-1")
        again = store.amend(1, 1, 3, None, "Ref Wang", "wrong table", request_id="r-1")
        assert again == {**first, "replayed": True}
        # an event of the table's log, after the table's events, signed by the server
        amends = [r for r in store.log(1, 1) if r.event.type == "amend"]
        assert [(r.seq, r.who, r.note) for r in amends] == [(4, "Ref Wang", "wrong table")]
        assert amends[0].event.mac and store.head(1, 1) == 3  # the table has not taken it
        after = store.standings().tables[0]
        assert after.hands == before.hands - 1
        assert list(after.totals) == replay(store.log(1, 1)).totals
        # the table's next hand is checked against the amended log (its dealer, its counters)
        # and goes before the amendment the table has not taken yet
        event, state = next_hand(replay(store.log(1, 1)), random.Random(0))
        got = store.ingest(1, 1, [next_row(store, 1, 1, event)], "table", ORIGIN)
        assert (got.applied, got.head) == (1, 4)
        assert [r["seq"] for r in got.referee] == [5]
        assert [r.event.type for r in store.log(1, 1)][3:] == ["hand_recorded", "amend"]
        assert list(store.standings().tables[0].totals) == state.totals
        whys = [w["why"] for w in store.writes()]
        assert any("wrong table" in w for w in whys)


def test_an_amendment_after_which_the_log_no_longer_replays_is_refused(db_url):
    with seated_store(db_url, names(4)) as store:
        store.ingest(1, 1, wire(logs_for(store, 1)[1]), "table", ORIGIN)
        with pytest.raises(Refused, match="match_created cannot be struck"):
            store.amend(1, 1, 1, None, "ref", "oops")
        with pytest.raises(Refused, match="reason"):
            store.amend(1, 1, 2, None, "ref", "  ")


def test_referee_actions_are_checked_logged_and_replayed_once(db_url):
    with seated_store(db_url, names(8)) as store:
        penalty = {"name": "adjustment", "why": "late", "player": "P01", "points": -10}
        with pytest.raises(Refused, match="has no log yet") as info:  # it joins a table's log
            store.act(penalty, "Ref Li")
        assert info.value.status == 409
        logs = logs_for(store, 1)
        table = next(t for t in store.actions()[0].tables if "P01" in t.players)
        store.ingest(1, table.table, wire(logs[table.table]), "table", ORIGIN)
        first = store.act(penalty, "Ref Li", request_id="abc")
        assert store.act(penalty, "Ref Li", request_id="abc")["replayed"]
        assert store.standings().row("P01").adjustments == -10
        assert (first["round"], first["table"], first["event"]) == (1, table.table, 3)
        penalised = replay(store.log(1, table.table))
        assert penalised.adjusted[table.players.index("P01")] == -10
        with pytest.raises(Refused, match="not a registered player"):
            store.act({**penalty, "player": "Nobody"}, "Ref Li")
        with pytest.raises(Refused, match="has 2 rounds"):
            store.act({"name": "round_seated", "why": "x", "round": 3,
                       "tables": [t.to_json() for t in store.actions()[0].tables]}, "Ref Li")
        store.act({"name": "substituted", "why": "ill", "round": 1, "table": 2, "seat": 1,
                   "substitute": "Stand-in"}, "Ref Li")
        store.act({"name": "round_closed", "why": "time", "round": 1}, "Ref Li")
        other = 3 - table.table
        with pytest.raises(Refused, match="closed"):
            store.ingest(1, other, wire(logs[other]), "table", ORIGIN)
        assert first["name"] == "adjustment"
        assert [w["actor"] for w in store.writes()][:3] == ["Ref Li"] * 3


def test_two_writers_sending_the_same_events_at_once_store_them_once(db_url):
    stores = [seated_store(db_url, names(4))]
    stores.append(TournamentStore.open(db_url))  # a second server process, in effect
    log = wire(logs_for(stores[0], 6)[1])
    results = []
    errors = []

    def send(store: TournamentStore) -> None:
        for k in range(1, len(log) + 1):
            try:
                results.append(store.ingest(1, 1, log[:k], "table", ORIGIN))
            except Refused as exc:
                errors.append(exc)

    threads = [threading.Thread(target=send, args=(s,)) for s in stores for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(r.applied for r in results) == len(log)
    assert not errors
    assert [r.seq for r in stores[1].log(1, 1)] == list(range(1, len(log) + 1))
    for s in stores:
        s.close()


def test_migrations_run_once_and_a_newer_database_is_refused(db_url):
    TournamentStore.open(db_url).close()
    store = TournamentStore.open(db_url)  # again: nothing to do
    with store.engine.transaction() as tx:
        assert [r[0] for r in tx.execute("SELECT version FROM schema_migrations")] == list(
            range(1, LATEST + 1))
        tx.execute("INSERT INTO schema_migrations (version, applied) VALUES (?, 'later')",
                   (LATEST + 1,))
    store.close()
    with pytest.raises(StoreUnavailable, match="newer"):
        TournamentStore.open(db_url)


def test_a_second_tournament_in_one_database_is_refused(db_url):
    store = seated_store(db_url, names(4))
    with store, pytest.raises(Refused, match="already holds"):
        store.init(Tournament("Other", "shandong", tuple(names(4))), "admin")


def test_a_server_process_catches_up_with_what_another_wrote(db_url):
    """Each process keeps replayed matches; a log another process grew or amended is brought
    up to date (new events applied, or replayed again after an amendment), never left stale."""
    first = seated_store(db_url, names(4))
    second = TournamentStore.open(db_url)
    log = wire(logs_for(first, 5)[1])
    first.ingest(1, 1, log[:3], "table", ORIGIN)
    assert first.standings().tables[0].hands == 2
    second.ingest(1, 1, log, "table", ORIGIN)  # three more, through the other process
    caught_up = first.standings().tables[0]
    assert caught_up.hands == 5
    assert list(caught_up.totals) == replay(second.log(1, 1)).totals
    second.amend(1, 1, 6, None, "ref", "misread")
    after = first.standings().tables[0]
    assert after.hands == 4 and list(after.totals) == replay(first.log(1, 1)).totals
    assert first.live(1, 1)[1].totals == list(after.totals)
    first.close()
    second.close()


def test_a_referee_replaces_a_hand_and_the_standings_follow_the_corrected_log(db_url):
    with seated_store(db_url, names(4)) as store:
        log = logs_for(store, 2)[1]
        store.ingest(1, 1, wire(log), "table", ORIGIN)
        # the last hand had another winner: the referee swaps in a different worked hand
        before = replay(log[:2])
        event, corrected = next_hand(before, random.Random(99))
        assert corrected.totals != replay(log).totals
        store.amend(1, 1, 3, event.to_json(), "Ref Wang", "seat 2 won, not seat 1")
        assert list(store.standings().tables[0].totals) == corrected.totals
        wrong = {**event.to_json(), "record": {**event.record, "dealer": 3}}
        with pytest.raises(Refused, match="no longer replays"):
            store.amend(1, 1, 3, wrong, "Ref Wang", "typo")


def _renumbered(rows: list[dict], order: list[int]) -> list[dict]:
    """``rows`` picked in ``order`` and numbered 1.. again, their hashes as they were."""
    return [{**rows[i], "seq": n} for n, i in enumerate(order, start=1)]


@pytest.mark.parametrize(("case", "where", "why"), [
    ("tampered", 3, "does not match its hash"),
    ("missing", 3, "jumps from #2 to #4"),
    ("missing, renumbered", 3, "does not match its hash"),
    ("reordered", 3, "does not match its hash"),
    ("out of order", 3, "out of order"),
    ("tampered time", 2, "does not match its hash"),
])
def test_a_push_whose_hash_chain_breaks_is_refused_and_nothing_is_stored(db_url, case, where,
                                                                        why):
    """The server checks each pushed event's hash against the one before it, as the table's
    own log does on open: an edited, left-out or moved event is refused, the push whole."""
    with seated_store(db_url, names(4)) as store:
        rows = wire(logs_for(store, 4)[1])
        if case == "tampered":  # a hand's record edited, its hash kept
            record = rows[2]["event"]["record"]
            rows[2] = {**rows[2], "event": {**rows[2]["event"], "record": {
                **record, "dealer": (record["dealer"] + 1) % 4}}}
        elif case == "missing":
            rows = rows[:2] + rows[3:]
        elif case == "missing, renumbered":
            rows = _renumbered(rows, [0, 1, 3, 4])
        elif case == "reordered":
            rows = _renumbered(rows, [0, 1, 3, 2, 4])
        elif case == "out of order":
            rows = [rows[0], rows[1], rows[3], rows[2], rows[4]]
        else:
            rows[1] = {**rows[1], "at": "2026-12-02T07:00:00.000Z"}
        with pytest.raises(Refused, match=f"hash chain breaks at event #{where}: .*{why}"
                           ) as info:
            store.ingest(1, 1, rows, "table", ORIGIN)
        assert info.value.status == 422
        assert store.head(1, 1) == 0 and store.log(1, 1) == []
        # the intact log, pushed the same way, is stored whole
        assert store.ingest(1, 1, wire(logs_for(store, 4)[1]), "table", ORIGIN).head == 5


def test_a_push_continues_the_stored_chain_or_is_refused(db_url):
    with seated_store(db_url, names(4)) as store:
        rows = wire(logs_for(store, 4)[1])
        store.ingest(1, 1, rows[:3], "table", ORIGIN)
        # the rest of another copy of the log (its chain starts elsewhere): refused
        elsewhere = wire(logs_for(store, 4)[1], {**ORIGIN, "match": 7})
        with pytest.raises(Refused, match="another match log") as info:
            store.ingest(1, 1, elsewhere[3:], "table", {**ORIGIN, "match": 7})
        assert info.value.status == 409
        forged = {**rows[3], "hash": "0" * 64}
        with pytest.raises(Refused, match="breaks at event #4"):
            store.ingest(1, 1, [forged], "table", ORIGIN)
        assert store.head(1, 1) == 3
        assert store.ingest(1, 1, rows, "table", ORIGIN).applied == 2


def test_a_table_cannot_write_referee_events(db_url):
    """A penalty or an amendment joins a log from the referee desk only: one a table pushes
    (even signed like the server's) is refused."""
    with seated_store(db_url, names(4)) as store:
        log = logs_for(store, 2)[1]
        store.ingest(1, 1, wire(log), "table", ORIGIN)
        bonus = Adjusted(seat=0, points=1000, who="Ref Wang", why="nice", key="ab" * 8,
                         mac="cd" * 32)
        with pytest.raises(Refused, match="a table does not write penalties") as info:
            store.ingest(1, 1, [next_row(store, 1, 1, bonus)], "table", ORIGIN)
        assert info.value.status == 422 and store.head(1, 1) == 3


def test_referee_events_wait_after_the_table_s_events_until_it_takes_them(db_url):
    """The referee writes into the server's copy of a table's log; the table's new events go
    before those it has not taken yet; when the table sends them back they are taken, once."""
    with seated_store(db_url, names(4)) as store:
        log = logs_for(store, 3)[1]
        rows = wire(log)
        store.ingest(1, 1, rows[:3], "table", ORIGIN)  # two hands
        seat = store.seating(1, 1).players.index("P02")
        store.act({"name": "adjustment", "why": "slow", "player": "P02", "points": -8}, "Ref")
        store.amend(1, 1, 3, None, "Ref", "wrong table")  # strike hand 2
        assert store.head(1, 1) == 3
        assert [r["event"]["type"] for r in store.pending(1, 1)] == ["adjust", "amend"]
        struck = replay(store.log(1, 1))
        assert len(struck.hands) == 1 and struck.adjusted[seat] == -8
        assert list(store.standings().tables[0].totals) == struck.totals
        # the table plays its third hand meanwhile (it fits the struck log: next_hand of it)
        event, _ = next_hand(struck, random.Random(3))
        got = store.ingest(1, 1, [next_row(store, 1, 1, event)], "table", ORIGIN)
        assert (got.applied, got.head, [r["seq"] for r in got.referee]) == (1, 4, [5, 6])
        assert [r.event.type for r in store.log(1, 1)][3:] == ["hand_recorded", "adjust",
                                                              "amend"]
        # every referee event is still signed by the server and chained after the move
        chain_rows = store.chain_rows(1, 1)
        assert check_chain(ORIGIN["match"], ORIGIN["created_at"], chain_rows) is None
        key = hmac.new(store.secret(), b"mjtable referee events", hashlib.sha256).digest()
        start = genesis(ORIGIN["match"], ORIGIN["created_at"])
        for r in chain_rows[4:]:
            data = json.loads(r.body)
            assert data["mac"] == referee_mac(key, start, data) and r.who == "Ref"
        # the table takes them: sends them back as they are, in its own log now
        again = store.ingest(1, 1, got.referee, "table", ORIGIN)
        assert (again.applied, again.taken, again.head, again.referee) == (0, 2, 6, ())
        assert store.ingest(1, 1, got.referee, "table", ORIGIN).duplicates == 2
        final = replay(store.log(1, 1))
        assert len(final.hands) == 2 and final.adjusted[seat] == -8
        assert list(store.standings().tables[0].totals) == final.totals


def test_a_database_from_before_the_chain_is_upgraded_and_its_logs_adopted(db_url,
                                                                           monkeypatch):
    """Schema 1 kept no hashes, amendments apart and penalties as actions: after the upgrade
    all still count, and a table's next push chains its stored log from the table's start."""
    from ui.server import migrations

    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:1])
    monkeypatch.setattr(migrations, "LATEST", 1)
    store = seated_store(db_url, names(4))
    log = logs_for(store, 3)[1]
    rows = wire(log)
    with store.engine.transaction() as tx:  # what a schema-1 server stored
        tx.execute("INSERT INTO matches (round, table_no, created_at, head) VALUES "
                   "(1, 1, 'then', 3)")
        for r in rows[:3]:
            tx.execute("INSERT INTO events (match_id, seq, at, who, type, body, note, received)"
                       " VALUES (1, ?, ?, ?, ?, ?, '', 'then')",
                       (r["seq"], r["at"], r["who"], r["event"]["type"],
                        body_text(r["event"])))
        tx.execute("INSERT INTO amendments (match_id, at, who, body) VALUES (1, 'then', 'Ref', "
                   "?)", (json.dumps({"type": "amend", "target": 3, "who": "Ref",
                                      "why": "old strike"}),))
        penalty = Adjustment("Ref", "then", "late", "P01", -4)
        tx.execute("INSERT INTO actions (created, actor, name, body) VALUES ('then', 'Ref', "
                   "'adjustment', ?)", (json.dumps(penalty.to_json()),))
    store.close()
    monkeypatch.undo()
    with TournamentStore.open(db_url) as store:
        before = store.standings()
        assert before.tables[0].hands == 1 and before.row("P01").adjustments == -4
        with pytest.raises(Refused, match="before the server kept the hash chain"):
            store.amend(1, 1, 2, None, "Ref", "x")
        forged = [{**rows[0], "hash": "0" * 64}]
        with pytest.raises(Refused, match="another body"):
            store.ingest(1, 1, forged, "table", ORIGIN)
        got = store.ingest(1, 1, rows, "table", ORIGIN)  # the table's next push
        assert (got.duplicates, got.applied, got.head) == (3, 1, 4)
        assert check_chain(ORIGIN["match"], ORIGIN["created_at"],
                           store.chain_rows(1, 1)) is None
        assert store.standings().tables[0].hands == 2  # the old strike still holds
        store.amend(1, 1, 4, None, "Ref", "new strike")  # the desk writes into the log now
        assert store.standings().tables[0].hands == 1


def test_after_a_round_is_closed_the_referee_still_penalises_and_the_table_takes_it(db_url):
    with seated_store(db_url, names(4)) as store:
        log = logs_for(store, 2)[1]
        store.ingest(1, 1, wire(log), "table", ORIGIN)
        store.act({"name": "round_closed", "why": "time", "round": 1}, "Ref")
        store.act({"name": "adjustment", "why": "rude", "player": "P00", "points": -5}, "Ref")
        pending = store.pending(1, 1)
        got = store.ingest(1, 1, pending, "table", ORIGIN)  # taken: not a new table event
        assert (got.taken, got.head) == (1, 4)
        event, _ = next_hand(replay(store.log(1, 1)), random.Random(1))
        with pytest.raises(Refused, match="round 1 is closed"):
            store.ingest(1, 1, [next_row(store, 1, 1, event)], "table", ORIGIN)
        assert store.standings().row("P00").adjustments == -5
