"""Photographed tile faces for table scenes, kept by fold: tiles-real label boxes and tile-faces.

Drawn art alone leaves the models blind to real tile faces at table scale, so scenes can be
dressed with photos instead. The folds are the ones the rest of the project measures with, never
re-derived here: tiles-real by source photo (``vision.training.prepare``: ``list_samples`` and
``group_folds``), tile-faces by look (``datasets.faces.face_folds``). A scene of one fold takes
faces only from that fold, so a held-back photo never trains a model through a scene.

tiles-real boxes are axis-aligned boxes around faces seen at an angle, turned by the export's
augmentation (90 and 45 degree turns, flips). A box is kept when it is upright-shaped (taller than
wide), large enough, clear of the image edge and tile-coloured in its corners (a turned tile
leaves table in them), in colour (the export greyed some copies) and like its kind; its way up
is chosen between the two poses a real tile shows a camera (as is, turned half way) by
correlation with the drawn art and the same fold's tile-faces photos of its kind. A mirror image
is no tile: chosen among mirrored poses too, that correlation, blind to a character's handedness,
had stored 39 of the held-back fold's 113 faces mirrored (a mirrored 九萬 reads as 六萬). The
export's copies found mirrored are listed (:data:`MIRRORED_COPIES`; :mod:`datasets.copy_mirrors`
tells which copies of a photo share their handedness) and mirrored back first.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets import art
from datasets.faces import face_files, face_folds
from scoring.tiles import NUM_TILES, TILE_NAMES
from vision.training.prepare import group_folds, list_samples, read_yolo_labels

DATA_ROOT = Path(os.environ.get("MJTABLE_DATA", Path(__file__).resolve().parents[2]
                                / "shared" / "datasets"))
FACE_PX = (60, 80)  # (w, h) of a stored face: more than a 1080p table tile needs
VAL_SHARE = 0.2
SPLIT_SEED = 0
MIN_SIDE = 36  # px in the 640-px tiles-real image: smaller boxes are slivers or far tiles
ASPECT = (1.12, 1.9)  # height / width of an upright, whole face box
TRIM = 0.04  # of each side: the box edge holds table or the tile's side
CORNER_TILE = 0.45  # least share of tile-coloured pixels in each corner patch
POSES = ("as_is", "half_turn")  # the ways up a real tile shows; a mirror image is none
# tiles-real copies that the export's augmentation mirrored. Which copies of a photo share their
# handedness is measured (datasets.copy_mirrors); which side is the photo as taken was decided by
# eye, from what reads one way only. The held-back fold's photos that give faces were looked at;
# a few with half-turned characters and no corner indices could not be told; the training
# fold's not yet.
MIRRORED_COPIES = frozenset({
    # C, E and 9 read backwards at the top right; its two siblings read forwards
    "hand_096_jpg.rf.905ec92ca2028e714a299b1fee45c05a.jpg",
    # the sorted hand runs backwards against both siblings (伍's 亻 on the left, the flower's 2)
    "hand_004_jpg.rf.40adc9fb35823389743a2dbf6f16b93e.jpg",
    # both mirror the copy whose corner indices (9, C, 7, 5, 2) read forwards
    "hand_069_jpg.rf.9a9d02871d9646a10bc018f40ad70463.jpg",
    # both mirror the copy whose hand runs 一 to 八 left to right, indices forwards
    "hand_111_jpg.rf.8c7b8f335b6767f9ba6914b7d010895e.jpg",
    "hand_111_jpg.rf.c835e9b45baab1880087b7b9f8bbb2e2.jpg",
    # its 九 hooks to the left; both siblings' 九 hook to the right
    "hand_025_jpg.rf.bc849a06b3e5eca774bc39c6294acaf8.jpg",
})
MAX_TILT = 12.0  # degrees: the dominant edge direction of a face box seen straight
MIN_MATCH = 0.45  # least correlation with the drawn art in the chosen pose
TURN_MARGIN = 0.05  # the upright pose must beat a quarter turn by this much
MIN_PER_KIND = 3
MIN_COLOUR = 8  # channel spread (95th percentile) below which a crop is a greyed copy


@dataclass(frozen=True)
class PhotoFace:
    """One upright face photo: RGB uint8 at :data:`FACE_PX` and where it came from."""

    kind: int
    rgb: np.ndarray
    source: str  # "tiles-real:<source photo>" or "tile-faces:<file>"


def tiles_real_folds(root: Path, val_share: float = VAL_SHARE,
                     seed: int = SPLIT_SEED) -> dict[str, str]:
    """``{source photo: "train"|"val"}``: exactly the detector and classifier split."""
    return group_folds(list_samples(root, "tiles"), val_share, seed)


def _pose(img: np.ndarray, pose: str) -> np.ndarray:
    out = {"as_is": img, "half_turn": img[::-1, ::-1]}[pose]
    return np.ascontiguousarray(out)


def _signature(gray: np.ndarray) -> np.ndarray:
    """Zero-mean, unit-norm ink map at 15x20: what pose matching compares."""
    small = cv2.resize(gray, (15, 20), interpolation=cv2.INTER_AREA).astype(np.float32)
    small = small.max() - small  # ink is dark on a light face
    small -= small.mean()
    return small.ravel() / max(float(np.linalg.norm(small)), 1e-6)


Templates = dict[int, np.ndarray]  # kind -> (n, 300) signatures of upright faces


@functools.cache
def art_templates() -> Templates:
    """Signatures of the drawn art of the built-in styles, on white (the optional Debian sets
    are left out, so the faces kept do not depend on what a machine has set up)."""
    out: dict[int, list[np.ndarray]] = {}
    for style in (s for s in art.available_styles() if s in art.BUILTIN):
        for kind, rgba in art.load_style(style).items():
            a = rgba[..., 3:4].astype(np.float32) / 255
            rgb = rgba[..., :3].astype(np.float32) * a + 255 * (1 - a)
            gray = cv2.cvtColor(rgb.astype(np.uint8), cv2.COLOR_RGB2GRAY)
            out.setdefault(kind, []).append(_signature(gray))
    return {k: np.stack(v) for k, v in out.items()}


def with_photos(templates: Templates, faces: list[PhotoFace]) -> Templates:
    """``templates`` plus upright photos: real designs find the way up of a photo far better
    than drawn ones (winds, dragons and flowers: 91% of tile-faces poses found, 57% by art)."""
    out = {k: [v] for k, v in templates.items()}
    for f in faces:
        out.setdefault(f.kind, []).append(_signature(cv2.cvtColor(f.rgb, cv2.COLOR_RGB2GRAY))[None])
    return {k: np.concatenate(v) for k, v in out.items()}


def upright(rgb: np.ndarray, kind: int, templates: Templates | None = None
            ) -> tuple[np.ndarray, float, float]:
    """``rgb`` in the pose (:data:`POSES`) that best matches the upright faces of ``kind``
    (the drawn art unless ``templates`` are given), that score, and the best score of a quarter
    turn (a sideways tile in a portrait box)."""
    templates = (art_templates() if templates is None else templates).get(kind)
    if templates is None:
        return rgb, 0.0, 0.0
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    scores = [float((templates @ _signature(_pose(gray, p))).max()) for p in POSES]
    best = int(np.argmax(scores))
    h, w = gray.shape
    square = cv2.resize(gray, (w, w), interpolation=cv2.INTER_AREA)
    turned = max(float((templates @ _signature(cv2.resize(np.ascontiguousarray(
        np.rot90(square, k)), (w, h)))).max()) for k in (1, 3))
    return _pose(rgb, POSES[best]), scores[best], turned


def tilt_degrees(rgb: np.ndarray) -> float:
    """The dominant edge direction modulo 90 degrees, in (-45, 45]: 0 for a face seen square."""
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY).astype(np.float32)
    gx, gy = cv2.Sobel(gray, cv2.CV_32F, 1, 0), cv2.Sobel(gray, cv2.CV_32F, 0, 1)
    weight = gx * gx + gy * gy
    z = (weight * np.exp(4j * np.arctan2(gy, gx))).sum()
    return float(np.degrees(np.angle(z) / 4))


def _tile_coloured(rgb: np.ndarray) -> np.ndarray:
    """Pixels light and unsaturated enough to be a tile's face (ivory, white, cream)."""
    hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)
    return (hsv[..., 2] > 120) & (hsv[..., 1] < 90)


