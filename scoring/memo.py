"""Work done once: a property per object, and pure functions of immutable facts per process.

Scoring a hand builds many small objects whose facts are each read a few times, and a table, the
camera and the dashboard score the same shapes, melds and tile strings again and again.
:class:`memo_property` is ``functools.cached_property`` without the class-wide lock that Python
3.11 takes on every first read (3.12 dropped it; here it cost more than most facts);
:func:`memoised` is ``functools.lru_cache`` that :func:`forget_all` can empty, so the bench can
time a cold start beside the warm rate.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class memo_property(Generic[T]):
    """Like ``functools.cached_property`` without the lock: the first read stores the value in
    the instance's ``__dict__`` (so it works on frozen dataclasses), which later reads find
    before the descriptor. Two threads reading it first may both compute it (it is pure)."""

    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> memo_property[T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> T: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> T | memo_property[T]:
        if obj is None:
            return self
        value = self.func(obj)
        obj.__dict__[self.name] = value
        return value


_MEMOS: list[Any] = []


def memoised(maxsize: int) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """``functools.lru_cache`` for a pure function of immutable facts (tile counts, a seat's
    melds), remembered by :func:`forget_all` so a benchmark can also time a cold start."""
    def wrap(func: Callable[..., T]) -> Callable[..., T]:
        cached = lru_cache(maxsize=maxsize)(func)
        _MEMOS.append(cached)
        return cached
    return wrap


_TABLES: list[dict[Any, Any]] = []


def memo_table() -> dict[Any, Any]:
    """A plain dict for a memo whose miss is worked out from the caller's object, not from the
    key alone (an ``lru_cache`` would have to rebuild that object from its key); the caller
    looks up, stores and empties it when full. :func:`forget_all` empties it too."""
    table: dict[Any, Any] = {}
    _TABLES.append(table)
    return table


def forget_all() -> None:
    """Empty every :func:`memoised` cache and :func:`memo_table` (the bench's cold rate; tests
    never need it)."""
    for cached in _MEMOS:
        cached.cache_clear()
    for table in _TABLES:
        table.clear()
