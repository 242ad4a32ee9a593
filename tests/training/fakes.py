"""Small stand-ins for the shared photo datasets, for tests that need their layout."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


def fake_dataset(root: Path, n: int, classes: int, dice: bool) -> Path:
    """A tiles-real/dice-real shaped folder: coloured rectangles on grey, YOLO labels."""
    rng = np.random.default_rng(1)
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    groups = ["file,source_root"]
    for i in range(n):
        img = np.full((96, 96, 3), 90, np.uint8)
        rows = []
        for k in range(3):
            cls = int(rng.integers(classes))
            x, y = 8 + 28 * k, int(rng.integers(10, 50))
            cv2.rectangle(img, (x, y), (x + 20, y + 28), (40 * cls % 255, 200, 255 - 30 * k), -1)
            cx, cy = (x + 10) / 96, (y + 14) / 96
            rows.append(f"{cls} {cx:.4f} {cy:.4f} {20 / 96:.4f} {28 / 96:.4f}")
        cv2.imwrite(str(root / "images" / f"img{i}.jpg"), img)
        (root / "labels" / f"img{i}.txt").write_text("\n".join(rows) + "\n")
        groups.append(f"img{i}.jpg,photo{i // 2}")
    if not dice:
        (root / "groups.csv").write_text("\n".join(groups) + "\n")
    return root
