"""What the dashboard takes from one camera reading (a ``vision.pipeline.FrameResult``), without
Qt: the seats as scoring sees them, where each detected tile sits in the hand, and the unsure
tiles' other readings. The camera worker and the showdown core share these."""

from __future__ import annotations

from typing import Any

from scoring.record import Seat
from ui.dashboard.core import TileRef
from vision.unsure import is_unsure, topk_of


def suggestions_from(result: Any) -> dict[TileRef, list[tuple[int, float]]]:
    """Each standing tile's top-k readings, keyed by where it sits in its seat's hand."""
    dets = result.detections
    out: dict[TileRef, list[tuple[int, float]]] = {}
    for row, ref in tile_refs(result).items():
        top = topk_of(dets, row)
        if top and is_unsure(dets, row):
            out[ref] = top
    return out


def live_seats(result: Any) -> list[Seat]:
    """What each seat shows right now, as scoring's Seat (hidden hands stay empty)."""
    from vision.reading import scoring_melds

    seats = []
    for s in result.table.seats:
        seats.append(Seat(concealed=() if s.hidden else tuple(s.hand),
                          melds=scoring_melds(s.melds, s.seat), flowers=tuple(s.flowers)))
    return seats


def hidden_counts(result: Any) -> dict[int, int]:
    """Standing tiles seen only from behind, per seat (drawn as tile backs)."""
    return {s.seat: s.hidden for s in result.table.seats if s.hidden}


def tile_refs(result: Any) -> dict[int, TileRef]:
    """Detection row -> where that tile sits, so clicking a box corrects the right tile."""
    from vision.reading import scoring_melds

    refs: dict[int, TileRef] = {}
    dets = result.detections
    for s in result.table.seats:
        melds = scoring_melds(s.melds, s.seat)
        free = [list(range(len(m.tiles))) for m in melds]  # the record orders a meld itself
        for row, part, i in s.face_up(dets.is_tile):
            if part != "meld":
                refs[row] = TileRef(s.seat, "concealed" if part == "hand" else part, i)
            elif i < len(melds):
                tile = int(dets.class_id[row])
                j = next((j for j in free[i] if melds[i].tiles[j] == tile), None)
                if j is not None:
                    free[i].remove(j)
                    refs[row] = TileRef(s.seat, "melds", j, i)
    return refs
