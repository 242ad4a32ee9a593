"""Work only where the table changed.

A live game changes a few tiles at a time, so :class:`ChangeTracker` keeps the detections of
the last picture analysed with a small grey copy of it. Each new frame is compared with that
copy (the absolute difference at 1/4 size, thresholded and dilated): nothing changed, and the
detections are reused; a few regions changed, and only those are run through the detector,
each in a window cut from the whole-frame detector input with a margin of context, aligned to
the detector's stride, so the model sees the very pixels the full pass would. Boxes outside the
changed regions keep their classes; boxes inside them are classified, in one batch. A camera
that moved, or a picture that changed over too much of its area, is analysed whole: the whole
frame, or once the table is calibrated, the table's region (:mod:`vision.region`), one window of
the same input (:func:`detect_region`); the changed regions are then cut to it.

A global mean difference cannot do this: one discarded tile changes 0.2% of a 1080p frame.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import cv2
import numpy as np

from vision.detections import TileDetections
from vision.detector import STRIDE, Detector, Letterbox, box_iou, grey_stretched, to_tensor
from vision.region import Region, inside

SCALE = 4  # the change mask is computed on a 1/4-size grey picture (480x270 for 1080p)
LEVEL = 20  # grey-level difference (0..255) at 1/4 size that is a change, not sensor noise
DILATE = 3  # px at 1/4 size: specks of one change join up (and a tile's edge is included)
MIN_AREA = 6  # px at 1/4 size (about 100 frame px): smaller changed specks are noise
MARGIN = 64  # detector-input px of context around a changed region (~2.5 tiles at 960)
WHOLE_SHARE = 0.35  # windows over more of the detector input than this: analyse it whole


@dataclass(frozen=True)
class Change:
    """What differs from the picture the kept detections describe: ``regions`` (x0, y0, x1, y1
    in frame pixels), or ``whole`` (nothing kept yet, the camera moved, or too much changed)."""

    regions: tuple[tuple[int, int, int, int], ...] = ()
    whole: bool = False

    @property
    def none(self) -> bool:
        return not self.whole and not self.regions

    def within(self, region: Region | None) -> Change:
        """The change inside the table's ``region`` only (what lies beyond it is not read)."""
        if self.whole or region is None:
            return self
        rx0, ry0, rx1, ry1 = region
        return Change(regions=tuple(
            (max(x0, rx0), max(y0, ry0), min(x1, rx1), min(y1, ry1))
            for x0, y0, x1, y1 in self.regions if x0 < rx1 and rx0 < x1 and y0 < ry1 and ry0 < y1))


def windowed(detector: object) -> bool:
    """Whether ``detector`` can run on windows of its whole-frame input: a :class:`Detector`
    whose input size is settled and free (``export --dynamic``)."""
    return isinstance(detector, Detector) and detector.det.dynamic and len(detector.sizes) == 1


def whole_input(detector: Detector, image: np.ndarray) -> tuple[np.ndarray, Letterbox]:
    """The detector input of the whole frame at its settled size, and how it maps back."""
    source = grey_stretched(image) if detector.grey else image
    return detector.model_input(source, detector.sizes[0])


