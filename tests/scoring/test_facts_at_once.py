"""Facts worked out at once when a win is scored (``HandFacts.of``, ``WinFacts.of``,
``WinValue.of``) agree with the same facts worked out one by one, on every worked case."""

from __future__ import annotations

import contextlib
import dataclasses
import json
from pathlib import Path

from scoring.errors import ScoringError
from scoring.record import HandRecord, load_record
from scoring.rulesets.shandong import RULESET as SHANDONG
from scoring.rulesets.shandong.evaluator import WinValue, evaluate
from scoring.rulesets.shandong.facts import WinFacts
from scoring.rulesets.shanghai.hand import HandFacts

CASES = Path(__file__).resolve().parent.parent / "cases"


def _records(ruleset: str) -> list[HandRecord]:
    out: list[HandRecord] = []
    for path in sorted((CASES / ruleset).glob("*.json")):
        if not path.name.endswith(".expect.json"):
            with contextlib.suppress(ScoringError):  # (a refused record has no facts)
                out.append(load_record(json.loads(path.read_text(encoding="utf-8"))))
    return out


def test_shanghai_hand_facts() -> None:
    names = ("by_flowers", "tiles", "suits", "has_honors", "all_honors", "readings",
             "has_shape")
    checked = 0
    for record in _records("shanghai"):
        for win in record.wins:
            eager = HandFacts.of(record, win)
            lazy = HandFacts(eager.seat, eager.concealed, eager.melds, eager.flowers, win,
                             eager.context)
            assert all(name in vars(eager) for name in names)
            assert [getattr(eager, n) for n in names] == [getattr(lazy, n) for n in names]
            checked += 1
    assert checked > 20


def test_shandong_win_facts_and_value() -> None:
    checked = 0
    for record in _records("shandong"):
        if not record.wins:
            continue
        opts = SHANDONG.opts(record)
        try:
            SHANDONG.validate(record)
            value = evaluate(record, record.wins[0], opts)
        except ScoringError:
            continue
        direct = WinValue(value.seat, value.reading, value.melds, value.fans, value.hua,
                          value.base, value.multipliers)
        names = ("fan", "hua_total", "multiplier", "share")
        assert all(name in vars(value) for name in names)
        assert [getattr(value, n) for n in names] == [getattr(direct, n) for n in names]
        win = record.wins[0]
        facts = WinFacts.of(record, win, value.reading)
        plain = WinFacts(facts.win, facts.is_dealer, facts.concealed, facts.melds,
                         facts.reading, facts.others_kong)
        assert (facts.tiles, facts.suits) == (plain.tiles, plain.suits)
        assert {"tiles", "suits"} <= vars(facts).keys()
        checked += 1
    assert checked > 20


def _holds_its_fields(obj: object) -> bool:
    """Filled through its ``__dict__``: its fields first, in order, then any facts."""
    names = [f.name for f in dataclasses.fields(obj)]  # type: ignore[arg-type]
    return list(vars(obj))[:len(names)] == names and type(obj)(
        *[getattr(obj, n) for n in names]) == obj


def test_objects_filled_without_init_hold_their_fields() -> None:
    from scoring.rulesets.liaoyang import RULESET as LIAOYANG
    from scoring.rulesets.liaoyang.evaluator import evaluate_winner
    from scoring.rulesets.liaoyang.settle import pay
    from scoring.rulesets.liaoyang.wild import hun_of, jiqiang_of

    checked = 0
    for record in _records("liaoyang"):
        if not record.wins or record.context.indicator is None:
            continue
        w, ind = record.wins[0], record.context.indicator
        opts = LIAOYANG.opts(record)
        hand = LIAOYANG._winner_hand(record, w, hun_of(ind), jiqiang_of(ind))
        losers = LIAOYANG._losers(record, w, jiqiang_of(ind))
        try:
            ev = evaluate_winner(hand, opts)
        except ScoringError:
            continue
        payments, _ = pay(ev.total, [(lo.seat, 1) for lo in losers], 0, opts)
        assert all(map(_holds_its_fields, [hand, ev, *losers, *payments]))
        checked += 1
    for record in _records("shanghai"):
        assert all(_holds_its_fields(HandFacts.of(record, w)) for w in record.wins)
    for record in _records("shandong"):
        for w in record.wins:
            try:
                value = evaluate(record, w, SHANDONG.opts(record))
            except ScoringError:
                continue
            assert _holds_its_fields(value)
            assert _holds_its_fields(WinFacts.of(record, w, value.reading))
    assert checked > 20
