"""Errors that name what is wrong, so the CLI and the dashboard can show one clear line."""

from __future__ import annotations


class ScoringError(ValueError):
    """Base of every error raised by ``scoring``; ``field`` names the offending record field."""

    code = "error"

    def __init__(self, message: str, field: str | None = None) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)


class TileError(ScoringError):
    """A tile string or tile index that is not in the notation."""

    code = "bad_tile"


class RecordError(ScoringError):
    """A hand record that breaks the format or the counting rules of ``shared/rules/README.md``."""

    code = "bad_record"


class InvalidHand(ScoringError):
    """A well-formed record whose claimed win the ruleset does not allow (e.g. wrong 258 pair)."""

    code = "invalid_hand"

    def __init__(self, message: str, field: str | None = None, reason: str = "invalid") -> None:
        super().__init__(message, field)
        self.reason = reason


class RulesetNotImplemented(ScoringError):
    """A ruleset the project knows of but cannot score yet."""

    code = "not_implemented"
