"""The match the dashboard follows, without Qt: which match is open, the dice of the hand in
play and where they break the wall, as the ruleset says. Views subscribe to ``changed`` and call
these methods; the match panel is one such view (and a test drives it without a window).
"""

from __future__ import annotations

from typing import Any

from scoring.rulesets.base import WallBreak
from scoring.rulesets.registry import read_wall_break
from ui.dashboard.signals import Signal


class MatchSession:
    """One open match of a :class:`scoring.match.MatchStore` (``None`` before one is opened)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.match_id: int | None = None
        self.match: Any = None  # the store's Match, reloaded after every change
        self.rolls: list[tuple[int, int]] = []  # the dice of the hand in play, oldest first
        self._hands_seen = -1
        self.changed: Signal[[Any]] = Signal()  # the match (or None) after it is (re)loaded
        self.rolled: Signal[[tuple[int, int]]] = Signal()  # a roll of the hand in play

    def new_match(self, ruleset: str, options: dict[str, Any], players: list[str],
                  first_dealer: int, who: str = "dashboard") -> int:
        self.match_id = self.store.new_match(ruleset, options, players, first_dealer, who=who)
        self.rolls = []
        self.refresh()
        return self.match_id

    def open(self, match_id: int) -> None:
        self.match_id = match_id
        self.rolls = []
        self.refresh()

    def refresh(self) -> None:
        """Reload the match from the store; a new hand starts with no dice."""
        if self.match_id is None:
            self.match = None
        else:
            self.match = self.store.load(self.match_id)
            if len(self.match.hands) != self._hands_seen:
                self._hands_seen = len(self.match.hands)
                self.rolls = []
        self.changed.emit(self.match)

    def log_event(self, event: dict[str, Any], who: str) -> None:
        """Append a table event to the open match (``ValueError``: the match refuses it)."""
        if self.match_id is None:
            raise ValueError("no match is open")
        self.store.append_event(self.match_id, event, who=who)
        self.refresh()

    def record_hand(self, record: dict[str, Any], who: str, why: str,
                    replacing: int | None = None) -> None:
        """Log a finished hand, or correct the logged event ``replacing`` with it."""
        if self.match_id is None:
            raise ValueError("no match is open")
        if replacing is not None:
            self.store.amend(self.match_id, replacing, {"type": "hand_recorded",
                                                        "record": record}, who=who, why=why)
        else:
            self.store.add_hand(self.match_id, record, who=who, why=why)
        self.refresh()

    def add_roll(self, a: int, b: int) -> None:
        self.rolls.append((a, b))
        self.rolled.emit((a, b))

    def wall_break(self) -> tuple[WallBreak | None, str]:
        """Where the last rolls break the wall, or why the ruleset cannot say yet."""
        if self.match is None or not self.rolls:
            return None, "no dice yet"
        return read_wall_break(self.match.ruleset, self.match.dealer, self.rolls[-2:],
                               self.match.options)
