"""Fuzzing the untrusted-input boundaries under hypothesis, bounded for CI (issue 19).

Each target gets random bytes, mutations of valid inputs, and hostile JSON shapes; it may only
raise its own error types. ``bench/fuzz.py`` runs the same targets far longer.
"""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fuzz.targets import TARGETS, Target

BY_NAME = {t.name: t for t in TARGETS}
EXAMPLES = 150  # per strategy and target: a few seconds each on a laptop


def _check(target: Target, data: bytes) -> None:
    with contextlib.suppress(target.allowed):
        target.run(data)


@st.composite
def mutated(draw: st.DrawFn, seeds: tuple[bytes, ...]) -> bytes:
    """A valid input with a few bytes flipped, cut, repeated or spliced in."""
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 6))):
        if not data:
            break
        i = draw(st.integers(0, len(data) - 1))
        op = draw(st.sampled_from(("flip", "cut", "dup", "insert")))
        if op == "flip":
            data[i] ^= 1 << draw(st.integers(0, 7))
        elif op == "cut":
            del data[i:i + draw(st.integers(1, 16))]
        elif op == "dup":
            data[i:i] = data[i:i + draw(st.integers(1, 32))] * draw(st.integers(1, 4))
        else:
            data[i:i] = draw(st.binary(min_size=1, max_size=8))
    return bytes(data)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=20)


@st.composite
def hostile_json(draw: st.DrawFn, seeds: tuple[bytes, ...]) -> bytes:
    """A valid object with one value replaced by something hostile (deep, huge, odd)."""
    try:
        obj = json.loads(draw(st.sampled_from(seeds)))
    except ValueError:
        obj = {}
    if not isinstance(obj, dict) or not obj:
        obj = {"type": "dice"}
    key = draw(st.sampled_from(sorted(obj)))
    depth = draw(st.integers(1, 200))
    obj[key] = draw(st.one_of(
        json_values, st.integers(min_value=-10**40, max_value=10**40),
        st.just([[]] * 3), st.just(json.loads("[" * depth + "]" * depth))))
    return json.dumps(obj, allow_nan=True).encode()


@pytest.mark.parametrize("name", sorted(BY_NAME))
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_random_bytes(name: str, data: st.DataObject) -> None:
    _check(BY_NAME[name], data.draw(st.binary(max_size=512)))


@pytest.mark.parametrize("name", sorted(BY_NAME))
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_mutated_valid_inputs(name: str, data: st.DataObject) -> None:
    target = BY_NAME[name]
    _check(target, data.draw(mutated(target.seeds)))


@pytest.mark.parametrize("name", ["match_event", "record", "tournament_action", "table_events"])
@settings(max_examples=EXAMPLES)
@given(data=st.data())
def test_hostile_json_values(name: str, data: st.DataObject) -> None:
    target = BY_NAME[name]
    _check(target, data.draw(hostile_json(target.seeds)))
