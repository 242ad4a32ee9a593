"""Real tile faces from many tile sets (``shared/datasets/tile-faces``), split by look.

The folder holds 629 single faces from dozens of sets with no set label. A validation share that
mixed one set's faces into both folds would measure memory, not generalisation, so faces are
grouped by look (tile body colour at the border, overall colour and contrast: k-means, seeded)
and whole groups are held back.
"""

from __future__ import annotations

import csv
import functools
from pathlib import Path

import cv2
import numpy as np

from datasets.split import split_groups

LOOK_GROUPS = 24

# labels.csv rows the photo contradicts, found where the classifier disagreed with a label and a
# person looked: file -> the tile the photo shows
LABEL_FIXES = {"8m/133.jpg": "8p"}  # eight blue circles, labelled characters-8 upstream


@functools.cache
def face_files(root: Path) -> tuple[tuple[str, str], ...]:
    """``(file, tile name)`` of every face, from ``labels.csv`` with :data:`LABEL_FIXES`
    applied, in file order."""
    labels = root / "labels.csv"
    if not labels.is_file():
        raise ValueError(f"{root}: no labels.csv (expected the tile-faces dataset)")
    with labels.open(newline="") as fh:
        return tuple((row["file"], LABEL_FIXES.get(row["file"], row["tile"]))
                      for row in csv.DictReader(fh))


def look_of(image: np.ndarray) -> np.ndarray:
    """A 9-number description of a face's look in Lab: border median, mean and spread."""
    lab = cv2.cvtColor(cv2.resize(image, (24, 32), interpolation=cv2.INTER_AREA),
                       cv2.COLOR_BGR2LAB).astype(np.float32)
    ring = np.concatenate([lab[:3].reshape(-1, 3), lab[-3:].reshape(-1, 3),
                           lab[:, :3].reshape(-1, 3), lab[:, -3:].reshape(-1, 3)])
    pixels = lab.reshape(-1, 3)
    return np.concatenate([np.median(ring, axis=0), pixels.mean(axis=0), pixels.std(axis=0)])


@functools.cache
def look_groups(root: Path, k: int = LOOK_GROUPS) -> dict[str, str]:
    """``{file: look group}``: k-means over :func:`look_of`, deterministic."""
    files = face_files(root)
    looks = []
    for name, _ in files:
        image = cv2.imread(str(root / name))
        if image is None:
            raise ValueError(f"{root / name}: not a readable image")
        looks.append(look_of(image))
    cv2.setRNGSeed(0)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 100, 0.1)
    _, labels, _ = cv2.kmeans(np.array(looks, np.float32), k, None, criteria, 5,
                              cv2.KMEANS_PP_CENTERS)
    return {name: f"look{int(g):02d}" for (name, _), g in zip(files, labels.ravel(), strict=True)}


def face_folds(root: Path, val_fraction: float = 0.2, seed: int = 0) -> dict[str, str]:
    """``{file: "train"|"val"}`` with each look group whole on one side."""
    return split_groups(look_groups(Path(root)), val_fraction, seed)
