"""Contact sheets: a grid of a dataset's images with their boxes drawn, for a person to look at."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np

from datasets.yolo import image_for_label, iter_label_files, read_labels, read_names


def _color(cls: int) -> tuple[int, int, int]:
    hue = (cls * 37) % 180
    hsv = np.array([[[hue, 220, 255]]], np.uint8)
    b, g, r = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]
    return int(b), int(g), int(r)


def draw_boxes(img: np.ndarray, label: Path, names: list[str]) -> np.ndarray:
    h, w = img.shape[:2]
    out = img.copy()
    thick = max(1, round(min(w, h) / 500))
    for b in read_labels(label, len(names)):
        x0, y0 = int((b.cx - b.w / 2) * w), int((b.cy - b.h / 2) * h)
        x1, y1 = int((b.cx + b.w / 2) * w), int((b.cy + b.h / 2) * h)
        c = _color(b.cls)
        cv2.rectangle(out, (x0, y0), (x1, y1), c, thick)
        cv2.putText(out, names[b.cls], (x0, max(y0 - 2, 8)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.35 * thick, c, thick, cv2.LINE_AA)
    return out


def contact_sheet(folder: Path | str, out: Path | str, count: int = 16, cols: int = 4,
                  cell: int = 480, boxes: bool = True, seed: int = 0) -> Path:
    """Write a PNG or JPEG grid of ``count`` images (chosen by ``seed``) of a dataset folder."""
    folder, out = Path(folder), Path(out)
    names = read_names(folder)
    files = [p for _, p in iter_label_files(folder)]
    if not files:
        raise ValueError(f"{folder}: no label files")
    random.Random(seed).shuffle(files)
    tiles = []
    for label in files[:count]:
        img_path = image_for_label(label)
        img = cv2.imread(str(img_path)) if img_path else None
        if img is None:
            raise ValueError(f"{label}: no readable image beside it")
        if boxes:
            img = draw_boxes(img, label, names)
        tiles.append(fit(img, cell))
    return write_grid(tiles, out, cols)


def fit(img: np.ndarray, cell: int) -> np.ndarray:
    """Letterbox an image into a ``cell`` x ``cell`` square."""
    h, w = img.shape[:2]
    s = cell / max(h, w)
    small = cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))),
                       interpolation=cv2.INTER_AREA)
    canvas = np.full((cell, cell, 3), 24, np.uint8)
    y0, x0 = (cell - small.shape[0]) // 2, (cell - small.shape[1]) // 2
    canvas[y0:y0 + small.shape[0], x0:x0 + small.shape[1]] = small
    return canvas


def write_grid(tiles: list[np.ndarray], out: Path, cols: int) -> Path:
    cell = tiles[0].shape[0]
    rows = (len(tiles) + cols - 1) // cols
    grid = np.full((rows * cell + (rows + 1) * 4, cols * cell + (cols + 1) * 4, 3), 255,
                   np.uint8)
    for i, t in enumerate(tiles):
        r, c = divmod(i, cols)
        y, x = 4 + r * (cell + 4), 4 + c * (cell + 4)
        grid[y:y + cell, x:x + cell] = t
    out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(out), grid):
        raise OSError(f"could not write {out}")
    return out


def fill(img: np.ndarray, cell: int) -> np.ndarray:
    """Centre-crop an image to a square and scale it to ``cell`` (how phone photos are shown)."""
    h, w = img.shape[:2]
    s = min(h, w)
    y0, x0 = (h - s) // 2, (w - s) // 2
    return cv2.resize(img[y0:y0 + s, x0:x0 + s], (cell, cell), interpolation=cv2.INTER_AREA)


def _images(folder: Path, count: int, seed: int) -> list[np.ndarray]:
    files = [p for _, p in iter_label_files(folder)]
    random.Random(seed).shuffle(files)
    out = []
    for label in files:
        path = image_for_label(label)
        img = cv2.imread(str(path)) if path else None
        if img is not None:
            out.append(img)
        if len(out) == count:
            break
    if len(out) < count:
        raise ValueError(f"{folder}: fewer than {count} readable images")
    return out


def compare_sheet(left: Path | str, right: Path | str, out: Path | str, count: int = 16,
                  cols: int = 4, cell: int = 200, seed: int = 0,
                  titles: tuple[str, str] = ("synthetic", "real")) -> Path:
    """Two grids side by side (e.g. synthetic close-ups and real photos), without boxes."""
    grids = []
    for folder, title in zip((Path(left), Path(right)), titles, strict=True):
        tiles = [fill(img, cell) for img in _images(folder, count, seed)]
        rows = (count + cols - 1) // cols
        grid = np.full((rows * (cell + 4) + 4 + 36, cols * (cell + 4) + 4, 3), 255, np.uint8)
        cv2.putText(grid, title, (8, 27), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (40, 40, 40), 2,
                    cv2.LINE_AA)
        for i, t in enumerate(tiles):
            r, c = divmod(i, cols)
            y, x = 36 + 4 + r * (cell + 4), 4 + c * (cell + 4)
            grid[y:y + cell, x:x + cell] = t
        grids.append(grid)
    gap = np.full((grids[0].shape[0], 16, 3), 255, np.uint8)
    both = np.hstack([grids[0], gap, grids[1]])
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    params = [cv2.IMWRITE_JPEG_QUALITY, 88] if out.suffix.lower() in (".jpg", ".jpeg") else []
    if not cv2.imwrite(str(out), both, params):
        raise OSError(f"could not write {out}")
    return out
