"""Cutting the classifier's input from a full-resolution frame.

Training crops and runtime crops must be cut the same way, so both use :func:`crop_box`: the box
grown by ``pad`` of its size on each side, clipped to the image, resized to ``size`` x ``size``
without keeping the aspect ratio (tiles lie at any angle, so a square input loses nothing).
A die's top face reads the same turned or mirrored, so its crops are also seen in all eight
square symmetries (:func:`dihedral`): for training variety, and averaged at inference.
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


def crop_box(image: np.ndarray, box_xyxy: tuple[float, float, float, float] | np.ndarray,
             size: int = CROP_SIZE, pad: float = CROP_PAD) -> np.ndarray:
    """The ``size`` x ``size`` BGR crop of one box (pixel x1, y1, x2, y2) of ``image``."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in box_xyxy)
    if x2 <= x1 or y2 <= y1:
        raise ValueError(f"empty box {x1:.1f},{y1:.1f},{x2:.1f},{y2:.1f}")
    dx, dy = (x2 - x1) * pad, (y2 - y1) * pad
    xa, ya = max(0, round(x1 - dx)), max(0, round(y1 - dy))
    xb, yb = min(w, round(x2 + dx)), min(h, round(y2 + dy))
    if xb - xa < 2 or yb - ya < 2:
        raise ValueError(f"box {x1:.1f},{y1:.1f},{x2:.1f},{y2:.1f} lies outside the {w}x{h} image")
    return cv2.resize(image[ya:yb, xa:xb], (size, size), interpolation=cv2.INTER_AREA)


def padded_probs(image: np.ndarray, boxes: np.ndarray, probs: Callable[[list[np.ndarray]],
                 np.ndarray], pads: Sequence[float] = READ_PADS, size: int = CROP_SIZE,
                 weigh: Callable[[list[np.ndarray], np.ndarray], np.ndarray] | None = None
                 ) -> np.ndarray:
    """Class probabilities of each box (one row a box) from its crops at every pad, their
    odds multiplied and normalised (``weigh``: applied to each pad's crops and probabilities,
    as the ink's colour is)."""
    logs = []
    for pad in pads:
        crops = [crop_box(image, box, size=size, pad=pad) for box in boxes]
        out = probs(crops)
        if weigh is not None:
            out = weigh(crops, out)
        logs.append(np.log(np.clip(out, 1e-6, 1.0)))
    mean = np.mean(logs, axis=0)
    odds = np.exp(mean - mean.max(axis=1, keepdims=True))
    return (odds / odds.sum(axis=1, keepdims=True)).astype(np.float32)


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
