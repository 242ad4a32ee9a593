"""The match log's hash chain and the referee's keyed sign-offs (see docs/match-log.md).

Each stored event carries ``hash = sha256(previous hash, the row)``, the first one chained to
the match's id and creation time. Anyone with the database can recompute a chain, so an edit
that rewrites every later hash goes unseen by the chain alone; a referee's sign-off is an HMAC
over the chain's head with a key kept outside the database, and no longer matches a chain
rewritten before it. Nothing here touches the database: the store passes rows in.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring.match.errors import StoreError

KEY_BYTES = 32


@dataclass(frozen=True)
class Row:
    """One stored event as the chain sees it: every column a reader relies on."""

    seq: int
    at: str
    who: str
    type: str
    body: str
    note: str
    hash: str


@dataclass(frozen=True)
class ChainBreak:
    """Where the chain stops matching the rows, and why, in one line."""

    seq: int
    reason: str

    def __str__(self) -> str:
        return f"event #{self.seq}: {self.reason}"


def genesis(match_id: int, created_at: str) -> str:
    """The hash the first event chains to: the match's id and creation time."""
    return _sha(f"mjtable match log\n{match_id}\n{created_at}")


def event_hash(previous: str, row: Row | tuple[int, str, str, str, str, str]) -> str:
    """``sha256`` of the previous hash and the row's columns (seq, at, who, type, body, note)."""
    cols = (row.seq, row.at, row.who, row.type, row.body, row.note) if isinstance(row, Row) \
        else row
    return _sha(previous + "\n" + json.dumps(list(cols), ensure_ascii=False,
                                             separators=(",", ":")))


def body_text(event_json: Mapping[str, Any]) -> str:
    """An event's JSON form as the log stores (and hashes) it: one spelling everywhere."""
    return json.dumps(event_json, ensure_ascii=False, sort_keys=True)


def check_link(previous: str, last_seq: int, last_at: str, row: Row) -> ChainBreak | None:
    """Whether ``row`` follows the event ``last_seq`` (hash ``previous``, dated ``last_at``)."""
    expect = last_seq + 1
    if row.seq != expect:
        return ChainBreak(expect, f"missing: the log jumps from #{expect - 1} to "
                                  f"#{row.seq} (an event was deleted)")
    if event_hash(previous, row) != row.hash:
        what = "has no hash" if not row.hash else "does not match its hash"
        return ChainBreak(row.seq, f"{what}: the event or one before it was changed "
                                   "outside mjtable")
    if row.at < last_at:
        return ChainBreak(row.seq, f"dated {row.at}, before the event ahead of it "
                                   f"({last_at}): back-dated")
    return None


def check_chain(match_id: int, created_at: str, rows: Sequence[Row]) -> ChainBreak | None:
    """The first row that does not chain (edited, deleted, inserted, back-dated), or ``None``."""
    previous = genesis(match_id, created_at)
    last_at = ""
    for expect, row in enumerate(rows, start=1):
        broken = check_link(previous, expect - 1, last_at, row)
        if broken is not None:
            return broken
        previous, last_at = row.hash, row.at
    return None


def referee_mac(key: bytes, log: str, event_json: Mapping[str, Any]) -> str:
    """The HMAC a tournament server's key gives to a referee event (its JSON form without
    ``mac``) of the match log whose genesis hash is ``log``: it cannot be made up by a table,
    nor moved to another log."""
    body = body_text({k: v for k, v in event_json.items() if k != "mac"})
    message = f"mjtable referee event v1\n{log}\n{body}"
    return hmac.new(key, message.encode("utf-8"), hashlib.sha256).hexdigest()


# ---------------------------------------------------------------- sign-offs


def signoff_mac(key: bytes, match_id: int, target: int, referee: str, head: str) -> str:
    """The HMAC a referee's key gives to "hand ``target`` as the chain stood at ``head``"."""
    message = f"mjtable signoff v1\n{match_id}\n{target}\n{referee}\n{head}"
    return hmac.new(key, message.encode("utf-8"), hashlib.sha256).hexdigest()


def key_id(key: bytes) -> str:
    """A short public name of a key, stored with each sign-off (never the key itself)."""
    return _sha("mjtable referee key\n" + key.hex())[:16]


def read_key(path: str | Path) -> bytes:
    """A referee key file (hex text, as :func:`new_key_file` writes); :class:`StoreError`."""
    p = Path(path)
    try:
        text = p.read_text(encoding="ascii").strip()
        key = bytes.fromhex(text)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise StoreError(f"{p}: not a referee key file ({exc})") from None
    if len(key) < 16:
        raise StoreError(f"{p}: a referee key has at least 16 bytes, this one {len(key)}")
    return key


def new_key_file(path: str | Path) -> str:
    """Write a fresh random key, readable by its owner only; returns its :func:`key_id`."""
    p = Path(path)
    key = secrets.token_bytes(KEY_BYTES)
    try:
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise StoreError(f"{p}: exists already; a key file is never overwritten") from None
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(key.hex() + "\n")
    return key_id(key)


def heads(match_id: int, created_at: str, rows: Iterable[Row]) -> dict[int, str]:
    """seq -> the chain's head just before that event (what a sign-off at seq covers)."""
    out = {}
    previous = genesis(match_id, created_at)
    for row in rows:
        out[row.seq] = previous
        previous = row.hash
    return out


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Verification:
    """What :meth:`MatchStore.verify` found: the chain, and each sign-off against the key."""

    events: int
    chain_break: ChainBreak | None
    signoffs: int  # sign-offs in the log
    checked: int  # of those, checked against the key given (0 without a key)
    bad_signoff: ChainBreak | None  # the first that does not match

    @property
    def ok(self) -> bool:
        return self.chain_break is None and self.bad_signoff is None

    @property
    def first_break(self) -> ChainBreak | None:
        """The earliest problem: a break in the chain or a sign-off that no longer matches."""
        found = [b for b in (self.chain_break, self.bad_signoff) if b is not None]
        return min(found, key=lambda b: b.seq) if found else None


def check_signoffs(match_id: int, created_at: str, rows: Sequence[Row],
                   signoffs: Iterable[tuple[int, int, str, str, str, str]],
                   key: bytes | None) -> tuple[int, int, ChainBreak | None]:
    """(sign-offs, checked, first bad) for ``(seq, target, referee, key_id, head, mac)`` rows.

    A sign-off matches when the head it states is the recomputed chain's head before it and
    the MAC over that head is the key's. Sign-offs made with another key are not checked.
    """
    before = heads(match_id, created_at, rows)
    total = checked = 0
    bad: ChainBreak | None = None
    mine = key_id(key) if key is not None else None
    for seq, target, referee, kid, head, mac in signoffs:
        total += 1
        if bad is not None:
            continue
        if before.get(seq) != head:
            bad = ChainBreak(seq, f"the sign-off of hand #{target} by {referee} was made on "
                                  "another log: the events before it were changed")
            continue
        if kid != mine or key is None:
            continue
        checked += 1
        if not hmac.compare_digest(signoff_mac(key, match_id, target, referee, head), mac):
            bad = ChainBreak(seq, f"the sign-off of hand #{target} by {referee} does not match "
                                  "the key: forged, or the log was rewritten")
    return total, checked, bad
