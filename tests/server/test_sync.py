"""Tables sync through their outbox to a real server on 127.0.0.1: the network drops, answers
are cut after the server applied a request, and every event still lands exactly once."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from scoring.match import MatchStore
from tests.server.helpers import names, seated_store
from tests.server.live import FlakyProxy, uvicorn_thread
from tests.tournament.hands import next_hand
from ui.outbox import Outbox, Syncer, SyncError, push_until_done
from ui.server.app import create_app
from ui.server.tokens import issue


@pytest.fixture
def server(db_url):
    store = seated_store(db_url, names(4))
    with uvicorn_thread(create_app(store)) as url:
        yield url, store, issue(store.secret(), "table", 1)
    store.close()


def play(local: MatchStore, mid: int, hands: int, rng: random.Random) -> None:
    for _ in range(hands):
        event, _ = next_hand(local.load(mid).state, rng)
        local.append_event(mid, event, who="table")


def test_the_outbox_waits_out_a_dropped_network_and_sends_each_event_once(server, tmp_path):
    url, store, token = server
    _host, port = url.rsplit(":", 1)
    proxy = FlakyProxy(("127.0.0.1", int(port)), cut=0.0)
    seating = store.seating(1, 1)
    rng = random.Random(5)
    with MatchStore.open(tmp_path / "table.sqlite3", durable=False) as local, \
            Outbox(tmp_path / "outbox.sqlite3") as outbox:
        mid = local.new_match("shandong", {}, seating.players, first_dealer=0)
        play(local, mid, 2, rng)
        outbox.bind(mid, proxy.url, 1, 1, token)
        first = outbox.push(local, mid)
        assert (first.sent, first.head, first.pending) == (3, 3, 0)
        proxy.down = True  # the network drops; the table plays on
        play(local, mid, 2, rng)
        with pytest.raises(SyncError, match="cannot reach") as info:
            outbox.push(local, mid, timeout=2)
        assert not info.value.permanent
        assert store.head(1, 1) == 3
        proxy.down = False
        back = outbox.push(local, mid)
        assert (back.sent, back.duplicates, back.head, back.pending) == (2, 0, 5, 0)
        assert [r.event for r in store.log(1, 1)] == [r.event for r in local.events(mid)]
        assert list(store.standings().tables[0].totals) == local.load(mid).totals
    proxy.close()


def test_answers_cut_after_the_server_applied_them_do_not_count_twice(server, tmp_path):
    url, store, token = server
    proxy = FlakyProxy(("127.0.0.1", int(url.rsplit(":", 1)[1])), cut=0.5, seed=3)
    seating = store.seating(1, 1)
    rng = random.Random(8)
    with MatchStore.open(tmp_path / "table.sqlite3", durable=False) as local, \
            Outbox(tmp_path / "outbox.sqlite3") as outbox:
        mid = local.new_match("shandong", {}, seating.players, first_dealer=0)
        outbox.bind(mid, proxy.url, 1, 1, token)
        for _ in range(6):
            play(local, mid, 1, rng)
            push_until_done(outbox, local, mid, pause=0.01, most=0.05, tries=50)
        assert proxy.cuts["mid_request"] and proxy.cuts["before_answer"]
        assert [r.seq for r in store.log(1, 1)] == list(range(1, 8))
        assert list(store.standings().tables[0].totals) == local.load(mid).totals
    proxy.close()


def test_a_refusal_is_not_retried_and_the_command_line_pushes(server, tmp_path, capsys):
    from ui.cli import main

    url, store, token = server
    db, box = str(tmp_path / "table.sqlite3"), str(tmp_path / "outbox.sqlite3")
    with MatchStore.open(db) as local:
        wrong = local.new_match("shandong", {}, ("a", "b", "c", "d"), first_dealer=0)
        right = local.new_match("shandong", {}, store.seating(1, 1).players, first_dealer=0)
        play(local, right, 2, random.Random(1))
    assert main(["match", "--db", db, "push", str(wrong), "--server", url, "--round", "1",
                 "--table", "1", "--token", token, "--outbox", box, "--retry"]) == 2
    assert "seats P" in capsys.readouterr().err  # refused at once, not retried
    assert main(["match", "--db", db, "push", str(right), "--outbox", box]) == 2
    assert "the first push names" in capsys.readouterr().err
    args = ["match", "--db", db, "push", str(right), "--server", url, "--round", "1",
            "--table", "1", "--token", token, "--outbox", box]
    assert main(args) == 0
    assert "3 sent, 0 already there, the server holds #3" in capsys.readouterr().out
    assert main([*args[:5], "--outbox", box]) == 0
    assert "0 sent" in capsys.readouterr().out


def wait_until(check, timeout: float = 15) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_the_background_syncer_follows_the_log_through_an_outage(server, tmp_path):
    url, store, token = server
    proxy = FlakyProxy(("127.0.0.1", int(url.rsplit(":", 1)[1])), cut=0.0)
    rng = random.Random(11)
    with MatchStore.open(tmp_path / "table.sqlite3", durable=False) as local:
        mid = local.new_match("shandong", {}, store.seating(1, 1).players, first_dealer=0)
        with Outbox(tmp_path / "outbox.sqlite3") as outbox:
            outbox.bind(mid, proxy.url, 1, 1, token)
        syncer = Syncer(local, mid, tmp_path / "outbox.sqlite3", pause=0.05, most=0.2)
        try:
            wait_until(lambda: store.head(1, 1) == 1)
            play(local, mid, 2, rng)  # each new event wakes it
            wait_until(lambda: store.head(1, 1) == 3)
            proxy.down = True
            play(local, mid, 2, rng)
            wait_until(lambda: syncer.error is not None)
            assert "not synced" in syncer.state() and store.head(1, 1) == 3
            proxy.down = False  # back: it retries on its own, no new event needed
            wait_until(lambda: store.head(1, 1) == 5)
            wait_until(lambda: syncer.state() == "synced: the server holds #5")
        finally:
            syncer.close()
        assert [r.event for r in store.log(1, 1)] == [r.event for r in local.events(mid)]
    proxy.close()


def test_the_dashboard_syncs_its_match_with_sync_and_shows_how_far(server, tmp_path, qtbot):
    import gc

    from ui.dashboard.app import RunOptions, build_window

    url, store, token = server
    db, box = tmp_path / "table.sqlite3", tmp_path / "outbox.sqlite3"
    with MatchStore.open(db) as local:
        mid = local.new_match("shandong", {}, store.seating(1, 1).players, first_dealer=0)
        play(local, mid, 1, random.Random(2))
    opts = RunOptions(camera="none", port="none", match=mid, db=db, hand=None, sync=True,
                      outbox=box)
    with pytest.raises(ValueError, match="not bound"):
        build_window(opts)
    with Outbox(box) as outbox:
        outbox.bind(mid, url, 1, 1, token)
    window = build_window(opts)
    qtbot.addWidget(window)
    try:
        qtbot.waitUntil(lambda: store.head(1, 1) == 2, timeout=15000)
        event, _ = next_hand(window.store.load(mid).state, random.Random(3))
        window.store.append_event(mid, event, who="referee")  # as the dashboard logs a hand
        qtbot.waitUntil(lambda: store.head(1, 1) == 3, timeout=15000)
        qtbot.waitUntil(lambda: "the server holds #3" in window.syncer.state(), timeout=5000)
    finally:
        window.syncer.close()
        window.store.close()  # qtbot closes the window itself (a second close would fail)
        gc.collect()


def test_after_restoring_an_older_backup_the_tables_resend_what_it_lacks(db_url, tmp_path,
                                                                        request):
    """docs/tournament.md's restore: the server's database goes back to a backup; each
    table's push sends what the backup lacks, from the head the restored server reports."""
    import shutil
    import sqlite3
    from contextlib import closing

    from ui.server.store import TournamentStore

    store = seated_store(db_url, names(4))
    token = issue(store.secret(), "table", 1)
    players = store.seating(1, 1).players
    store.close()
    rng = random.Random(4)
    with MatchStore.open(tmp_path / "table.sqlite3", durable=False) as local, \
            Outbox(tmp_path / "outbox.sqlite3") as outbox:
        mid = local.new_match("shandong", {}, players, first_dealer=0)
        play(local, mid, 2, rng)
        served = TournamentStore.open(db_url)
        with uvicorn_thread(create_app(served)) as url:
            outbox.bind(mid, url, 1, 1, token)
            outbox.push(local, mid)
            if db_url.startswith("postgresql://"):
                cluster = request.getfixturevalue("pg_cluster")
                backup = cluster.dump(db_url.rsplit("/", 1)[1])
            else:
                backup = tmp_path / "backup.sqlite3"
                with closing(sqlite3.connect(db_url)) as src, \
                        closing(sqlite3.connect(backup)) as dst:
                    src.backup(dst)  # SQLite's online backup, as `.backup` does
            play(local, mid, 2, rng)
            assert outbox.push(local, mid).head == 5
        served.close()
        # the server is stopped and its database restored from the backup
        if db_url.startswith("postgresql://"):
            cluster.restore(db_url.rsplit("/", 1)[1], backup)
        else:
            for extra in ("-wal", "-shm"):
                Path(db_url + extra).unlink(missing_ok=True)
            shutil.copy(backup, db_url)
        with TournamentStore.open(db_url) as restored, \
                uvicorn_thread(create_app(restored)) as url:
            outbox.bind(mid, url, 1, 1, token)
            assert restored.head(1, 1) == 3
            again = outbox.push(local, mid)
            assert (again.sent, again.head) == (2, 5)
            assert [r.event for r in restored.log(1, 1)] == [r.event
                                                             for r in local.events(mid)]



