"""Errors raised by the table driver; each message names the table, the command and what failed."""

from __future__ import annotations


class TableError(Exception):
    """Base of every ``hardware`` failure the user or the dashboard should see as one line."""

    code = "table_error"


class TableOffline(TableError):
    """The port is gone (unplugged, closed, never opened); the command did not complete."""

    code = "offline"


class TableTimeout(TableError):
    """No valid reply within the deadline, after every retry the command allows."""

    code = "timeout"


class TableNak(TableError):
    """The table refused the command; ``reason`` is the protocol's error code name."""

    code = "nak"

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


class TableFault(TableError):
    """The table reported a fault (jam, overheat, ...) while the command was running."""

    code = "fault"


class Unsupported(TableError):
    """The chosen protocol has no way to express this command."""

    code = "unsupported"
