"""A match as a fold over its event log: totals, dealer, counters and hands are never stored.

:func:`replay` resolves amendments (the latest correction of each event wins, struck events drop
out), then applies the events in order. :meth:`MatchState.apply` returns a new state or raises
:class:`EventRefused`. Because every number shown is recomputed from the log, totals cannot drift
from the hands they come from.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.errors import ScoringError
from scoring.match.errors import BadEvent, EventRefused
from scoring.match.events import (
    Adjusted,
    Amendment,
    Event,
    HandRecorded,
    MatchCreated,
    PlayerLeft,
    SignOff,
    event_from_json,
)
from scoring.match.hand import HandState, flower_points, score_record
from scoring.record import HandRecord
from scoring.rulesets.base import Ruleset
from scoring.rulesets.registry import check_options, get_ruleset, known_rulesets
from scoring.settlement import Number, Settlement, Transfer


@dataclass(frozen=True)
class LoggedEvent:
    """One row of the log: its position, when and by whom it was written, and the event."""

    seq: int
    event: Event
    at: str = ""
    who: str = ""
    note: str = ""  # why it was written (a confirmed hand's corrections, an amendment's reason)


@dataclass(frozen=True)
class HandResult:
    """A finished hand: its record, its settlement, and where it sits in the log."""

    number: int  # 1-based within the match
    record: HandRecord
    settlement: Settlement
    source: str  # "live" (followed event by event) or "entered" (a record typed in)
    seq: int  # the log event that finished it
    totals_after: tuple[Number, ...]


@dataclass(frozen=True)
class Departure:
    seat: int
    player: str
    replacement: str | None
    transfers: tuple[Transfer, ...]
    payments: tuple[Number, ...]  # each seat's change, the room's fee included for the leaver
    room_fee: Number
    seq: int


@dataclass(frozen=True)
class Adjustment:
    """A referee's penalty or bonus as the log applied it (:class:`Adjusted`)."""

    seat: int
    player: str
    points: Number
    who: str
    why: str
    seq: int


