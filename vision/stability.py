"""Temporal stability: a seat's state counts only once it has held for a stable time.

Hands move, tiles are hidden by arms, the detector flickers; the match engine must see one event
per real change. :class:`Stabilizer` keeps, per key (a seat, the dice, the indicator), the value
read lately and reports it once it differs from what was last reported, was read the same in at
least ``readings`` analysed frames, and has held for ``seconds`` of camera time. A frame that
reused the last reading because the picture truly did not change adds time, not a reading; a
frame whose picture changed but was not read (hands over the table) breaks every run. So the
delay from a change to its event is one frame plus the stable time, whatever the frame rate,
and a reading seen once (the picture then kept unchanged) is never reported on its own.
:func:`events_between` turns two reported states into the match engine's events (the JSON form
of ``scoring.match.events``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scoring.tiles import TILE_NAMES, format_tiles

if TYPE_CHECKING:  # the command line reads the defaults here without loading the reader
    from vision.reading import SeatState

MATCH_EVENT_TYPES = ("dice", "wall_broken", "indicator", "flower", "discard", "chow", "pung",
                     "kong", "win", "draw_game")


@dataclass(frozen=True)
class VisionEvent:
    """One thing the camera saw happen. ``data`` is the event's JSON body; for the types in
    :data:`MATCH_EVENT_TYPES` it is the match engine's own form, so it can be logged as is."""

    type: str
    data: dict[str, Any]
    frame: int
    timestamp: float

    @property
    def for_match(self) -> bool:
        return self.type in MATCH_EVENT_TYPES

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **self.data}

    def with_time(self) -> dict[str, Any]:
        return {**self.to_json(), "frame": self.frame, "time": round(self.timestamp, 3)}


def state_is_plausible(state: SeatState) -> bool:
    """A seat's reading the rules allow, judged by its face-up tiles alone: a hand shown face
    up holds 13 or 14 tiles (kongs count 3); a hand standing with its backs to the camera (or
    out of view) shows no face-up tile but its melds, at most four. How many backs the
    detector finds is not looked at: it is the least sure count it gives (sensor noise alone
    moves a back or two across its threshold between two frames of one still picture), and
    it must not decide whether a seat's discards and melds count
    (``SeatState.face_up_key``)."""
    if state.concealed:
        return state.face_up in (13, 14)
    return len(state.melds) <= 4


STABLE_S = 0.2  # seconds a value must hold (one frame interval at 5 fps, 6 at 30 fps)
STABLE_READINGS = 2  # analysed frames that must agree: one reading is never enough
_NOTHING = object()  # no run under way (a reading of ``None`` is a value: dice taken away)


@dataclass
class _Track:
    candidate: Any = _NOTHING
    readings: int = 0
    since: float = 0.0  # camera time of the run's first reading
    reported: Any = None


@dataclass
class Stabilizer:
    """Reports a value per key once it held ``seconds`` over at least ``readings`` analysed
    agreeing readings, with no unread change of the picture in between."""

    seconds: float = STABLE_S
    readings: int = STABLE_READINGS
    _tracks: dict[Any, _Track] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.readings < 1:
            raise ValueError(f"stability needs at least 1 reading, got {self.readings}")
        if not self.seconds >= 0:
            raise ValueError(f"the stable time must be 0 s or more, got {self.seconds}")

    def update(self, key: Any, value: Any, comparable: Any = None, valid: bool = True, *,
               time: float, fresh: bool = True) -> Any:
        """Feed a frame's ``value`` for ``key`` (camera ``time`` in seconds); returns it when
        it just became stable.

        ``comparable`` is what must stay equal (default: the value); an invalid reading breaks
        the run. ``fresh=False``: the frame reused the last reading because the picture did
        not change, so it proves only that the value still holds (time, not a reading).
        """
        track = self._tracks.setdefault(key, _Track())
        cmp = value if comparable is None else comparable
        if not valid:
            track.candidate, track.readings = _NOTHING, 0
            return None
        if track.candidate is _NOTHING or cmp != track.candidate:
            if not fresh:
                return None  # a run starts only with a reading
            track.candidate, track.readings, track.since = cmp, 1, time
        elif fresh:
            track.readings += 1
        if (track.readings >= self.readings and time - track.since >= self.seconds - 1e-3
                and cmp != track.reported):
            track.reported = cmp
            return value
        return None

    def interrupt(self) -> None:
        """The picture changed and was not read: every run starts again with the next
        reading."""
        for track in self._tracks.values():
            track.candidate, track.readings = _NOTHING, 0

    def wanting(self) -> bool:
        """Some value not yet reported waits for another analysed reading (a reused frame
        cannot give it)."""
        return any(t.candidate is not _NOTHING and t.candidate != t.reported
                   and t.readings < self.readings for t in self._tracks.values())

    def reported(self, key: Any) -> Any:
        track = self._tracks.get(key)
        return None if track is None else track.reported


def events_between(old: SeatState | None, new: SeatState, frame: int,
                   timestamp: float) -> list[VisionEvent]:
    """The events that take a seat from ``old`` (last reported) to ``new`` (just stable)."""
    from vision.reading import SeatState

    out: list[VisionEvent] = []
    s = new.seat

    def ev(etype: str, /, **data: Any) -> None:
        out.append(VisionEvent(etype, data, frame, timestamp))

    before = old or SeatState(seat=s, concealed=(), hidden=0, melds=(), flowers=(), discards=())
    for f in new.flowers:
        if f not in before.flowers:
            ev("flower", seat=s, tile=TILE_NAMES[f])
    old_melds = list(before.melds)
    for m in new.melds:
        if m in old_melds:
            old_melds.remove(m)
            continue
        mtype, tiles, _src = m
        if mtype == "chow":
            ev("chow", seat=s, tiles=format_tiles(tiles))
        elif mtype == "pung":
            ev("pung", seat=s)
        else:
            upgraded = any(o[0] == "pung" and o[1][0] == tiles[0] for o in before.melds)
            kind = "added" if upgraded else \
                "concealed" if mtype == "concealed_kong" else "exposed"
            ev("kong", seat=s, kind=kind, tile=TILE_NAMES[tiles[0]])
    # a seat's claim comes before its own next discard (claim, then discard)
    kept = len(before.discards)
    if new.discards[:kept] != before.discards and before.discards \
            and new.discards[:kept - 1] == before.discards[:-1]:
        kept -= 1  # the last one gone: it was claimed (the claimer's meld is the event); a
        # discard may have followed before this seat was seen still again
    if new.discards[:kept] == before.discards[:kept]:
        for t in new.discards[kept:]:
            ev("discard", seat=s, tile=TILE_NAMES[t])
    else:
        ev("discards_seen", seat=s, tiles=[TILE_NAMES[t] for t in new.discards])
    if new.face_up_key[:2] != before.face_up_key[:2]:  # the face-up hand or the melds
        ev("hand", **{k: v for k, v in new.to_json().items() if k != "hidden"})
    return out
