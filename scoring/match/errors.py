"""Errors of the match log: a refused event names why, a bad database names the file.

Both are ``ValueError`` subclasses so the command line prints them as one line (exit status 2).
"""

from __future__ import annotations

from typing import Any


class MatchError(ValueError):
    """Base of every error raised by ``scoring.match``."""


class EventRefused(MatchError):
    """An event the rules or the table state do not allow; ``reason`` says why in one line.

    ``seq`` is the log position of the refused event when it comes from a replay.
    """

    def __init__(self, reason: str, event: Any = None, seq: int | None = None) -> None:
        self.reason = reason
        self.event = event
        self.seq = seq
        kind = getattr(event, "type", None)
        where = f"event #{seq}" if seq is not None else "event"
        prefix = f"{where} ({kind}) refused: " if kind else f"{where} refused: "
        super().__init__(prefix + reason)


class BadEvent(MatchError):
    """An event whose JSON form is malformed (unknown type or key, wrong value)."""


class StoreError(MatchError):
    """The match database cannot be used: not SQLite, another program's file, corrupt, newer."""


class UnknownMatch(MatchError):
    """No match with that id in the database."""
