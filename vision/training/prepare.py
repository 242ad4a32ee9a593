"""Working datasets for the two-stage recognizer, cut from the shared real photos.

One call builds, under ``out``:

- ``split.csv``: every source image with its fold (group-aware: all augmented copies of one source
  photo of tiles-real share a fold, so validation never sees a copy of a training photo);
- ``detector/``: YOLO detect folder, classes ``tile_face, tile_back, die`` (the project's coarse
  set; ``tile_back`` has no real examples yet, synthetic scenes will add them);
- ``classifier/``: ``train/<name>/`` and ``val/<name>/`` crops of the 42 tile kinds and
  ``die1``..``die6``; optionally with faces of other tile sets (``tile-faces``, split by look) and
  drawn art, tiles turned a random quarter turn (a table shows each seat's tiles its own way up)
  and shrunk to whole-table size before the crop is cut (a 1080p overhead frame shows tiles
  26-44 px wide, upscaled to the classifier's 64);
- ``val/``: the held-back images with labels in classifier names, the folder ``mjtable eval`` reads.

Only numpy and OpenCV are needed; images are linked, not copied, where the filesystem allows.
"""

from __future__ import annotations

import csv
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.classes import COARSE
from datasets.faces import face_files, face_folds
from scoring.tiles import CLASS_NAMES, NUM_TILES
from vision.capture import read_picture
from vision.training.crops import CROP_SIZE, crop_box, dihedral, jitter_box

TILE_NAMES: tuple[str, ...] = tuple(CLASS_NAMES[:NUM_TILES])
DIE_NAMES: tuple[str, ...] = tuple(f"die{k}" for k in range(1, 7))
CLASSIFIER_NAMES: tuple[str, ...] = TILE_NAMES + DIE_NAMES
DETECTOR_NAMES: tuple[str, ...] = COARSE
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")


@dataclass(frozen=True)
class Sample:
    """One labeled image: path, label path, group (source photo) and how to name its classes."""

    image: Path
    label: Path
    group: str
    source: str  # "tiles" or "dice"


