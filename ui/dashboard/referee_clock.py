"""The referee's turn clock (Shanghai: 15 s for 换牌, 20 s to discard or to answer a claim).

Qt-free: the clock reads an injected ``now`` (``time.monotonic`` by default), so tests move time
by hand; the view polls :meth:`RefereeClock.tick` and shows :meth:`remaining`. When a countdown
runs out, ``expired`` announces the phase and the seat once, with what the rules then do.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from scoring.rulesets.registry import get_ruleset, known_rulesets
from ui.dashboard.signals import Signal


@dataclass(frozen=True)
class Phase:
    """One countdown: its length and what happens when it runs out, in both languages."""

    key: str
    seconds: float
    name_en: str
    name_zh: str
    on_timeout_en: str
    on_timeout_zh: str


def _clock_seconds() -> dict[str, float]:
    """The clocks of the first ruleset that keeps them (Shanghai: "15秒…換牌", "20秒倒計時")."""
    for name in known_rulesets():
        seconds = get_ruleset(name).clock_seconds
        if seconds:
            return dict(seconds)
    return {}


_SECONDS = _clock_seconds()
#: the countdowns and their timeouts; the lengths are the ruleset's
PHASES: dict[str, Phase] = {p.key: p for p in (
    Phase("exchange", _SECONDS.get("exchange", 0), "换牌 exchange", "换牌",
          "no exchange for this seat", "该玩家不能换牌"),
    Phase("discard", _SECONDS.get("discard", 0), "discard", "出牌",
          "the drawn tile is discarded for the player", "自动打出摸到的牌"),
    Phase("claim", _SECONDS.get("claim", 0), "claim (吃/碰/杠/和)", "吃碰杠和",
          "the claim prompt lapses; the next player draws", "自动取消，下家摸牌"),
) if p.seconds}


class RefereeClock:
    """One countdown at a time, for one seat; ``expired`` fires once when it reaches 0."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        self.phase: Phase | None = None
        self.seat: int | None = None
        self._deadline = 0.0
        self._fired = False
        self.started: Signal[[Phase, int]] = Signal()
        self.expired: Signal[[Phase, int]] = Signal()
        self.stopped: Signal[[]] = Signal()

    def start(self, phase: str, seat: int) -> None:
        """Start (or restart) the ``phase`` countdown for ``seat``."""
        if phase not in PHASES:
            raise ValueError(f"unknown clock {phase!r}; known: {', '.join(PHASES)}")
        if not 0 <= seat <= 3:
            raise ValueError(f"seat number {seat} is out of range 0..3")
        self.phase, self.seat = PHASES[phase], seat
        self._deadline = self._now() + self.phase.seconds
        self._fired = False
        self.started.emit(self.phase, seat)

    def stop(self) -> None:
        """The player acted in time (or the referee stopped the clock)."""
        self.phase = self.seat = None
        self._fired = False
        self.stopped.emit()

    @property
    def running(self) -> bool:
        return self.phase is not None

    def remaining(self) -> float:
        """Seconds left on the running countdown (0 when none runs or it ran out)."""
        if self.phase is None:
            return 0.0
        return max(0.0, self._deadline - self._now())

    def tick(self) -> Phase | None:
        """Called by the view's timer: announce the running countdown's end once (and return
        its phase that one time, so a poller needs no subscription)."""
        if self.phase is None or self._fired or self.remaining() > 0:
            return None
        self._fired = True
        assert self.seat is not None
        self.expired.emit(self.phase, self.seat)
        return self.phase
