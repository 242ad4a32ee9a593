"""Scoped, signed tokens: a table writes only its own matches, a referee amends and acts.

A token is ``mjt1.<payload>.<mac>``: the payload (base64url JSON) names the role and what it
covers, the mac is HMAC-SHA256 over it with the tournament's secret (kept in its database, made
at ``init``). :func:`verify` returns an :class:`Actor` or ``None``, never a half-trusted one: a
token from another tournament, an edited payload or a bad signature all read as no token.
The public pages need no token.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass

PREFIX = "mjt1"
ROLES = ("table", "referee")
MAX_TOKEN = 512


@dataclass(frozen=True)
class Actor:
    role: str  # "table" or "referee"
    name: str  # who, as the write log records it ("table 3", "Wang Li")
    table: int | None = None  # the one table a table token writes

    def may_write_table(self, table: int) -> bool:
        return self.role == "table" and self.table == table

    @property
    def is_referee(self) -> bool:
        return self.role == "referee"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(secret: bytes, payload: str) -> str:
    return _b64(hmac.new(secret, f"{PREFIX}.{payload}".encode(), hashlib.sha256).digest())


def issue(secret: bytes, role: str, who: str | int) -> str:
    """A token for ``table`` N (``who`` the table number) or a ``referee`` (``who`` a name)."""
    if role == "table":
        if isinstance(who, bool) or not isinstance(who, int) or who < 1:
            raise ValueError(f"a table token names a table number >= 1, got {who!r}")
        body = {"r": "table", "t": who}
    elif role == "referee":
        if not isinstance(who, str) or not who.strip() or len(who) > 80:
            raise ValueError("a referee token names the referee (1..80 characters)")
        body = {"r": "referee", "n": who.strip()}
    else:
        raise ValueError(f"role: one of {', '.join(ROLES)}, got {role!r}")
    payload = _b64(json.dumps(body, ensure_ascii=False, sort_keys=True).encode())
    return f"{PREFIX}.{payload}.{_mac(secret, payload)}"


def verify(secret: bytes, token: str | None) -> Actor | None:
    """The actor a token stands for, or ``None`` for anything not signed by this tournament."""
    if not token or len(token) > MAX_TOKEN:
        return None
    parts = token.split(".")
    if len(parts) != 3 or parts[0] != PREFIX:
        return None
    if not hmac.compare_digest(_mac(secret, parts[1]), parts[2]):
        return None
    try:
        body = json.loads(_unb64(parts[1]))
    except ValueError:
        return None
    if body.get("r") == "table" and isinstance(body.get("t"), int):
        return Actor("table", f"table {body['t']}", body["t"])
    if body.get("r") == "referee" and isinstance(body.get("n"), str):
        return Actor("referee", body["n"])
    return None
