"""Temporal stability: a seat's state counts only once it has looked the same for N frames.

Hands move, tiles are hidden by arms, the detector flickers; the match engine must see one event
per real change. :class:`Stabilizer` keeps, per seat, the state seen in the latest frames and
reports it once it has been seen ``frames`` times in a row, passed the count checks, and differs
from what was last reported. :func:`events_between` turns two reported states into the match
engine's events (the JSON form of ``scoring.match.events``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.tiles import TILE_NAMES, format_tiles
from vision.reading import SeatState

MATCH_EVENT_TYPES = ("dice", "wall_broken", "indicator", "flower", "discard", "chow", "pung",
                     "kong", "win")


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
    """A seat's reading the rules allow: 13 or 14 tiles (kongs count 3), or no hand in view
    (flowers and discards still count)."""
    return state.tile_count in (13, 14) or state.tile_count == 0


@dataclass
class _Track:
    candidate: Any = None
    count: int = 0
    reported: Any = None


@dataclass
class Stabilizer:
    """Reports a value per key once it was seen ``frames`` times in a row."""

    frames: int = 5
    _tracks: dict[Any, _Track] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.frames < 1:
            raise ValueError(f"stability needs at least 1 frame, got {self.frames}")

    def update(self, key: Any, value: Any, comparable: Any = None, valid: bool = True) -> Any:
        """Feed this frame's ``value`` for ``key``; returns it when it just became stable.

        ``comparable`` is what must stay equal (default: the value); an invalid reading breaks
        the run without being counted.
        """
        track = self._tracks.setdefault(key, _Track())
        cmp = value if comparable is None else comparable
        if not valid:
            track.candidate, track.count = None, 0
            return None
        if cmp == track.candidate:
            track.count += 1
        else:
            track.candidate, track.count = cmp, 1
        if track.count >= self.frames and cmp != track.reported:
            track.reported = cmp
            return value
        return None

    def reported(self, key: Any) -> Any:
        track = self._tracks.get(key)
        return None if track is None else track.reported


def events_between(old: SeatState | None, new: SeatState, frame: int,
                   timestamp: float) -> list[VisionEvent]:
    """The events that take a seat from ``old`` (last reported) to ``new`` (just stable)."""
    out: list[VisionEvent] = []
    s = new.seat

    def ev(etype: str, /, **data: Any) -> None:
        out.append(VisionEvent(etype, data, frame, timestamp))

    before = old or SeatState(seat=s, concealed=(), hidden=0, melds=(), flowers=(), discards=())
    for f in new.flowers:
        if f not in before.flowers:
            ev("flower", seat=s, tile=TILE_NAMES[f])
    if new.discards[:len(before.discards)] == before.discards:
        for t in new.discards[len(before.discards):]:
            ev("discard", seat=s, tile=TILE_NAMES[t])
    elif new.discards != before.discards[:-1]:  # only the last one gone: it was claimed (the
        # claimer's meld is the event)
        ev("discards_seen", seat=s, tiles=[TILE_NAMES[t] for t in new.discards])
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
    if new.key[:3] != before.key[:3]:
        ev("hand", **new.to_json())
    return out
