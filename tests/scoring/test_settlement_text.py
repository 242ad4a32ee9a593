"""Items and transfers whose text is written when first read equal those built with it."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from scoring.settlement import Item, Transfer, explained_item, explained_transfer

CALLS: list[tuple[int, str]] = []


def _note(n: int, word: str) -> tuple[str, str]:
    CALLS.append((n, word))
    return f"{n} × {word}", f"{n} 个{word}"


def test_an_explained_item_is_the_item_with_its_notes() -> None:
    written = Item("花", 3, "hua", "3 × kong", "3 个kong", (Item("底", 1, "point"),))
    CALLS.clear()
    lazy = explained_item("花", 3, "hua", _note, (3, "kong"), (Item("底", 1, "point"),))
    assert CALLS == []  # nothing written yet
    assert lazy == written and hash(lazy) == hash(written) and repr(lazy) == repr(written)
    assert (lazy.note, lazy.note_zh) == ("3 × kong", "3 个kong")
    assert CALLS == [(3, "kong")]  # written once, both languages together
    assert lazy.to_json() == written.to_json()
    assert "_write" not in vars(lazy)
    with pytest.raises(dataclasses.FrozenInstanceError):
        lazy.note = "other"  # type: ignore[misc]


def test_read_in_any_order_copied_or_pickled_first() -> None:
    zh_first = explained_item("x", 2, "fan", _note, (2, "pung"))
    assert zh_first.note_zh == "2 个pung" and zh_first.note == "2 × pung"
    pickled = pickle.loads(pickle.dumps(explained_item("x", 2, "fan", _note, (2, "pung"))))
    assert pickled == Item("x", 2, "fan", "2 × pung", "2 个pung")
    replaced = dataclasses.replace(explained_item("x", 2, "fan", _note, (2, "pung")), value=4)
    assert replaced == Item("x", 4, "fan", "2 × pung", "2 个pung")
    assert Item.note == "" and Item("x", 1, "fan").note == ""  # the defaults are unchanged


def test_an_explained_transfer_is_the_transfer_with_its_reasons() -> None:
    lazy = explained_transfer(1, 2, 30, _note, (5, "U"))
    written = Transfer(1, 2, 30, "5 × U", "5 个U")
    assert lazy.to_json() == written.to_json() == {
        "payer": 1, "payee": 2, "amount": 30, "reason": "5 × U", "reason_zh": "5 个U"}
    assert lazy == written and hash(lazy) == hash(written)
    assert explained_transfer(1, 2, 30, _note, (5, "U")) != Transfer(1, 2, 30, "5 × U", "")

