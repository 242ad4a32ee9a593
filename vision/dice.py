"""Dice: read the top faces, sum them, and ask the ruleset where the wall is broken.

A model that names faces (``die1``..``die6`` in the detector or the classifier) is trusted; a die
it leaves unread (face 0) is read here by counting pips: the die crop is binarized and the small,
round blobs of the die's minority colour are counted. That works for the usual white die with
black or red pips and for dark dice with white pips.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from scoring.rulesets.base import WallBreak
from scoring.rulesets.registry import read_wall_break as wall_break

__all__ = ["DiceReading", "read_dice", "wall_break"]  # wall_break: the registry's one wrapper
from vision.detections import TileDetections

PIP_SIZE = 96  # dice crops are normalized to this many pixels across


def count_pips(crop_bgr: np.ndarray) -> int:
    """The number of pips (1..6) on one die crop (BGR, the die filling most of it); 0 if unsure.

    Pips differ from the die body in brightness or in colour (red or yellow pips on marbled
    dice), so several channels are tried in both polarities and the most regular set of round,
    equal blobs wins.
    """
    if crop_bgr.size == 0 or min(crop_bgr.shape[:2]) < 6:
        return 0
    crop = cv2.resize(crop_bgr, (PIP_SIZE, PIP_SIZE), interpolation=cv2.INTER_CUBIC)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)
    channels = (lab[..., 0], crop.min(axis=2), lab[..., 1], lab[..., 2], hsv[..., 1])
    best, best_score = 0, 0.0
    for channel in channels:
        blur = cv2.GaussianBlur(channel, (5, 5), 0)
        _, binary = cv2.threshold(blur, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        for pips in (binary, 255 - binary):
            n, score = _round_blobs(pips)
            if 1 <= n <= 6 and score > best_score:
                best, best_score = n, score
    return best


def _round_blobs(mask: np.ndarray) -> tuple[int, float]:
    """How many pip-like blobs the mask holds, and how alike they are (higher is surer)."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    area_total = mask.shape[0] * mask.shape[1]
    areas = []
    margin = 2
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if x <= margin or y <= margin or x + w >= mask.shape[1] - margin \
                or y + h >= mask.shape[0] - margin:
            continue  # touches the crop edge: background or the die outline
        if not 0.004 * area_total <= area <= 0.09 * area_total:
            continue
        if max(w, h) > 1.8 * min(w, h) or area < 0.5 * w * h:
            continue
        areas.append(area)
    if not areas:
        return 0, 0.0
    a = np.array(areas, np.float32)
    median = float(np.median(a))
    alike = a[(a > 0.5 * median) & (a < 2.0 * median)]
    if len(alike) != len(a) or len(a) > 6:
        return 0, 0.0  # stray blobs of other sizes: this channel does not separate the pips
    spread = float(a.std() / max(a.mean(), 1.0))
    return len(a), (1.0 - spread) * (0.8 + 0.05 * len(a))


def read_faces(image: np.ndarray, dets: TileDetections) -> TileDetections:
    """Fill the face of every die the models left unread, by counting its pips."""
    todo = np.flatnonzero(dets.is_die & (dets.face == 0))
    if not len(todo):
        return dets
    face = dets.face.copy()
    h, w = image.shape[:2]
    for i in todo:
        x1, y1, x2, y2 = dets.xyxy[i]
        crop = image[max(0, int(y1)):min(h, int(np.ceil(y2))),
                     max(0, int(x1)):min(w, int(np.ceil(x2)))]
        face[i] = count_pips(crop)
    return dets.with_(face=face)


@dataclass(frozen=True)
class DiceReading:
    """The dice of one roll: faces, sum, and where the ruleset breaks the wall once the rolls
    it needs are in (see :func:`wall_break`)."""

    faces: tuple[int, ...]
    boxes: tuple[tuple[float, float, float, float], ...]
    wall_break: WallBreak | None = None
    note: str = ""

    @property
    def total(self) -> int:
        return sum(self.faces)

    @property
    def lying(self) -> DiceLying:
        """What must hold for the roll to count: these faces, lying where they are."""
        return DiceLying(self.faces, tuple(((x1 + x2) / 2, (y1 + y2) / 2, max(x2 - x1, y2 - y1))
                                           for x1, y1, x2, y2 in self.boxes))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"faces": list(self.faces), "total": self.total}
        if self.wall_break is not None:
            wb = self.wall_break
            out["wall_break"] = {"wall_seat": wb.wall_seat, "stacks_skipped": wb.stacks_skipped,
                                 "indicator_stack": wb.indicator_stack,
                                 "explanation": wb.explanation}
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True, eq=False)
class DiceLying:
    """Dice faces and where each die lies (centre x, y and size in pixels). Two are equal when
    the faces are the same and no die moved more than :data:`DIE_MOVED` of its size: tumbling
    dice that happen to show the same faces in two frames are no roll yet, while settled dice
    read with a pixel of jitter are the same roll."""

    faces: tuple[int, ...]
    places: tuple[tuple[float, float, float], ...]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DiceLying) or sorted(self.faces) != sorted(other.faces):
            return False
        left = list(zip(other.faces, other.places, strict=True))
        for face, (x, y, size) in zip(self.faces, self.places, strict=True):
            near = [k for k, (f, (ox, oy, _)) in enumerate(left)
                    if f == face and np.hypot(x - ox, y - oy) <= DIE_MOVED * size]
            if not near:
                return False
            del left[near[0]]
        return True

    __hash__ = None  # type: ignore[assignment]  # equality with a tolerance: not hashable


DIE_MOVED = 0.5  # a die whose centre moved more than this share of its size is still rolling


def read_dice(dets: TileDetections, count: int = 2) -> DiceReading | None:
    """The ``count`` most confident read dice as one roll; ``None`` when fewer are visible."""
    dice = dets[dets.is_die & (dets.face > 0)]
    if len(dice) < count:
        return None
    best = np.argsort(-dice.confidence, kind="stable")[:count]
    best = best[np.argsort(dice.center[best, 0], kind="stable")]  # left to right, stable order
    return DiceReading(faces=tuple(int(f) for f in dice.face[best]),
                       boxes=tuple((float(x1), float(y1), float(x2), float(y2))
                                   for x1, y1, x2, y2 in dice.xyxy[best]))


