"""Detection metrics that need only numpy: COCO-style AP, precision/recall, multisets, confusions.

Why our own: ``mjtable eval`` must score ONNX models (ours, the two-stage pipeline and the
reference ``mahjong-detector``) the same way without torch or ultralytics installed. AP follows
COCO: predictions sorted by score, each matched greedily to the unmatched ground truth of the same
class with the highest IoU at or above the threshold; precision made monotone, sampled at 101
recall points; mAP@0.5:0.95 averages ten IoU thresholds 0.50..0.95.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

IOU_THRESHOLDS: np.ndarray = np.linspace(0.5, 0.95, 10)


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box of ``a`` (N, 4 xyxy) with every box of ``b`` (M, 4): an (N, M) array."""
    a = np.asarray(a, dtype=float).reshape(-1, 4)
    b = np.asarray(b, dtype=float).reshape(-1, 4)
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(rb - lt, 0, None), axis=2)
    area_a = np.prod(a[:, 2:] - a[:, :2], axis=1)
    area_b = np.prod(b[:, 2:] - b[:, :2], axis=1)
    union = area_a[:, None] + area_b[None, :] - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)


def average_precision(tp: np.ndarray, scores: np.ndarray, n_gt: int) -> float:
    """COCO 101-point AP of one class at one IoU threshold; ``tp`` flags each prediction."""
    if n_gt == 0:
        return float("nan")
    if len(tp) == 0:
        return 0.0
    order = np.argsort(-np.asarray(scores), kind="stable")
    hits = np.asarray(tp, dtype=float)[order]
    ctp, cfp = np.cumsum(hits), np.cumsum(1 - hits)
    recall = ctp / n_gt
    precision = ctp / (ctp + cfp)
    precision = np.maximum.accumulate(precision[::-1])[::-1]  # monotone envelope
    points = np.linspace(0, 1, 101)
    idx = np.searchsorted(recall, points, side="left")
    sampled = np.where(idx < len(precision), precision[np.minimum(idx, len(precision) - 1)], 0.0)
    return float(sampled.mean())


def match(pred_boxes: np.ndarray, pred_scores: np.ndarray, gt_boxes: np.ndarray,
          thresholds: np.ndarray = IOU_THRESHOLDS) -> np.ndarray:
    """True-positive flags (P, T) of one class's predictions in one image, greedy by score."""
    pred_boxes = np.asarray(pred_boxes, dtype=float).reshape(-1, 4)
    flags = np.zeros((len(pred_boxes), len(thresholds)), dtype=bool)
    if len(pred_boxes) == 0 or len(gt_boxes) == 0:
        return flags
    ious = iou_matrix(pred_boxes, gt_boxes)
    order = np.argsort(-np.asarray(pred_scores), kind="stable")
    for t, thr in enumerate(thresholds):
        taken = np.zeros(len(gt_boxes), dtype=bool)
        for p in order:
            cand = np.where(~taken & (ious[p] >= thr - 1e-9), ious[p], -1.0)
            g = int(np.argmax(cand))
            if cand[g] >= 0:
                taken[g] = True
                flags[p, t] = True
    return flags


@dataclass
class Detections:
    """Boxes (N, 4 xyxy pixels), scores (N,) and class names (N,) of one image."""

    boxes: np.ndarray
    scores: np.ndarray
    names: list[str]

    @classmethod
    def empty(cls) -> Detections:
        return cls(np.zeros((0, 4)), np.zeros(0), [])

    def above(self, conf: float) -> Detections:
        keep = self.scores >= conf
        return Detections(self.boxes[keep], self.scores[keep],
                          [n for n, k in zip(self.names, keep, strict=True) if k])


@dataclass
class ClassStats:
    """Accumulated matches of one class over a dataset."""

    n_gt: int = 0
    scores: list[float] = field(default_factory=list)
    tp: list[np.ndarray] = field(default_factory=list)

    def ap(self) -> np.ndarray:
        """AP at each IoU threshold (NaN without ground truth)."""
        if self.n_gt == 0:
            return np.full(len(IOU_THRESHOLDS), np.nan)
        tp = np.array(self.tp).reshape(-1, len(IOU_THRESHOLDS))
        return np.array([average_precision(tp[:, t], np.array(self.scores), self.n_gt)
                         for t in range(len(IOU_THRESHOLDS))])

    def precision_recall(self, conf: float) -> tuple[int, int, int]:
        """(true positives, predictions, ground truths) at IoU 0.5 and score >= ``conf``."""
        if not self.scores:
            return 0, 0, self.n_gt
        scores = np.array(self.scores)
        tp = np.array(self.tp).reshape(-1, len(IOU_THRESHOLDS))[:, 0]
        keep = scores >= conf
        return int(tp[keep].sum()), int(keep.sum()), self.n_gt


