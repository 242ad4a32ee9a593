"""Tiles read too unsurely to trust unchecked: the ones a person should look at first.

A tile's confidence is the detector's score times the crop classifier's probability of the kind
read. Under ``LOW_CONFIDENCE`` the dashboard marks the tile and offers its other readings,
``mjtable read --details`` lists it, and ``mjtable eval --tables`` counts how many misreads such
marks hold: on 200 held-back real-face tables (REALVAL6) 6.2% of the face-up tiles at the seats
are marked and they hold 121 of the 234 misread (MODELS.md, twenty-third session).
"""

from __future__ import annotations

from typing import Any

from scoring.tiles import NUM_TILES, TILE_NAMES
from vision.detections import TileDetections
from vision.geometry import TableReading

LOW_CONFIDENCE = 0.5  # a tile read with less is marked and offered its other readings
OTHER_READINGS = 3  # the likeliest kinds a list names for a marked tile


def topk_of(dets: Any, row: int) -> list[tuple[int, float]]:
    """A detection's best readings, most probable first (tile kinds only)."""
    if not len(dets.topk_ids):
        return []
    return [(int(t), float(p)) for t, p in zip(dets.topk_ids[row], dets.topk_probs[row],
                                               strict=False) if 0 <= t < NUM_TILES and p > 0]


def is_unsure(dets: TileDetections, row: int) -> bool:
    return float(dets.confidence[row]) < LOW_CONFIDENCE


def unsure_tiles(table: TableReading) -> list[dict[str, Any]]:
    """The seats' face-up tiles (hand, melds, flowers) read with too little confidence, each
    with where it lies, its box, its confidence and its likeliest readings (JSON-ready)."""
    dets = table.detections
    out: list[dict[str, Any]] = []

    def add(row: int, seat: int, where: str) -> None:
        if not is_unsure(dets, row):
            return
        out.append({"seat": seat, "where": where, "read": TILE_NAMES[int(dets.class_id[row])],
                    "confidence": round(float(dets.confidence[row]), 3),
                    "box": [round(float(v), 1) for v in dets.xyxy[row]],
                    "readings": [{"tile": TILE_NAMES[t], "p": round(p, 3)}
                                 for t, p in topk_of(dets, row)[:OTHER_READINGS]]})

    for s in table.seats:
        for r, part, i in s.face_up(dets.is_tile):
            add(r, s.seat, f"meld {i + 1}" if part == "meld" else part)
    return out
