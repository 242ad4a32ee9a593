"""A typed callback list, so the dashboard's core can announce changes without importing Qt."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, ParamSpec

P = ParamSpec("P")


class Signal(Generic[P]):
    """``connect`` callables and ``emit`` to all of them, in connection order."""

    def __init__(self) -> None:
        self._slots: list[Callable[P, object]] = []

    def connect(self, slot: Callable[P, object]) -> None:
        if slot not in self._slots:
            self._slots.append(slot)

    def disconnect(self, slot: Callable[P, object]) -> None:
        if slot in self._slots:
            self._slots.remove(slot)

    def emit(self, *args: P.args, **kwargs: P.kwargs) -> None:
        for slot in list(self._slots):
            slot(*args, **kwargs)
