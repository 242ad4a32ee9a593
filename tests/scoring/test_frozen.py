"""fast_init builds the same frozen dataclass as the generated ``__init__``, only cheaper."""

from __future__ import annotations

import dataclasses
import inspect
import pickle
from dataclasses import dataclass, field

import pytest

from scoring.frozen import fast_init
from scoring.record import HandRecord, Meld, Seat, Win
from scoring.settlement import Item, Transfer


@dataclass(frozen=True)
class Plain:
    a: int
    b: str = "x"
    c: list[int] = field(default_factory=list)
    d: int = field(default=4, kw_only=True)
    e: tuple[int, ...] = ()


@fast_init
@dataclass(frozen=True)
class Quick:
    a: int
    b: str = "x"
    c: list[int] = field(default_factory=list)
    d: int = field(default=4, kw_only=True)
    e: tuple[int, ...] = ()


def test_same_signature_as_the_generated_init() -> None:
    assert str(inspect.signature(Quick)) == str(inspect.signature(Plain))
    for cls in (Meld, Seat, Win, HandRecord, Item, Transfer):
        assert str(inspect.signature(cls)).startswith("(")
        assert list(inspect.signature(cls).parameters) == [f.name for f in dataclasses.fields(cls)]


def test_fields_defaults_and_factories() -> None:
    q = Quick(1, "y", [2], d=5, e=(3,))
    assert (q.a, q.b, q.c, q.d, q.e) == (1, "y", [2], 5, (3,))
    first, second = Quick(0), Quick(0)
    assert (first.b, first.c, first.d, first.e) == ("x", [], 4, ())
    assert first.c is not second.c  # a fresh list per instance, as default_factory gives
    with pytest.raises(TypeError):
        Quick(1, "y", [], (), 5)  # type: ignore[misc]  # d stays keyword-only
    with pytest.raises(TypeError):
        Quick()  # type: ignore[call-arg]


def test_still_frozen_equal_hashable_and_picklable() -> None:
    m = Meld("pung", (5, 5, 5), 2, "666m")
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.type = "chow"  # type: ignore[misc]
    twin = Meld(type="pung", tiles=(5, 5, 5), from_seat=2, text="666m")
    assert m == twin and hash(m) == hash(twin)
    assert repr(m) == "Meld(type='pung', tiles=(5, 5, 5), from_seat=2, text='666m')"
    assert pickle.loads(pickle.dumps(m)) == m
    assert dataclasses.replace(m, from_seat=1).from_seat == 1
    assert Seat().melds == () and Seat().explicit == frozenset()


def test_refuses_what_it_cannot_build() -> None:
    @dataclass
    class Mutable:
        a: int

    @dataclass(frozen=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            pass

    for cls in (Mutable, Checked, int):
        with pytest.raises(TypeError):
            fast_init(cls)
