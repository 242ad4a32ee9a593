"""Shared fixtures: keep the art cache of the tests out of the user's cache."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from datasets import art


@pytest.fixture(scope="session", autouse=True)
def _art_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    import os

    old = os.environ.get("MJTABLE_CACHE")
    os.environ["MJTABLE_CACHE"] = str(tmp_path_factory.mktemp("mjtable-cache"))
    art.load_style.cache_clear()
    yield
    art.load_style.cache_clear()
    if old is None:
        os.environ.pop("MJTABLE_CACHE", None)
    else:
        os.environ["MJTABLE_CACHE"] = old


HAVE_ART = (art.ART_ROOT / "gleitz").is_dir()
needs_art = pytest.mark.skipif(not HAVE_ART, reason=f"tile art not found at {art.ART_ROOT} "
                               "(set MJTABLE_ART to shared/art)")


def art_root() -> Path:
    return art.ART_ROOT
