"""Tables syncing to the tournament server while connections are cut: nothing lost, nothing
counted twice, standings equal to the tables' own logs; time from a hand confirmed at a table to
the standings showing it.

PostgreSQL: ``--tables`` tables (default 64) post ``--hands`` hands each (default 16)
concurrently to two server processes, each behind a proxy that cuts ``--cut`` (default 10%) of
connections, half mid-request and half after the server applied the request and before its
answer. While they play, the referee penalises one player of each table through the same cut
connections (an ``adjust`` event the server writes into that table's log, which the table takes
on a later push); the books count it once in each table's own log. SQLite (the embedded
default): the same with ``--sqlite-tables`` (default 8) tables and one server process. Each run
first times one extra table posting alone, for the ratio. A throwaway PostgreSQL cluster is
started on a free loopback port and removed after; everything listens on 127.0.0.1 only.

    python bench/tournament_bench.py                      # 64 tables x 16 hands, and SQLite at 8
    python bench/tournament_bench.py --tables 8 --hands 4 --sqlite-tables 4   # a quick check
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring.match import MatchStore  # noqa: E402
from scoring.tournament import Tournament, seat_round, standings  # noqa: E402
from tests.server.live import FlakyProxy  # noqa: E402
from tests.server.pgcluster import Cluster, free_port  # noqa: E402
from tests.tournament.hands import next_hand  # noqa: E402
from ui.outbox import Outbox, SyncError, push_until_done, request  # noqa: E402
from ui.server.store import TournamentStore  # noqa: E402
from ui.server.tokens import issue  # noqa: E402


def start_server(url: str) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {**os.environ, "MJTABLE_SERVER_DB": url}
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "ui.server.asgi:app", "--factory",
                             "--host", "127.0.0.1", "--port", str(port), "--log-level",
                             "warning", "--timeout-graceful-shutdown", "1"],
                            cwd=ROOT, env=env)
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tournament", timeout=2)
            return proc, port
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the server did not start") from None
            time.sleep(0.2)


class Observer:
    """A spectator: reads the standings every ``every`` seconds and notes when each table's
    n-th hand first shows (one reader, so the measurement does not load the servers)."""

    def __init__(self, port: int, every: float = 0.05) -> None:
        self.port, self.every = port, every
        self.seen: dict[tuple[int, int], float] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while not self.stop.is_set():
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/standings",
                                            timeout=30) as resp:
                    data = json.loads(resp.read())
            except OSError:
                continue
            now = time.monotonic()
            for t in data["tables"]:
                for n in range(1, t["hands"] + 1):
                    self.seen.setdefault((t["table"], n), now)
            time.sleep(self.every)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(30)


def play_table(work: Path, table: int, players: tuple[str, ...], ruleset: str, hands: int,
               proxy_url: str, token: str, seed: int, confirmed: dict[tuple[int, int], float],
               errors: list[str]) -> None:
    """One table: confirm a hand in its own log and push it through the outbox, hand after
    hand (the next hand starts when the server has answered)."""
    rng = random.Random(seed)
    try:
        with MatchStore.open(work / f"table{table}.sqlite3", durable=False) as local, \
                Outbox(work / f"outbox{table}.sqlite3") as outbox:
            mid = local.new_match(ruleset, {}, players, first_dealer=0)
            outbox.bind(mid, proxy_url, 1, table, token)
            for n in range(1, hands + 1):
                event, _ = next_hand(local.load(mid).state, rng)
                local.append_event(mid, event, who=f"table {table}")
                confirmed[(table, n)] = time.monotonic()
                push_until_done(outbox, local, mid, pause=0.05, most=1.0, tries=200)
    except Exception as exc:  # reported, and the run counts as failed
        errors.append(f"table {table}: {type(exc).__name__}: {exc}")


def referee(numbers: list[int], by_table: dict[int, tuple[str, ...]], hands: int,
            urls: list[str], token: str, confirmed: dict[tuple[int, int], float],
            errors: list[str], given: dict[int, int]) -> None:
    """The referee penalises one player of each table once while it plays (after its second
    hand, so its log is on the server), through the cut connections; the request id makes a
    resend after a cut answer apply once."""
    todo = list(numbers)
    deadline = time.monotonic() + 120
    while todo and time.monotonic() < deadline:
        for n in list(todo):
            if (n, min(hands, 2)) not in confirmed:
                continue
            body = {"name": "adjustment", "player": by_table[n][n % 4], "points": -n,
                    "why": "bench", "request_id": f"bench-penalty-{n:04d}"}
            try:
                request("POST", f"{urls[n % len(urls)]}/api/referee/actions", body, token, 30)
            except SyncError as exc:
                if exc.permanent and "no log yet" not in str(exc):
                    errors.append(f"referee, table {n}: {exc}")
                    todo.remove(n)
                continue  # cut, or the table's first push still on its way: again
            given[n] = -n
            todo.remove(n)
        time.sleep(0.02)
    errors.extend(f"referee, table {n}: no penalty given" for n in todo)


def run(engine: str, tables: int, hands: int, servers: int, cut: float, seed: int) -> bool:
    ruleset = "shandong"
    players = tuple(f"P{i:03d}" for i in range(4 * (tables + 1)))  # the last table runs alone
    with ExitStack() as stack, tempfile.TemporaryDirectory(prefix="mjtable-bench-") as tmp:
        work = Path(tmp)
        if engine == "postgresql":
            cluster = stack.enter_context(Cluster(max_connections=300))
            url = cluster.create_db("bench")
        else:
            url = str(work / "tournament.sqlite3")
        with TournamentStore.open(url) as store:
            store.init(Tournament("Bench", ruleset, players), "bench")
            seating, _ = seat_round(list(players), Counter(), 1)
            store.act({"name": "round_seated", "round": 1, "why": "bench",
                       "tables": [t.to_json() for t in seating]}, "bench")
            secret = store.secret()
        procs, proxies = [], []
        for k in range(servers):
            proc, port = start_server(url)
            procs.append((proc, port))
            stack.callback(proc.wait, 10)
            stack.callback(proc.terminate)
            proxy = FlakyProxy(("127.0.0.1", port), cut=cut, seed=seed + k)
            proxies.append(proxy)
            stack.callback(proxy.close)
        by_table = {t.table: t.players for t in seating}

        observer = Observer(procs[0][1])
        stack.callback(observer.close)
        confirmed: dict[tuple[int, int], float] = {}
        errors: list[str] = []

        given: dict[int, int] = {}

        def go(numbers: list[int], penalise: bool = False) -> tuple[float, list[float]]:
            start = time.monotonic()
            threads = [threading.Thread(target=play_table, args=(
                work, n, by_table[n], ruleset, hands, proxies[n % servers].url,
                issue(secret, "table", n), seed * 1000 + n, confirmed, errors))
                for n in numbers]
            if penalise:
                threads.append(threading.Thread(target=referee, args=(
                    numbers, by_table, hands, [p.url for p in proxies],
                    issue(secret, "referee", "Bench referee"), confirmed, errors, given)))
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            wall = time.monotonic() - start
            keys = [(n, k) for n in numbers for k in range(1, hands + 1)]
            deadline = time.monotonic() + 60
            while any(key not in observer.seen for key in keys) and time.monotonic() < deadline:
                time.sleep(0.05)
            return wall, [observer.seen[k] - confirmed[k] for k in keys
                          if k in observer.seen and k in confirmed]

        _, alone = go([tables + 1])
        wall, together = go(list(range(1, tables + 1)), penalise=True)
        for n in range(1, tables + 1):  # the tables' last push, taking what the referee wrote
            with MatchStore.open(work / f"table{n}.sqlite3", durable=False) as local, \
                    Outbox(work / f"outbox{n}.sqlite3") as outbox:
                push_until_done(outbox, local, 1, pause=0.05, most=1.0, tries=200)

        # the books: every table's own log against the server's
        lost = double = 0
        penalties: dict[int, list[float]] = {}
        logs = {}
        with TournamentStore.open(url) as store:
            for n in range(1, tables + 2):
                with MatchStore.open(work / f"table{n}.sqlite3", durable=False) as local:
                    mine = local.events(1)
                theirs = store.log(1, n)
                seqs = [r.seq for r in theirs]
                double += len(seqs) - len(set(seqs))
                got = {r.seq: r.event for r in theirs}
                lost += sum(1 for r in mine if got.get(r.seq) != r.event)
                lost += len(theirs) - len(mine)  # the server's, not in the table's log
                penalties[n] = [r.event.points for r in mine  # type: ignore[attr-defined]
                                if r.event.type == "adjust"]
                logs[(1, n)] = mine
            served = store.standings()
            pure = standings(store.tournament(), store.actions(), logs)
        equal = served.rows == pure.rows
        hands_seen = sum(t.hands for t in served.tables)
        cuts = {k: sum(p.cuts[k] for p in proxies) for k in proxies[0].cuts}

    def ms(values: list[float], q: float) -> str:
        if not values:
            return "n/a"
        values = sorted(values)
        return f"{1000 * values[min(len(values) - 1, int(q * len(values)))]:.0f} ms"

    med_alone = statistics.median(alone) if alone else float("nan")
    observed = "read every 50 ms by one spectator"
    med = statistics.median(together) if together else float("nan")
    print(f"{engine}: {tables} tables x {hands} hands to {servers} server process"
          f"{'es' if servers > 1 else ''}, {cut:.0%} of connections cut "
          f"({cuts['mid_request']} mid-request, {cuts['before_answer']} after the server "
          f"applied it; {cuts['passed']} passed), {wall:.1f} s")
    once = sum(1 for n, p in given.items() if penalties.get(n) == [p])
    extra = sum(len(p) for p in penalties.values()) - once
    print(f"  hands in the standings {hands_seen} of {(tables + 1) * hands}; events lost "
          f"{lost}, counted twice {double}; standings equal the tables' logs: {equal}")
    print(f"  referee penalties: {len(given)} of {tables} given while the tables played, "
          f"{once} in the table's own log once, {extra} lost or extra")
    print(f"  confirm -> standings: median {ms(together, 0.5)}, p99 {ms(together, 0.99)} "
          f"({len(together)} hands, {observed}); one table alone: median {ms(alone, 0.5)} "
          f"(ratio {med / med_alone:.1f}x)")
    for e in errors[:5]:
        print(f"  ERROR {e}")
    return not errors and lost == 0 and double == 0 and equal and \
        hands_seen == (tables + 1) * hands and once == len(given) == tables and extra == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=64, help="PostgreSQL tables (0: skip)")
    parser.add_argument("--hands", type=int, default=16)
    parser.add_argument("--sqlite-tables", type=int, default=8, help="SQLite tables (0: skip)")
    parser.add_argument("--servers", type=int, default=2, help="PostgreSQL server processes")
    parser.add_argument("--cut", type=float, default=0.1, help="share of connections cut")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ok = True
    if args.tables:
        ok &= run("postgresql", args.tables, args.hands, args.servers, args.cut, args.seed)
    if args.sqlite_tables:
        ok &= run("sqlite", args.sqlite_tables, args.hands, 1, args.cut, args.seed)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