@dataclass
class Evaluation:
    """Everything ``mjtable eval`` reports for one model over one dataset."""

    conf: float
    stats: dict[str, ClassStats] = field(default_factory=dict)
    images: int = 0
    exact_multiset: int = 0
    multiset_images: int = 0
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)

    def add(self, pred: Detections, gt: Detections, multiset_filter: Iterable[str] | None = None
            ) -> None:
        """Score one image; ``multiset_filter`` limits the multiset to those names (e.g. tiles)."""
        self.images += 1
        for name in set(pred.names) | set(gt.names):
            st = self.stats.setdefault(name, ClassStats())
            pm = np.array([n == name for n in pred.names], dtype=bool)
            gm = np.array([n == name for n in gt.names], dtype=bool)
            st.n_gt += int(gm.sum())
            st.scores.extend(pred.scores[pm].tolist())
            st.tp.extend(match(pred.boxes[pm], pred.scores[pm], gt.boxes[gm]))
        kept = pred.above(self.conf)
        allowed = set(multiset_filter) if multiset_filter is not None else None
        want = Counter(n for n in gt.names if allowed is None or n in allowed)
        got = Counter(n for n in kept.names if allowed is None or n in allowed)
        if want:
            self.multiset_images += 1
            self.exact_multiset += int(want == got)
        self.confusions.update(confusion_pairs(kept, gt))

    def ap_table(self) -> dict[str, tuple[float, float]]:
        """Per class with ground truth: (AP@0.5, AP@0.5:0.95)."""
        out = {}
        for name, st in sorted(self.stats.items()):
            if st.n_gt:
                ap = st.ap()
                out[name] = (float(ap[0]), float(ap.mean()))
        return out

    def mean_ap(self, names: Iterable[str] | None = None) -> tuple[float, float, int]:
        """(mAP@0.5, mAP@0.5:0.95, classes) over ``names`` that have ground truth (all if None)."""
        table = self.ap_table()
        chosen = [table[n] for n in (names if names is not None else table) if n in table]
        if not chosen:
            return float("nan"), float("nan"), 0
        arr = np.array(chosen)
        return float(arr[:, 0].mean()), float(arr[:, 1].mean()), len(chosen)

    def precision_recall(self, names: Iterable[str] | None = None) -> tuple[float, float]:
        """Micro precision and recall at the operating threshold over ``names`` (all if None)."""
        chosen = set(names) if names is not None else set(self.stats)
        tp = npred = ngt = 0
        for name, st in self.stats.items():
            if name in chosen:
                a, b, c = st.precision_recall(self.conf)
                tp, npred, ngt = tp + a, npred + b, ngt + c
        return (tp / npred if npred else float("nan"), tp / ngt if ngt else float("nan"))


def greedy_pairs(gt_boxes: np.ndarray, pred_boxes: np.ndarray, iou: float = 0.5
                 ) -> list[tuple[int, int | None]]:
    """Class-agnostic matching: each ground truth (best overlapping first) takes the unmatched
    prediction that overlaps it most at ``iou`` or more; ``(gt, pred)`` pairs, ``pred`` None
    for a ground truth left unmatched, in ground-truth order of matching."""
    gt_boxes = np.asarray(gt_boxes, dtype=float).reshape(-1, 4)
    pred_boxes = np.asarray(pred_boxes, dtype=float).reshape(-1, 4)
    if not len(pred_boxes):
        return [(g, None) for g in range(len(gt_boxes))]
    out: list[tuple[int, int | None]] = []
    used = np.zeros(len(pred_boxes), dtype=bool)
    if len(gt_boxes):
        ious = iou_matrix(gt_boxes, pred_boxes)
        for g in np.argsort(-ious.max(axis=1), kind="stable"):
            cand = np.where(~used & (ious[g] >= iou), ious[g], -1.0)
            p = int(np.argmax(cand))
            if cand[p] >= 0:
                used[p] = True
                out.append((int(g), p))
            else:
                out.append((int(g), None))
    return out


def confusion_pairs(pred: Detections, gt: Detections, iou: float = 0.5) -> Counter[tuple[str, str]]:
    """(true, predicted) name pairs for mistakes: wrong class, ``missed`` or ``background``.

    Class-agnostic greedy matching at ``iou`` (:func:`greedy_pairs`); a matched pair with
    different names is a confusion.
    """
    out: Counter[tuple[str, str]] = Counter()
    used = np.zeros(len(pred.names), dtype=bool)
    for g, p in greedy_pairs(gt.boxes, pred.boxes, iou):
        if p is None:
            out[(gt.names[g], "missed")] += 1
            continue
        used[p] = True
        if pred.names[p] != gt.names[g]:
            out[(gt.names[g], pred.names[p])] += 1
    out.update(("background", pred.names[p]) for p in np.flatnonzero(~used))
    return out