def _corners_are_tile(rgb: np.ndarray) -> bool:
    h, w = rgb.shape[:2]
    ph, pw = max(2, h // 7), max(2, w // 7)
    mask = _tile_coloured(rgb)
    patches = (mask[:ph, :pw], mask[:ph, -pw:], mask[-ph:, :pw], mask[-ph:, -pw:])
    return min(float(p.mean()) for p in patches) >= CORNER_TILE


def face_from_box(image_rgb: np.ndarray, box_xyxy: np.ndarray, kind: int,
                  strict: bool = True, templates: Templates | None = None) -> np.ndarray | None:
    """The upright :data:`FACE_PX` face inside one label box, or ``None`` when the box is no
    whole upright face (a sliver, at the edge, tilted, too small; when ``strict``, also one
    that looks turned, unlike the upright faces of its kind or grey: an augmented copy)."""
    found = _checked_face(image_rgb, box_xyxy, kind, templates)
    if found is None or (strict and not found[1]):
        return None
    return found[0]


def _checked_face(image_rgb: np.ndarray, box_xyxy: np.ndarray, kind: int,
                  templates: Templates | None = None) -> tuple[np.ndarray, bool] | None:
    """:func:`face_from_box` without its strict checks, and whether it passes them."""
    h, w = image_rgb.shape[:2]
    x0, y0, x1, y1 = box_xyxy
    bw, bh = x1 - x0, y1 - y0
    if min(bw, bh) < MIN_SIDE or not ASPECT[0] <= bh / bw <= ASPECT[1]:
        return None
    if x0 < 2 or y0 < 2 or x1 > w - 2 or y1 > h - 2:
        return None
    tx, ty = bw * TRIM, bh * TRIM
    crop = image_rgb[round(y0 + ty):round(y1 - ty), round(x0 + tx):round(x1 - tx)]
    if crop.size == 0 or not _corners_are_tile(crop):
        return None
    crop = cv2.resize(crop, FACE_PX, interpolation=cv2.INTER_AREA)
    if abs(tilt_degrees(crop)) > MAX_TILT:
        return None
    face, score, turned = upright(crop, kind, templates)
    ink = crop.astype(np.int16)
    colour = float(np.percentile(np.abs(ink[..., 0] - ink[..., 1])
                                 + np.abs(ink[..., 1] - ink[..., 2]), 95))
    return face, (score >= MIN_MATCH and score > turned + TURN_MARGIN
                  and colour >= MIN_COLOUR)


def tiles_real_faces(root: Path, fold: str, templates: Templates | None = None
                     ) -> tuple[list[PhotoFace], list[PhotoFace]]:
    """The faces of the tiles-real photos in ``fold``: those that pass every check, and those
    that only the strict ones (pose, likeness, colour) refused."""
    folds = tiles_real_folds(root)
    good: list[PhotoFace] = []
    loose: list[PhotoFace] = []
    for sample in list_samples(root, "tiles"):
        if folds[sample.group] != fold:
            continue
        rows = read_yolo_labels(sample.label)
        if not len(rows):
            continue
        bgr = cv2.imread(str(sample.image))
        if bgr is None:
            raise ValueError(f"{sample.image}: not a readable image")
        rgb = np.ascontiguousarray(bgr[..., ::-1])
        if sample.image.name in MIRRORED_COPIES:  # mirrored back, boxes and all
            rgb = np.ascontiguousarray(rgb[:, ::-1])
            rows = rows.copy()
            rows[:, 1] = 1.0 - rows[:, 1]
        h, w = rgb.shape[:2]
        for cls, cx, cy, bw, bh in rows:
            kind = int(cls)
            if not 0 <= kind < NUM_TILES:
                continue
            box = np.array([(cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w,
                            (cy + bh / 2) * h])
            found = _checked_face(rgb, box, kind, templates)
            if found is not None:
                (good if found[1] else loose).append(
                    PhotoFace(kind, found[0], f"tiles-real:{sample.group}"))
    return good, loose


def tile_faces_faces(root: Path, fold: str) -> list[PhotoFace]:
    """Every tile-faces face in ``fold`` (already cropped to the tile and upright)."""
    folds = face_folds(root, VAL_SHARE, SPLIT_SEED)
    out: list[PhotoFace] = []
    for file, name in face_files(root):
        if folds[file] != fold or name not in TILE_NAMES:
            continue
        bgr = cv2.imread(str(root / file))
        if bgr is None:
            raise ValueError(f"{root / file}: not a readable image")
        rgb = cv2.resize(np.ascontiguousarray(bgr[..., ::-1]), FACE_PX,
                         interpolation=cv2.INTER_AREA)
        out.append(PhotoFace(TILE_NAMES.index(name), rgb, f"tile-faces:{file}"))
    return out


def bank_file(fold: str) -> Path:
    """Where :func:`face_bank` keeps a fold's faces once built (a kit that trains elsewhere,
    ``scripts/gpu``, carries the file instead of the shared datasets)."""
    # v5: tile-faces read with datasets.faces.LABEL_FIXES; v6: no face stored mirrored; v7: the
    # mirrored copies of hand_004, hand_069 and hand_111 mirrored back; v8: hand_025's too
    return art.cache_dir().parent / "photo-faces" / f"{fold}-{FACE_PX[0]}x{FACE_PX[1]}-v8.npz"


def _build(root: Path, fold: str) -> list[PhotoFace]:
    """Both sets' faces; a kind left with fewer than :data:`MIN_PER_KIND` (a look group held
    whole on one side can take a kind's every tile-faces face with it) gets the tiles-real
    boxes that only the strict checks refused."""
    singles = tile_faces_faces(root / "tile-faces", fold)
    templates = with_photos(art_templates(), singles)  # the same fold's only
    faces, loose = tiles_real_faces(root / "tiles-real", fold, templates)
    faces += singles
    have = np.bincount([f.kind for f in faces], minlength=NUM_TILES)
    return faces + [f for f in loose if have[f.kind] < MIN_PER_KIND]


@functools.cache
def face_bank(fold: str, root: Path = DATA_ROOT) -> dict[int, tuple[PhotoFace, ...]]:
    """``{kind: faces}`` of one fold, from both sets; built once, then read from the cache."""
    if fold not in ("train", "val"):
        raise ValueError(f"fold must be 'train' or 'val', got {fold!r}")
    for name in ("tiles-real", "tile-faces"):
        if not (root / name).is_dir():
            raise ValueError(f"{root / name}: not found (real faces need the shared datasets; "
                             "set MJTABLE_DATA to the folder holding tiles-real and tile-faces)")
    path = bank_file(fold)
    if root == DATA_ROOT and path.exists():
        with np.load(path, allow_pickle=False) as data:
            faces = [PhotoFace(int(k), img, str(s)) for k, img, s in
                     zip(data["kinds"], data["images"], data["sources"], strict=True)]
    else:
        faces = _build(root, fold)
        if root == DATA_ROOT:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
            np.savez(tmp, kinds=np.array([f.kind for f in faces]),
                     images=np.stack([f.rgb for f in faces]),
                     sources=np.array([f.source for f in faces]))
            os.replace(tmp, path)  # atomic: workers may build it at once
    bank: dict[int, list[PhotoFace]] = {}
    for f in faces:
        bank.setdefault(f.kind, []).append(f)
    missing = [TILE_NAMES[k] for k in range(NUM_TILES) if k not in bank]
    if missing:
        raise ValueError(f"no {fold} photo faces for {', '.join(missing)}")
    return {k: tuple(v) for k, v in bank.items()}
