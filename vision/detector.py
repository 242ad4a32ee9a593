"""Run the shipped ONNX models on a frame and return :class:`TileDetections`.

Two model designs are read from the ONNX metadata (ultralytics export: ``names``, ``imgsz``,
``task``):

- single-stage: the detector's classes are tile names (and ``die`` or ``die1``..``die6``);
- two-stage: the detector finds coarse ``tile`` / ``die`` / ``tile_back`` boxes and a crop
  classifier names each tile from a crop cut out of the full-resolution frame, in batches.

Either way the top-k classes and probabilities of every tile are kept for the legal-reading repair.
Model output is converted to project class ids only here, at the boundary.
"""

from __future__ import annotations

import ast
import copy
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scoring.tiles import DIE_CLASS, FLOWERS
from vision.backs import BLANK_CLASS, told_by_colour, tops_told_by_colour
from vision.bamboo import bamboo_rivals, weigh_shape
from vision.blanks import back_places, face_places, hole_places, on_felt
from vision.detections import TileDetections
from vision.ink import dark_fa_rival, weigh_ink
from vision.labels import BACK_CLASS, ClassMap, class_map, parse_names
from vision.training.crops import ASKEW, READ_PADS

DEFAULT_THREADS = 2  # a 2-core laptop (idle threads sleep, so 2 do not lose to 1 on a busy CPU)
LETTERBOX_FILL = 114
STRIDE = 32  # the detector's input sides are multiples of its largest stride
CLASSIFIER_BATCH = 32
MIN_BOX = 2.0  # pixels: a box narrower than this (clipped at the image edge) is dropped
STRADDLER_SCORE = 0.15  # a named face box scored under this (detector x classifier) ...
STRADDLER_COVERED = 0.3  # ... and this much inside surer face boxes is no tile of its own
STRADDLER_INSIDE = 0.85  # a named face box this much inside surer ones is none, however scored
STRADDLING = 0.7  # share of a face-up box inside surer boxes above which it is no tile of its own
# a face box covering this many times the area of the face boxes around it (the median of
# the NEAR_TILES nearest) covers two tiles: over six held-back real-face and drawn-art sets two
# boxes joined as halves of one sideways tile came to 1.45 at most on one labeled tile and to
# 1.63 or more on two (MODELS.md, twenty-fourth session)
TWO_TILES = 1.55
NEAR_TILES = 8
STRADDLER_HOLDS = 0.6  # share of a face box inside a two-tile box that makes it one of the two
SPLIT_SURE = 0.5  # the classifier's top probability at the other tile's place that names it
SPLIT_BOXED = 0.3  # IoU with a face box at which the other tile's place is boxed already
THREE_TILES = 2.6  # ... and under this many times, no more than two tiles
SURE_HOLE = 0.9  # the classifier's odds of one kind at a hole inside a row that make it a tile
SURE_BLANK = 0.7  # the classifier's odds of 白 at a place no box holds that make it a tile
# (over the places that pass the colour test on REALVAL6, 4, 3, ARTVAL, ARTVAL2: read 白 at 0.5
# or more, 18 on 白 faces and none elsewhere; at 0.9, 15; MODELS.md, nineteenth session)
CROP_CHANGE = 6.0  # mean grey-level change of a 12x12 crop thumbnail that means a new tile
TABLE_SIZE = 960  # detector input for a whole table: a tile ~1/40 of a frame's width -> ~24 px
AUTO_MIN_FOUND = 3  # tiles found that let the automatic size choose
# tiles a still must show at TABLE_SIZE to be a whole table, which shows dozens (a photo of
# dice can hold a few tile-like boxes there); a stream's first frames decide on fewer
TABLE_MIN_TILES = 8
# px: median short side of the boxes found at TABLE_SIZE up to which they are whole-table tiles
# (measured: 14-20 px in 1080p table frames; 42 px and more in 95% of close-up photos, where a
# 960 input finds fragments of tiles far larger than the detector learned)
AUTO_TABLE_SIDE = 30.0
# share of a die box found at TABLE_SIZE inside the exported size's boxes below which it is a
# die that size missed (measured: DICEMORE's far dice, not DICEREAL's pips of near ones)
NEW_DIE_COVER = 0.3
# px of a whole-table frame searched again for dice at its own scale (see Detector._table_dice)
DICE_WINDOW = 640
# a die box of a whole table whose long side reaches this share of the tiles' median width
# holds more than its die (a die with its sides shows 0.5-0.9 of a tile's width; loose boxes of
# 14-19 px dice at TABLE_SIZE come out 1.0-1.25): it is boxed again at the frame's own scale
# (Detector._loose_dice_boxed_again; measured on REALVAL10D and 15D, MODELS.md thirty-fourth
# session: at 0.7 and under, the boxes taken again were of a die's top face alone)
LOOSE_DIE = 1.0
# px: the window around a loose die box read at the frame's own scale
LOOSE_DIE_WINDOW = 192
# IoU with the loose box from which the window's die box is the same die's
SAME_DIE = 0.3
# px: the longest side at which the dice finder reads a still of dice at the photo's own scale
# (its training windows were cut from 640-px photos; a larger photo is shrunk to this)
FINDER_SIDE = 640
# the ways a close-up still is read (mirrored left-right, upside down): see Detector's flips
FLIPS = ((False, False), (True, False), (False, True), (True, True))


def default_models_dir() -> Path:
    """``$MJTABLE_MODELS`` or the repository's ``models/`` folder."""
    env = os.environ.get("MJTABLE_MODELS")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "models"


# ---------------------------------------------------------------- geometry helpers


@dataclass(frozen=True)
class Letterbox:
    """How an image was fitted into the square model input: ``input = image * ratio + pad``."""

    ratio: float
    pad_x: float
    pad_y: float
    width: int
    height: int

    def to_image(self, xyxy: np.ndarray) -> np.ndarray:
        """(N, 4) boxes in model-input pixels back to original-image pixels, clipped."""
        out = (xyxy - np.array([self.pad_x, self.pad_y] * 2, np.float32)) / self.ratio
        out[:, 0::2] = out[:, 0::2].clip(0, self.width)
        out[:, 1::2] = out[:, 1::2].clip(0, self.height)
        return out


def letterbox(image: np.ndarray, size: tuple[int, int], fill: int = LETTERBOX_FILL
              ) -> tuple[np.ndarray, Letterbox]:
    """Resize keeping the aspect ratio and pad to ``size`` (h, w) with grey, as ultralytics does.

    Returns the padded BGR image and the :class:`Letterbox` that maps boxes back.
    """
    h, w = image.shape[:2]
    th, tw = size
    r = min(th / h, tw / w)
    nw, nh = max(1, round(w * r)), max(1, round(h * r))  # a 1x2000 strip keeps one row
    dw, dh = (tw - nw) / 2, (th - nh) / 2
    if (nw, nh) != (w, h):
        image = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_LINEAR)
    top, bottom = round(dh - 0.1), round(dh + 0.1)
    left, right = round(dw - 0.1), round(dw + 0.1)
    out = cv2.copyMakeBorder(image, top, bottom, left, right, cv2.BORDER_CONSTANT,
                             value=(fill,) * 3)
    return out, Letterbox(ratio=r, pad_x=left, pad_y=top, width=w, height=h)


