"""Cutting the classifier's input from a full-resolution frame.

Training crops and runtime crops must be cut the same way, so both use :func:`crop_box`: the box
grown by ``pad`` of its size on each side, clipped to the image, resized to ``size`` x ``size``
without keeping the aspect ratio (tiles lie at any angle, so a square input loses nothing).
A die's top face reads the same turned or mirrored, so its crops are also seen in all eight
square symmetries (:func:`dihedral`): for training variety, and averaged at inference.
A tile the classifier is unsure of is read again turned a little either way
(:func:`turned_crop`): a tile lying askew, or a face printed crooked, reads better so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

CROP_PAD = 0.10
CROP_SIZE = 64
# a tile is named from two crops, tight and loose, their odds multiplied: on labeled face boxes
# of held-back tables (REALVAL4, REALVAL3, ARTVAL) read once, 95.05%, 95.51%, 99.92% right,
# against 94.12%, 94.16%, 99.84% from the training pad alone; in four turns 95.70%, 96.26%,
# 99.88% against 95.18%, 95.68%, 99.88% (bench/crop_pads.py; MODELS.md, eighteenth session)
READ_PADS = (0.0, 0.2)
# a tile whose likeliest class is under ASKEW_BELOW is read again at every pad turned by each of
# ASKEW (degrees), the odds of all its crops multiplied: seats exactly right on REALVAL6 and 7
# 629 -> 635 and 641 -> 657 of 800, on the untouched REALVAL9 943 -> 971 of 1,200, `eval`'s
# time a scene +15% (every tile turned: about the same seats at twice the time; other angles
# and pads read fewer over the two). MODELS.md, twenty-eighth session
ASKEW = (-15.0, 15.0)
ASKEW_BELOW = 0.9
ASKEW_MARGIN = 0.35  # of the box a side cut beyond the crop, so turned corners show the image


def _grown(image: np.ndarray, box_xyxy: tuple[float, float, float, float] | np.ndarray,
           pad: float) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """The part of ``image`` under one box grown by ``pad`` of its size a side, clipped to the
    image, and the grown box's own pixel bounds (x1, y1, x2, y2), which may lie outside it."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in box_xyxy)
    if x2 <= x1 or y2 <= y1:
        raise ValueError(f"empty box {x1:.1f},{y1:.1f},{x2:.1f},{y2:.1f}")
    dx, dy = (x2 - x1) * pad, (y2 - y1) * pad
    xa, ya, xb, yb = round(x1 - dx), round(y1 - dy), round(x2 + dx), round(y2 + dy)
    part = image[max(0, ya):min(h, yb), max(0, xa):min(w, xb)]
    if part.shape[0] < 2 or part.shape[1] < 2:
        raise ValueError(f"box {x1:.1f},{y1:.1f},{x2:.1f},{y2:.1f} lies outside the {w}x{h} image")
    return part, (xa, ya, xb, yb)


def crop_box(image: np.ndarray, box_xyxy: tuple[float, float, float, float] | np.ndarray,
             size: int = CROP_SIZE, pad: float = CROP_PAD) -> np.ndarray:
    """The ``size`` x ``size`` BGR crop of one box (pixel x1, y1, x2, y2) of ``image``."""
    part, _ = _grown(image, box_xyxy, pad)
    return cv2.resize(part, (size, size), interpolation=cv2.INTER_AREA)


