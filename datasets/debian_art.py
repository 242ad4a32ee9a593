"""Optional tile styles from Debian packages, fetched by an explicit ``mjtable dataset setup-art``.

Nothing here runs at generation time except reading the PNG faces that the setup step left in
the cache; without it the generator simply has fewer styles.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from scoring.tiles import NUM_TILES, TILE_NAMES

PREFIX = "debian-"


def _root() -> Path:
    from datasets.art import cache_dir

    return cache_dir()


def installed_styles() -> list[str]:
    """Debian styles whose 42 faces are in the cache."""
    root = _root()
    if not root.is_dir():
        return []
    return sorted(d.name for d in root.iterdir()
                  if d.name.startswith(PREFIX) and len(list(d.glob("*.png"))) >= NUM_TILES)


def load_style(style: str) -> dict[int, np.ndarray]:
    folder = _root() / style
    if not style.startswith(PREFIX) or not folder.is_dir():
        raise ValueError(f"unknown art style {style!r}; run 'mjtable dataset setup-art' for the "
                         "Debian styles")
    faces: dict[int, np.ndarray] = {}
    for kind, name in enumerate(TILE_NAMES):
        img = cv2.imread(str(folder / f"{name}.png"), cv2.IMREAD_UNCHANGED)
        if img is not None and img.ndim == 3 and img.shape[2] == 4:
            faces[kind] = img[..., [2, 1, 0, 3]]
    return faces
