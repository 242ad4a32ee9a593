"""Every store test runs on both engines: a SQLite file, and a database of a throwaway
PostgreSQL cluster started once per test session. Without PostgreSQL installed those runs are
skipped, except in CI (``CI=true``), where they fail."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.pgcluster import Cluster, binaries

_names = itertools.count()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    if binaries() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("PostgreSQL is not installed; CI must run the PostgreSQL tests "
                        "(.ci/run installs Debian's postgresql package)")
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    with Cluster() as cluster:
        yield cluster


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database on each engine (a PostgreSQL one is dropped after)."""
    if request.param == "sqlite":
        yield str(tmp_path / "tournament.sqlite3")
        return
    cluster = request.getfixturevalue("pg_cluster")
    name = f"t{os.getpid()}_{next(_names)}"
    yield cluster.create_db(name)
    cluster.drop_db(name)
