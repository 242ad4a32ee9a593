"""The hand on the table as the dashboard holds it: recognized or entered, corrected, scored.

Qt-free: views subscribe to the signals and write back only through the methods, so every change
is validated, re-scored at once and announced as a :class:`Correction` for the match log.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring import score
from scoring.errors import ScoringError
from scoring.record import HandRecord, Meld, Seat, parse_record
from scoring.settlement import Settlement
from scoring.tiles import TILE_NAMES, Tile, format_tiles
from ui.dashboard.signals import Signal

PARTS = ("concealed", "melds", "flowers")


@dataclass(frozen=True)
class Correction:
    """One change a person made to a recognized or entered hand, for the referee's log."""

    seat: int
    what: str  # e.g. "concealed[3]: 5p -> 6p", "meld added: pung EEE from 0"
    who: str
    why: str
    at: float = field(default_factory=time.time)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class TileRef:
    """Where a tile sits in the hand: seat, part (concealed / melds / flowers) and index."""

    seat: int
    part: str
    index: int
    meld: int = -1  # with part "melds": which meld


def part_size(record: HandRecord, ref: TileRef) -> int:
    """How many tiles the part of the hand that ``ref`` points into holds (-1: none)."""
    seat = record.seats[ref.seat]
    if ref.part == "melds":
        return len(seat.melds[ref.meld].tiles) if ref.meld < len(seat.melds) else -1
    return len(seat.concealed if ref.part == "concealed" else seat.flowers)


def tile_at(record: HandRecord, ref: TileRef) -> int | None:
    """The tile a hand record holds at ``ref``, or None when it has no such place."""
    try:
        seat = record.seats[ref.seat]
        if ref.part == "concealed":
            return seat.concealed[ref.index]
        if ref.part == "flowers":
            return seat.flowers[ref.index]
        if ref.part == "melds":
            return seat.melds[ref.meld].tiles[ref.index]
    except IndexError:
        return None
    return None


