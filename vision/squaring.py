"""A table turned under the camera, squared: the picture turned so that the table's rows run
along its axes before the tiles are found, named and seated.

The detector and the classifier learned tiles lying along the picture's axes (or a quarter
turn from them), and a box is upright: a row turned 30 degrees or more is boxed as a run of
overlapping squares, some of them lost to suppression, and its crops are read turned. Turning
the picture back costs one more pass over it, and only a turned table pays it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from vision.detections import TileDetections
from vision.geometry import row_angle

SQUARE_FROM = np.radians(12.0)  # a table turned less than this is read as it is
LEAST_TILES = 12  # tiles and backs that must be found to tell how the rows run
MARGIN = 3.0  # tile lengths of view kept beyond the farthest tile found


def turned_picture(picture: np.ndarray, degrees: float) -> np.ndarray:
    """``picture`` as a camera turned ``degrees`` about its axis takes it, nothing cut off
    (the corners beyond it its median colour): what the tests and ``bench/turned_bench.py``
    read."""
    h, w = picture.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    c, s = abs(matrix[0, 0]), abs(matrix[0, 1])
    size = (int(w * c + h * s), int(w * s + h * c))
    matrix[:, 2] += (size[0] / 2 - w / 2, size[1] / 2 - h / 2)
    fill = tuple(float(v) for v in np.median(picture.reshape(-1, 3), axis=0))
    return cv2.warpAffine(picture, matrix, size, borderValue=fill)


@dataclass(frozen=True)
class Squaring:
    """The turn of a picture about its tiles' middle that squares the table's rows. The view
    is centred on that middle, as large as the picture and larger where the turned tiles and
    a margin need it: a tile keeps its size in pixels, and so the size it is found at."""

    matrix: np.ndarray  # (2, 3) picture pixels -> view pixels
    size: tuple[int, int]  # the view's width and height
    frame: tuple[int, int]  # the picture's
    turn: float  # radians the rows ran from the picture's x axis, within +-45 degrees

    @classmethod
    def of(cls, dets: TileDetections, frame: tuple[int, int]) -> Squaring | None:
        """The squaring of a picture (``frame``: width, height) in which ``dets`` were found,
        or None when its rows already run near its axes or too few tiles show them."""
        pts = dets.center[dets.is_tile | dets.is_back]
        if len(pts) < LEAST_TILES:
            return None
        turn = row_angle(pts)
        if abs(turn) < SQUARE_FROM:
            return None
        middle = np.median(pts, axis=0)
        matrix = cv2.getRotationMatrix2D((float(middle[0]), float(middle[1])),
                                         float(np.degrees(turn)), 1.0)
        boxes = dets.xyxy[dets.is_tile | dets.is_back]
        margin = MARGIN * float(np.median((boxes[:, 2:] - boxes[:, :2]).max(axis=1)))
        turned = pts @ matrix[:, :2].T + matrix[:, 2]  # about the middle, which stays put
        reach = np.abs(turned - middle).max(axis=0) + margin
        size = np.maximum(np.array(frame, np.float64), 2 * reach).round().astype(int)
        matrix[:, 2] += size / 2 - middle
        return cls(matrix=matrix, size=(int(size[0]), int(size[1])),
                   frame=(int(frame[0]), int(frame[1])), turn=turn)

    def image(self, picture: np.ndarray) -> np.ndarray:
        """The squared view; what turns in from beyond the picture is its median colour (the
        cloth, mostly), not a copy of its edge that could look like tiles."""
        fill = tuple(float(v) for v in np.median(picture[::8, ::8].reshape(-1, 3), axis=0))
        return cv2.warpAffine(picture, self.matrix, self.size, flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=fill)

    def points(self, pts: Any) -> np.ndarray:
        """(N, 2) picture pixels to view pixels."""
        pts = np.asarray(pts, np.float64).reshape(-1, 2)
        return pts @ self.matrix[:, :2].T + self.matrix[:, 2]

    def boxes_back(self, xyxy: np.ndarray, kept: np.ndarray | None = None) -> np.ndarray:
        """(N, 4) view boxes to the picture's: the upright box around each turned back (a
        tile lies along the view's axes, so that is the box around the tile), or, for the
        rows ``kept`` marks (dice, which lie any way in either), a box of the same size about
        its centre turned back (the box around a box would be larger than either)."""
        back = cv2.invertAffineTransform(self.matrix)
        box = np.asarray(xyxy, np.float64).reshape(-1, 4)
        x0, y0, x1, y1 = box.T
        corners = np.stack([np.c_[x0, y0], np.c_[x1, y0], np.c_[x1, y1], np.c_[x0, y1]], 1)
        pts = corners @ back[:, :2].T + back[:, 2]
        out = np.c_[pts.min(axis=1), pts.max(axis=1)]
        if kept is not None and kept.any():
            mid = pts[kept].mean(axis=1)
            half = (box[kept, 2:] - box[kept, :2]) / 2
            out[kept] = np.c_[mid - half, mid + half]
        w, h = self.frame
        return np.clip(out, 0, [w, h, w, h]).astype(np.asarray(xyxy).dtype)

    def table_back(self, table: Any) -> Any:
        """A :class:`vision.geometry.TableReading` of the view with its boxes in the picture's
        pixels (what is drawn, saved or compared); the places named again during the
        reading stay the view's."""
        dets = table.detections
        return replace(table, detections=dets.with_(xyxy=self.boxes_back(dets.xyxy,
                                                                         dets.is_die)))

    def reading_back(self, reading: Any) -> Any:
        """An :class:`vision.reading.ImageReading` of the view with its boxes in the
        picture's pixels, as :meth:`table_back` gives its table's."""
        table = self.table_back(reading.table)
        return replace(reading, detections=table.detections, table=table)
