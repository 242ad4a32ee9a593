"""Exactly once, whatever arrives: random batches of a table's log, resent, overlapping and out
of order (refused whole: the hash chain breaks), end with the server holding the table's log
event for event, and standings equal to its replay. On both engines (a fresh database per
example)."""

from __future__ import annotations

import itertools
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.match import replay
from tests.server.helpers import ORIGIN, logs_for, names, seated_store, wire
from ui.server.store import Refused

_n = itertools.count()

batches = st.lists(st.tuples(st.integers(0, 7), st.integers(1, 4), st.booleans()),
                   min_size=1, max_size=12)


def _check(url: str, plan: list[tuple[int, int, bool]]) -> None:
    with seated_store(url, names(4)) as store:
        log = wire(logs_for(store, 6)[1])
        applied = 0
        for start, size, reverse in plan:  # whatever the network delivers, in any order
            batch = log[start:start + size]
            if not batch:
                continue
            try:
                sent = batch[::-1] if reverse and len(batch) > 1 else batch
                applied += store.ingest(1, 1, sent, "t", ORIGIN).applied
                assert sent is batch  # a batch out of order is never taken
            except Refused as exc:
                if sent is batch:  # a gap: nothing stored, the outbox sends from the head
                    assert exc.status == 409 and "before" in str(exc)
                else:  # out of order: the chain breaks, nothing stored
                    assert exc.status == 422 and "out of order" in str(exc)
        while store.head(1, 1) < len(log):  # the outbox sends from the server's head
            applied += store.ingest(1, 1, log[store.head(1, 1):], "t", ORIGIN).applied
        assert applied == len(log)
        stored = store.log(1, 1)
        assert [r.event.to_json() for r in stored] == [r["event"] for r in log]
        assert list(store.standings().tables[0].totals) == replay(stored).totals


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(plan=batches)
def test_sqlite_stores_every_event_once_whatever_arrives(tmp_path, plan):
    _check(str(tmp_path / f"t{next(_n)}.sqlite3"), plan)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(plan=batches)
def test_postgresql_stores_every_event_once_whatever_arrives(pg_cluster, plan):
    _check(pg_cluster.create_db(f"prop{os.getpid()}_{next(_n)}"), plan)
