"""Rebuild the bundled sample media from the synthetic generator (``datasets``), reproducibly.

    .venv/bin/python -m vision.samples.make_samples

Writes ``table_N.jpg`` + ``table_N.json`` (the scene's manifest: ground truth) and
``table_1080p.mp4``: each of the photographed tables held for a few seconds at 10 fps, with fresh
sensor noise in every frame (a still camera never gives two identical frames).

The tile faces are photos (``faces="real"``) from the held-back fold only, so the samples show
real tile faces that no model was trained on. Needs ``../shared/datasets`` (tiles-real and
tile-faces) beside the clone.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
SEED = 2026
INDICES = (4, 26, 33)  # scenes with seat 0 at the bottom: one camera orientation, as a rig
SIZE = (1920, 1080)
FPS = 10.0
SECONDS_EACH = 4


def main() -> None:
    from datasets.scene import make_scene

    writer = cv2.VideoWriter(str(HERE / "table_1080p.mp4"), cv2.VideoWriter_fourcc(*"mp4v"),
                             FPS, SIZE)
    if not writer.isOpened():
        raise OSError("OpenCV cannot write mp4v video here")
    rng = np.random.default_rng(SEED)
    for n, index in enumerate(INDICES):
        scene = make_scene("table", SEED, index, SIZE, faces="real", fold="val")
        image = scene.image
        cv2.imwrite(str(HERE / f"table_{n}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        (HERE / f"table_{n}.json").write_text(json.dumps(scene.manifest, ensure_ascii=False))
        for _ in range(int(FPS * SECONDS_EACH)):
            noise = rng.normal(0, 2.0, image.shape)
            writer.write(np.clip(image + noise, 0, 255).astype(np.uint8))
    writer.release()


if __name__ == "__main__":
    main()
