"""Reading and writing the YOLO folder layout every dataset of this package uses.

``DIR/images/{train,val}/NAME.jpg``, ``DIR/labels/{train,val}/NAME.txt`` (one ``class cx cy w h``
line per box, normalized to the image), ``DIR/data.yaml`` (what ultralytics reads) and
``DIR/groups.csv`` (``file,group,split``: which source each image came from).
"""

from __future__ import annotations

import csv
import os
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

SPLITS = ("train", "val")
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
LINK_MODES = ("symlink", "copy", "hardlink")


@dataclass(frozen=True)
class Box:
    """One labeled box, normalized to the image size (YOLO convention)."""

    cls: int
    cx: float
    cy: float
    w: float
    h: float

    def line(self) -> str:
        return f"{self.cls} {self.cx:.6f} {self.cy:.6f} {self.w:.6f} {self.h:.6f}"


def read_labels(path: Path, num_classes: int | None = None) -> list[Box]:
    """The boxes of one label file; a missing file is an image without objects.

    Raises ``ValueError`` naming the file and line for a malformed line, a class outside
    ``0..num_classes-1`` or coordinates outside ``[0, 1]``.
    """
    if not path.exists():
        return []
    boxes: list[Box] = []
    for n, raw in enumerate(path.read_text().splitlines(), 1):
        parts = raw.split()
        if not parts:
            continue
        where = f"{path}:{n}"
        if len(parts) != 5:
            raise ValueError(f"{where}: expected 'class cx cy w h', got {raw!r}")
        try:
            cls = int(parts[0])
            cx, cy, w, h = (float(p) for p in parts[1:])
        except ValueError:
            raise ValueError(f"{where}: not numbers: {raw!r}") from None
        if cls < 0 or (num_classes is not None and cls >= num_classes):
            raise ValueError(f"{where}: class {cls} outside 0..{(num_classes or 1) - 1}")
        if not all(0.0 <= v <= 1.0 for v in (cx, cy, w, h)):
            raise ValueError(f"{where}: coordinates outside [0, 1]: {raw!r}")
        boxes.append(Box(cls, cx, cy, w, h))
    return boxes


def write_labels(path: Path, boxes: Iterable[Box]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(b.line() + "\n" for b in boxes)
    path.write_text(text)


def write_data_yaml(out: Path, names: Sequence[str], also: Sequence[Path] = ()) -> Path:
    """``data.yaml`` for ultralytics, with an absolute ``path`` so it works from any cwd;
    ``also`` adds other dataset folders' ``images/train`` and ``images/val`` to the lists."""
    def folds(split: str) -> str:
        if not also:
            return f"images/{split}"
        return "[" + ", ".join([f"images/{split}"] + [str((Path(a) / "images" / split).resolve())
                                                      for a in also]) + "]"

    lines = [f"path: {out.resolve()}", f"train: {folds('train')}", f"val: {folds('val')}",
             f"nc: {len(names)}", "names:"]
    lines += [f"  {i}: {_yaml_str(n)}" for i, n in enumerate(names)]
    target = out / "data.yaml"
    target.write_text("\n".join(lines) + "\n")
    return target


def read_names(out: Path) -> list[str]:
    """The class names of a dataset folder, from its ``data.yaml`` (the subset we write)."""
    path = out / "data.yaml"
    if not path.exists():
        raise ValueError(f"{out} is not a dataset folder: no data.yaml")
    names: dict[int, str] = {}
    in_names = False
    for raw in path.read_text().splitlines():
        if raw.startswith("names:"):
            in_names = True
            continue
        if in_names and raw.startswith("  ") and ":" in raw:
            key, value = raw.strip().split(":", 1)
            names[int(key)] = value.strip().strip("'\"")
        elif in_names and raw.strip():
            in_names = False
    if not names:
        raise ValueError(f"{path}: no 'names:' mapping")
    return [names[i] for i in range(len(names))]


def _yaml_str(s: str) -> str:
    return f"'{s}'" if not s.replace("_", "").isalnum() else s


def place_image(src: Path, dst: Path, mode: str) -> None:
    """Put ``src`` at ``dst`` by symlink (absolute target), copy or hard link."""
    if mode not in LINK_MODES:
        raise ValueError(f"unknown link mode {mode!r}; choose one of {', '.join(LINK_MODES)}")
    dst.parent.mkdir(parents=True, exist_ok=True)
    if dst.is_symlink() or dst.exists():
        dst.unlink()
    if mode == "symlink":
        os.symlink(src.resolve(), dst)
    elif mode == "hardlink":
        os.link(src, dst)
    else:
        shutil.copy2(src, dst)


def prepare_out(out: Path, overwrite: bool) -> None:
    """Make ``out`` ready for a fresh dataset; stale images from an older run would leak a
    source into both folds, so an existing dataset is replaced only when asked."""
    existing = (out / "data.yaml").exists() or any(
        (out / sub).is_dir() and any((out / sub).iterdir()) for sub in ("images", "labels"))
    if existing and not overwrite:
        raise ValueError(f"{out} already holds a dataset; choose another folder or "
                         "overwrite it (--overwrite)")
    for sub in ("images", "labels"):
        if (out / sub).is_dir():
            shutil.rmtree(out / sub)
    out.mkdir(parents=True, exist_ok=True)


def make_folds(out: Path) -> None:
    """A detector dataset's empty ``images/`` and ``labels/`` folders, one per fold."""
    for sub in ("images", "labels"):
        for split in SPLITS:
            (out / sub / split).mkdir(parents=True, exist_ok=True)


def write_groups(out: Path, rows: Iterable[tuple[str, str, str]]) -> Path:
    """``groups.csv``: ``file,group,split`` for every image (file relative to ``images/``)."""
    path = out / "groups.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["file", "group", "split"])
        w.writerows(sorted(rows))
    return path


def read_groups(out: Path) -> list[tuple[str, str, str]]:
    path = out / "groups.csv"
    with path.open(newline="") as f:
        return [(r["file"], r["group"], r["split"]) for r in csv.DictReader(f)]


def iter_label_files(out: Path) -> list[tuple[str, Path]]:
    """``(split, label path)`` for every label file of a dataset folder, sorted."""
    found: list[tuple[str, Path]] = []
    for split in SPLITS:
        d = out / "labels" / split
        if d.is_dir():
            found += [(split, p) for p in sorted(d.glob("*.txt"))]
    return found


def image_for_label(label: Path) -> Path | None:
    """The image beside a label file (``labels/S/X.txt`` -> ``images/S/X.*``)."""
    img_dir = label.parent.parent.parent / "images" / label.parent.name
    for suffix in IMAGE_SUFFIXES:
        p = img_dir / (label.stem + suffix)
        if p.exists():
            return p
    return None