def turned_crop(image: np.ndarray, box_xyxy: tuple[float, float, float, float] | np.ndarray,
                degrees: float, size: int = CROP_SIZE, pad: float = CROP_PAD) -> np.ndarray:
    """The crop :func:`crop_box` cuts, turned ``degrees`` counter-clockwise about its middle
    (in the square the classifier sees); its corners show the image around the box, the
    edge's pixels repeated where the box lies near the image's edge."""
    h, w = image.shape[:2]
    grow = pad + ASKEW_MARGIN
    part, (xa, ya, xb, yb) = _grown(image, box_xyxy, grow)
    part = cv2.copyMakeBorder(part, max(0, -ya), max(0, yb - h), max(0, -xa), max(0, xb - w),
                              cv2.BORDER_REPLICATE)
    big = round(size * (1 + 2 * grow) / (1 + 2 * pad))
    part = cv2.resize(part, (big, big), interpolation=cv2.INTER_AREA)
    turn = cv2.getRotationMatrix2D((big / 2, big / 2), degrees, 1.0)
    part = cv2.warpAffine(part, turn, (big, big), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
    o = (big - size) // 2
    return np.ascontiguousarray(part[o:o + size, o:o + size])


def _normalised(log_odds: np.ndarray) -> np.ndarray:
    odds = np.exp(log_odds - log_odds.max(axis=1, keepdims=True))
    return (odds / odds.sum(axis=1, keepdims=True)).astype(np.float32)


def padded_probs(image: np.ndarray, boxes: np.ndarray, probs: Callable[[list[np.ndarray]],
                 np.ndarray], pads: Sequence[float] = READ_PADS, size: int = CROP_SIZE,
                 weigh: Callable[[list[np.ndarray], np.ndarray], np.ndarray] | None = None,
                 askew: Sequence[float] = (), askew_below: float = ASKEW_BELOW) -> np.ndarray:
    """Class probabilities of each box (one row a box) from its crops at every pad, their
    odds multiplied and normalised (``weigh``: applied to each pad's crops and probabilities,
    as the ink's colour is). A box whose likeliest class comes out under ``askew_below`` is
    read again at every pad turned by each angle of ``askew``, the odds of all its crops
    multiplied."""

    def logs_of(crops: list[np.ndarray]) -> np.ndarray:
        out = probs(crops)
        if weigh is not None:
            out = weigh(crops, out)
        return np.log(np.clip(out, 1e-6, 1.0))

    logs = [logs_of([crop_box(image, box, size=size, pad=pad) for box in boxes])
            for pad in pads]
    mean = np.mean(logs, axis=0)
    if askew and len(boxes):
        unsure = np.flatnonzero(_normalised(mean).max(axis=1) < askew_below)
        if len(unsure):
            more = [lg[unsure] for lg in logs]
            more += [logs_of([turned_crop(image, boxes[i], deg, size, pad) for i in unsure])
                     for pad in pads for deg in askew]
            mean[unsure] = np.mean(more, axis=0)
    return _normalised(mean)


def jitter_box(box_xyxy: np.ndarray, rng: np.random.Generator, shift: float = 0.06,
               scale: float = 0.08) -> np.ndarray:
    """A box moved and resized by a few percent, as a detector's box differs from a label."""
    x1, y1, x2, y2 = box_xyxy
    bw, bh = x2 - x1, y2 - y1
    cx = (x1 + x2) / 2 + rng.uniform(-shift, shift) * bw
    cy = (y1 + y2) / 2 + rng.uniform(-shift, shift) * bh
    bw *= 1 + rng.uniform(-scale, scale)
    bh *= 1 + rng.uniform(-scale, scale)
    return np.array([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2])


def dihedral(crop: np.ndarray, k: int) -> np.ndarray:
    """The ``k``-th (0..7) of the eight square symmetries: ``k % 4`` quarter turns, then a
    mirror when ``k >= 4``."""
    out = np.rot90(crop, k % 4)
    return np.ascontiguousarray(out[:, ::-1] if k >= 4 else out)


def symmetric_probs(crops: list[np.ndarray],
                    probs: Callable[[list[np.ndarray]], np.ndarray],
                    symmetries: int = 8) -> np.ndarray:
    """Class probabilities of ``crops`` averaged over the first ``symmetries`` of their eight
    (4: the quarter turns alone, for a tile, whose mirror image is no tile), in one batch."""
    if not crops or symmetries <= 1:
        return probs(crops)
    out = probs([dihedral(c, k) for k in range(symmetries) for c in crops])
    return out.reshape(symmetries, len(crops), -1).mean(axis=0)