def rect_shape(hw: tuple[int, int], size: int, stride: int = STRIDE) -> tuple[int, int]:
    """The detector input (h, w) for a picture of ``hw`` at ``size``: the long side ``size``,
    the short side only as long as the picture needs, rounded up to the stride. A 16:9 frame
    at 960 runs as 960x544, not 960x960 (44% of that was padding)."""
    h, w = hw
    r = size / max(h, w)
    return (min(size, max(stride, -(-round(h * r) // stride) * stride)),
            min(size, max(stride, -(-round(w * r) // stride) * stride)))


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box in ``a`` (N, 4) with every box in ``b`` (M, 4): an (N, M) array."""
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod((rb - lt).clip(0), axis=2)
    area_a = np.prod(a[:, 2:] - a[:, :2], axis=1)
    area_b = np.prod(b[:, 2:] - b[:, :2], axis=1)
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-9)


def nms(xyxy: np.ndarray, scores: np.ndarray, iou: float, max_det: int = 300) -> np.ndarray:
    """Greedy non-maximum suppression (OpenCV's): indices kept, best score first.

    A box is dropped when its IoU with a kept, better box is above ``iou``.
    """
    if not len(xyxy):
        return np.zeros(0, np.int64)
    boxes = np.asarray(xyxy, np.float64)
    xywh = np.concatenate([boxes[:, :2], boxes[:, 2:] - boxes[:, :2]], axis=1)
    # top_k would cap the candidates before suppression, not the boxes kept: cut after
    keep = cv2.dnn.NMSBoxes(xywh.tolist(), np.asarray(scores, np.float64).tolist(), 0.0, iou)
    return np.asarray(keep, np.int64).reshape(-1)[:max_det]


def covered(xyxy: np.ndarray, scores: np.ndarray, rows: np.ndarray | None = None,
            grid: int = 6) -> np.ndarray:
    """The share of each box's area (of ``rows`` only, the rest 0) inside the union of the
    boxes scored above it, sampled on a ``grid`` x ``grid`` lattice.

    Tiles lie side by side, so a face-up tile's box is at most a sliver inside its
    neighbours'; a box that straddles two touching tiles (IoU about 0.35 with each, so NMS
    keeps it) lies almost wholly inside them. On 60 held-back real-face tables, 100 of 132
    face-up boxes on no tile were at least 70% covered, 3 of 3,664 on a tile.
    """
    n = len(xyxy)
    out = np.zeros(n)
    todo = np.arange(n) if rows is None else np.flatnonzero(rows)
    if n < 2 or not len(todo):
        return out
    box = xyxy[todo]
    # the surer boxes that reach into each one: only they can hold its sample points
    reach = ((xyxy[None, :, 0] <= box[:, None, 2]) & (xyxy[None, :, 2] >= box[:, None, 0])
             & (xyxy[None, :, 1] <= box[:, None, 3]) & (xyxy[None, :, 3] >= box[:, None, 1])
             & (scores[None, :] > scores[todo][:, None]))
    t = (np.arange(grid) + 0.5) / grid
    for j in np.flatnonzero(reach.any(axis=1)):
        x0, y0, x1, y1 = box[j]
        px = np.repeat(x0 + t * (x1 - x0), grid)
        py = np.tile(y0 + t * (y1 - y0), grid)
        o = xyxy[reach[j]]
        inside = ((px[:, None] >= o[None, :, 0]) & (px[:, None] <= o[None, :, 2])
                  & (py[:, None] >= o[None, :, 1]) & (py[:, None] <= o[None, :, 3]))
        out[todo[j]] = inside.any(axis=1).mean()
    return out


def unsure_straddles_dropped(dets: TileDetections) -> TileDetections:
    """``dets`` without the face boxes the classifier names unsurely (confidence, the
    detector's times the classifier's, under ``STRADDLER_SCORE``) that lie
    ``STRADDLER_COVERED`` or more inside surer face boxes: a box over parts of two touching
    tiles, or over a sideways tile and its neighbour, which the detector's own rule
    (``STRADDLING``) kept. Tiles lie side by side, a sliver of one inside the next; on the
    held-back real-face tables (REALVAL6, 7) 19 such boxes lay on no labeled object and 1 on
    one (MODELS.md, twenty-second session). A box ``STRADDLER_INSIDE`` or more inside surer
    ones goes however it is scored: the detector scored it above its neighbours, so its own
    rule kept it, but once named it is the less sure (on REALVAL6 and 7, 8 such boxes, none
    on a tile of its own; twenty-fifth session)."""
    faces = dets.is_tile
    if faces.sum() < 2:
        return dets
    share = covered(dets.xyxy, np.where(faces, dets.confidence, -1.0), faces)
    unsure = dets.confidence < STRADDLER_SCORE
    return dets[~(faces & ((unsure & (share >= STRADDLER_COVERED))
                           | (share >= STRADDLER_INSIDE)))]


def covers_two_tiles(box_area: float, area: np.ndarray, dist: np.ndarray,
                     others: np.ndarray, times: float = TWO_TILES) -> bool:
    """A box (or two boxes' union) of ``box_area`` covers two tiles: ``times`` (``TWO_TILES``)
    the median ``area`` of the ``NEAR_TILES`` face boxes among ``others`` nearest it
    (``dist``: their distances from it; perspective makes far tiles smaller). False with no
    others. With ``times`` ``THREE_TILES``: it covers more than two."""
    if not len(others):
        return False
    near = others[np.argsort(dist[others])[:NEAR_TILES]]
    return box_area >= times * float(np.median(area[near]))


def cut_back(box: np.ndarray, place: np.ndarray) -> np.ndarray:
    """``box`` (xyxy) with its side toward ``place`` moved back to the place's edge, along the
    axis on which their centres lie farther apart: a box reaching into a neighbour's place."""
    axis = int(np.argmax(np.abs((box[:2] + box[2:]) - (place[:2] + place[2:]))))
    out = box.copy()
    if box[axis] + box[axis + 2] > place[axis] + place[axis + 2]:
        out[axis] = max(box[axis], place[axis + 2])
    else:
        out[axis + 2] = min(box[axis + 2], place[axis])
    return out


def _face_boxes(dets: TileDetections) -> tuple[np.ndarray, ...]:
    """The face boxes' rows, boxes (float64 xyxy), areas, ``inside[i, j]`` (the share of box i
    inside box j, 0 on the diagonal) and centres: what the two-tile tests weigh."""
    faces = np.flatnonzero(dets.is_tile)
    box = dets.xyxy[faces].astype(np.float64)
    area = np.prod(box[:, 2:] - box[:, :2], axis=1)
    lt = np.maximum(box[:, None, :2], box[None, :, :2])
    rb = np.minimum(box[:, None, 2:], box[None, :, 2:])
    inside = np.prod(np.clip(rb - lt, 0, None), axis=2) / np.maximum(area[:, None], 1e-9)
    np.fill_diagonal(inside, 0.0)
    return faces, box, area, inside, (box[:, :2] + box[:, 2:]) / 2


def two_tile_straddlers(dets: TileDetections) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Face boxes over two touching tiles, one of which has a box of its own inside them:
    ``(rows, places, boxed)``. Such a box covers ``TWO_TILES`` times the area of the face boxes
    around it and holds ``STRADDLER_HOLDS`` or more of another face box; the other tile lies
    beyond that box, which moved toward the straddler's centre until its far edges meet the
    straddler's (``places``, one a row: a straddler boxes the far tile's far side, however
    much of the near tile it takes in). ``boxed``: the place holds a face box already (the
    inner one too: the straddler reaches too little beyond it), or the straddler holds two.
    Tiles lie side by side, so no tile's box holds most of a neighbour's.
    """
    none = np.zeros(0, int), np.zeros((0, 4), np.float32), np.zeros(0, bool)
    if int(dets.is_tile.sum()) < 3:
        return none
    faces, box, area, inside, centre = _face_boxes(dets)
    rows: list[int] = []
    places: list[np.ndarray] = []
    boxed: list[bool] = []
    for j in np.flatnonzero((inside >= STRADDLER_HOLDS).any(axis=0)):
        held = np.flatnonzero(inside[:, j] >= STRADDLER_HOLDS)
        others = np.setdiff1d(np.arange(len(faces)), [j, *held])
        if not covers_two_tiles(float(area[j]), area, np.hypot(*(centre - centre[j]).T),
                                others):
            continue
        i = held[np.argmax(dets.confidence[faces[held]])]
        toward = centre[j] > centre[i]  # per axis: the straddler reaches on past the inner box
        shift = np.where(toward, box[j, 2:] - box[i, 2:], box[j, :2] - box[i, :2])
        place = box[i] + np.tile(shift, 2)
        rows.append(int(faces[j]))
        places.append(place)
        boxed.append(len(held) > 1 or bool(
            (box_iou(place[None], box[[*others, i]]) >= SPLIT_BOXED).any()))
    if not rows:
        return none
    return np.array(rows), np.array(places, np.float32), np.array(boxed)


def two_tiles_in_one_box(dets: TileDetections) -> tuple[np.ndarray, np.ndarray]:
    """Face boxes over two touching tiles, neither of which has a box of its own: ``(rows,
    halves)``, ``halves`` (K, 4, 4) each box cut in two across x and across y (first, second
    half; the caller asks which cut shows two tiles). Such a box covers ``TWO_TILES`` times,
    and under ``THREE_TILES`` times, the area of the face boxes around it (two flowers laid
    side by side, boxed as one). A box holding another face box is
    :func:`two_tile_straddlers`' case."""
    none = np.zeros(0, int), np.zeros((0, 4, 4), np.float32)
    if int(dets.is_tile.sum()) < 3:
        return none
    faces, box, area, inside, centre = _face_boxes(dets)
    rows: list[int] = []
    halves: list[np.ndarray] = []
    for j in range(len(faces)):
        if (inside[:, j] >= STRADDLER_HOLDS).any():
            continue
        others = np.setdiff1d(np.arange(len(faces)), [j])
        dist = np.hypot(*(centre - centre[j]).T)
        if not covers_two_tiles(float(area[j]), area, dist, others) or covers_two_tiles(
                float(area[j]), area, dist, others, times=THREE_TILES):
            continue
        cuts = []
        for axis in (0, 1):
            first, second = box[j].copy(), box[j].copy()
            first[axis + 2] = second[axis] = centre[j, axis]
            cuts += [first, second]
        rows.append(int(faces[j]))
        halves.append(np.array(cuts))
    if not rows:
        return none
    return np.array(rows), np.array(halves, np.float32)


def mean_of_passes(passes: Sequence[TileDetections], iou: float) -> TileDetections:
    """The boxes of several passes over one image as one set: surest first, a box joins the
    surest box before it that overlaps it by ``iou`` or more and holds no box of its pass yet,
    else starts its own; each group is its surest box (classes, faces) with the group's mean
    corners and, as score, the sum of its scores over the number of passes."""
    every = TileDetections.merge(list(passes))
    if not len(every):
        return every
    which = np.concatenate([np.full(len(p), i) for i, p in enumerate(passes)])
    order = np.argsort(-every.confidence, kind="stable")
    overlap = box_iou(every.xyxy, every.xyxy)
    heads: list[int] = []
    members: list[list[int]] = []
    seen = np.zeros(0, np.int64)  # per group: a bit for each pass it holds
    for i in order:
        bit = 1 << int(which[i])
        fits = np.flatnonzero((overlap[i, heads] >= iou) & (seen & bit == 0)) if heads else []
        if len(fits):
            members[fits[0]].append(int(i))
            seen[fits[0]] |= bit
        else:
            heads.append(int(i))
            members.append([int(i)])
            seen = np.append(seen, bit)
    return every[np.array(heads)].with_(
        xyxy=np.array([every.xyxy[m].mean(axis=0) for m in members], np.float32),
        confidence=np.array([every.confidence[m].sum() / len(passes) for m in members],
                            np.float32))


def uncovered(boxes: TileDetections, by: TileDetections) -> np.ndarray:
    """(N,) bool: the ``boxes`` less than ``NEW_DIE_COVER`` of whose area lies inside ``by``'s
    (which rank above all) or a surer one of their own: a die that another pass missed."""
    xyxy = np.concatenate([by.xyxy, boxes.xyxy])
    rank = np.concatenate([np.full(len(by), 2.0), boxes.confidence])
    return covered(xyxy, rank, np.arange(len(xyxy)) >= len(by))[len(by):] < NEW_DIE_COVER


def grey_stretched(image: np.ndarray) -> np.ndarray:
    """A BGR frame turned grey with its contrast stretched to 0..255 (still 3 channels): the
    input the reference ``mahjong-detector`` was trained on (its own ``predict`` does this)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    grey = cv2.normalize(grey, np.empty_like(grey), 0, 255, cv2.NORM_MINMAX)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)


def to_tensor(images_bgr: Sequence[np.ndarray]) -> np.ndarray:
    """BGR uint8 images of one size to an (B, 3, H, W) float32 RGB 0..1 tensor."""
    batch = np.stack(images_bgr)[..., ::-1]
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


# ---------------------------------------------------------------- ONNX model wrapper


def default_threads() -> int:
    """``$MJTABLE_THREADS`` when set (a positive whole number), else 2."""
    raw = os.environ.get("MJTABLE_THREADS", "")
    if not raw:
        return DEFAULT_THREADS
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"MJTABLE_THREADS must be a whole number >= 1, got {raw!r}")
    return int(raw)


class OnnxModel:
    """One inference session with its metadata, threads set for a small laptop CPU; the
    backend (onnxruntime or OpenVINO) is chosen by :func:`vision.backends.resolve_backend`."""

    def __init__(self, path: str | os.PathLike[str], threads: int | None = None,
                 backend: str | None = None) -> None:
        from vision.backends import open_session, resolve_backend

        threads = default_threads() if threads is None else threads
        self.backend = resolve_backend(backend)
        self.path = Path(path)
        if not self.path.is_file():
            raise FileNotFoundError(f"no model file at {self.path}")
        self.session, self.meta, self.input_name, self.input_shape = open_session(
            self.path, self.backend, max(1, threads))
        if len(self.input_shape) != 4:
            raise ValueError(f"{self.path}: expected a 4-D image input, got {self.input_shape}")
        self.names = parse_names(self.meta.get("names"), str(self.path))
        self.classes: ClassMap = class_map(self.names, str(self.path))
        self.imgsz = self._imgsz()

    def _imgsz(self) -> tuple[int, int]:
        h, w = self.input_shape[2], self.input_shape[3]
        if isinstance(h, int) and isinstance(w, int):
            return h, w
        raw = self.meta.get("imgsz")
        if raw:
            value = ast.literal_eval(raw)
            if isinstance(value, int):
                return value, value
            return int(value[0]), int(value[-1])
        raise ValueError(f"{self.path}: the input size is dynamic and metadata has no imgsz")

    @property
    def dynamic(self) -> bool:
        """Whether the input's height and width are free (an ``export --dynamic`` model)."""
        return not all(isinstance(d, int) for d in self.input_shape[2:])

    def resize(self, size: int) -> None:
        """Run at ``size`` x ``size`` instead of the exported size; needs free height and width."""
        if size < 32 or size % 32:
            raise ValueError(f"detector input size must be a multiple of 32, got {size}")
        if (size, size) == self.imgsz:
            return
        if not self.dynamic:
            raise ValueError(f"{self.path}: exported with a fixed {self.imgsz[1]}x{self.imgsz[0]} "
                             f"input, cannot run at {size}; export it with --dynamic")
        self.imgsz = (size, size)

    @property
    def fixed_batch(self) -> int | None:
        b = self.input_shape[0]
        return b if isinstance(b, int) and b > 0 else None

    def run(self, tensor: np.ndarray) -> np.ndarray:
        return self.session.run(None, {self.input_name: tensor})[0]  # type: ignore[no-any-return]


# ---------------------------------------------------------------- detector


class Detector:
    """Tiles and dice in a BGR frame, as :class:`TileDetections` in original-image pixels.

    Args:
        detector: path of the detection model (ultralytics detect export).
        classifier: path of the crop classifier; required when the detector's classes are
            coarse (``tile``), ignored otherwise.
        dice: path of a die-face classifier (names ``die1``..``die6``); when given, die boxes
            are read by it instead of by the crop classifier.
        conf: minimum detection score kept.
        iou: NMS overlap above which the weaker box is dropped (class-agnostic: one tile,
            one box).
        topk: class alternatives kept per tile.
        threads: inference threads; default :func:`default_threads` (2 suits a 2-core laptop).
        backend: ``onnxruntime``, ``openvino`` or ``auto`` (onnxruntime, measured); default
            ``$MJTABLE_BACKEND`` or ``auto`` (see :mod:`vision.backends`).
        imgsz: detector input size (square), or ``"auto"``. A model exported with free height
            and width (``mjtable export --dynamic``) runs at any multiple of 32: 960
            (``TABLE_SIZE``) suits a whole table in a 1080p frame (a tile ~1/40 of the width
            lands at ~24 px, the size the detector learned), its exported 320 a close-up photo.
            ``"auto"`` (the default for such a model) runs both sizes on a frame and keeps
            ``TABLE_SIZE`` when it finds more boxes there and they are whole-table tiles
            (``AUTO_TABLE_SIDE``); the first frame with enough boxes fixes the choice (one
            camera keeps its scale), unless ``stills``. A fixed-input model runs at its size.
        read_dice: read the top face of dice the models leave unread, by counting pips.
        reuse_crops: a tile whose box and pixels did not change since the previous call keeps
            its classification (a still table costs only the detector).
        stills: the images are unrelated photos, not the frames of one camera: each decides
            its own automatic size, no classification is carried from one to the next, and
            a whole table's dice are looked for again at the frame's own scale
            (``mjtable detect``, ``read`` and ``eval``; a video keeps its stable choice).
        grey: turn each frame grey with its contrast stretched and pad it with black, the
            input the reference ``mahjong-detector`` was trained on.
        turns: classify each tile crop in its 4 quarter turns and average (or once, 1):
            a table shows every seat's tiles its own way up. Default 4 for ``stills`` (a
            photo is read once), 1 for a stream (speed).
        ink: weigh a crop's colour as evidence, where the classifier names the kinds: its
            ink's colour between ``E`` and ``F`` (:mod:`vision.ink`), and a crop read ``C`` or
            in the dots suit read greyed too, against the bamboo (:mod:`vision.bamboo`), as
            is one read ``E``, against ``F`` (:func:`vision.ink.dark_fa_rival`).
        flips: find the boxes of a photo read at a close-up size (not ``TABLE_SIZE``) four
            ways, as it is, mirrored left-right, upside down and both, and score each box by
            its mean over the four (0 where a way missed it): a box one way alone found
            keeps a quarter of its score (:func:`mean_of_passes`). Default on for ``stills``
            (a photo is read once), off for a stream (speed); a whole table's reading is
            tuned to single boxes and reads worse so.
        pads: the crops each tile is named from, grown by these shares of its box a side,
            their odds multiplied (default ``READ_PADS``: a tight and a loose crop).
        askew: the angles (degrees) a tile's crops are read again at, turned, when the
            classifier is unsure of it (:func:`vision.training.crops.padded_probs`; empty:
            never). Default ``ASKEW`` for ``stills``, none for a stream: the bundled video,
            read each quarter turn once, missed a scripted event more with it.
        dice_finder: path of a second detection model trained on windows cut at a dice
            photo's own scale (``mjtable dataset photo-crops``): on a still of dice (fewer
            than ``AUTO_MIN_FOUND`` tiles at a close-up size) it reads the photo at up to
            ``FINDER_SIDE`` px and adds the dice the detector missed
            (:meth:`_finder_dice`). Stills only.
    """

    def __init__(self, detector: str | os.PathLike[str],
                 classifier: str | os.PathLike[str] | None = None, *,
                 dice: str | os.PathLike[str] | None = None, conf: float = 0.25,
                 iou: float = 0.5, topk: int = 5, threads: int | None = None,
                 max_det: int = 300, read_dice: bool = True, reuse_crops: bool = True,
                 imgsz: int | str | None = None, stills: bool = False,
                 grey: bool = False, turns: int | None = None,
                 backend: str | None = None, ink: bool = True,
                 flips: bool | None = None,
                 dice_finder: str | os.PathLike[str] | None = None,
                 pads: Sequence[float] | None = None,
                 askew: Sequence[float] | None = None) -> None:
        if not 0.0 <= conf <= 1.0:
            raise ValueError(f"confidence threshold must lie in 0..1, got {conf}")
        self.det = OnnxModel(detector, threads, backend)
        self.candidates: tuple[int, ...] = (self.det.imgsz[0],)  # what "auto" chooses from
        if imgsz in (None, "auto"):
            if self.det.dynamic and self.det.imgsz[0] < TABLE_SIZE:
                self.candidates = (self.det.imgsz[0], TABLE_SIZE)
        elif isinstance(imgsz, int):
            self.det.resize(imgsz)
            self.candidates = (imgsz,)
        else:
            raise ValueError(f"detector input size must be a number of pixels or 'auto', "
                             f"got {imgsz!r}")
        self.sizes = self.candidates  # sizes still in the running (a stream narrows them)
        self.size_used = self.det.imgsz[0]  # the input size of the last call
        self.stills, self.grey = stills, grey
        self.turns = (4 if stills else 1) if turns is None else turns
        self.flips = stills if flips is None else flips
        if self.turns not in (1, 4):
            raise ValueError(f"turns must be 1 or 4 (every quarter turn), got {self.turns}")
        if self.det.meta.get("task", "detect") != "detect":
            raise ValueError(f"{self.det.path}: task is {self.det.meta['task']!r}, "
                             "expected a detect model")
        self.cls: OnnxModel | None = None
        if self.det.classes.is_coarse:
            if classifier is None or not Path(classifier).is_file():
                where = "none was given" if classifier is None else f"there is none at {classifier}"
                raise FileNotFoundError(
                    f"{self.det.path} finds coarse classes {', '.join(self.det.names)} and needs "
                    f"the crop classifier, but {where}")
            self.cls = OnnxModel(classifier, threads, backend)
        self.dice: OnnxModel | None = None
        if dice is not None:
            self.dice = OnnxModel(dice, threads, backend)
            if self.dice.meta.get("task") != "classify" or \
                    any(c != DIE_CLASS for c in self.dice.classes.class_id):
                raise ValueError(f"{self.dice.path}: not a die-face classifier (names "
                                 f"{', '.join(self.dice.names)})")
        self.finder: OnnxModel | None = None
        if dice_finder is not None:
            self.finder = OnnxModel(dice_finder, threads, backend)
            if self.finder.meta.get("task", "detect") != "detect" or \
                    DIE_CLASS not in self.finder.classes.class_id or not self.finder.dynamic:
                raise ValueError(f"{self.finder.path}: not a dice finder (a detect model "
                                 "exported with --dynamic that finds dice)")
        self.conf, self.iou, self.topk, self.max_det = conf, iou, topk, max_det
        # the classes of E and F in the classifier, where the ink's colour weighs between them
        self._ink_pair: tuple[int, int] | None = None
        if ink and self.cls is not None and {"E", "F"} <= set(self.cls.names):
            self._ink_pair = (list(self.cls.names).index("E"), list(self.cls.names).index("F"))
        # and the kinds whose colour may hide another's shape (a bamboo tile, a 發 printed
        # dark), each read greyed too
        self._shape_rivals: dict[int, int] = {}
        if ink and self.cls is not None:
            self._shape_rivals = {**bamboo_rivals(self.cls.names),
                                  **dark_fa_rival(self.cls.names)}
        self.pads = tuple(READ_PADS if pads is None else pads)
        if not self.pads or any(not 0.0 <= p <= 0.5 for p in self.pads):
            raise ValueError(f"crop pads must be one or more shares in 0..0.5, got {self.pads}")
        self.askew = tuple((ASKEW if stills else ()) if askew is None else askew)
        if any(not -45.0 < a < 45.0 or a == 0.0 for a in self.askew):
            raise ValueError(f"askew angles must lie in -45..45 degrees and not be 0, "
                             f"got {self.askew}")
        self.read_dice = read_dice
        self.reuse_crops = reuse_crops and not stills
        self.crops_classified = 0  # crops sent to the classifier so far (the cache's effect)
        self._cache: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self.last_found: TileDetections | None = None  # the last detection stage (evaluation)

    def as_still(self) -> Detector:
        """This detector as ``mjtable read`` reads a photo of a whole table (``stills``: the
        input size chosen for the picture, every quarter turn of a crop, an unsure tile read
        again turned; not mirrored, as a table is read once), sharing the loaded models; a
        stream reads a hand laid down so (:class:`vision.pipeline.Pipeline`)."""
        if self.stills:
            return self
        twin = copy.copy(self)
        twin.stills, twin.turns, twin.flips, twin.askew = True, 4, False, tuple(ASKEW)
        twin.sizes, twin.reuse_crops, twin._cache = twin.candidates, False, None
        return twin

    def at_size(self, size: int) -> Detector:
        """This detector reading every picture at the input ``size``, sharing the loaded
        models: a picture turned square is read at the size the picture itself chose (its
        tiles keep their size in pixels, while the view may be larger, and a still would
        choose anew; :mod:`vision.squaring`)."""
        if self.sizes == (size,) and self.candidates == (size,):
            return self
        twin = copy.copy(self)
        twin.sizes = twin.candidates = (size,)
        twin._cache = None
        return twin

    @property
    def two_stage(self) -> bool:
        return self.cls is not None

    def describe(self) -> str:
        parts = [f"{self.det.path.name} ({len(self.det.names)} classes, "
                 f"{self.det.imgsz[1]}x{self.det.imgsz[0]})"]
        for model in (self.cls, self.dice, self.finder):
            if model is not None:
                parts.append(f"{model.path.name} ({len(model.names)} classes, "
                             f"{model.imgsz[1]}x{model.imgsz[0]})")
        return " + ".join(parts) + f" on {self.det.backend}"

    def detect(self, image: np.ndarray, conf: float | None = None) -> TileDetections:
        """Everything found in one BGR uint8 image (H, W, 3); ``conf`` overrides the threshold
        of the boxes returned (``mjtable eval`` asks for low-scoring ones too, for mAP)."""
        dets = self.last_found = self.find(image, conf)
        return self.name(image, dets)

    def shown(self, dets: TileDetections) -> TileDetections:
        """The boxes ``mjtable detect`` lists: a tile face only where its confidence, the
        detector's times the classifier's, reaches the threshold, as ``mjtable eval`` counts
        tiles. A tile box found surely but named unsurely is more often a tile half in view
        than one more tile (the reading of a table keeps them all and weighs them by their
        place); a die box is a die whatever its face's odds, so dice stay as found."""
        return dets[~dets.is_tile | (dets.confidence >= self.conf)]

    def name(self, image: np.ndarray, dets: TileDetections) -> TileDetections:
        """What the detection stage found, named: coarse tiles by the crop classifier (in
        batches), die faces by the die classifier and by their pips."""
        if self.cls is not None:
            dets = self.classify(image, dets)
            if not self.grey:
                if self.size_used == TABLE_SIZE:
                    dets = dets[~on_felt(image, dets)]  # a 白 or a back read on bare felt
                    dets = unsure_straddles_dropped(dets)
                    dets = self.straddlers_split(image, dets)
                    dets = self.two_flowers_split(image, dets)
                    dets = self.unboxed_blanks(image, dets)  # a plain 白 in a row, unboxed
                    dets = self.unboxed_in_rows(image, dets)  # a tile in a hole in a row
                    dets = self.unboxed_backs(image, dets)  # a concealed kong's back, unboxed
                # a standing tile's top, named 白 for its blank side
                dets = tops_told_by_colour(image, dets)
        if self.dice is not None:
            dets = self.read_dice_faces(image, dets)
        if self.read_dice and len(dets):
            from vision.dice import read_faces

            dets = read_faces(image, dets)
        return dets

    def find(self, image: np.ndarray, conf: float | None = None) -> TileDetections:
        """The detection stage alone: boxes at the chosen input size, before any crop is
        classified (a two-stage detector's tiles are still coarse, ``data["coarse"]``)."""
        if image is None or image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            shape = None if image is None else (image.shape, image.dtype)
            raise ValueError(f"expected a BGR uint8 image (H, W, 3), got {shape}")
        conf = self.conf if conf is None else conf
        if self.grey:
            image = grey_stretched(image)
        sizes = self.candidates if self.stills else self.sizes
        # with flips, each way keeps boxes down to a share of the threshold: the mean decides
        floor = conf / len(FLIPS) if self.flips else conf
        dets = self._find(image, sizes[0], floor)
        if len(sizes) > 1:  # automatic size, not chosen yet (or chosen anew for each still)
            dets = self._choose_size(image, dets, conf)
        if self.size_used == TABLE_SIZE:
            if self.stills and self.det.dynamic:
                dets = self._table_dice(image, dets, conf)
                dets = self._loose_dice_boxed_again(image, dets, conf)
        else:
            if self.flips:
                dets = self._flipped(image, dets, floor)
            if self.stills and self.finder is not None:
                dets = self._finder_dice(image, dets, conf)
        # only a mean over the ways can fall under the threshold (a stream reads once)
        dets = dets[dets.confidence >= conf] if floor < conf else dets
        return self.backs_by_colour(image, dets)

    def backs_by_colour(self, image: np.ndarray, dets: TileDetections,
                        context: TileDetections | None = None) -> TileDetections:
        """The detection stage's boxes with backs told by their colour (a back lying flat
        among face-up tiles boxed as a face, a table's rim boxed as a back), as every pass
        over a frame tells them, whole or in windows (``context``: the frame's boxes kept
        from an earlier pass, :func:`vision.backs.told_by_colour`); a grey input has none."""
        return dets if self.grey else told_by_colour(image, dets, context)

    def _flipped(self, image: np.ndarray, plain: TileDetections,
                 floor: float) -> TileDetections:
        """``plain`` (the boxes found as the image is) and those found in its mirror images,
        mapped back, as one set scored by their mean (see ``flips``)."""
        h, w = image.shape[:2]
        passes = [plain]
        for across, down in FLIPS[1:]:
            view = image[:, ::-1] if across else image
            view = view[::-1] if down else view
            found = self._find(np.ascontiguousarray(view), self.size_used, floor)
            xyxy = found.xyxy.copy()
            if across:
                xyxy[:, [0, 2]] = w - found.xyxy[:, [2, 0]]
            if down:
                xyxy[:, [1, 3]] = h - found.xyxy[:, [3, 1]]
            passes.append(found.with_(xyxy=xyxy))
        return mean_of_passes(passes, self.iou)

    def _table_dice(self, image: np.ndarray, dets: TileDetections,
                    conf: float) -> TileDetections:
        """A whole table's dice, where the table-size pass found fewer than a roll's two: the
        detector runs again on a window at the middle of the tiles (where dice are rolled) at
        the frame's own scale, and the window's dice take the place of the table pass's that
        they box again.

        A die 16-24 px across in a 1080p frame is 8-12 px at ``TABLE_SIZE``, below what the
        detector finds surely; at 1:1 it is the size of a close-up die. Stills only: the
        window costs about three quarters of the table-size pass.
        """
        bar = max(conf, self.conf)
        tiles = dets[~dets.is_die & (dets.confidence >= bar)]
        side = min(DICE_WINDOW, *image.shape[:2]) // STRIDE * STRIDE
        if (dets.is_die & (dets.confidence >= bar)).sum() >= 2 or len(tiles) < AUTO_MIN_FOUND \
                or side < STRIDE:
            return dets
        # the middle of the tiles: a stray box does not move it
        found = self._window_dice(image, np.median(tiles.center, axis=0), side, conf)
        if not len(found):
            return dets
        # the window's dice replace the table pass's that they box again (theirs are the
        # tighter: IoU SAME_DIE, or a window die's middle inside a loose box); a table die the
        # window misses stays. None is taken inside a tile the table pass found: a tile's
        # parts can look like a die at 1:1
        fx, fy = found.center.T
        x_0, y_0, x_1, y_1 = (dets.xyxy[:, k:k + 1] for k in range(4))
        holds = (fx >= x_0) & (fx < x_1) & (fy >= y_0) & (fy < y_1)
        again = dets.is_die & ((box_iou(dets.xyxy, found.xyxy) >= SAME_DIE) | holds).any(axis=1)
        kept = dets[~again]
        return TileDetections.merge([kept, found[uncovered(found, kept)]])

    def _loose_dice_boxed_again(self, image: np.ndarray, dets: TileDetections,
                                conf: float) -> TileDetections:
        """A whole table's die boxes that are too large for a die (``LOOSE_DIE``) boxed again
        by the detector on a small window around each at the frame's own scale, where a die
        is the size of a close-up one: the window's die box that overlaps the loose one takes
        its place. A loose box misses its die at IoU 0.5 and its crop shows the die small, a
        blurred one read as a six. Stills only, as :meth:`_table_dice`.
        """
        bar = max(conf, self.conf)
        tiles = dets[~dets.is_die & (dets.confidence >= bar)]
        dice = np.flatnonzero(dets.is_die)
        side = min(LOOSE_DIE_WINDOW, *image.shape[:2]) // STRIDE * STRIDE
        if not len(dice) or not len(tiles) or side < STRIDE:
            return dets
        width = float(np.median((tiles.xyxy[:, 2:] - tiles.xyxy[:, :2]).min(axis=1)))
        dice = dice[(dets.xyxy[dice, 2:] - dets.xyxy[dice, :2]).max(axis=1) >= LOOSE_DIE * width]
        if not len(dice):
            return dets
        xyxy = dets.xyxy.copy()
        for i in dice:
            found = self._window_dice(image, (xyxy[i, :2] + xyxy[i, 2:]) / 2, side, conf)
            if not len(found):
                continue
            overlap = box_iou(xyxy[i][None], found.xyxy)[0]
            if overlap.max() >= SAME_DIE:
                xyxy[i] = found.xyxy[int(overlap.argmax())]
        return dets.with_(xyxy=xyxy)

    def _window_dice(self, image: np.ndarray, middle: np.ndarray, side: int,
                     conf: float) -> TileDetections:
        """The dice the detector finds in the ``side``-px square of ``image`` around ``middle``
        (moved inside the frame), read at the frame's own scale, in frame pixels; the
        detector is left at the size it had."""
        x0, y0 = np.clip(np.round(middle - side / 2), 0,
                         [image.shape[1] - side, image.shape[0] - side]).astype(int)
        size = self.det.imgsz[0]
        found = self._run(self.det, np.ascontiguousarray(image[y0:y0 + side, x0:x0 + side]),
                          side, conf)
        self.det.resize(size)
        found = found[found.is_die]
        return found.with_(xyxy=found.xyxy + np.array([x0, y0, x0, y0], np.float32))

    def _finder_dice(self, image: np.ndarray, dets: TileDetections,
                     conf: float) -> TileDetections:
        """A still of dice read again by the dice finder at the photo's own scale (see
        ``dice_finder``): its dice take the place of the detector's, which stay only where
        no die of the finder's lies.

        A far die of 10 px in a 640-px photo is 5 px at the detector's 320, below anything it
        finds; the finder learned such dice at their own size from windows of the photos.
        The finder's boxes come first: the detector's loose die boxes (a die's pips, two
        dice in one box) would otherwise hide the finder's right ones.
        """
        finder = self.finder
        assert finder is not None
        bar = max(conf, self.conf)
        sure = dets[dets.confidence >= bar]
        if (~sure.is_die).sum() >= AUTO_MIN_FOUND:
            return dets
        side = -(-min(max(image.shape[:2]), FINDER_SIDE) // STRIDE) * STRIDE
        found = self._run(finder, image, side, conf)
        found = found[found.is_die]
        sure_found = found[found.confidence >= bar]
        if not len(sure_found):
            return TileDetections.merge([dets, found[uncovered(found, sure)]])
        ours = dets[dets.is_die]
        return TileDetections.merge([dets[~dets.is_die], found,
                                     ours[uncovered(ours, sure_found)]])

    def _find(self, image: np.ndarray, size: int, conf: float) -> TileDetections:
        self.size_used = size
        return self._run(self.det, image, size, conf)

    def _run(self, model: OnnxModel, image: np.ndarray, size: int,
             conf: float) -> TileDetections:
        """One pass of a detection ``model`` (the detector or the dice finder) at ``size``."""
        model.resize(size)
        boxed, lb = self.model_input(image, size, model)
        return self.decode(model.run(to_tensor([boxed])), lb, conf, model)

    def model_input(self, image: np.ndarray, size: int,
                    model: OnnxModel | None = None) -> tuple[np.ndarray, Letterbox]:
        """The letterboxed input of a frame (already grey when ``grey``) at ``size`` for the
        detector (or another detection ``model``): a stride-aligned rectangle for a dynamic
        model, its fixed shape otherwise."""
        model = model or self.det
        shape = rect_shape(image.shape[:2], size) if model.dynamic else model.imgsz
        return letterbox(image, shape, 0 if self.grey else LETTERBOX_FILL)

    def _choose_size(self, image: np.ndarray, dets: TileDetections,
                     conf: float) -> TileDetections:
        """Run ``TABLE_SIZE`` too and keep it if it finds more tiles, of whole-table tile size
        (a still: ``TABLE_MIN_TILES`` at least), or dice the exported size missed; else the
        exported size.

        Only boxes at the operating threshold count, so a call asking for low scores
        (evaluation) chooses as ``detect`` does. A still of dice, where the exported size
        finds no tiles, takes the table size for dice no box of the exported size covers and
        whose face reads surely: at 960 a close-up die's pips (and a close-up tile's parts)
        come back as dozens of small dice, while far dice of a few pixels are found only
        there (with a dice finder, which reads them at the photo's own scale, it stays at the
        exported size). In a stream the first frame with enough tiles fixes the choice; stills
        choose each time.
        """
        base, table = self.candidates
        large = self._find(image, table, conf)
        bar = max(conf, self.conf)
        sure, sure_large = dets[dets.confidence >= bar], large[large.confidence >= bar]
        tiles, tiles_large = sure[~sure.is_die], sure_large[~sure_large.is_die]
        least = TABLE_MIN_TILES if self.stills else AUTO_MIN_FOUND
        if len(tiles_large) >= least and len(tiles_large) > len(tiles):
            scale = min(table / image.shape[0], table / image.shape[1])
            sides = (tiles_large.xyxy[:, 2:] - tiles_large.xyxy[:, :2]).min(axis=1) * scale
            if float(np.median(sides)) <= AUTO_TABLE_SIDE:
                if not self.stills:
                    self.sizes = (table,)
                return large
        if self.stills and self.finder is None and len(tiles) < AUTO_MIN_FOUND \
                and sure_large.is_die.sum() >= AUTO_MIN_FOUND:
            # a new die counts once its face is read surely (a pip or a stain is read as none)
            new = sure_large[sure_large.is_die & uncovered(sure_large, sure)]
            if len(new) >= AUTO_MIN_FOUND:
                new = self.name(image, new)
                if int((new.confidence >= bar).sum()) >= AUTO_MIN_FOUND:
                    return large
        self.det.resize(base)
        self.size_used = base
        if len(tiles) >= AUTO_MIN_FOUND and not self.stills:
            self.sizes = (base,)
        return dets

    def decode(self, raw: np.ndarray, lb: Letterbox, conf: float,
               model: OnnxModel | None = None) -> TileDetections:
        """Raw output (1, 4 + nc, N) of the detector (or another detection ``model``) to
        validated detections after NMS."""
        model = model or self.det
        nc = len(model.names)
        pred = np.asarray(raw)
        if pred.ndim == 3:
            pred = pred[0]
        if pred.ndim != 2 or 4 + nc not in pred.shape:
            raise ValueError(f"{model.path}: output shape {np.shape(raw)} does not match "
                             f"4 + {nc} classes")
        if pred.shape[0] == 4 + nc and pred.shape[1] != 4 + nc:
            pred = pred.T  # (N, 4 + nc)
        scores = pred[:, 4:]
        best = scores.max(axis=1)
        keep = best >= conf
        pred, scores, best = pred[keep], scores[keep], best[keep]
        if len(pred) > 30 * self.max_det:
            top = np.argsort(-best)[: 30 * self.max_det]
            pred, scores, best = pred[top], scores[top], best[top]
        cx, cy, w, h = pred[:, 0], pred[:, 1], pred[:, 2], pred[:, 3]
        xyxy = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
        idx = nms(xyxy, best, self.iou, self.max_det)
        xyxy, scores, best = xyxy[idx], scores[idx], best[idx]
        model_cls = scores.argmax(axis=1) if len(scores) else np.zeros(0, np.int64)
        cmap = np.array(model.classes.class_id, np.int16)
        faces = np.array(model.classes.face, np.int8)
        k = min(self.topk, nc)
        order = np.argsort(-scores, axis=1)[:, :k]
        probs = np.take_along_axis(scores, order, axis=1)
        probs = probs / np.maximum(scores.sum(axis=1, keepdims=True), 1e-9)
        class_id = cmap[model_cls]
        coarse = class_id < 0
        dets = TileDetections(
            xyxy=lb.to_image(xyxy.astype(np.float32)), confidence=best,
            class_id=np.where(coarse, 0, class_id), topk_ids=cmap[order], topk_probs=probs,
            face=faces[model_cls], data={"coarse": coarse})
        size = dets.xyxy[:, 2:] - dets.xyxy[:, :2]
        keep = (size >= MIN_BOX).all(axis=1)  # slivers left after clipping to the image
        # a face-up box of table size (in the model's input) lying mostly inside surer boxes
        # straddles two touching tiles; close-up tiles (a hand held up, a turned photo's loose
        # boxes) overlap by nature
        table_size = np.minimum(xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1]) \
            <= AUTO_TABLE_SIDE
        loose = dets.is_tile & table_size
        keep &= ~(loose & (covered(dets.xyxy, best, loose) >= STRADDLING))
        return dets[keep]

    def classify(self, image: np.ndarray, dets: TileDetections) -> TileDetections:
        """Name every coarse tile (and die) from its full-resolution crop, in batches."""
        from vision.training.crops import CROP_PAD, crop_box

        assert self.cls is not None
        coarse = dets.data.get("coarse", np.zeros(len(dets), bool))
        todo = np.flatnonzero(coarse | (dets.is_die & (self.dice is None)))
        if not len(todo):
            return dets
        size = self.cls.imgsz[0]
        crops = [crop_box(image, dets.xyxy[i], size=size, pad=CROP_PAD) for i in todo]
        thumbs = np.stack([cv2.resize(cv2.cvtColor(c, cv2.COLOR_BGR2GRAY), (12, 12),
                                      interpolation=cv2.INTER_AREA) for c in crops]
                          ).astype(np.int16)
        boxes = dets.xyxy[todo]
        probs = np.zeros((len(todo), len(self.cls.names)), np.float32)
        fresh = np.ones(len(todo), bool)
        if self.reuse_crops and self._cache is not None and len(self._cache[0]):
            old_boxes, old_thumbs, old_probs = self._cache
            iou = box_iou(boxes, old_boxes)
            best = iou.argmax(axis=1)
            for row, j in enumerate(best):
                if iou[row, j] > 0.85 and \
                        np.abs(thumbs[row] - old_thumbs[j]).mean() < CROP_CHANGE:
                    probs[row] = old_probs[j]
                    fresh[row] = False
        if fresh.any():
            probs[fresh] = self.crop_probs(image, boxes[fresh])
            self.crops_classified += int(fresh.sum())
        self._cache = (boxes, thumbs, probs)
        cmap = np.array(self.cls.classes.class_id, np.int16)
        cfaces = np.array(self.cls.classes.face, np.int8)
        is_die_cls = cmap == DIE_CLASS
        k = min(self.topk, probs.shape[1])
        class_id, conf = dets.class_id.copy(), dets.confidence.copy()
        face = dets.face.copy()
        topk_ids = np.full((len(dets), k), -1, np.int16)
        topk_probs = np.zeros((len(dets), k), np.float32)
        topk_ids[:, 0], topk_probs[:, 0] = class_id, 1.0
        for row, i in enumerate(todo):
            p = probs[row]
            if dets.is_die[i] and is_die_cls.any():
                # a die box is only read as a die: the best face among the die classes
                j = int(np.argmax(np.where(is_die_cls, p, -1.0)))
                face[i] = cfaces[j]
                conf[i] = dets.confidence[i] * p[j]
                continue
            order = np.argsort(-p)[:k]
            j = int(order[0])
            class_id[i], face[i] = cmap[j], cfaces[j]
            conf[i] = dets.confidence[i] * p[j]
            topk_ids[i], topk_probs[i] = cmap[order], p[order]
        return dets.with_(class_id=class_id, confidence=conf, face=face, topk_ids=topk_ids,
                          topk_probs=topk_probs,
                          data={**dets.data, "coarse": np.zeros(len(dets), bool)})

    def crop_probs(self, image: np.ndarray, boxes: np.ndarray,
                   pads: Sequence[float] | None = None) -> np.ndarray:
        """(len(boxes), nc) the crop classifier's probabilities for ``boxes`` (pixel xyxy) of
        ``image``: each box's crops at ``pads`` (default the detector's), each in its turns
        and weighed by its colour (``ink``), their odds multiplied; an unsure box's crops
        also turned ``askew``."""
        from vision.training.crops import padded_probs, symmetric_probs

        assert self.cls is not None
        ink, rivals = self._ink_pair, self._shape_rivals

        def read(crops: list[np.ndarray]) -> np.ndarray:
            return symmetric_probs(crops, self.classify_crops, self.turns)

        def weigh(crops: list[np.ndarray], probs: np.ndarray) -> np.ndarray:
            if ink is not None:
                probs = weigh_ink(crops, probs, *ink)
            return weigh_shape(crops, probs, rivals, read) if rivals else probs

        return padded_probs(image, boxes, read, self.pads if pads is None else tuple(pads),
                            self.cls.imgsz[0], weigh, self.askew)

    def name_places(self, image: np.ndarray, boxes: np.ndarray,
                    k: int = 5) -> tuple[np.ndarray, np.ndarray]:
        """The crop classifier's top ``k`` tile kinds and their odds for each of ``boxes``
        (pixel xyxy) of ``image``, as :meth:`classify` names a box: ((K, k) kinds, (K, k)
        odds; a kind that is no tile, -1). The reading names a box again so where the row
        shows it was boxed out of step (:func:`vision.geometry.read_table`)."""
        if self.cls is None or not len(boxes):
            return np.full((len(boxes), k), -1, np.int16), np.zeros((len(boxes), k), np.float32)
        kinds, odds = self._ranked(self.crop_probs(image, boxes), k)
        return np.where(kinds < DIE_CLASS, kinds, -1), odds

    def _ranked(self, probs: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """(K, k) the crop classifier's top ``k`` classes for each row of ``probs`` (tile
        kinds, a die as ``DIE_CLASS``) and their odds, surest first: a box's runner-ups."""
        assert self.cls is not None
        order = np.argsort(-probs, axis=1)[:, :k]
        return (np.array(self.cls.classes.class_id, np.int16)[order],
                np.take_along_axis(probs, order, axis=1))

    def straddlers_split(self, image: np.ndarray, dets: TileDetections) -> TileDetections:
        """``dets`` with each box over two touching tiles (:func:`two_tile_straddlers`) made
        the box of the tile its inner box leaves: at that place, named there when the
        classifier is sure of a tile kind (``SPLIT_SURE``); dropped where the place is boxed
        already; left as it was otherwise."""
        rows, places, boxed = two_tile_straddlers(dets)
        if self.cls is None or not len(rows):
            return dets
        kinds, odds = self._ranked(self.crop_probs(image, places), dets.topk_ids.shape[1])
        xyxy, names = dets.xyxy.copy(), {}
        for r, place, kind, odd in zip(rows[~boxed], places[~boxed], kinds[~boxed],
                                       odds[~boxed], strict=True):
            if odd[0] < SPLIT_SURE or not 0 <= kind[0] < DIE_CLASS:
                continue
            xyxy[r], names[int(r)] = place, (kind, odd)
        out = dets.with_(xyxy=xyxy).renamed(names)
        return out[~np.isin(np.arange(len(out)), rows[boxed])]

    def two_flowers_split(self, image: np.ndarray, dets: TileDetections) -> TileDetections:
        """``dets`` with each box over two touching tiles that hold no box of their own
        (:func:`two_tiles_in_one_box`) cut into the two tiles' boxes, each named at its
        place, where the classifier is sure (``SPLIT_SURE``) of two different flowers at the
        two halves of one cut (REALVAL9D table_s24_000109: f7 and f6 laid one beyond the
        other, boxed as one f6). Only flowers: half a suit tile can show another, surely (a
        4p's half a 2p), and its neighbours, a hand's tiles, are boxed alike; flowers lie
        apart from the hand, two or three together. Left as it was otherwise."""
        rows, halves = two_tiles_in_one_box(dets)
        if self.cls is None or not len(rows):
            return dets
        k = dets.topk_ids.shape[1]
        kinds, odds = self._ranked(self.crop_probs(image, halves.reshape(-1, 4)), k)
        kinds, odds = kinds.reshape(len(rows), 2, 2, k), odds.reshape(len(rows), 2, 2, k)
        top = kinds[..., 0]
        flowers = np.isin(top, FLOWERS).all(axis=2) & (top[..., 0] != top[..., 1])
        least = np.where(flowers, odds[..., 0].min(axis=2), 0.0)  # (K, 2): a cut each way
        axis = least.argmax(axis=1)
        pick = np.arange(len(rows))
        sure = least[pick, axis] >= SPLIT_SURE
        if not sure.any():
            return dets
        rows, axis, pick = rows[sure], axis[sure], pick[sure]
        cut = halves.reshape(len(halves), 2, 2, 4)[pick, axis]
        kinds, odds = kinds[pick, axis], odds[pick, axis]
        xyxy = dets.xyxy.copy()
        xyxy[rows] = cut[:, 0]
        second = dets[rows].with_(xyxy=cut[:, 1].astype(dets.xyxy.dtype))
        out = TileDetections.merge([dets.with_(xyxy=xyxy), second])
        n = len(dets)
        names = {int(r): (k[0], o[0]) for r, k, o in zip(rows, kinds, odds, strict=True)}
        names |= {n + i: (k[1], o[1]) for i, (k, o) in enumerate(zip(kinds, odds, strict=True))}
        return out.renamed(names)

    def unboxed_blanks(self, image: np.ndarray, dets: TileDetections) -> TileDetections:
        """``dets`` with a 白 box added at each place at a row's end that shows a face and no
        box (:func:`vision.blanks.face_places`) where the crop classifier is sure of 白, scored
        at the threshold (found by the row, not by the detector)."""
        if self.cls is None:
            return dets
        places = face_places(image, dets)
        if not len(places):
            return dets
        cmap = np.array(self.cls.classes.class_id)
        blank = np.flatnonzero(cmap == BLANK_CLASS)
        if not len(blank):
            return dets
        sure = self.crop_probs(image, places)[:, blank].sum(axis=1) >= SURE_BLANK
        if not sure.any():
            return dets
        return self._found_by_row(dets, places[sure], BLANK_CLASS)

    def unboxed_in_rows(self, image: np.ndarray, dets: TileDetections) -> TileDetections:
        """``dets`` with a face box added at each hole one tile wide inside a row
        (:func:`vision.blanks.hole_places`) whose crop the classifier is sure shows one tile
        kind (``SURE_HOLE``), scored at the threshold (found by the row, not by the detector);
        a box beyond it that reached into it is cut back to the hole's edge."""
        if self.cls is None:
            return dets
        places, beyond = hole_places(dets, image.shape)
        if not len(places):
            return dets
        cmap = np.array(self.cls.classes.class_id)
        probs = self.crop_probs(image, places)
        top = probs.argmax(axis=1)
        kinds = cmap[top]
        sure = (probs[np.arange(len(places)), top] >= SURE_HOLE) & (kinds >= 0) \
            & (kinds < DIE_CLASS)
        if not sure.any():
            return dets
        found = np.flatnonzero(sure)
        found = found[np.argsort(kinds[found], kind="stable")]  # kind by kind, as found
        xyxy = dets.xyxy.copy()
        for place, k in zip(places[found], beyond[found], strict=True):
            if k >= 0:
                xyxy[k] = cut_back(xyxy[k], place)
        out = self._found_by_row(dets.with_(xyxy=xyxy), places[found], kinds[found])
        # a box between the hole and its neighbour, all but wholly inside the two, straddles
        # them (fresh real-face table_s27_000142: a 3s box over half the unboxed 2s and half
        # the 3s): the hole's tile counts as the surest of boxes here
        scores = np.where(out.is_tile, out.confidence, -1.0)
        scores[len(dets):] = np.inf
        share = covered(out.xyxy, scores, out.is_tile & (np.arange(len(out)) < len(dets)))
        return out[share < STRADDLER_INSIDE]

    def unboxed_backs(self, image: np.ndarray, dets: TileDetections) -> TileDetections:
        """``dets`` with a back box added at each place at a row's end that shows the backs'
        colour and no box (:func:`vision.blanks.back_places`), scored at the threshold."""
        places = back_places(image, dets)
        return self._found_by_row(dets, places, BACK_CLASS) if len(places) else dets

    def _found_by_row(self, dets: TileDetections, boxes: np.ndarray,
                      kind: int | np.ndarray) -> TileDetections:
        """``dets`` with boxes of ``kind`` (one for all, or one a box) added at ``boxes``,
        scored at the threshold (found by their row, not by the detector); their top-k: the
        kind alone, padded by merge."""
        n = len(boxes)
        added = TileDetections(
            xyxy=boxes.astype(dets.xyxy.dtype), confidence=np.full(n, self.conf, np.float32),
            class_id=np.broadcast_to(np.asarray(kind, np.int16), (n,)).copy(),
            data={k: np.zeros((n, *v.shape[1:]), v.dtype) for k, v in dets.data.items()})
        return TileDetections.merge([dets, added])

    def read_dice_faces(self, image: np.ndarray, dets: TileDetections) -> TileDetections:
        """The top face of every die box, from the die-face classifier, averaged over the
        crop's eight turns and mirrors (a few dice a frame: 8x a handful of crops)."""
        from vision.training.crops import CROP_PAD, crop_box, symmetric_probs

        dice = self.dice
        assert dice is not None
        todo = np.flatnonzero(dets.is_die)
        if not len(todo):
            return dets
        size = dice.imgsz[0]
        crops = [crop_box(image, dets.xyxy[i], size=size, pad=CROP_PAD) for i in todo]
        probs = symmetric_probs(crops, lambda c: self.classify_crops(c, dice))
        faces = np.array(dice.classes.face, np.int8)
        best = probs.argmax(axis=1)
        face, conf = dets.face.copy(), dets.confidence.copy()
        face[todo] = faces[best]
        conf[todo] = dets.confidence[todo] * probs[np.arange(len(todo)), best]
        return dets.with_(face=face, confidence=conf)

    def classify_crops(self, crops: Sequence[np.ndarray],
                       model: OnnxModel | None = None) -> np.ndarray:
        """(B, nc) class probabilities of BGR crops of the classifier's size, batched
        (``model``: the crop classifier unless another is given)."""
        model = model or self.cls
        assert model is not None
        n = len(crops)
        if n == 0:
            return np.zeros((0, len(model.names)), np.float32)
        batch = model.fixed_batch or CLASSIFIER_BATCH
        tensor = to_tensor(crops)
        outs = []
        for start in range(0, n, batch):
            chunk = tensor[start:start + batch]
            if model.fixed_batch and len(chunk) < batch:
                chunk = np.concatenate([chunk, np.zeros((batch - len(chunk), *chunk.shape[1:]),
                                                        np.float32)])
            out = np.asarray(model.run(chunk), np.float32).reshape(len(chunk), -1)
            outs.append(out[: min(batch, n - start)])
        probs = np.concatenate(outs)
        if probs.shape[1] != len(model.names):
            raise ValueError(f"{model.path}: output has {probs.shape[1]} classes, metadata "
                             f"names {len(model.names)}")
        sums = probs.sum(axis=1)
        if probs.min() < 0 or probs.max() > 1 or not np.allclose(sums, 1, atol=1e-2):
            e = np.exp(probs - probs.max(axis=1, keepdims=True))  # logits: make probabilities
            probs = e / e.sum(axis=1, keepdims=True)
        return probs


def load_detector(models_dir: str | os.PathLike[str] | None = None,
                  **options: Any) -> Detector:
    """The shipped models: ``models/detector.onnx`` and, for a two-stage design,
    ``models/classifier.onnx`` (and, if present, ``models/dice.onnx`` for die faces and
    ``models/dice_finder.onnx`` for far dice on stills).
    ``options`` go to :class:`Detector`; without them it is a stream's (``watch``):
    ``stills=True`` builds the one ``read`` runs on a photo."""
    root = Path(models_dir) if models_dir is not None else default_models_dir()
    det = root / "detector.onnx"
    if not det.is_file():
        raise FileNotFoundError(f"no detector model at {det}; train and export one "
                                "(mjtable train) or set MJTABLE_MODELS to a folder holding "
                                "detector.onnx")
    cls, dice, finder = root / "classifier.onnx", root / "dice.onnx", root / "dice_finder.onnx"
    # the classifier's path even when missing: a coarse detector then names it in its error
    return Detector(det, cls,  # type: ignore[arg-type]
                    dice=dice if dice.is_file() else None,
                    dice_finder=finder if finder.is_file() else None, **options)