def test_referee_events_reach_the_table_s_own_log_once_and_replay_there(server, tmp_path,
                                                                        capsys):
    """A penalty and a strike entered at the referee desk are events of the table's log: the
    server writes them into its copy, the table takes them on its next push (while it plays
    on, and with answers cut), and `mjtable match replay` of the table's own log gives the
    totals the standings show."""
    from ui.cli import main

    url, store, token = server
    proxy = FlakyProxy(("127.0.0.1", int(url.rsplit(":", 1)[1])), cut=0.3, seed=5)
    players = store.seating(1, 1).players
    rng = random.Random(21)
    db = tmp_path / "table.sqlite3"
    with MatchStore.open(db, durable=False) as local, \
            Outbox(tmp_path / "outbox.sqlite3") as outbox:
        mid = local.new_match("shandong", {}, players, first_dealer=0)
        outbox.bind(mid, proxy.url, 1, 1, token)
        play(local, mid, 3, rng)
        push_until_done(outbox, local, mid, pause=0.01, most=0.05, tries=50)
        store.act({"name": "adjustment", "player": players[2], "points": -30, "why": "late"},
                  "Ref Wang")
        play(local, mid, 1, rng)  # before it syncs, the table plays on: its hand goes first
        push_until_done(outbox, local, mid, pause=0.01, most=0.05, tries=50)
        store.amend(1, 1, 5, None, "Ref Wang", "played at the wrong table")  # that hand
        got = push_until_done(outbox, local, mid, pause=0.01, most=0.05, tries=50)
        while store.pending(1, 1):  # an answer cut after the table took them: once more
            got = push_until_done(outbox, local, mid, pause=0.01, most=0.05, tries=50)
        again = outbox.push(local, mid)
        assert (again.sent, again.taken, again.pending) == (0, 0, 0)
        mine = local.load(mid)
        assert [r.event.type for r in mine.log][4:] == ["hand_recorded", "adjust", "amend"]
        assert local.verify(mid).ok and store.head(1, 1) == mine.last_seq == 7
        assert [r.event for r in store.log(1, 1)] == [r.event for r in mine.log]
        assert mine.state.adjusted == [0, 0, -30, 0] and len(mine.hands) == 3
        assert list(store.standings().tables[0].totals) == mine.totals
        assert store.standings().row(players[2]).adjustments == -30
        assert got.head == 7
    assert main(["match", "--db", str(db), "replay", str(mid)]) == 0
    out = capsys.readouterr().out
    assert f"totals [{' '.join(f'{t:+d}' for t in mine.totals)}]" in out
    assert f"penalty -30 to seat 2 ({players[2]}) by Ref Wang: late" in out
    proxy.close()