class HandSession:
    """The current hand: its record, its score (or why it cannot be scored) and corrections."""

    def __init__(self) -> None:
        self.changed: Signal[[]] = Signal()
        self.corrected: Signal[[Correction]] = Signal()
        self.record: HandRecord | None = None
        self.settlement: Settlement | None = None
        self.error: str | None = None
        self.source = ""  # "camera", "file", "entered"
        self.suggestions: dict[TileRef, list[tuple[Tile, float]]] = {}
        self.corrections: list[Correction] = []

    # ------------------------------------------------------------ loading

    def load(self, record: HandRecord | dict[str, Any], source: str = "entered",
             suggestions: dict[TileRef, list[tuple[Tile, float]]] | None = None) -> None:
        """Take a new hand (a recognized state or an entered record) and score it."""
        self.record = record if isinstance(record, HandRecord) else parse_record(record)
        self.source = source
        self.suggestions = dict(suggestions or {})
        self.corrections = []
        self._rescore()

    def clear(self) -> None:
        self.record = None
        self.settlement = None
        self.error = None
        self.suggestions = {}
        self.corrections = []
        self.changed.emit()

    # ------------------------------------------------------------ corrections

    def replace_tile(self, ref: TileRef, tile: Tile, who: str, why: str) -> None:
        """Put ``tile`` where ``ref`` points; a wrong reading becomes the right one."""
        record = self._require()
        seat = record.seats[ref.seat]
        if ref.part == "concealed":
            tiles = list(seat.concealed)
            before = tiles[ref.index]
            tiles[ref.index] = tile
            new_seat = dataclasses.replace(seat, concealed=tuple(tiles), concealed_text="")
            # a winner's winning tile follows the correction of that tile
            record = self._follow_winning_tile(record, ref.seat, before, tile, tiles)
        elif ref.part == "flowers":
            flowers = list(seat.flowers)
            before = flowers[ref.index]
            flowers[ref.index] = tile
            new_seat = dataclasses.replace(seat, flowers=tuple(flowers), flowers_form=None)
        elif ref.part == "melds":
            meld = seat.melds[ref.meld]
            before = meld.tiles[ref.index]
            tiles_m = list(meld.tiles)
            if meld.type == "chow":
                tiles_m[ref.index] = tile
            else:  # a pung or kong is one kind: correcting one tile corrects them all
                tiles_m = [tile] * len(tiles_m)
            melds = list(seat.melds)
            melds[ref.meld] = dataclasses.replace(meld, tiles=tuple(tiles_m), text="")
            new_seat = dataclasses.replace(seat, melds=tuple(melds))
        else:
            raise ValueError(f"unknown part {ref.part!r}")
        where = ref.part if ref.part != "melds" else f"melds[{ref.meld}]"
        self._apply(record, ref.seat, new_seat,
                    f"{where}[{ref.index}]: {TILE_NAMES[before]} -> {TILE_NAMES[tile]}", who, why)
        self.suggestions.pop(ref, None)

    def add_meld(self, seat_no: int, meld: Meld, who: str, why: str) -> None:
        record = self._require()
        seat = record.seats[seat_no]
        new_seat = dataclasses.replace(seat, melds=(*seat.melds, meld))
        src = "" if meld.from_seat is None else f" from {meld.from_seat}"
        self._apply(record, seat_no, new_seat,
                    f"meld added: {meld.type} {format_tiles(meld.tiles)}{src}", who, why)

    def remove_meld(self, seat_no: int, index: int, who: str, why: str) -> None:
        record = self._require()
        seat = record.seats[seat_no]
        meld = seat.melds[index]
        melds = tuple(m for i, m in enumerate(seat.melds) if i != index)
        self._apply(record, seat_no, dataclasses.replace(seat, melds=melds),
                    f"meld removed: {meld.type} {format_tiles(meld.tiles)}", who, why)

    def add_flower(self, seat_no: int, flower: Tile, who: str, why: str) -> None:
        record = self._require()
        seat = record.seats[seat_no]
        new_seat = dataclasses.replace(seat, flowers=(*seat.flowers, flower), flowers_form=None)
        self._apply(record, seat_no, new_seat, f"flower added: {TILE_NAMES[flower]}", who, why)

    def remove_flower(self, seat_no: int, index: int, who: str, why: str) -> None:
        record = self._require()
        seat = record.seats[seat_no]
        flower = seat.flowers[index]
        flowers = tuple(f for i, f in enumerate(seat.flowers) if i != index)
        self._apply(record, seat_no, dataclasses.replace(seat, flowers=flowers, flowers_form=None),
                    f"flower removed: {TILE_NAMES[flower]}", who, why)

    def set_win(self, index: int, by: str, from_seat: int | None, who: str, why: str) -> None:
        """How win ``index`` came: ``self_draw``, or ``discard`` from ``from_seat`` (the camera
        cannot see who discarded the winning tile; the referee says so here)."""
        record = self._require()
        wins = list(record.wins)
        if not 0 <= index < len(wins):
            raise ValueError(f"there is no win #{index} in this hand")
        before = wins[index]
        if by == "self_draw":
            from_seat = None
        elif from_seat is None or not 0 <= from_seat < 4 or from_seat == before.seat:
            raise ValueError(f"a win on a discard needs the discarder's seat, got {from_seat}")
        wins[index] = dataclasses.replace(before, by=by, from_seat=from_seat)
        old = before.by if before.from_seat is None else f"{before.by} from {before.from_seat}"
        new = by if from_seat is None else f"{by} from {from_seat}"
        self._commit(dataclasses.replace(record, wins=tuple(wins)), before.seat,
                     f"win: {old} -> {new}", who, why)

    # ------------------------------------------------------------ internals

    def _require(self) -> HandRecord:
        if self.record is None:
            raise ValueError("there is no hand to correct yet")
        return self.record

    @staticmethod
    def _follow_winning_tile(record: HandRecord, seat_no: int, before: Tile, after: Tile,
                             tiles: Sequence[Tile]) -> HandRecord:
        wins = list(record.wins)
        for i, w in enumerate(wins):
            if w.seat == seat_no and w.tile == before and before not in tiles:
                wins[i] = dataclasses.replace(w, tile=after, tile_text="")
        return dataclasses.replace(record, wins=tuple(wins))

    def _apply(self, record: HandRecord, seat_no: int, seat: Seat, what: str, who: str,
               why: str) -> None:
        seats = list(record.seats)
        seats[seat_no] = seat
        changed = dataclasses.replace(record, seats=tuple(seats))  # type: ignore[arg-type]
        self._commit(changed, seat_no, what, who, why)

    def _commit(self, changed: HandRecord, seat_no: int, what: str, who: str, why: str) -> None:
        # re-validate through the same parser as any record, so the counts rules still hold
        try:
            self.record = parse_record(changed.to_json())
        except ScoringError as exc:
            raise ValueError(f"that change makes the hand invalid: {exc}") from None
        correction = Correction(seat=seat_no, what=what, who=who or "operator",
                                why=why or "correction")
        self.corrections.append(correction)
        self.corrected.emit(correction)
        self._rescore()

    def _rescore(self) -> None:
        assert self.record is not None
        try:
            self.settlement = score(self.record)
            self.error = None
        except ScoringError as exc:
            self.settlement = None
            self.error = str(exc)
        self.changed.emit()
