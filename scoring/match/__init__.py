"""The match engine and referee log: follow a game hand by hand, never lose it.

A match is an append-only log of events in SQLite; everything shown (totals, dealer, counters,
levels, hand records) is recomputed from the log, so it cannot drift. This package imports
``scoring``, the standard library and ``platformdirs`` only (no Qt): the dashboard and the
``mjtable match`` command use the same API.

Typical use::

    from scoring.match import MatchStore, events as ev

    store = MatchStore.open()                      # or MatchStore.open(path)
    mid = store.new_match("shandong", {}, ["甲", "乙", "丙", "丁"], first_dealer=0)
    store.add_hand(mid, record_json, who="referee")   # a finished hand typed in
    store.append_event(mid, ev.DiceRolled(seat=0, dice=(3, 4)))  # or follow it live
    match = store.load(mid)
    match.totals, match.dealer, match.counters, match.levels
    for h in match.hands: h.record, h.settlement
    store.amend(mid, seq=5, event=corrected, who="referee", why="misread 5p as 3p")
    store.amend_many(mid, [(5, hand3), (6, hand4)], who="referee", why="hand 3 had another winner")
    store.export_json(mid), store.export_csv(mid)
    unsubscribe = store.subscribe(lambda match_id, row: ...)   # store.poll() on a timer

API:

- :class:`MatchStore` — ``open(path=None, create=True, durable=True, readonly=False)``,
  ``new_match``, ``list_matches``, ``load`` (a :class:`Match`), ``events`` (raw log),
  ``append_event``, ``add_hand``, ``amend``, ``amend_many`` (corrections that only replay
  together), ``replay`` (from scratch, no cache), ``sign`` (a referee's keyed sign-off of a
  hand), ``verify`` (the hash chain and the sign-offs), ``export_json``, ``export_csv``,
  ``subscribe``, ``poll``.
- :class:`Match` — ``totals``, ``hands`` (:class:`HandResult`: ``record``, ``settlement``),
  ``dealer``, ``counters``, ``levels`` (Shandong), ``hand`` (the hand in play, a
  :class:`HandState`), ``status``, ``amendments``, ``signoffs``, ``problem``, ``chain_break``
  (where the log was changed outside mjtable, :mod:`scoring.match.chain`).
- :mod:`scoring.match.events` — the event types and :func:`event_from_json`.
- :class:`HandState` / :class:`MatchState` — the pure state machines behind it:
  ``apply(event)`` returns the next state or raises :class:`EventRefused` with the reason.
- Errors: :class:`EventRefused`, :class:`BadEvent`, :class:`StoreError`, :class:`UnknownMatch`
  (all ``ValueError``).

The format of events and the database is described in ``docs/match-log.md``.
"""

from scoring.match.errors import BadEvent, EventRefused, MatchError, StoreError, UnknownMatch
from scoring.match.events import EVENT_TYPES, Event, event_from_json
from scoring.match.hand import HandState
from scoring.match.state import HandResult, LoggedEvent, MatchState, replay
from scoring.match.store import Match, MatchStore, MatchSummary, default_path

__all__ = [
    "EVENT_TYPES", "BadEvent", "Event", "EventRefused", "HandResult", "HandState",
    "LoggedEvent", "Match", "MatchError", "MatchState", "MatchStore", "MatchSummary",
    "StoreError", "UnknownMatch", "default_path", "event_from_json", "replay",
]
