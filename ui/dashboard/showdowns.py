"""From the camera to the match log, without Qt: what the camera shows while a hand is played,
the recognized hand waiting for a person, the camera events held meanwhile, the showdowns already
logged, and a logged hand reopened to be corrected.

It sits beside :class:`~ui.dashboard.core.HandSession` (the hand being scored) and
:class:`~ui.dashboard.match_session.MatchSession` (the open match): camera readings come in
through :meth:`Showdowns.take_reading`, a person's decisions through :meth:`Showdowns.confirm`
and :meth:`Showdowns.reopen`, and views follow the signals. The main window is one such view; a
test drives it with no window at all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scoring.errors import ScoringError
from scoring.record import HandRecord, Seat, Win
from scoring.rulesets.registry import default_ruleset
from ui.dashboard.camera_reading import hidden_counts, live_seats, suggestions_from, tile_refs
from ui.dashboard.core import HandSession, part_size, tile_at
from ui.dashboard.i18n import tr
from ui.dashboard.match_session import MatchSession
from ui.dashboard.signals import Signal

# camera events logged as they happen (the rest of a hand is logged when a person confirms it)
LIVE_EVENTS = ("dice", "wall_broken", "indicator")
# camera events that wait while a recognized hand waits for a person: the next hand's dice
# belong to the next hand, and its win (or its drawn end) is scored after this one
HELD_EVENTS = (*LIVE_EVENTS, "win", "draw_game")


class Showdowns:
    """The camera's hands on their way into the match log (``match`` ``None``: no log open)."""

    def __init__(self, hand: HandSession, match: MatchSession | None = None) -> None:
        self.hand = hand
        self.match = match
        self.live: list[Seat] | None = None  # what the camera shows while no hand is finished
        self.live_waits: dict[int, list[tuple[int, int]]] = {}
        self.live_hidden: dict[int, int] = {}
        self.last_reading: Any = None  # the camera's latest vision.pipeline.FrameResult
        self.save_examples: Path | None = None  # where confirmed showdowns become examples
        self.logged_seq: int | None = None  # the log event of a reopened hand being corrected
        self.held: list[tuple[Any, Any]] = []  # (reading, event) waiting for a confirmation
        self._result: Any = None  # the camera reading the hand being scored came from
        self._read_as: HandRecord | None = None  # that hand as the camera read it
        # (winner, seat state key) of the camera's showdown being scored, or ("draw", every
        # seat's state key) of its drawn hand, and of those confirmed: the same showdown seen
        # again is not a new hand
        self._pending: tuple[Any, Any] | None = None
        self._confirmed: set[tuple[Any, Any]] = set()
        #: a status line for the referee and how long to show it (ms)
        self.message: Signal[[str, int]] = Signal()
        #: the camera's hand is loaded to be scored: its win, and how the record was read
        self.recognized: Signal[[Win | None, list[str]]] = Signal()
        #: what the camera shows in play changed (seen while no hand is being scored)
        self.live_changed: Signal[[]] = Signal()
        # a hand confirmed or cleared: what the camera saw meanwhile goes on
        hand.changed.connect(self._hand_changed)

    # ------------------------------------------------------------ the camera

    def take_reading(self, result: Any, waits: dict[int, list[tuple[int, int]]]) -> None:
        """A camera reading: live seats while a hand is played; a recognized win becomes the
        hand to score; events that belong after the hand waiting for a person wait too."""
        self.live = live_seats(result)
        self.last_reading = result
        self.live_waits = waits
        self.live_hidden = hidden_counts(result)
        # what one picture shows belongs together: dice still lying at a showdown are that
        # hand's; only later pictures wait for the recognized hand
        hold = bool(self.held) or self.awaiting_confirmation()
        for event in result.events:
            if hold and event.type in HELD_EVENTS:
                self.held.append((result, event))
            else:
                self._camera_event(result, event)
        if self.hand.record is None:
            self.live_changed.emit()

    def awaiting_confirmation(self) -> bool:
        """A hand the camera recognized waits for a person to confirm or correct it."""
        return self.hand.record is not None and self.hand.source == "camera"

    def _camera_event(self, result: Any, event: Any) -> None:
        if event.type in LIVE_EVENTS:
            self._log_live_event(event)
        if event.type == "dice" and self.match is not None:
            a, b = event.data["dice"][:2]
            self.match.add_roll(int(a), int(b))
        elif event.type in ("win", "draw_game"):
            winner = event.data["seats"][0] if event.type == "win" else None
            if winner is not None:
                state = result.hands[winner]  # the stable state the win was seen in
                key = None if state is None else (winner, state.key)
            else:  # a drawn hand: the table as it lay when the wall ran out
                key = ("draw", tuple(None if state is None else state.key
                                     for state in result.hands))
            if key is not None and key in self._confirmed:
                # a showdown already logged, seen again (a looping video, a camera glitch)
                self.message.emit(tr("showdown_seen_again"), 8000)
            elif self.hand.record is None or (self.hand.source == "sample"
                                              and not self.hand.corrections):
                self._take_recognized(result, winner)
                self._pending = key
            else:
                self.message.emit(tr("recognized_pending"), 10000)

    def _hand_changed(self) -> None:
        if self.hand.record is None and self.held:
            self._release_held()

    def _release_held(self) -> None:
        """Camera events that waited for the last hand's confirmation, in the order seen (up
        to the next recognized hand, which waits in turn)."""
        held, self.held = self.held, []
        for n, (result, event) in enumerate(held):
            if self.awaiting_confirmation() and result is not self._result:
                self.held = held[n:]
                return
            self._camera_event(result, event)

    def _log_live_event(self, event: Any) -> None:
        """A camera event of :data:`LIVE_EVENTS` goes into the match log in the engine's own
        form (who: camera); one the match refuses is shown, and the hand goes on without it."""
        if self.match is None or self.match.match_id is None:
            return
        try:
            self.match.log_event(event.to_json(), who="camera")
        except ValueError as exc:  # the match's refusals and the store's errors alike
            self.message.emit(f"{tr('not_logged')}: {exc}", 10000)

    def _take_recognized(self, result: Any, winner: int | None) -> None:
        """The camera's hand (a win by ``winner``, or drawn) loaded to be scored."""
        from vision.reading import build_record

        match = self.match.match if self.match is not None else None
        try:
            record, notes = build_record(result.table,
                                         ruleset=match.ruleset if match else default_ruleset(),
                                         dealer=match.dealer if match else 0, winner=winner,
                                         dice=result.hand_dice,
                                         options=match.options if match else None)
            self.hand.load(record, source="camera", suggestions=suggestions_from(result))
        except (ValueError, ScoringError) as exc:
            self.message.emit(f"{tr('not_usable')}: {exc}", 10000)
            return
        self._result = result
        self._read_as = read = self.hand.record  # as the camera read it
        self.logged_seq = None
        self.recognized.emit(read.wins[0] if read is not None and read.wins else None,
                             list(notes))

    # ------------------------------------------------------------ a person's decisions

    def confirm(self, operator: str) -> bool:
        """Commit the scored hand to the match log, with every correction as the reason (a
        reopened hand is amended: the original stays in the log). False: nothing was logged,
        and :attr:`message` says why."""
        record, settlement = self.hand.record, self.hand.settlement
        if record is None or settlement is None:
            return False
        if self.match is None or self.match.match_id is None:
            self.message.emit(tr("no_match_open"), 8000)
            return False
        why = "; ".join(f"seat {c.seat} {c.what} ({c.who}: {c.why})"
                        for c in self.hand.corrections) or "confirmed"
        try:
            self.match.record_hand(record.to_json(), operator, why, self.logged_seq)
        except ValueError as exc:
            self.message.emit(str(exc), 10000)
            return False
        self.logged_seq = None
        if self.hand.source == "camera":
            if self._pending is not None:
                self._confirmed.add(self._pending)
            if self.save_examples is not None and self._result is not None:
                self._save_example(self._result, record, operator)
        self._pending = None
        self.hand.clear()
        return True

    def reopen(self, row: int) -> bool:
        """Load logged hand ``row`` to correct it (an amendment on confirm); False: no such
        hand."""
        match = self.match.match if self.match is not None else None
        if match is None or not 0 <= row < len(match.hands):
            return False
        hand = match.hands[row]
        self.hand.load(hand.record, source=f"{tr('log')} #{hand.number}")
        self.logged_seq = hand.seq
        return True

    def _save_example(self, result: Any, record: HandRecord, operator: str) -> None:
        """The confirmed showdown as a labeled example (``--save-examples``): the frame, the
        corrected tiles where a person confirmed them, the camera's reading elsewhere."""
        from vision.examples import example_manifest, save_example

        assert self.save_examples is not None
        confirmed = {}
        seen = self._read_as
        for row, ref in tile_refs(result).items():
            # a part that gained or lost tiles has moved its places: those boxes stay unchecked
            if seen is None or part_size(seen, ref) != part_size(record, ref):
                continue
            tile = tile_at(record, ref)
            if tile is not None:
                confirmed[row] = tile
        image = result.frame.image
        manifest = example_manifest(result.detections, record.to_json(),
                                    (image.shape[1], image.shape[0]), confirmed,
                                    session=operator)
        try:
            path = save_example(self.save_examples, image, manifest)
        except (OSError, ValueError) as exc:
            self.message.emit(f"{tr('example_not_saved')}: {exc}", 10000)
            return
        self.message.emit(tr("example_saved").format(path.stem), 6000)

