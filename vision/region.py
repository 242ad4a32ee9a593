"""The part of the frame that holds the table: where a full pass looks once it is calibrated.

A live camera sees more than the table (floor, a neighbouring table): in the bundled video the
table spans about 60% of the frame's width. Once the table is calibrated, a full detection pass
runs on the calibrated table's bounding box plus a margin (:func:`table_region`), cut from the
whole-frame detector input at its scale (:func:`vision.changes.find_region`), not on the frame.

The margin is counted in tile lengths: the larger of the tiles measured when calibrating and a
whole-table tile (1/40 of the frame's long side), so few or small boxes never shrink it.
Whatever lies beyond the region is not seen; a box reaching its border lies a margin beyond the
table and is no tile of it (a neighbouring table's, which the table reading would call
``outside`` anyway), so it is dropped (:func:`inside`) rather than read cut in half.
"""

from __future__ import annotations

import numpy as np

from vision.detections import TileDetections
from vision.geometry import TableCalibration

Region = tuple[int, int, int, int]  # x0, y0, x1, y1 in frame pixels

# tile lengths beyond a table outlined by its corners: hands stand at the edge and, seen at a
# slant, rise above it
CORNER_MARGIN = 2.0
# tile lengths beyond the square a calibration from tiles fits around them (their ring spans 85%
# of it): fitted to a wall alone (no hand dealt yet), the hands lie farther out (in the bundled
# video, 1.25 tile lengths beyond that square), and melds and flowers beside them
GUESSED_MARGIN = 4.0
TILES_PER_FRAME = 40  # a whole-table tile: ~1/40 of the frame's long side (detector.TABLE_SIZE)
FULL_SHARE = 0.9  # a region over more of the frame than this: read the frame whole
EDGE = 3.0  # px: a box this near the region's border (inside the frame) reaches it


def tile_length(dets: TileDetections | None, frame: tuple[int, int]) -> float:
    """A tile's length in frame pixels: the median long side of the tiles found (at least 4),
    and never less than a whole-table tile of ``frame`` (width, height)."""
    floor = max(frame) / TILES_PER_FRAME
    if dets is None:
        return floor
    tiles = dets.is_tile | dets.is_back
    if tiles.sum() < 4:
        return floor
    sides = dets.xyxy[tiles, 2:] - dets.xyxy[tiles, :2]
    return max(floor, float(np.median(sides.max(axis=1))))


def table_region(calib: TableCalibration, dets: TileDetections | None,
                 frame: tuple[int, int]) -> Region | None:
    """The calibrated table's bounding box in the picture plus a margin, clipped to ``frame``
    (width, height); ``None`` (read the whole frame) when it covers most of the frame (a
    calibration guessed from the frame alone covers all of it) or the table square does not
    lie wholly in front of the camera."""
    w, h = frame
    t = np.linspace(-1.0, 1.0, 17)
    one = np.ones_like(t)
    border = np.concatenate([np.c_[t, -one], np.c_[one, t], np.c_[t, one], np.c_[-one, t]])
    homog = np.c_[border, np.ones(len(border))] @ np.linalg.inv(calib.homography).T
    scale = homog[:, 2]
    if not (np.all(scale > 1e-9) or np.all(scale < -1e-9)):
        return None  # the square crosses the horizon: its picture is no bounded shape
    pts = homog[:, :2] / scale[:, None]
    if not np.isfinite(pts).all():
        return None
    margin = (GUESSED_MARGIN if calib.guessed else CORNER_MARGIN) * tile_length(dets, frame)
    x0, y0 = np.floor(pts.min(axis=0) - margin)
    x1, y1 = np.ceil(pts.max(axis=0) + margin)
    region = (int(max(0, x0)), int(max(0, y0)), int(min(w, x1)), int(min(h, y1)))
    area = (region[2] - region[0]) * (region[3] - region[1])
    if region[2] <= region[0] or region[3] <= region[1] or area > FULL_SHARE * w * h:
        return None
    return region


def inside(xyxy: np.ndarray, region: Region, frame: tuple[int, int]) -> np.ndarray:
    """(N,) bool: the box lies in ``region``, clear of each of its borders that is not the
    frame's (``frame``: width, height) by ``EDGE`` px."""
    x0, y0, x1, y1 = region
    w, h = frame
    lo_x = x0 + EDGE if x0 > 0 else -np.inf
    lo_y = y0 + EDGE if y0 > 0 else -np.inf
    hi_x = x1 - EDGE if x1 < w else np.inf
    hi_y = y1 - EDGE if y1 < h else np.inf
    return np.asarray((xyxy[:, 0] >= lo_x) & (xyxy[:, 1] >= lo_y) & (xyxy[:, 2] <= hi_x)
                      & (xyxy[:, 3] <= hi_y))
