"""Importers for the real photo sets in ``shared/datasets/`` into the project's YOLO layout.

``tiles-real`` already uses the project's class order; its ``groups.csv`` ties the three
augmented copies of each source photo together, and the split keeps them in one fold.
``dice-real`` labels a die showing k+1 pips as class k; it is remapped to the project's ``die``
class (42) with the pips kept in a ``dice_faces.csv`` sidecar, or written with the pips as the
class (``dice_as="faces"``, class set ``dice6``).
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from datasets.classes import class_names
from datasets.split import split_groups
from datasets.yolo import (
    IMAGE_SUFFIXES,
    Box,
    place_image,
    prepare_out,
    read_labels,
    write_data_yaml,
    write_groups,
    write_labels,
)
from scoring.tiles import DIE_CLASS

DICE_AS = ("die", "faces")


@dataclass(frozen=True)
class ImportSummary:
    """What an import wrote, for the command line to report."""

    out: Path
    images: dict[str, int]
    boxes: dict[str, int]
    groups: dict[str, int]

    def __str__(self) -> str:
        return (f"{self.out}: train {self.images['train']} images ({self.groups['train']} groups, "
                f"{self.boxes['train']} boxes), val {self.images['val']} images "
                f"({self.groups['val']} groups, {self.boxes['val']} boxes)")


def _images(src: Path) -> list[Path]:
    img_dir = src / "images"
    if not img_dir.is_dir():
        raise ValueError(f"{src}: no images/ folder (expected a YOLO export)")
    images = sorted(p for p in img_dir.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not images:
        raise ValueError(f"{img_dir}: no images")
    return images


def _read_group_csv(src: Path) -> dict[str, str]:
    """``{file name: source}`` from the set's own ``groups.csv`` (``file,source_root``)."""
    path = src / "groups.csv"
    if not path.exists():
        return {}
    with path.open(newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None or len(header) < 2:
            raise ValueError(f"{path}: expected a 'file,group' header")
        return {row[0]: row[1] for row in reader if len(row) >= 2}


def _import(src: Path, out: Path, *, names: tuple[str, ...], val_fraction: float, seed: int,
            link: str, overwrite: bool, remap: Callable[[Path, Box], Box],
            groups: dict[str, str], sidecar: Callable[[str, str, list[Box], list[Box]], None]
            | None = None) -> ImportSummary:
    src, out = Path(src), Path(out)
    images = _images(src)
    prepare_out(out, overwrite)
    group_of = {p.name: groups.get(p.name, p.stem) for p in images}
    fold = split_groups(group_of, val_fraction, seed)
    counts = {"train": 0, "val": 0}
    boxes_n = {"train": 0, "val": 0}
    group_sets: dict[str, set[str]] = {"train": set(), "val": set()}
    rows: list[tuple[str, str, str]] = []
    for img in images:
        split = fold[img.name]
        label = src / "labels" / (img.stem + ".txt")
        src_boxes = read_labels(label)
        boxes = [remap(label, b) for b in src_boxes]
        place_image(img, out / "images" / split / img.name, link)
        write_labels(out / "labels" / split / (img.stem + ".txt"), boxes)
        if sidecar is not None:
            sidecar(split, img.stem, src_boxes, boxes)
        counts[split] += 1
        boxes_n[split] += len(boxes)
        group_sets[split].add(group_of[img.name])
        rows.append((f"{split}/{img.name}", group_of[img.name], split))
    write_data_yaml(out, names)
    write_groups(out, rows)
    return ImportSummary(out, counts, boxes_n, {k: len(v) for k, v in group_sets.items()})


def import_tiles_real(src: Path | str, out: Path | str, val_fraction: float = 0.2, seed: int = 0,
                      link: str = "symlink", overwrite: bool = False) -> ImportSummary:
    """Import ``tiles-real`` (classes 0..41 already in the project order) with a grouped split."""
    src = Path(src)
    return _import_tiles43(src, Path(out), val_fraction, seed, link, overwrite,
                           _read_group_csv(src))


def _import_tiles43(src: Path, out: Path, val_fraction: float, seed: int, link: str,
                    overwrite: bool, groups: dict[str, str]) -> ImportSummary:
    """A set labeled in the project's 43-class order (tiles, then die), split by ``groups``."""
    names = class_names("tiles43")

    def keep(label: Path, b: Box) -> Box:
        if b.cls >= len(names):
            raise ValueError(f"{label}: class {b.cls} outside 0..{len(names) - 1}")
        return b

    return _import(src, out, names=names, val_fraction=val_fraction, seed=seed, link=link,
                   overwrite=overwrite, remap=keep, groups=groups)


def import_dice_real(src: Path | str, out: Path | str, val_fraction: float = 0.2, seed: int = 0,
                     link: str = "symlink", dice_as: str = "die",
                     overwrite: bool = False) -> ImportSummary:
    """Import ``dice-real`` (class k = k+1 pips).

    ``dice_as="die"``: every die becomes class 42 of the 43-class layout and ``dice_faces.csv``
    (``file,box,face``: split/stem, line index in the label file, pips) keeps the faces.
    ``dice_as="faces"``: the class is the face (``dice6``: 0 = one pip .. 5 = six).
    """
    if dice_as not in DICE_AS:
        raise ValueError(f"unknown dice_as {dice_as!r}; choose one of {', '.join(DICE_AS)}")
    src, out = Path(src), Path(out)
    names = class_names("tiles43" if dice_as == "die" else "dice6")
    faces: list[tuple[str, int, int]] = []

    def remap(label: Path, b: Box) -> Box:
        if not 0 <= b.cls <= 5:
            raise ValueError(f"{label}: dice class {b.cls} outside 0..5")
        return Box(DIE_CLASS if dice_as == "die" else b.cls, b.cx, b.cy, b.w, b.h)

    def record(split: str, stem: str, src_boxes: list[Box], _: list[Box]) -> None:
        faces.extend((f"{split}/{stem}", i, b.cls + 1) for i, b in enumerate(src_boxes))

    summary = _import(src, out, names=names, val_fraction=val_fraction, seed=seed, link=link,
                      overwrite=overwrite, remap=remap, groups=_read_group_csv(src),
                      sidecar=record)
    with (out / "dice_faces.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["file", "box", "face"])
        w.writerows(sorted(faces))
    return summary


def import_examples(src: Path | str, out: Path | str, val_fraction: float = 0.2, seed: int = 0,
                    link: str = "symlink", overwrite: bool = False) -> ImportSummary:
    """Import confirmed showdowns saved by the dashboard (``mjtable run --save-examples``):
    the labels are in the ``tiles-real`` order already; every frame of one day stays in one
    fold (a table's frames of one evening look alike)."""
    src = Path(src)
    groups = {p.name: p.stem[:8] for p in _images(src)}  # names start with the date, YYYYMMDD
    return _import_tiles43(src, Path(out), val_fraction, seed, link, overwrite, groups)


IMPORTERS: dict[str, Callable[..., ImportSummary]] = {
    "tiles-real": import_tiles_real,
    "examples": import_examples,
    "dice-real": import_dice_real,
}
