"""The live pipeline: frames in, per-frame results and stable events out (no Qt).

``Pipeline(source).frames()`` reads a capture, detects tiles and dice, places them on the table,
repairs impossible readings, and reports seat states and dice only once they are stable
(:mod:`vision.stability`: two agreeing readings and 0.2 s of camera time by default). A frame that
barely differs from the last one analysed (a still table) reuses its detections instead of
running the models again, and while the picture is still moving (a hand over the table) the
models wait for it to settle: that is what keeps a 2-core laptop at video rate. A reading that
still waits for its confirming reading has the changed part of the next frame analysed again,
so an event comes one frame after its change, not after a fixed count of frames.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scoring.rulesets.registry import default_ruleset, rules_for
from scoring.tiles import TILE_NAMES
from vision.capture import (
    Capture,
    CapturedFrame,
    CaptureStatus,
    CorruptImage,
    FrameSource,
    check_image,
    open_capture,
)
from vision.change import LOCAL_CHANGE, local_change
from vision.changes import Change, ChangeTracker, windowed
from vision.dealer import dealer_after, dealer_after_draw
from vision.detections import TileDetections
from vision.dice import DiceReading, read_dice, wall_break
from vision.geometry import TableCalibration, TableLayout, TableReading
from vision.reading import (
    SeatState,
    build_record,
    calibrate,
    legal_reading,
    name_at_of,
    read_once,
    recovered_winner,
    seat_states,
    showing_fourteen,
    squared_corners,
    table_waits,
)
from vision.region import Region, inside, table_region
from vision.repair import MAX_TRIES, Repair, winning_test
from vision.squaring import Squaring
from vision.stability import (
    STABLE_READINGS,
    STABLE_S,
    Stabilizer,
    VisionEvent,
    events_between,
    state_is_plausible,
)

THUMB = (96, 54)
CAMERA_MOVED = 25.0  # mean grey-level change of a settled picture that means a new view
SETTLE_WAIT = 1.0  # seconds of continuous motion after which the models run anyway
CONFIRM_WAIT = 1.0  # seconds after a change during which a still picture is read again to
#                     confirm a reading (a reading that flickers in a still picture gives up)
# readings a live frame may try looking for a legal one: the repairs found on 60 held-back
# tables took at most 100 tries, and 1,000 cost 30-60 ms here (2 cores). Counted, not timed,
# so a reading does not depend on the machine's load.
REPAIR_TRIES = 1000
FRESH_WALL = 60  # wall stacks in view that mean a new wall was built (a full one has 72)


def laid_down(table: TableReading) -> bool:
    """Whether a seat shows its hand laid down face up: 13 tiles or more face up (a hand of
    14 with one tile the stream missed, or a hand shown at a drawn game's end)."""
    return any(s.hand and s.face_up_count >= 13 for s in table.seats)


@dataclass
class FrameResult:
    """What one frame gave. ``hands`` are the stable seat states so far (``None``: not yet)."""

    frame: CapturedFrame
    detections: TileDetections  # with seat, role, group and sideways
    table: TableReading
    repair: Repair
    hands: list[SeatState | None]
    dice: DiceReading | None  # the stable dice reading, once there is one
    hand_dice: DiceReading | None = None  # the hand's first roll: a hand record's dice
    events: list[VisionEvent] = field(default_factory=list)
    statuses: list[CaptureStatus] = field(default_factory=list)
    reused: bool = False  # the detector was skipped: the picture had not changed
    timings: dict[str, float] = field(default_factory=dict)  # seconds per stage


class Pipeline:
    """Camera frames to stable hand states, dice and events.

    Args:
        source: what :func:`vision.capture.open_capture` accepts, or an open :class:`Capture`.
        detector: a :class:`vision.detector.Detector`; default: the models in ``models``
            (a folder; default: the shipped ``models/``).
        ruleset: used for winning shapes (repair, waits) and where the wall breaks.
        options: the ruleset's house-rule options (as in a hand record), used the same way.
        dealer: the dealer's seat (who rolls the dice).
        corners: the table's corners in pixels; default: found in the first frame (or
            estimated from its tiles).
        bottom_seat: the seat at the bottom edge of the picture.
        stable_s: the camera time in seconds a state must hold before it is reported...
        stable_readings: ...over at least this many analysed frames that read it alike
            (:class:`vision.stability.Stabilizer`).
        motion: mean grey-level change (0..255) below which a frame counts as unchanged.
        settle: while the picture keeps changing from frame to frame (hands over the table),
            wait for it to settle before running the models again (at most SETTLE_WAIT s).
        changes: analyse only where the picture changed (:mod:`vision.changes`: a change
            mask decides whether and where the models run, the other boxes are kept), not
            the whole frame whenever a block's mean changed; once the table is calibrated a
            full pass reads only the table's region (:mod:`vision.region`), until the camera
            moves; a negative ``motion`` analyses every frame whole either way (and keeps
            the boxes in the table's region, so both ways read the same part of the picture).
        showdown_stills: a frame whose reading shows a seat's hand laid down face up (13
            tiles or more: :func:`laid_down`) is read again as ``mjtable read`` reads a photo
            (:meth:`Detector.as_still`: every quarter turn of a crop, an unsure tile turned,
            the whole repair), and so is each frame analysed while a hand lies down, so a
            win and its record are a still's reading. A stream alone reads tables worse
            (``mjtable eval --tables DIR --live``).
    """

    def __init__(self, source: int | str | Path | FrameSource | Capture | None = None,
                 detector: Any = None, *, models: str | Path | None = None,
                 ruleset: str | None = None, options: Mapping[str, Any] | None = None,
                 dealer: int = 0,
                 corners: Sequence[Sequence[float]] | None = None, bottom_seat: int = 0,
                 stable_s: float = STABLE_S, stable_readings: int = STABLE_READINGS,
                 motion: float = 1.5, settle: bool = True, layout: TableLayout | None = None,
                 capture_options: dict[str, Any] | None = None, changes: bool = True,
                 showdown_stills: bool = True) -> None:
        if detector is None:
            from vision.detector import load_detector

            detector = load_detector(models)
        self.detector = detector
        self.ruleset = ruleset
        self.options: dict[str, Any] = dict(options or {})
        self.dealer = dealer
        self.corners = corners
        self.bottom_seat = bottom_seat
        self.layout = layout
        self.motion = motion
        self.changes = ChangeTracker() if changes and motion >= 0 else None
        as_still = getattr(detector, "as_still", None)
        self.still = as_still() if showdown_stills and as_still is not None else None
        self._laid_down = False  # the last reading showed a hand laid down: read stills
        self.stability = Stabilizer(stable_s, stable_readings)
        self._turns_indicator = rules_for(ruleset).turns_indicator
        self.calibration: TableCalibration | None = None
        # a table turned under the camera: every frame is read turned square (found on the
        # first frame calibrated, and again when the camera moves), and its corners there
        self.squaring: Squaring | None = None
        self._squared_corners: list[list[float]] | None = None
        # frame px of the table once it is calibrated (vision/region.py): what is read; None:
        # the whole frame (not calibrated yet, or the detector cannot run on windows)
        self.region: Region | None = None
        self._source = source
        self._capture_options = capture_options or {}
        self._capture: Capture | None = source if isinstance(source, Capture) else None
        self._last_thumb: np.ndarray | None = None  # of the last frame analysed
        self._prev_thumb: np.ndarray | None = None  # of the previous frame
        self._moving_since: float | None = None
        self._calib_thumb: np.ndarray | None = None
        self.settle = settle
        self._last_dets: TileDetections | None = None
        self._last_reading: tuple[TableReading, Repair] | None = None
        self._last_change: Change | None = None  # where the last analysed frame changed
        self._changed_at: float | None = None  # camera time of the last change analysed
        self.hands: list[SeatState | None] = [None] * 4
        self.dice: DiceReading | None = None
        self.indicator: int | None = None
        self.won: set[int] = set()
        self.rolls: list[tuple[int, ...]] = []
        self._wall_cleared = True  # the wall was seen low or gone since the last fresh one
        self._wall_out = False  # this hand's wall was seen played out (what may be drawn)
        self._next_dealer: int | None = None  # after a hand's end: who deals at the new wall

    # -- the loop

    def frames(self) -> Iterator[FrameResult]:
        """Results of every frame until the source ends (a failing source raises its error)."""
        cap = self._open()
        try:
            for frame in cap:
                result = self._process_or_skip(cap, frame)
                if result is not None:
                    result.statuses = cap.statuses()
                    yield result
        finally:
            cap.close()

    def poll(self, timeout: float = 0.05) -> FrameResult | None:
        """The next frame's result, or ``None`` if no frame came within ``timeout`` (for a
        caller on a timer, e.g. a GUI); camera status changes wait in :meth:`statuses`.
        Raises :class:`vision.capture.CaptureEnded` at the end of a file."""
        cap = self._open()
        frame = cap.read(timeout=timeout)
        if frame is None:
            return None
        result = self._process_or_skip(cap, frame)
        if result is not None:
            result.statuses = cap.statuses()
        return result

    def _process_or_skip(self, cap: Capture, frame: CapturedFrame) -> FrameResult | None:
        """The frame's result, or ``None`` when it cannot be processed: then it is counted and
        reported as ``skipped`` (with the reason) and the stream goes on."""
        try:
            return self.process_frame(frame)
        except (CorruptImage, ValueError, cv2.error) as exc:
            what = frame.name or f"frame {frame.index}"
            reason = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
            cap.skip(f"{what}: cannot be processed ({reason})")
            return None

    def statuses(self) -> list[CaptureStatus]:
        """Camera status changes not yet attached to a result."""
        return self._open().statuses()

    def _open(self) -> Capture:
        if self._capture is None:
            if self._source is None:
                raise ValueError("this pipeline has no source; call process(image) instead")
            assert not isinstance(self._source, Capture)
            self._capture = open_capture(self._source, **self._capture_options)
        return self._capture

    def close(self) -> None:
        if self._capture is not None:
            self._capture.close()

    @property
    def frames_skipped(self) -> int:
        """Frames reported as ``skipped``: undecodable, unusable or failed to process."""
        return self._capture.frames_skipped if self._capture is not None else 0

    def process(self, image: np.ndarray, index: int = 0,
                timestamp: float | None = None) -> FrameResult:
        """One picture through the pipeline (for callers that have their own frames)."""
        return self.process_frame(CapturedFrame(image=image, index=index,
                                        timestamp=time.time() if timestamp is None
                                        else timestamp))

    def process_frame(self, frame: CapturedFrame) -> FrameResult:
        timings: dict[str, float] = {}
        t0 = time.perf_counter()
        image = check_image(frame.image, frame.name or f"frame {frame.index}")
        if self.squaring is not None:  # a table turned under the camera: read turned square
            image = self.squaring.image(image)
        thumb = cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), THUMB,
                           interpolation=cv2.INTER_AREA).astype(np.int16)
        prev, self._prev_thumb = self._prev_thumb, thumb
        moving = (self.settle and self.motion >= 0 and prev is not None
                  and float(np.abs(thumb - prev).mean()) >= self.motion)
        was_moving = self._moving_since is not None
        if not moving:
            self._moving_since = None
        elif not was_moving:
            self._moving_since = frame.time
        # a camera that moved (or a cut in a video) is read whole and calibrated again from
        # what it now shows, unless the user gave the corners; until then only the calibrated
        # table's region is read (the change mask runs the models on it alone)
        moved = (self.corners is None and self._calib_thumb is not None
                 and float(np.abs(thumb - self._calib_thumb).mean()) > CAMERA_MOVED)
        region = None if moved or self.calibration is None else self.region
        change = self.changes.compare(image).within(region) if self.changes is not None \
            else None
        # unchanged: nowhere in the picture did a tile's worth change (one discard is far
        # below the whole picture's mean change); with the change mask: no region changed
        # (it also sees a die put down, which a block's mean change misses)
        unchanged = (self._last_thumb is not None
                     and float(np.abs(thumb - self._last_thumb).mean()) < self.motion
                     and local_change(thumb, self._last_thumb) < LOCAL_CHANGE
                     if change is None else self._last_dets is not None and change.none)
        # while hands move over the table nothing can be read reliably: keep the last
        # detections until the picture settles (or has moved for SETTLE_WAIT seconds); the
        # first changed frame is read, as a change that is done at once (a tile put down
        # between two frames) is then not a frame late
        waiting = (moving and was_moving and self._moving_since is not None
                   and frame.time - self._moving_since < SETTLE_WAIT)
        reused = self._last_dets is not None and (unchanged or waiting)
        if reused and unchanged and self._changed_at is not None \
                and frame.time - self._changed_at <= CONFIRM_WAIT \
                and self.stability.wanting():
            # a reading seen once is confirmed by reading the changed part again, not by a
            # reused frame: read where the last change was, on this frame's pixels
            reused = False
            change = self._last_change
        elif not reused:
            self._last_change, self._changed_at = change, frame.time
        stilled = False  # this frame's detections are a still's
        if reused:
            dets = self._last_dets
        else:
            if self._laid_down and self.still is not None and self.calibration is not None \
                    and not moved:
                dets, stilled = self._still_pass(image, again=False), True
            elif change is None:  # every frame whole: the yardstick of the region pass too
                dets = self.detector.detect(image)
                if region is not None:
                    dets = dets[inside(dets.xyxy, region, (image.shape[1], image.shape[0]))]
            else:
                dets = self.changes.detect(  # type: ignore[union-attr]
                    self.detector, image, change, region)
            self._last_dets, self._last_thumb = dets, thumb
            if moving:  # read anyway after a long motion: wait another SETTLE_WAIT from here
                self._moving_since = frame.time
        assert dets is not None
        if self.calibration is None or (not reused and moved):
            if self.squaring is None:
                squaring = Squaring.of(dets, (image.shape[1], image.shape[0]))
                if squaring is not None:  # the frame is read again, turned square
                    self._start(squaring, squared_corners(image, squaring, self.corners, dets))
                    return self.process_frame(frame)
            elif moved:  # how the camera is turned now is found on the frame as it is
                self._start(None, None)
                return self.process_frame(frame)
            corners = self.corners if self.squaring is None else self._squared_corners
            self.calibration = calibrate(image, corners, self.bottom_seat, dets,
                                         look=self.squaring is None)
            self._calib_thumb = thumb
            dets = self._restrict(image, dets)
        timings["detect"] = time.perf_counter() - t0
        t1 = time.perf_counter()
        if reused and self._last_reading is not None:
            table, fixed = self._last_reading  # same detections, same reading
        else:
            table, fixed = self._read(dets, stilled, image)
            if self.still is not None and not stilled and laid_down(table):
                t2 = time.perf_counter()  # a hand laid down: read as a photo is read
                table, fixed = self._read(self._still_pass(image, again=True), True, image)
                timings["still"], stilled = time.perf_counter() - t2, True
            if stilled:  # stills go on while a hand lies down
                self._laid_down = laid_down(table)
            self._last_reading = (table, fixed)
        if reused and not unchanged:  # the picture changed unread: no run goes on over it
            self.stability.interrupt()
            events = []
        else:
            events = self._stabilize(frame, table, fixed, fresh=not reused)
        timings["read"] = time.perf_counter() - t1
        if self.squaring is not None:  # boxes in the frame's own pixels, as it is drawn
            table = self.squaring.table_back(table)
        return FrameResult(frame=frame, detections=table.detections, table=table, repair=fixed,
                           hands=list(self.hands), dice=self.dice,
                           hand_dice=self.hand_dice(), events=events,
                           reused=reused, timings=timings)

    def _start(self, squaring: Squaring | None, corners: list[list[float]] | None) -> None:
        """Read from the next frame on as a new camera is read, turned by ``squaring`` (the
        game's state so far is kept: the seats are where they were)."""
        self.squaring, self._squared_corners = squaring, corners
        self.calibration, self.region, self._calib_thumb = None, None, None
        self._prev_thumb = self._last_thumb = None
        self._last_dets, self._last_reading = None, None
        self._last_change, self._changed_at, self._moving_since = None, None, None
        if self.changes is not None:
            self.changes = ChangeTracker()

    def _read(self, dets: TileDetections, still: bool,
              image: np.ndarray) -> tuple[TableReading, Repair]:
        """The table a frame's detections show, repaired (a still's with a photo's tries, and
        a box taken back into a row named again at its tile's place, as a photo's is)."""
        name_at = name_at_of(self.still, image) if still else None
        table, reread = read_once(dets, self.calibration, self.layout, name_at, still)
        tries = MAX_TRIES if still else REPAIR_TRIES
        fixed, finished = legal_reading(table, self.ruleset, showing_fourteen(table),
                                        self.options, indicator=self.indicator, max_tries=tries)
        if not finished:  # a winner laying down 13 or 15, a box left out of its row or in it
            found = recovered_winner(table, self.ruleset, self.options, reread,
                                     indicator=self.indicator, max_tries=tries)
            if found is not None:
                table, fixed, _, _ = found
        return table, fixed

    def _still_pass(self, image: np.ndarray, again: bool) -> TileDetections:
        """The frame's detections as a photo's are found (:attr:`still`), in the table's region;
        they are kept as the frame's, and the change mask compares the next frames with it
        (``again``: the frame was read as a stream first)."""
        assert self.still is not None
        still = self.still
        if self.squaring is not None:  # a view, at the size the stream reads its frames at
            still = still.at_size(self.detector.size_used)
        dets = still.detect(image)
        if self.region is not None:
            dets = dets[inside(dets.xyxy, self.region, (image.shape[1], image.shape[0]))]
        self._last_dets = dets
        if self.changes is not None:
            self.changes.keep(dets, again)
        return dets

    def _restrict(self, image: np.ndarray, dets: TileDetections) -> TileDetections:
        """After calibrating, with a detector that runs on windows: the table's region for the
        frames to come, and this frame's detections cut to it (and kept so).

        The change mask then runs the models on the region alone; analysing every frame whole
        (a negative ``motion``) still runs them on the whole frame and keeps the boxes in the
        region. Both read the same part of the picture, so the events of the two ways still
        check the change mask's shortcuts, the region pass's narrower view among them
        (``bench/video_parity.py``)."""
        frame = (image.shape[1], image.shape[0])
        self.region = None
        if self.calibration is None or not windowed(self.detector):
            return dets
        self.region = table_region(self.calibration, dets, frame)
        if self.region is None:
            return dets
        dets = dets[inside(dets.xyxy, self.region, frame)]
        self._last_dets = dets
        if self.changes is not None:
            self.changes.dets = dets
        return dets

    # -- stability and events

    def _stabilize(self, frame: CapturedFrame, table: TableReading, fixed: Repair,
                   fresh: bool = True) -> list[VisionEvent]:
        """Events of a frame's reading; ``fresh``: the frame was analysed (else it reused the
        last reading of an unchanged picture)."""
        events: list[VisionEvent] = []
        stable = partial(self.stability.update, time=frame.time, fresh=fresh)
        # the indicator first: it decides which tiles are wild, so whether a hand is finished;
        # a ruleset that turns none has none (a face-up wall tile is then a misreading)
        if table.indicator is not None and self._turns_indicator:
            got_ind = stable("indicator", table.indicator)
            if got_ind is not None and got_ind != self.indicator:
                self.indicator = got_ind
                events.append(VisionEvent("indicator", {"tile": TILE_NAMES[got_ind]},
                                          frame.index, frame.timestamp))
                for held in self.hands:  # a hand seen before the indicator may be finished
                    if held is not None:
                        events += self._win_check(held, frame)
        legal = fixed.legal
        for state in seat_states(table):
            valid = legal and state_is_plausible(state)
            if state.tile_count == 0 and not state.flowers and not state.discards:
                valid = False  # an empty seat (arm over it, nobody there) says nothing; a
                # standing hand of backs is somebody there (found at all, not counted)
            # stable by what it shows face up: the count of backs flickers with sensor noise
            got = stable(("seat", state.seat), state, state.face_up_key, valid)
            if got is not None:
                events += events_between(self.hands[state.seat], got, frame.index,
                                         frame.timestamp)
                self.hands[state.seat] = got
                won = self._win_check(got, frame)
                if won:
                    self._next_dealer = dealer_after(table, self.ruleset, self.dealer,
                                                     state.seat, self.hand_dice(),
                                                     self.options)
                events += won
        events += self._wall(frame, table, fresh)
        events += self._dice(frame, table, fresh)
        # a repair is said once it is stable, like what it repaired (not per flickering frame)
        changes = stable("repair", tuple(str(c) for c in fixed.changes), valid=legal)
        if changes:
            events.append(VisionEvent("repaired", {"changes": list(changes)}, frame.index,
                                      frame.timestamp))
        return events

    def new_hand(self) -> None:
        """Forget the dice rolls, seats and wins of the last hand (a fresh wall also does
        this); after a win or a drawn hand the ruleset's next dealer deals."""
        self.rolls.clear()
        self.won.clear()
        self.dice = None
        self.hands = [None] * 4
        self._wall_out = False
        self._laid_down = False
        if self._next_dealer is not None:
            self.dealer, self._next_dealer = self._next_dealer, None

    def _wall(self, frame: CapturedFrame, table: TableReading, fresh: bool) -> list[VisionEvent]:
        """How a hand ends, as the camera sees it: a win (:meth:`_win_check`), or the wall
        played out to what the ruleset leaves undrawn with the discards still on the table
        (a drawn hand: ``draw_game``). A fresh wall after the old one was low or gone starts
        the next hand, dealt by whom the ruleset names for the end seen (a hand whose end
        was not seen keeps its dealer). The wall's level counts once stable, like a seat."""
        stacks = table.wall_stacks
        if stacks >= FRESH_WALL:
            level = "fresh"
        elif rules_for(self.ruleset).drawable(2 * stacks) <= 0 \
                and any(seat.discards for seat in table.seats):
            level = "out"
        else:
            level = "low" if stacks < FRESH_WALL // 2 else "part"
        got = self.stability.update("wall", level, time=frame.time, fresh=fresh)
        if got in ("low", "out"):
            self._wall_cleared = True
            self._wall_out = self._wall_out or got == "out"
        if got != "fresh" or not self._wall_cleared:
            return []
        self._wall_cleared = False
        events = []
        if self._wall_out and not self.won:
            events.append(VisionEvent("draw_game", {}, frame.index, frame.timestamp))
            self._next_dealer = dealer_after_draw(self.ruleset, self.dealer, self.options)
        self.new_hand()
        return events

    def _dice(self, frame: CapturedFrame, table: TableReading, fresh: bool) -> list[VisionEvent]:
        """A roll is reported once its faces are stable; dice taken away in between let
        the same faces count again as the next roll."""
        dice = read_dice(table.detections)
        got = self.stability.update("dice", dice, None if dice is None else dice.lying,
                                    time=frame.time, fresh=fresh)
        if got is None:
            return []
        roller = self._roller()
        self.rolls.append(got.faces)
        events = [VisionEvent("dice", {"seat": roller, "dice": list(got.faces)},
                              frame.index, frame.timestamp)]
        wb, note = (wall_break(self.ruleset, self.dealer, self.rolls[-2:], self.options)
                    if self.ruleset else (None, "no ruleset"))
        if wb is None and self.ruleset and len(self.rolls) > 1:
            wb, note = wall_break(self.ruleset, self.dealer, self.rolls[-1:], self.options)
        self.dice = replace(got, wall_break=wb, note=note)
        if wb is not None:
            events.append(VisionEvent("wall_broken", {"wall_seat": wb.wall_seat,
                                                      "stacks": wb.stacks_skipped},
                                      frame.index, frame.timestamp))
        return events

    def hand_dice(self) -> DiceReading | None:
        """The dice a hand record takes: the hand's first roll (as the match log does; a
        ruleset that rolls twice breaks the wall with both)."""
        if self.dice is None or not self.rolls:
            return self.dice
        return replace(self.dice, faces=tuple(self.rolls[0]))

    def _roller(self) -> int:
        """Who throws the next roll, as the ruleset says: the dealer first; after that, the
        seat counted from the last throw (Liaoyang's second roller), or the dealer again."""
        return rules_for(self.ruleset).next_roller(self.dealer, self.rolls[-1:], self.options)

    def _win_check(self, state: SeatState, frame: CapturedFrame) -> list[VisionEvent]:
        if state.face_up != 14 or state.seat in self.won:  # 14 face up: a stray back
            # (one more box than the hand holds, by noise) does not hide a win laid down
            return []
        from scoring.record import Meld

        melds = tuple(Meld(type=t, tiles=m, from_seat=f) for t, m, f in state.melds)
        ctx = {"indicator": self.indicator} if self.indicator is not None else {}
        if not winning_test(self.ruleset, melds, dict(self.options), ctx)(list(state.concealed)):
            return []
        self.won.add(state.seat)
        return [VisionEvent("win", {"seats": [state.seat],
                                    "tile": TILE_NAMES[state.concealed[-1]]},
                            frame.index, frame.timestamp)]

    def hand_record(self, result: FrameResult, *, winner: int | None = None,
                    by: str | None = None, from_seat: int | None = None
                    ) -> tuple[dict[str, Any], list[str]]:
        """The hand record of a frame's table (for ``scoring``) and the assumptions made;
        the winner defaults to the seat that showed a winning hand."""
        if winner is None and len(self.won) == 1:
            winner = next(iter(self.won))
        return build_record(result.table, ruleset=self.ruleset or default_ruleset(),
                            dealer=self.dealer, winner=winner, by=by, from_seat=from_seat,
                            dice=result.hand_dice, options=self.options)

    def waits(self, result: FrameResult) -> dict[int, list[tuple[int, int]]]:
        """听 per seat for a frame's table (seats showing 13 tiles face up)."""
        return table_waits(result.table, self.ruleset, self.options)