def read_yolo_labels(path: Path) -> np.ndarray:
    """Rows ``class cx cy w h`` (normalized) of a YOLO label file; empty (0, 5) when none."""
    if not path.exists():
        return np.zeros((0, 5))
    rows = []
    for n, line in enumerate(path.read_text().splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 5:
            raise ValueError(f"{path}:{n}: expected 'class cx cy w h', got {line!r}")
        rows.append([float(p) for p in parts])
    return np.array(rows, dtype=float).reshape(-1, 5)


def list_samples(root: Path, source: str) -> list[Sample]:
    """The images of a shared dataset folder with their groups (``groups.csv`` if present)."""
    images = sorted(p for p in (root / "images").iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not images:
        raise ValueError(f"{root}: no images under images/")
    groups: dict[str, str] = {}
    groups_csv = root / "groups.csv"
    if groups_csv.exists():
        with groups_csv.open() as fh:
            groups = {row["file"]: row["source_root"] for row in csv.DictReader(fh)}
    # Roboflow exports name augmented copies of one photo NAME_jpg.rf.HASH: one group
    return [Sample(p, root / "labels" / (p.stem + ".txt"),
                   groups.get(p.name, f"{root.name}/{p.stem.split('.rf.')[0]}"), source)
            for p in images]


def group_folds(samples: list[Sample], val_share: float, seed: int) -> dict[str, str]:
    """Fold of each group: a seeded shuffle of the sorted groups, the first ``val_share`` of the
    groups to val. (``datasets.split.split_groups`` gives each file a fold, sized by images; the
    two stay apart because the trained models' held-back folds come from this one.)"""
    groups = sorted({s.group for s in samples})
    order = np.random.default_rng(seed).permutation(len(groups))
    n_val = round(len(groups) * val_share)
    return {groups[i]: ("val" if k < n_val else "train") for k, i in enumerate(order)}


def class_name(sample: Sample, cls: int) -> str:
    """The classifier name of a label class of ``sample``'s dataset."""
    if sample.source == "dice":
        if not 0 <= cls < 6:
            raise ValueError(f"{sample.label}: dice class {cls} outside 0..5")
        return DIE_NAMES[cls]
    if not 0 <= cls < NUM_TILES:
        raise ValueError(f"{sample.label}: tile class {cls} outside 0..{NUM_TILES - 1}")
    return TILE_NAMES[cls]


# label rows a photo contradicts, found where the die-face classifier disagreed with a label and
# a person looked: (dataset folder, image file, row, upstream name) -> the name the photo shows
LABEL_FIXES = {
    ("dice-real", "IMG_20191209_095954.jpg", 2, "die2"): "die3",  # three pips on a diagonal
}


def label_names(sample: Sample, rows: np.ndarray) -> list[str]:
    """The classifier names of ``sample``'s label rows, with :data:`LABEL_FIXES` applied (only
    while the upstream row still reads as the fix expects)."""
    names = [class_name(sample, int(r[0])) for r in rows]
    folder = sample.image.parent.parent.name
    for (root, file, row, upstream), fixed in LABEL_FIXES.items():
        if (root, file) == (folder, sample.image.name) and row < len(names) \
                and names[row] == upstream:
            names[row] = fixed
    return names


def _link(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    if dst.exists() or dst.is_symlink():
        dst.unlink()
    try:
        os.symlink(src.resolve(), dst)
    except OSError:
        shutil.copy2(src, dst)


def _yaml_names(names: tuple[str, ...]) -> str:
    return "names:\n" + "".join(f"  {i}: '{n}'\n" for i, n in enumerate(names))


@dataclass(frozen=True)
class TableLook:
    """How tile crops are made to look like a whole table's: ``turn`` gives each tile crop a
    random quarter turn; with probability ``small`` a crop is shrunk to a tile width drawn from
    ``width`` (pixels) and scaled back, as an overhead 1080p frame shows it."""

    turn: bool = False
    small: float = 0.0
    width: tuple[int, int] = (24, 44)

    def apply(self, crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        if self.small and rng.random() < self.small:
            size = crop.shape[0]
            w = int(rng.integers(self.width[0], self.width[1] + 1))
            small = cv2.resize(crop, (w, round(w * 4 / 3)), interpolation=cv2.INTER_AREA)
            crop = cv2.resize(small, (size, size), interpolation=cv2.INTER_AREA
                              if rng.random() < 0.5 else cv2.INTER_LINEAR)
        if self.turn:
            crop = np.ascontiguousarray(np.rot90(crop, int(rng.integers(4))))
        return crop


FELT = ((60, 110, 40), (90, 60, 30), (70, 70, 70), (40, 50, 110), (120, 120, 110))  # BGR


def _on_felt(face: np.ndarray, rng: np.random.Generator, margin: float = 0.25) -> tuple[
        np.ndarray, np.ndarray]:
    """``face`` (BGR, cropped to the tile) on a table colour with room around it, and its box:
    runtime crops see a little table and the neighbours, not a face filling the frame."""
    h, w = face.shape[:2]
    mx, my = round(w * margin), round(h * margin)
    base = np.array(FELT[int(rng.integers(len(FELT)))], np.float32) * rng.uniform(0.7, 1.3)
    canvas = np.empty((h + 2 * my, w + 2 * mx, 3), np.uint8)
    canvas[:] = np.clip(base, 0, 255).astype(np.uint8)
    canvas[my:my + h, mx:mx + w] = face
    return canvas, np.array([mx, my, mx + w, my + h], float)


def art_tile(rgba: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A drawn face (RGBA, transparent background) printed on an ivory tile body, BGR."""
    h, w = rgba.shape[:2]
    ivory = np.array([rng.uniform(200, 245), rng.uniform(225, 250), rng.uniform(230, 255)])
    body = np.empty((h, w, 3), np.float32)
    body[:] = ivory
    alpha = rgba[..., 3:4].astype(np.float32) / 255.0
    face = rgba[..., 2::-1].astype(np.float32)  # RGBA to BGR
    return np.clip(body * (1 - alpha) + face * alpha, 0, 255).astype(np.uint8)


def _extra_faces(out: Path, faces: Path | None, art: tuple[str, ...], face_crops: int,
                 art_crops: int, val_share: float, seed: int, crop_size: int, look: TableLook,
                 rng: np.random.Generator, counts: dict[str, int]) -> None:
    """Classifier crops from ``tile-faces`` (by look fold) and from drawn art (training only:
    the drawn-art tables are measured on their own)."""
    def write(fold: str, name: str, stem: str, image: np.ndarray, box: np.ndarray) -> None:
        crop = crop_box(image, jitter_box(box, rng) if fold == "train" else box, crop_size)
        dst = out / "classifier" / fold / name / f"{stem}.png"
        dst.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(dst), look.apply(crop, rng))
        counts[f"{fold}_crops"] += 1

    if faces is not None:
        folds = face_folds(faces, val_share, seed)
        for file, name in face_files(faces):
            image = read_picture(faces / file)
            fold = folds[file]
            stem = "faces_" + file.replace("/", "_").rsplit(".", 1)[0]
            for c in range(face_crops if fold == "train" else 1):
                canvas, box = _on_felt(image, rng)
                write(fold, name, f"{stem}_{c}", canvas, box)
    for style in art:
        from datasets.art import load_style

        for kind, rgba in load_style(style).items():
            for c in range(art_crops):
                canvas, box = _on_felt(art_tile(rgba, rng), rng)
                write("train", TILE_NAMES[kind], f"art_{style}_{kind}_{c}", canvas, box)


def prepare(tiles: Path, dice: Path | Sequence[Path] | None, out: Path, val_share: float = 0.2,
            seed: int = 0,
            crop_size: int = CROP_SIZE, tile_crops: int = 1,
            dice_crops: int = 1, faces: Path | None = None, face_crops: int = 1,
            art: tuple[str, ...] = (), art_crops: int = 0,
            look: TableLook = TableLook()) -> dict[str, int]:
    """Build the split, detector, classifier and validation folders; returns counts by kind.

    Each training box gives ``tile_crops`` (tiles) or ``dice_crops`` (dice) crops, each with
    its own jitter; the k-th die crop is also turned by :func:`dihedral` ``k % 8``, since a
    few hundred dice photos hold too few poses. Validation keeps one crop per box. ``look``
    turns and shrinks tile crops, in both folds, so validation measures the table's case;
    ``faces`` and ``art`` add crops of other tile sets (:func:`_extra_faces`).
    """
    if tile_crops < 1 or dice_crops < 1 or face_crops < 1 or art_crops < 0:
        raise ValueError(f"crops per box must be at least 1, got {tile_crops}, {dice_crops}, "
                         f"{face_crops}; art crops at least 0, got {art_crops}")
    dice_roots = [dice] if isinstance(dice, Path) else list(dice or [])
    samples: list[Sample] = []
    folds: dict[str, str] = {}
    # each folder is split on its own, so adding a dice set never moves another's photos
    for root, source in [(tiles, "tiles"), *((r, "dice") for r in dice_roots)]:
        part = list_samples(root, source)
        samples += part
        split = group_folds(part, val_share, seed)
        folds.update({f"{source}:{g}": f for g, f in split.items()})
    if out.exists():
        for sub in ("detector", "classifier", "val"):
            shutil.rmtree(out / sub, ignore_errors=True)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    counts = {"train_images": 0, "val_images": 0, "train_crops": 0, "val_crops": 0}
    with (out / "split.csv").open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["image", "source", "group", "fold"])
        for s in samples:
            fold = folds[f"{s.source}:{s.group}"]
            writer.writerow([str(s.image), s.source, s.group, fold])
            counts[f"{fold}_images"] += 1
            first = s.image.parent.parent in (tiles, *dice_roots[:1])  # names as they were
            stem = (f"{s.source}_{s.image.stem}" if first
                    else f"{s.source}_{s.image.parent.parent.name}_{s.image.stem}")
            rows = read_yolo_labels(s.label)
            names = label_names(s, rows)
            # detector folder: coarse classes
            _link(s.image, out / "detector" / "images" / fold / (stem + s.image.suffix))
            coarse = [DETECTOR_NAMES.index("die" if n.startswith("die") else "tile_face")
                      for n in names]
            (out / "detector" / "labels" / fold).mkdir(parents=True, exist_ok=True)
            (out / "detector" / "labels" / fold / (stem + ".txt")).write_text("".join(
                f"{c} {r[1]:.6f} {r[2]:.6f} {r[3]:.6f} {r[4]:.6f}\n"
                for c, r in zip(coarse, rows, strict=True)))
            if fold == "val":
                _link(s.image, out / "val" / "images" / (stem + s.image.suffix))
                (out / "val" / "labels").mkdir(parents=True, exist_ok=True)
                (out / "val" / "labels" / (stem + ".txt")).write_text("".join(
                    f"{CLASSIFIER_NAMES.index(n)} {r[1]:.6f} {r[2]:.6f} {r[3]:.6f} {r[4]:.6f}\n"
                    for n, r in zip(names, rows, strict=True)))
            # classifier crops, cut from the full-resolution image
            image = read_picture(s.image)
            h, w = image.shape[:2]
            copies = 1 if fold == "val" else dice_crops if s.source == "dice" else tile_crops
            for k, (n, r) in enumerate(zip(names, rows, strict=True)):
                label_box = np.array([(r[1] - r[3] / 2) * w, (r[2] - r[4] / 2) * h,
                                      (r[1] + r[3] / 2) * w, (r[2] + r[4] / 2) * h])
                for c in range(copies):
                    box = jitter_box(label_box, rng) if fold == "train" else label_box
                    try:
                        crop = crop_box(image, box, crop_size)
                    except ValueError:
                        break  # a sliver at the border: nothing to classify
                    if s.source == "dice" and c:
                        crop = dihedral(crop, c % 8)
                    elif s.source == "tiles":
                        crop = look.apply(crop, rng)
                    suffix = f"_{c}" if c else ""
                    dst = out / "classifier" / fold / n / f"{stem}_{k}{suffix}.png"
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    cv2.imwrite(str(dst), crop)
                    counts[f"{fold}_crops"] += 1
    _extra_faces(out, faces, art, face_crops, art_crops, val_share, seed, crop_size, look, rng,
                 counts)
    for fold in ("train", "val"):  # ultralytics wants every class folder in both folds
        for n in CLASSIFIER_NAMES:
            (out / "classifier" / fold / n).mkdir(parents=True, exist_ok=True)
    det = out / "detector"
    (det / "data.yaml").write_text(f"path: {det.resolve()}\ntrain: images/train\nval: images/val\n"
                                   + _yaml_names(DETECTOR_NAMES))
    (out / "val" / "data.yaml").write_text(f"path: {(out / 'val').resolve()}\nval: images\n"
                                           + _yaml_names(CLASSIFIER_NAMES))
    return counts
