"""Working datasets for the two-stage recognizer, cut from the shared real photos.

One call builds, under ``out``:

- ``split.csv``: every source image with its fold (group-aware: all augmented copies of one source
  photo of tiles-real share a fold, so validation never sees a copy of a training photo);
- ``detector/``: YOLO detect folder, classes ``tile_face, tile_back, die`` (the project's coarse
  set; ``tile_back`` has no real examples yet, synthetic scenes will add them);
- ``classifier/``: ``train/<name>/`` and ``val/<name>/`` crops of the 42 tile kinds and
  ``die1``..``die6``;
- ``val/``: the held-back images with labels in classifier names, the folder ``mjtable eval`` reads.

Only numpy and OpenCV are needed; images are linked, not copied, where the filesystem allows.
"""

from __future__ import annotations

import csv
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.classes import COARSE
from scoring.tiles import CLASS_NAMES, NUM_TILES
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
    return [Sample(p, root / "labels" / (p.stem + ".txt"), groups.get(p.name, p.stem), source)
            for p in images]


def split_groups(samples: list[Sample], val_share: float, seed: int) -> dict[str, str]:
    """Fold of each group: a seeded shuffle of the sorted groups, the first ``val_share`` to val."""
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


def prepare(tiles: Path, dice: Path | None, out: Path, val_share: float = 0.2, seed: int = 0,
            crop_size: int = CROP_SIZE, tile_crops: int = 1,
            dice_crops: int = 1) -> dict[str, int]:
    """Build the split, detector, classifier and validation folders; returns counts by kind.

    Each training box gives ``tile_crops`` (tiles) or ``dice_crops`` (dice) crops, each with
    its own jitter; the k-th die crop is also turned by :func:`dihedral` ``k % 8``, since a
    few hundred dice photos hold too few poses. Validation keeps one plain crop per box.
    """
    if tile_crops < 1 or dice_crops < 1:
        raise ValueError(f"crops per box must be at least 1, got {tile_crops} and {dice_crops}")
    samples = list_samples(tiles, "tiles") + (list_samples(dice, "dice") if dice else [])
    folds: dict[str, str] = {}
    for source in ("tiles", "dice"):
        part = [s for s in samples if s.source == source]
        if part:
            split = split_groups(part, val_share, seed)
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
            stem = f"{s.source}_{s.image.stem}"
            rows = read_yolo_labels(s.label)
            names = [class_name(s, int(r[0])) for r in rows]
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
            image = cv2.imread(str(s.image))
            if image is None:
                raise ValueError(f"{s.image}: not a readable image")
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
                    suffix = f"_{c}" if c else ""
                    dst = out / "classifier" / fold / n / f"{stem}_{k}{suffix}.png"
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    cv2.imwrite(str(dst), crop)
                    counts[f"{fold}_crops"] += 1
    for fold in ("train", "val"):  # ultralytics wants every class folder in both folds
        for n in CLASSIFIER_NAMES:
            (out / "classifier" / fold / n).mkdir(parents=True, exist_ok=True)
    det = out / "detector"
    (det / "data.yaml").write_text(f"path: {det.resolve()}\ntrain: images/train\nval: images/val\n"
                                   + _yaml_names(DETECTOR_NAMES))
    (out / "val" / "data.yaml").write_text(f"path: {(out / 'val').resolve()}\nval: images\n"
                                           + _yaml_names(CLASSIFIER_NAMES))
    return counts
