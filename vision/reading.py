"""From a table reading to what the rest of the product uses: seat states, hand records, waits.

:func:`read_image` is the one path from a photo to a validated hand record (``mjtable read``):
detect, place on the table, repair an impossible reading with the top-k classes, then build the
record of ``shared/rules/README.md``. What the camera cannot know (who won on whose discard) comes
from the caller or a stated assumption, listed in ``notes``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from scoring.record import Meld
from scoring.rulesets.registry import rules_for
from scoring.tiles import TILE_NAMES, Tile, format_tiles, is_flower
from vision.detections import TileDetections
from vision.dice import DiceReading, read_dice, wall_break
from vision.geometry import (
    MeldReading,
    NameAt,
    TableCalibration,
    TableLayout,
    TableReading,
    find_table_corners,
    order_corners,
    read_table,
)
from vision.repair import (
    MAX_TRIES,
    Change,
    Repair,
    finish_hand,
    repair,
    winning_test,
)
from vision.squaring import Squaring
from vision.unsure import LOW_CONFIDENCE, unsure_tiles

# a seat laying down one tile too many leaves out one of its boxes read under this, trying the
# least sure few (stray_winner): a stray box is the detector's or the classifier's unsure one
STRAY_SURE = LOW_CONFIDENCE
STRAY_TRIES = 2
# a seat's hand is read finished (a win) only with changes to its own tiles likelier together than
# 1 in 1000 (the repair's cost, in log odds): a hand that finishes only by renaming tiles read
# surely is a misread no probable reading mends (fresh real-face table_s31_000233: a seat with
# its melds read into its hand, a 2p read at 0.997 renamed 8p, 9.15 in all, recorded as the
# winner in the true winner's place; on REALVAL9D and 10D every win read right cost under 6)
WIN_REPAIR = float(np.log(1000.0))


@dataclass(frozen=True)
class SeatState:
    """What one seat shows, in a form that compares equal when nothing changed."""

    seat: int
    concealed: tuple[Tile, ...]  # left to right as the player sees them
    hidden: int
    melds: tuple[tuple[str, tuple[Tile, ...], int | None], ...]  # (type, tiles sorted, from)
    flowers: tuple[Tile, ...]
    discards: tuple[Tile, ...]

    @property
    def tile_count(self) -> int:
        return len(self.concealed) + self.hidden + 3 * len(self.melds)

    @property
    def key(self) -> tuple[Any, ...]:
        """Equal for the same tiles whatever their order in the hand."""
        return (tuple(sorted(self.concealed)), self.hidden, tuple(sorted(self.melds)),
                tuple(sorted(self.flowers)), self.discards)

    @property
    def face_up(self) -> int:
        """Tiles shown face up in the hand and its melds (kongs count 3): the count of a hand
        without its backs."""
        return len(self.concealed) + 3 * len(self.melds)

    @property
    def face_up_key(self) -> tuple[Any, ...]:
        """:attr:`key` without the count of backs. Tile backs are the detector's least sure
        boxes (their scores sit near its threshold), so sensor noise alone finds one more or
        one fewer between two frames of one still picture; what a seat does is told by its
        face-up tiles."""
        key = self.key
        return (key[0], *key[2:])

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "concealed": format_tiles(self.concealed),
            "hidden": self.hidden,
            "melds": [{"type": t, "tiles": format_tiles(m), **({"from": f} if f is not None
                                                              else {})}
                      for t, m, f in self.melds],
            "flowers": [TILE_NAMES[f] for f in self.flowers],
            "discards": [TILE_NAMES[t] for t in self.discards],
        }


def seat_states(reading: TableReading) -> list[SeatState]:
    return [SeatState(seat=s.seat, concealed=tuple(s.hand), hidden=s.hidden,
                      melds=tuple((m.type, tuple(sorted(m.tiles)), m.from_seat)
                                  for m in s.melds),
                      flowers=tuple(s.flowers), discards=tuple(s.discards))
            for s in reading.seats]


def scoring_melds(melds: Sequence[MeldReading], seat: int) -> tuple[Meld, ...]:
    """The seat's melds as ``scoring`` melds; a claim whose sideways tile was not seen is taken
    from the 上家 (the usual case), as :func:`build_record` notes."""
    out = []
    for m in melds:
        src = None if m.type == "concealed_kong" else \
            m.from_seat if m.from_seat is not None else (seat + 3) % 4
        tiles = tuple(sorted(m.tiles))
        out.append(Meld(type=m.type, tiles=tiles, from_seat=src, text=format_tiles(tiles)))
    return tuple(out)


@dataclass
class ImageReading:
    """Everything read from one picture."""

    detections: TileDetections
    table: TableReading
    repair: Repair
    dice: DiceReading | None
    record: dict[str, Any] | None
    notes: list[str] = field(default_factory=list)
    waits: dict[int, list[tuple[Tile, int]]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"record": self.record}
        out["changed"] = [{"box": [round(float(v), 1) for v in self.detections.xyxy[c.row]],
                           "from": TILE_NAMES[c.old], "to": TILE_NAMES[c.new]}
                          for c in self.repair.changes]
        out["waits"] = {str(k): [{"tile": TILE_NAMES[t], "left": n} for t, n in v]
                        for k, v in self.waits.items()}
        out["dice"] = self.dice.to_dict() if self.dice is not None else self._no_roll()
        out["notes"] = self.notes
        out["unsure"] = unsure_tiles(self.table)
        return out

    def _no_roll(self) -> dict[str, Any]:
        """The dice seen when they make no roll, so ``--details`` always says what it saw."""
        faces = [int(f) for f in self.detections.face[self.detections.is_die]]
        read = [f for f in faces if f]
        n = len(faces)
        return {"faces": read, "note": f"no roll read: {n} {'die' if n == 1 else 'dice'} "
                                       f"seen, {len(read)} with a face read; a roll needs 2"}


def build_record(reading: TableReading, *, ruleset: str, dealer: int = 0,
                 winner: int | None = None, by: str | None = None, from_seat: int | None = None,
                 winning_tile: Tile | None = None, dice: DiceReading | None = None,
                 options: Mapping[str, Any] | None = None) -> tuple[dict[str, Any], list[str]]:
    """The hand record for ``scoring`` and the assumptions made (one sentence each)."""
    notes: list[str] = []
    seats_json = []
    allowed = (13,) if winner is not None else (13, 14)  # a drawn hand may stop mid-turn
    for s in reading.seats:
        melds = scoring_melds(s.melds, s.seat)
        for i, m in enumerate(s.melds):
            if m.type != "concealed_kong" and m.from_seat is None:
                notes.append(f"seat {s.seat} meld {i + 1}: claimed tile not seen; taken from "
                             f"seat {(s.seat + 3) % 4} (上家)")
        concealed = format_tiles(s.hand, sort=True)  # the usual notation, not the row's order
        if s.hidden and s.seat == winner and s.face_up_count == 14:
            notes.append(f"seat {s.seat}: {s.hidden} back{'' if s.hidden == 1 else 's'} beside "
                         "a winning hand laid down, left out")
        elif s.hidden:
            concealed = ""
            notes.append(f"seat {s.seat}: {s.hidden} standing tiles seen from behind; hand "
                         "left unknown")
        elif s.hand and s.seat != winner and s.tile_count not in allowed:
            n = s.tile_count
            notes.append(f"seat {s.seat}: {n} tile{'' if n == 1 else 's'} seen (kongs count "
                         f"3), not {' or '.join(map(str, allowed))}; hand left unknown")
            concealed = ""
        seats_json.append({"concealed": concealed, "melds": [m.to_json() for m in melds],
                           "flowers": [TILE_NAMES[f] for f in s.flowers]})
    record: dict[str, Any] = {"ruleset": ruleset, "options": dict(options or {}),
                              "dealer": dealer, "seats": seats_json}
    if winner is None:
        record["outcome"] = "draw"
    else:
        hand = reading.seats[winner].hand
        if winning_tile is None:
            if not hand:
                raise ValueError(f"seat {winner} shows no standing tiles to win with")
            winning_tile = hand[-1]
            if not reading.seats[winner].drawn_apart:
                notes.append(f"winning tile taken as seat {winner}'s rightmost tile "
                             f"{TILE_NAMES[winning_tile]}")
        how = by or ("discard" if from_seat is not None else "self_draw")
        win: dict[str, Any] = {"seat": winner, "tile": TILE_NAMES[winning_tile], "by": how}
        if how != "self_draw":
            if from_seat is None:
                raise ValueError(f"a win by {how} needs the seat it came from")
            win["from"] = from_seat
        elif by is None:
            notes.append("win taken as self-drawn (give --by/--from for a discard)")
        record["outcome"] = "win"
        record["wins"] = [win]
    context: dict[str, Any] = {}
    if dice is not None and len(dice.faces) == 2:
        context["dice"] = list(dice.faces)
    if reading.indicator is not None and rules_for(ruleset).turns_indicator:
        context["indicator"] = TILE_NAMES[reading.indicator]
    record["context"] = context
    return record, notes


def table_waits(reading: TableReading, ruleset: str | None = None,
                options: Mapping[str, Any] | None = None) -> dict[int, list[tuple[Tile, int]]]:
    """听 of every seat that shows 13 tiles face up, with the copies still unseen."""
    from scoring.waiting import seat_waits

    visible: list[Tile] = []
    for s in reading.seats:
        visible += s.discards
    context: dict[str, Any] = {}
    if reading.indicator is not None:
        visible.append(reading.indicator)
        context["indicator"] = reading.indicator
    out: dict[int, list[tuple[Tile, int]]] = {}
    for s in reading.seats:
        if s.hidden or s.tile_count != 13:
            continue
        others = [t for o in reading.seats if o.seat != s.seat
                  for t in (*o.hand, *(x for m in o.melds for x in m.tiles))]
        out[s.seat] = seat_waits(s.hand, scoring_melds(s.melds, s.seat), ruleset=ruleset,
                                 options=options, context=context, visible=visible + others,
                                 lenient=True)
    return out


def calibrate(image: np.ndarray, corners: Sequence[Sequence[float]] | None = None,
              bottom_seat: int = 0, dets: TileDetections | None = None,
              look: bool = True) -> TableCalibration:
    """Corners given, else found in the picture (``look``), else estimated from the tiles'
    sizes (``dets``), else the whole picture is the table; ``bottom_seat`` sits at the bottom
    edge of the picture."""
    if corners is not None:
        return TableCalibration.from_corners(corners, bottom_seat)
    found = _corners_found(image, dets) if look else None
    if found is not None:
        return TableCalibration.from_corners(found.tolist(), bottom_seat)
    h, w = image.shape[:2]
    if dets is not None:
        return TableCalibration.from_tiles(dets, w, h, bottom_seat)
    return TableCalibration.whole_frame(w, h, bottom_seat)


def _corners_found(image: np.ndarray, dets: TileDetections | None) -> np.ndarray | None:
    """The table's corners found in the picture, where the table they outline holds the
    tiles ``dets`` found there (any, without them)."""
    found = find_table_corners(image)
    return found if found is not None and (dets is None or _holds_tiles(found, dets)) else None


def _holds_tiles(corners: np.ndarray, dets: TileDetections, share: float = 0.98) -> bool:
    """Found corners are trusted only if the table they outline holds the tiles: a region of
    cloth cut short by a shadow would put the tiles beyond its edge."""
    import cv2

    centres = dets.center[dets.is_tile | dets.is_back]
    if not len(centres):
        return True
    poly = corners.astype(np.float32).reshape(-1, 1, 2)
    inside = [cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0 for x, y in centres]
    return float(np.mean(inside)) >= share


def showing_fourteen(reading: TableReading) -> list[int]:
    """Seats that lay down 14 tiles face up: each may be showing a win (a stray back box
    beside them hides none, as the live pipeline's win check has it)."""
    return [s.seat for s in reading.seats if s.face_up_count == 14 and s.hand]


def legal_reading(table: TableReading, ruleset: str | None, winners: Sequence[int],
                  options: Mapping[str, Any] | None = None, *, indicator: Tile | None = None,
                  keep_unfinished: bool = False, bound: float | None = WIN_REPAIR,
                  max_tries: int = MAX_TRIES) -> tuple[Repair, list[int]]:
    """The most probable legal reading of ``table`` (repaired in place) with each of
    ``winners`` holding a finished hand under the ruleset, its options and the table's
    indicator (or ``indicator``, a tracked one); the one step that photos and video share.

    When no probable reading finishes them all, the reading is repaired without that demand
    (unless ``keep_unfinished``, for a winner the caller named) and no seat is returned as
    finished. A reading is probable where the changes to each winner's own tiles cost less than
    ``bound`` together (``WIN_REPAIR``; ``None``: any, for a winner the caller named). Returns
    the repair and the winners whose hands it finishes.

    Each search is bounded by the readings it tries (``max_tries``; a photo's default
    ``repair.MAX_TRIES``), not by seconds, so the same picture gives the same record whatever
    else the machine is doing; the live pipeline, which cannot wait, passes fewer.
    """
    ind = table.indicator if table.indicator is not None else indicator
    ctx = {"indicator": ind} if ind is not None else {}
    must = {}
    for seat in winners:
        melds = scoring_melds(table.seats[seat].melds, seat)
        must[seat] = winning_test(ruleset, melds, dict(options or {}), ctx)
    if not must:
        return repair(table, must, max_tries=max_tries), []
    trial = copy.deepcopy(table)
    fixed = repair(trial, must, max_tries=max_tries)
    if fixed.legal and _probable(trial, fixed.changes, must, bound):
        table.__dict__.update(trial.__dict__)
        return fixed, list(must)
    # the winners' own hands first, then the rest around them: a misread elsewhere on the
    # table (a fifth copy, a flower twice) is no reason to miss a win laid down
    trial = copy.deepcopy(table)
    own = [finish_hand(trial, seat, test, max_tries=max_tries) for seat, test in must.items()]
    if all(r.legal for r in own) and _probable(trial, [c for r in own for c in r.changes],
                                               must, bound):
        keep = frozenset(r for seat in must for r in _own_rows(trial, seat))
        rest = repair(trial, {}, max_tries=max_tries, keep=keep)
        table.__dict__.update(trial.__dict__)
        return Repair(legal=rest.legal, changes=[c for r in own for c in r.changes]
                      + rest.changes, problems=rest.problems), list(must)
    if keep_unfinished:
        return fixed if not fixed.legal else Repair(
            legal=False, problems=["no probable reading finishes the hand"]), []
    return repair(table, {}, max_tries=max_tries), []


def _probable(table: TableReading, changes: Sequence[Change], winners: Iterable[int],
              bound: float | None) -> bool:
    """The changes to each of ``winners``' own tiles (hand and melds) cost less than ``bound``
    together (log odds lost; ``None``: no bound)."""
    return bound is None or all(_own_cost(table, changes, seat) < bound for seat in winners)


def _own_cost(table: TableReading, changes: Sequence[Change], seat: int) -> float:
    """What ``changes`` cost the seat's own tiles, hand and melds (log odds lost)."""
    rows = set(_own_rows(table, seat))
    return sum(c.cost for c in changes if c.row in rows)


def _own_rows(table: TableReading, seat: int) -> list[int]:
    """The detection rows of the seat's own face-up tiles, hand and melds (flowers left out):
    what a win's reading may change and what its bound weighs."""
    return [r for r, part, _ in table.seats[seat].face_up(table.detections.is_tile)
            if part != "flowers"]


Reread = Callable[..., TableReading]  # (keep, drop=frozenset()) -> the table read again


def read_once(dets: TileDetections, calib: TableCalibration, layout: TableLayout | None,
              name_at: NameAt | None, still: bool) -> tuple[TableReading, Reread]:
    """The table read once, and how to read it again with spare boxes kept in their rows
    (``SeatReading.spare_rows``), each named at the place this first reading found for it,
    and stray boxes left out (``drop``): what :func:`spare_winner` and :func:`stray_winner`
    are given, for photos and video alike."""
    first = read_table(dets, calib, layout, name_at=name_at, still=still)

    def reread(keep: frozenset[int], drop: frozenset[int] = frozenset()) -> TableReading:
        return read_table(dets, calib, layout, keep, name_at, first.spare_places, still=still,
                          drop=drop)

    return first, reread


def name_at_of(detector: Any, image: np.ndarray) -> NameAt | None:
    """The detector's crop classifier on boxes of ``image`` (``name_places``), where it has
    one: how a box taken back into a row is named again at its tile's place."""
    name = getattr(detector, "name_places", None)
    return None if name is None else lambda boxes: name(image, boxes)


def spare_winner(table: TableReading, ruleset: str | None,
                 options: Mapping[str, Any] | None,
                 reread: Reread, seats: Sequence[int] | None = None, **legal: Any
                 ) -> tuple[TableReading, Repair, int] | None:
    """A seat laying down 13 tiles face up whose hand one of its spare boxes finishes (a box
    beside a tile of its row, left out as a second box of that tile:
    ``SeatReading.spare_rows``): the table read again by ``reread`` with that box kept in
    the row, repaired (``legal`` as :func:`legal_reading` takes), and the seat; ``None``
    where there is none. Only ``seats`` are asked where given (a winner named by the
    caller). Photos and video share it."""
    for s in table.seats:
        if seats is not None and s.seat not in seats:
            continue
        if s.face_up_count != 13 or not s.spare_rows:  # spares: hands laid down, none standing
            continue
        trial = reread(frozenset(s.spare_rows[:1]))
        if trial.seats[s.seat].face_up_count == 14:
            fixed, finished = legal_reading(trial, ruleset, [s.seat], options, **legal)
            if finished:
                return trial, fixed, s.seat
    return None


def stray_winner(table: TableReading, ruleset: str | None,
                 options: Mapping[str, Any] | None, reread: Reread,
                 seats: Sequence[int] | None = None, **legal: Any
                 ) -> tuple[TableReading, Repair, int, int] | None:
    """A seat laying down 15 tiles face up (a kong counting 3), one more than any hand holds,
    whose hand finishes without one of its unsure boxes (under ``STRAY_SURE``, the
    ``STRAY_TRIES`` least sure): the table read again by ``reread`` with that box left out,
    repaired (``legal`` as :func:`legal_reading` takes: a probable reading, ``WIN_REPAIR``; a
    hand that finishes only by renaming sure tiles is the wrong box left out, fresh real-face
    table_s47_000291, a kong's unsure fourth 1m left out for the stray 2s beside it and
    ``1111m`` renamed ``222s``), the seat and the box; of the boxes that qualify, the one whose
    repair costs least (the likeliest reading); ``None`` where there is none. A stray box over a
    claimed tile and the gap before its meld (fresh real-face table_s24_000029: a 1s read at
    0.07 across the gap before ``8s 7s 9s``, the meld then read into a hand of 15). Only
    ``seats`` are asked where given. Photos and video share it."""
    conf = table.detections.confidence
    for s in table.seats:
        if (seats is not None and s.seat not in seats) or s.face_up_count != 15 or s.hidden:
            continue
        unsure = sorted((r for r in _own_rows(table, s.seat) if conf[r] < STRAY_SURE),
                        key=lambda r: conf[r])
        found = []
        for r in unsure[:STRAY_TRIES]:
            trial = reread(frozenset(), frozenset({r}))
            if trial.seats[s.seat].face_up_count != 14:
                continue
            fixed, finished = legal_reading(trial, ruleset, [s.seat], options, **legal)
            if finished:
                found.append((_own_cost(trial, fixed.changes, s.seat), trial, fixed, r))
        if found:
            _, trial, fixed, r = min(found, key=lambda f: f[0])
            return trial, fixed, s.seat, r
    return None


_STRAY_NOTE = ("seat {seat}: a box read as {tile} at {conf:.2f}, one tile more than a hand holds, "
               "left out as a stray")
_SPARE_NOTE = ("seat {seat}: a box beside a tile of its row, left out as a second box of that "
               "tile, read as the tile its finished hand lacks")


def recovered_winner(table: TableReading, ruleset: str | None,
                     options: Mapping[str, Any] | None, reread: Reread,
                     seats: Sequence[int] | None = None, **legal: Any
                     ) -> tuple[TableReading, Repair, int, str] | None:
    """A winner the first reading missed by one box: a spare box taken back
    (:func:`spare_winner`), else a stray box left out (:func:`stray_winner`); the table, its
    repair, the seat and the record's note saying so, or ``None``. Photos and video share it."""
    spare = spare_winner(table, ruleset, options, reread, seats, **legal)
    if spare is not None:
        return (*spare, _SPARE_NOTE.format(seat=spare[2]))
    stray = stray_winner(table, ruleset, options, reread, seats, **legal)
    if stray is not None:
        return (*stray[:3], _stray_note(table, stray[2], stray[3]))
    return None


def _stray_note(table: TableReading, seat: int, row: int) -> str:
    """What :func:`stray_winner` left out, for the record's notes (``table``: the reading
    before, whose detections name the box)."""
    dets = table.detections
    return _STRAY_NOTE.format(seat=seat, tile=TILE_NAMES[int(dets.class_id[row])],
                              conf=float(dets.confidence[row]))


def _read_winner(table: TableReading, ruleset: str, options: Mapping[str, Any] | None,
                 notes: list[str], reread: Reread
                 ) -> tuple[TableReading, Repair, int | None]:
    """The winner among the seats laying down 14 tiles: the first whose hand a probable
    reading finishes (a misread discard or flower can make a second seat look like 14).
    Failing that, a seat laying down 13 with a spare box beside its row (a box left out as a
    second box of its neighbour's tile, ``SeatReading.spare_rows``) whose hand that box
    finishes: the table read again (``reread``) with the box kept in the row. Failing that too,
    a seat laying down 15 whose hand finishes without one of its unsure boxes
    (:func:`stray_winner`)."""
    seats = showing_fourteen(table)
    for seat in seats:
        trial = copy.deepcopy(table) if len(seats) > 1 else table
        fixed, finished = legal_reading(trial, ruleset, [seat], options)
        if finished:
            return trial, fixed, seat
    found = recovered_winner(table, ruleset, options, reread)
    if found is not None:
        notes.append(found[3])
        return found[:3]
    if seats:  # 14 tiles that no probable reading finishes: a player mid-turn, no win
        notes.append(f"seat {' or '.join(map(str, seats))} holds 14 tiles but no probable "
                     "reading is a finished hand; recorded as no win")
    fixed, _ = legal_reading(table, ruleset, [], options)
    return table, fixed, None


def read_detections(dets: TileDetections, calib: TableCalibration, *, ruleset: str,
                    dealer: int = 0, winner: int | None = None, by: str | None = None,
                    from_seat: int | None = None, winning_tile: Tile | None = None,
                    options: Mapping[str, Any] | None = None,
                    layout: TableLayout | None = None,
                    name_at: NameAt | None = None) -> ImageReading:
    """Detections of one picture to a hand record (see :func:`read_image`; ``name_at``, the
    crop classifier on boxes of the picture, names a box taken back into a row again at its
    tile's place: :func:`vision.geometry.read_table`)."""
    table, reread = read_once(dets, calib, layout, name_at, still=True)
    notes: list[str] = []
    if winner is None:
        table, fixed, winner = _read_winner(table, ruleset, options, notes, reread)
    else:
        fixed, finished = legal_reading(table, ruleset, [winner], options,
                                        keep_unfinished=True, bound=None)
        found = None if finished else recovered_winner(table, ruleset, options, reread,
                                                       [winner])
        if found is not None:
            table, fixed, _, note = found
            notes.append(note)
    notes[:0] = [f"{TILE_NAMES[int(dets.class_id[r])]} read as {TILE_NAMES[t]} by where it "
                 "lies (a meld's set, a flower's row)" for r, t in table.corrected.items()]
    if not fixed.legal:
        notes.append("impossible reading left as seen: " + "; ".join(fixed.problems))
    for c in fixed.changes:
        if is_flower(c.old) and not is_flower(c.new):
            notes.append(f"changed {c}: no flower, left out of the flowers (the table shows "
                         "every flower already)")
        else:
            notes.append(f"changed {c} (the legal reading most likely from the top-k classes)")
    dice = read_dice(table.detections)
    if dice is not None:
        wb, note = wall_break(ruleset, dealer, [dice.faces], options)
        dice = replace(dice, wall_break=wb, note=note)
    record, more = build_record(table, ruleset=ruleset, dealer=dealer, winner=winner, by=by,
                                from_seat=from_seat, winning_tile=winning_tile, dice=dice,
                                options=options)
    out = ImageReading(detections=table.detections, table=table, repair=fixed, dice=dice,
                       record=record, notes=notes + more)
    out.waits = table_waits(table, ruleset, options)
    return out


def read_image(image: np.ndarray, detector: Any, *, ruleset: str,
               corners: Sequence[Sequence[float]] | None = None, bottom_seat: int = 0,
               **kwargs: Any) -> ImageReading:
    """A photo of the table to a hand record: ``detector`` is a :class:`vision.Detector`;
    ``kwargs`` go to :func:`read_detections` (dealer, winner, by, from_seat, winning_tile).

    A table turned under the camera is read in the picture turned to square it
    (:class:`vision.squaring.Squaring`), its boxes given back in the picture's pixels. How
    the rows run is told by the boxes alone, before any is named: a turned picture's names
    would be thrown away with its boxes."""
    found = detector.find(image)
    squaring = Squaring.of(found, (image.shape[1], image.shape[0]))
    if squaring is None:
        dets = detector.name(image, found)
        kwargs.setdefault("name_at", name_at_of(detector, image))
        return read_detections(dets, calibrate(image, corners, bottom_seat, dets),
                               ruleset=ruleset, **kwargs)
    at = squared_corners(image, squaring, corners, found)
    view = squaring.image(image)
    dets = detector.at_size(detector.size_used).detect(view)
    kwargs.setdefault("name_at", name_at_of(detector, view))
    reading = read_detections(dets, calibrate(view, at, bottom_seat, dets, look=False),
                              ruleset=ruleset, **kwargs)
    return squaring.reading_back(reading)


def squared_corners(image: np.ndarray, squaring: Squaring,
                    corners: Sequence[Sequence[float]] | None,
                    dets: TileDetections) -> list[list[float]] | None:
    """The table's corners in the squared view: those given, else those found in the picture
    itself where they hold its tiles (``dets``, found in the picture), as :func:`calibrate`
    finds them (in the view, the picture's own turned edges would outline no table)."""
    if corners is None:
        corners = _corners_found(image, dets)
    return None if corners is None else order_corners(squaring.points(corners)).tolist()
