"""A network table URL without a host or a valid port is one clear line (issue 19)."""

from __future__ import annotations

import re

import pytest

from hardware.errors import TableOffline
from hardware.transport import open_port


@pytest.mark.parametrize(("url", "message"), [
    ("socket://127.0.0.1", "needs a port"),
    ("socket://127.0.0.1:99999", "port must be a number 1..65535, got '99999'"),
    ("socket://127.0.0.1:0", "port must be a number 1..65535"),
    ("socket://127.0.0.1:abc", "port must be a number 1..65535"),
    ("socket://:5000", "needs a host"),
    ("rfc2217://10.0.0.1", "needs a port"),
])
def test_bad_network_urls(url: str, message: str) -> None:
    with pytest.raises(TableOffline, match=re.escape(message)):
        open_port(url)


def test_good_url_still_goes_to_pyserial() -> None:
    with pytest.raises(TableOffline, match=r"cannot open table port socket://127\.0\.0\.1:9"):
        open_port("socket://127.0.0.1:9")