def input_windows(lb: Letterbox, shape: tuple[int, ...],
                  regions: tuple[tuple[int, int, int, int], ...], margin: int
                  ) -> list[tuple[int, int, int, int]]:
    """Windows of the detector input (``shape``, mapped from the frame by ``lb``) around the
    ``regions`` (frame px) with ``margin`` input px of context, aligned outward to the
    detector's stride and merged where they overlap."""
    ih, iw = shape[:2]
    boxes = []
    for x0, y0, x1, y1 in regions:
        ax0 = (x0 * lb.ratio + lb.pad_x - margin) // STRIDE * STRIDE
        ay0 = (y0 * lb.ratio + lb.pad_y - margin) // STRIDE * STRIDE
        ax1 = -(-(x1 * lb.ratio + lb.pad_x + margin) // STRIDE) * STRIDE
        ay1 = -(-(y1 * lb.ratio + lb.pad_y + margin) // STRIDE) * STRIDE
        boxes.append([max(0, int(ax0)), max(0, int(ay0)), min(iw, int(ax1)), min(ih, int(ay1))])
    return _merge_overlapping(boxes)


def find_in_windows(detector: Detector, boxed: np.ndarray, lb: Letterbox,
                    windows: list[tuple[int, int, int, int]]) -> TileDetections:
    """The detection stage on each window of the whole-frame input ``boxed`` (so at the scale
    of a whole-frame pass), boxes mapped back to frame pixels (not yet classified)."""
    found = []
    for x0, y0, x1, y1 in windows:
        shifted = Letterbox(lb.ratio, lb.pad_x - x0, lb.pad_y - y0, lb.width, lb.height)
        raw = detector.det.run(to_tensor([boxed[y0:y1, x0:x1]]))
        found.append(detector.decode(raw, shifted, detector.conf))
    return TileDetections.merge(found)


def find_region(detector: Detector, image: np.ndarray, region: Region) -> TileDetections:
    """The detection stage on the table's ``region`` only: one window of the whole-frame input
    (the region aligned outward to the stride), its boxes that lie inside the region."""
    boxed, lb = whole_input(detector, image)
    found = find_in_windows(detector, boxed, lb, input_windows(lb, boxed.shape, (region,), 0))
    return found[inside(found.xyxy, region, (image.shape[1], image.shape[0]))]


def detect_region(detector: object, image: np.ndarray, region: Region | None) -> TileDetections:
    """A full analysis of the table: ``detector.detect(image)``, on the calibrated table's
    ``region`` only when there is one and the detector runs on windows (:func:`windowed`)."""
    if region is None or not windowed(detector):
        return detector.detect(image)  # type: ignore[attr-defined, no-any-return]
    assert isinstance(detector, Detector)
    found = detector.last_found = detector.backs_by_colour(
        image, find_region(detector, image, region))
    return detector.name(image, found)


class ChangeTracker:
    """Detections kept from the last analysed picture, updated only where a frame differs.

    ``passes`` counts how frames were analysed: ``whole``, ``table``, ``windows``, ``still``
    (:meth:`keep`) or ``none`` (reused).
    """

    def __init__(self) -> None:
        self.reference: np.ndarray | None = None  # small grey copy of what ``dets`` describe
        self.dets: TileDetections | None = None
        self.passes: Counter[str] = Counter()
        self.last_windows: list[tuple[int, int, int, int]] = []  # detector-input px
        self._grey: np.ndarray | None = None

    def compare(self, image: np.ndarray) -> Change:
        """The regions of a BGR frame that differ from the kept picture."""
        h, w = image.shape[:2]
        grey = cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY),
                          (max(1, w // SCALE), max(1, h // SCALE)), interpolation=cv2.INTER_AREA)
        self._grey = grey
        if self.reference is None or self.dets is None or self.reference.shape != grey.shape:
            return Change(whole=True)
        changed = (cv2.absdiff(grey, self.reference) >= LEVEL).astype(np.uint8)
        if not changed.any():
            return Change()
        mask = cv2.dilate(changed, np.ones((2 * DILATE + 1,) * 2, np.uint8))
        if mask.mean() > WHOLE_SHARE:
            return Change(whole=True)
        _, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        regions = tuple((int(x) * SCALE, int(y) * SCALE, min(w, int(x + bw) * SCALE),
                         min(h, int(y + bh) * SCALE))
                        for x, y, bw, bh, area in stats[1:] if area >= MIN_AREA)
        return Change(regions=regions)

    def detect(self, detector: object, image: np.ndarray, change: Change,
               region: Region | None = None) -> TileDetections:
        """The frame's detections: the kept ones where nothing changed, fresh ones elsewhere.

        Any detector with ``detect(image)`` works; one that runs on windows (:func:`windowed`)
        is run on the changed windows only. With the table's ``region`` (the change already
        cut to it, :meth:`Change.within`) a whole pass reads that region only
        (:func:`detect_region`, counted as ``table``) and nothing beyond it is kept."""
        if change.none and self.dets is not None:
            self.passes["none"] += 1
            return self.dets
        geometry = None
        if not change.whole and windowed(detector):
            assert isinstance(detector, Detector)
            geometry = whole_input(detector, image)
        windows = None if geometry is None else self._windows(geometry[1], geometry[0].shape,
                                                              change)
        if windows is None or geometry is None:
            dets = detect_region(detector, image, region)
            self.passes["table" if region is not None and windowed(detector) else "whole"] += 1
            self.last_windows = []
            self.reference = self._grey
        else:
            assert isinstance(detector, Detector)
            dets = self._detect_windows(detector, image, geometry, windows, change, region)
            self.passes["windows"] += 1
            self.last_windows = windows
            self._refresh_reference(change)
        self.dets = dets
        return dets

    def keep(self, dets: TileDetections, again: bool = False) -> None:
        """``dets`` describe the frame last compared, found by a whole pass of another kind
        (a still's reading of a hand laid down): they are kept, and that frame compared with.
        Counted as ``still``, or ``still again`` for a frame this tracker analysed already."""
        self.dets, self.reference = dets, self._grey
        self.passes["still again" if again else "still"] += 1

    def _windows(self, lb: Letterbox, shape: tuple[int, ...], change: Change
                 ) -> list[tuple[int, int, int, int]] | None:
        """Stride-aligned windows of the detector input (``shape``, mapped from the frame by
        ``lb``) around the changed regions, merged where they overlap; ``None`` when they
        cover so much that the whole input is as cheap."""
        ih, iw = shape[:2]
        merged = input_windows(lb, shape, change.regions, MARGIN)
        if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in merged) > WHOLE_SHARE * ih * iw:
            return None
        return merged

    def _detect_windows(self, detector: Detector, image: np.ndarray,
                        geometry: tuple[np.ndarray, Letterbox],
                        windows: list[tuple[int, int, int, int]], change: Change,
                        region: Region | None = None) -> TileDetections:
        """Detection in each window, fresh boxes where the picture changed (and inside the
        table's ``region``), kept ones elsewhere; only the fresh ones are classified (in one
        batch, by ``Detector.name``)."""
        assert self.dets is not None
        fresh = find_in_windows(detector, *geometry, windows)
        regions = np.array(change.regions, np.float32).reshape(-1, 4)
        keep = _touches(fresh.xyxy, regions)
        if region is not None:
            keep &= inside(fresh.xyxy, region, (image.shape[1], image.shape[0]))
        fresh = fresh[keep]
        kept = self.dets[~_touches(self.dets.xyxy, regions)]
        if len(fresh):
            fresh = detector.backs_by_colour(image, fresh, context=kept)
        if len(kept) and len(fresh):  # a kept box that is one of the fresh ones: the fresh wins
            kept = kept[box_iou(kept.xyxy, fresh.xyxy).max(axis=1) <= detector.iou]
        return TileDetections.merge([kept, detector.name(image, fresh)])

    def _refresh_reference(self, change: Change) -> None:
        """The kept picture takes the new pixels where the detections were renewed; elsewhere
        it stays, so a slow change adds up until it is seen."""
        assert self.reference is not None and self._grey is not None
        for x0, y0, x1, y1 in change.regions:
            sl = np.s_[y0 // SCALE:-(-y1 // SCALE), x0 // SCALE:-(-x1 // SCALE)]
            self.reference[sl] = self._grey[sl]


def _touches(xyxy: np.ndarray, regions: np.ndarray) -> np.ndarray:
    """(N,) bool: the box overlaps one of the regions (both x0, y0, x1, y1)."""
    if not len(xyxy) or not len(regions):
        return np.zeros(len(xyxy), bool)
    a, b = xyxy[:, None, :], regions[None, :, :]
    overlap = ((a[..., 0] < b[..., 2]) & (a[..., 2] > b[..., 0]) &
               (a[..., 1] < b[..., 3]) & (a[..., 3] > b[..., 1]))
    return np.asarray(overlap.any(axis=1))


def _merge_overlapping(boxes: list[list[int]]) -> list[tuple[int, int, int, int]]:
    """Boxes joined into their union wherever two overlap, until none do."""
    out = [list(b) for b in boxes]
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    out[i] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]),
                              max(a[3], b[3])]
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return [(b[0], b[1], b[2], b[3]) for b in out]