@dataclass
class MatchState:
    ruleset: str
    options: dict[str, Any]
    players: list[str]
    first_dealer: int
    title: str | None = None
    dealer: int = 0
    counters: dict[str, int] = field(default_factory=dict)
    totals: list[Number] = field(default_factory=lambda: [0, 0, 0, 0])
    room: Number = 0  # paid out of the table (Shanghai escape: the room's 25%)
    hands: list[HandResult] = field(default_factory=list)
    departures: list[Departure] = field(default_factory=list)
    #: the referee's penalties and bonuses; ``totals`` include them, ``adjusted`` sums them
    adjustments: list[Adjustment] = field(default_factory=list)
    adjusted: list[Number] = field(default_factory=lambda: [0, 0, 0, 0])
    hand: HandState | None = None  # the hand in progress
    hand_events: int = 0  # events of the hand in progress
    seq: int = 0

    @classmethod
    def create(cls, ev: MatchCreated) -> MatchState:
        if ev.ruleset not in known_rulesets():
            raise EventRefused(f"unknown ruleset {ev.ruleset!r}; known: "
                               f"{', '.join(known_rulesets())}", ev)
        try:
            check_options(ev.ruleset, ev.options)
        except ScoringError as exc:
            raise EventRefused(str(exc), ev) from None
        return cls(ruleset=ev.ruleset, options=dict(ev.options), players=list(ev.players),
                   first_dealer=ev.first_dealer, title=ev.title, dealer=ev.first_dealer,
                   counters={k: 0 for k in get_ruleset(ev.ruleset).counters})

    # ------------------------------------------------------------ derived views

    @property
    def rules(self) -> Ruleset:
        """The match's ruleset: everything ruleset-specific is asked of it."""
        return get_ruleset(self.ruleset)

    @property
    def levels(self) -> list[str] | None:
        """Each player's level from its total (Shandong 等级); ``None`` where the ruleset has
        no levels."""
        return self.rules.levels(self.totals)

    @property
    def status(self) -> str:
        if self.hand is not None:
            return f"hand {len(self.hands) + 1} in play: {self.hand.status()}"
        return f"between hands; seat {self.dealer} ({self.players[self.dealer]}) deals next"

    def clone(self) -> MatchState:
        new = copy.copy(self)
        new.options = dict(self.options)
        new.players = list(self.players)
        new.counters = dict(self.counters)
        new.totals = list(self.totals)
        new.hands = list(self.hands)
        new.departures = list(self.departures)
        new.adjustments = list(self.adjustments)
        new.adjusted = list(self.adjusted)
        return new

    # ------------------------------------------------------------ apply

    def apply(self, event: Event, seq: int = 0) -> MatchState:
        """The match after ``event`` (log position ``seq``), or :class:`EventRefused`."""
        try:
            new = self._apply(event, seq)
        except EventRefused as exc:
            raise EventRefused(exc.reason, event, seq or None) from None
        new.seq = seq
        return new

    def _apply(self, event: Event, seq: int) -> MatchState:
        if isinstance(event, MatchCreated):
            raise EventRefused("the match already exists")
        if isinstance(event, Amendment):
            raise EventRefused("amendments are resolved by replay, not applied")
        if isinstance(event, SignOff):
            if event.target not in {h.seq for h in self.hands}:
                raise EventRefused(f"event #{event.target} did not finish a hand: only a "
                                   "finished hand is signed")
            return self.clone()
        new = self.clone()
        if isinstance(event, Adjusted):  # from outside the table; a hand in play goes on
            new.totals[event.seat] += event.points
            new.adjusted[event.seat] += event.points
            new.adjustments.append(Adjustment(event.seat, self.players[event.seat],
                                              event.points, event.who, event.why, seq))
            return new
        if isinstance(event, HandRecorded):
            data = self._fill_record(event.record)
            if self.hand is not None:  # followed live so far, typed in from here
                data = self._with_live_context(data, self.hand)
            record, settlement = score_record(data)
            new._finish_hand(record, settlement, "entered", seq)
            return new
        if isinstance(event, PlayerLeft):
            new._player_left(event, seq)
            return new
        hand = self.hand or HandState.start(self.ruleset, self.options, self.dealer,
                                            self.counters)
        hand = hand.apply(event)
        new.hand = hand
        new.hand_events = self.hand_events + 1
        if hand.over:
            assert hand.record is not None and hand.settlement is not None
            new._finish_hand(hand.record, hand.settlement, "live", seq)
        return new

    def _fill_record(self, data: dict[str, Any]) -> dict[str, Any]:
        """A record typed in for this match: fill what the match knows, refuse contradictions."""
        data = dict(data)
        if data.get("ruleset", self.ruleset) != self.ruleset:
            raise EventRefused(f"this is a {self.ruleset} match, the record says "
                               f"{data.get('ruleset')!r}")
        data["ruleset"] = self.ruleset
        options = data.get("options") or {}
        if not isinstance(options, Mapping):
            raise EventRefused(f"options: must be an object, got {type(options).__name__}")
        if options:
            try:
                mine = check_options(self.ruleset, self.options)
                theirs = check_options(self.ruleset, options)
            except ScoringError as exc:
                raise EventRefused(str(exc)) from None
            if mine != theirs:
                diff = sorted(k for k in mine if mine[k] != theirs.get(k))
                raise EventRefused(f"the record's options differ from the match's: "
                                   f"{', '.join(diff)}")
        data["options"] = dict(self.options)
        if "dealer" not in data:
            data["dealer"] = self.dealer
        elif data["dealer"] != self.dealer:
            raise EventRefused(f"seat {self.dealer} deals this hand, the record says "
                               f"{data['dealer']!r}")
        context = data.get("context") or {}
        if not isinstance(context, Mapping):
            raise EventRefused(f"context: must be an object, got {type(context).__name__}")
        context = dict(context)
        for key, value in self.counters.items():
            if key in context and context[key] != value:
                raise EventRefused(f"context.{key} is {value} at this point of the match, "
                                   f"the record says {context[key]!r}")
            context[key] = value
        data["context"] = context
        return data

    def _with_live_context(self, data: dict[str, Any], hand: HandState) -> dict[str, Any]:
        """A record typed in for a hand whose start was logged live (the dice, the indicator):
        it takes what the log saw, and must not contradict it."""
        context = dict(data.get("context") or {})
        seen = hand.record_json("draw", [])["context"]
        for key in ("dice", "indicator"):
            if key not in seen:
                continue
            if key in context and context[key] != seen[key]:
                raise EventRefused(f"hand {len(self.hands) + 1} was logged with {key} "
                                   f"{seen[key]}, the record says {context[key]!r}")
            context[key] = seen[key]
        return {**data, "context": context}

    def _finish_hand(self, record: HandRecord, settlement: Settlement, source: str,
                     seq: int) -> None:
        for k in range(4):
            self.totals[k] += settlement.payments[k]
        self.dealer = settlement.next_dealer
        for key in self.rules.counters:
            if key in settlement.context:
                self.counters[key] = int(settlement.context[key])
        self.hands.append(HandResult(len(self.hands) + 1, record, settlement, source, seq,
                                     tuple(self.totals)))
        self.hand = None
        self.hand_events = 0

    def _player_left(self, ev: PlayerLeft, seq: int) -> None:
        points = ev.flower_points
        if points is None:
            points = flower_points(self.hand, ev.seat)
        try:
            transfers = self.rules.escape_penalty(ev.seat, points, self.options)
        except NotImplementedError as exc:
            raise EventRefused(f"cannot settle the escape: {exc}") from None
        pay: list[Number] = [0, 0, 0, 0]
        for t in transfers:
            if t.payer not in range(4) or t.payee not in range(4):
                raise EventRefused(f"the escape penalty names a seat outside 0..3: {t}")
            pay[t.payer] -= t.amount
            pay[t.payee] += t.amount
        # what leaves the table (Shanghai: the room's 25%) is the ruleset's to say
        fee: Number = self.rules.escape_room_fee(self.options)
        pay[ev.seat] -= fee
        self.room += fee
        for k in range(4):
            self.totals[k] += pay[k]
        self.departures.append(Departure(ev.seat, self.players[ev.seat], ev.replacement,
                                         tuple(transfers), tuple(pay), fee, seq))
        if ev.replacement:
            self.players[ev.seat] = ev.replacement
        self.counters = {k: 0 for k in self.counters}  # a new game starts
        self.hand = None
        self.hand_events = 0


# ---------------------------------------------------------------- replay


def effective_events(log: Iterable[LoggedEvent]) -> list[LoggedEvent]:
    """The log with amendments applied: each corrected event replaced, struck ones dropped."""
    rows = list(log)
    latest: dict[int, Amendment] = {}
    for row in rows:
        if isinstance(row.event, Amendment):
            latest[row.event.target] = row.event
    out = []
    for row in rows:
        if isinstance(row.event, Amendment):
            continue
        amend = latest.get(row.seq)
        if amend is None:
            out.append(row)
        elif amend.event is not None:
            out.append(LoggedEvent(row.seq, event_from_json(amend.event), row.at, row.who))
    return out


def replay(log: Sequence[LoggedEvent]) -> MatchState:
    """Fold the (amended) log into a match; the first event must be ``match_created``."""
    rows = effective_events(log)
    if not rows or not isinstance(rows[0].event, MatchCreated):
        raise EventRefused("a match log starts with match_created")
    state = MatchState.create(rows[0].event)  # type: ignore[arg-type]
    state.seq = rows[0].seq
    for row in rows[1:]:
        state = state.apply(row.event, row.seq)
    return state


def check_amendment(log: Sequence[LoggedEvent], amend: Amendment) -> None:
    """Refuse a correction after which the log no longer replays."""
    check_amendments(log, [amend])


def check_amendments(log: Sequence[LoggedEvent], amends: Sequence[Amendment]) -> None:
    """Refuse corrections made together after which the log no longer replays.

    Several at once are for a correction that changes what follows it: a new winner of an early
    hand moves the dealer of every later hand typed in with its ``dealer``, and each of those
    corrections alone would leave the log unreplayable.
    """
    targets = {row.seq: row for row in log}
    seen: set[int] = set()
    for amend in amends:
        _check_target(targets, amend)
        if amend.target in seen:
            raise EventRefused(f"event #{amend.target} is corrected twice in one go")
        seen.add(amend.target)
    head = max(targets)
    rows = [LoggedEvent(head + 1 + i, amend) for i, amend in enumerate(amends)]
    what = "this correction" if len(amends) == 1 else "these corrections"
    try:
        replay([*log, *rows])
    except EventRefused as exc:
        raise EventRefused(f"after {what} the log no longer replays: {exc}") from None


def _check_target(targets: dict[int, LoggedEvent], amend: Amendment) -> None:
    target = targets.get(amend.target)
    if target is None:
        raise EventRefused(f"there is no event #{amend.target} to amend")
    if isinstance(target.event, Amendment):
        raise EventRefused("amend the original event, not an amendment")
    if isinstance(target.event, SignOff):
        raise EventRefused("a sign-off is not amended: the referee signs the corrected hand "
                           "again")
    if amend.event is not None:
        try:
            new = event_from_json(amend.event)
        except BadEvent as exc:
            raise EventRefused(str(exc)) from None
        if isinstance(new, Amendment):
            raise EventRefused("an amendment cannot replace an event by an amendment")
        if isinstance(target.event, MatchCreated) != isinstance(new, MatchCreated):
            raise EventRefused("match_created is replaced only by match_created")
        if isinstance(target.event, Adjusted) != isinstance(new, Adjusted):
            raise EventRefused("a penalty or bonus is replaced only by a penalty or bonus")
    elif isinstance(target.event, MatchCreated):
        raise EventRefused("match_created cannot be struck")
