"""Rebuild the bundled sample media from the synthetic generator (``datasets``), reproducibly.

    .venv/bin/python -m vision.samples.make_samples          # photos and video
    .venv/bin/python -m vision.samples.make_samples video    # only the video and its script

Writes ``table_N.jpg`` + ``table_N.json`` (the scene's manifest: ground truth), and
``table_1080p.mp4`` + ``table_1080p.script.json``: two whole Shandong hands played on one table
(:func:`datasets.sequence.two_hands`) at 5 fps, each moment held for a few frames with fresh
sensor noise, and the script of what happens (the events in order, each hand's record, every
frame's labeled boxes).

The tile faces are photos (``faces="real"``) from the held-back fold only, so the samples show
real tile faces that no model was trained on. Needs ``../shared/datasets`` (tiles-real and
tile-faces) beside the clone.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2

HERE = Path(__file__).resolve().parent
SEED = 2026
INDICES = (4, 26, 33)  # scenes with seat 0 at the bottom: one camera orientation, as a rig
SIZE = (1920, 1080)
FPS = 5.0
VIDEO = HERE / "table_1080p.mp4"
SCRIPT = HERE / "table_1080p.script.json"


def make_photos() -> None:
    from datasets.scene import make_scene

    for n, index in enumerate(INDICES):
        scene = make_scene("table", SEED, index, SIZE, faces="real", fold="val")
        cv2.imwrite(str(HERE / f"table_{n}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        (HERE / f"table_{n}.json").write_text(json.dumps(scene.manifest, ensure_ascii=False))


def make_video() -> None:
    from datasets.sequence import write_sequence

    data = write_sequence(VIDEO, SCRIPT, SEED, SIZE, FPS)
    print(f"{VIDEO.name}: {data['frames']} frames, {len(data['steps'])} steps, "
          f"{len(data['events'])} events, {VIDEO.stat().st_size / 1e6:.1f} MB")


def main(argv: list[str] | None = None) -> None:
    what = set(argv if argv is not None else sys.argv[1:]) or {"photos", "video"}
    unknown = what - {"photos", "video"}
    if unknown:
        raise SystemExit(f"make_samples: unknown part {', '.join(sorted(unknown))} "
                         "(choose photos, video or both)")
    if "photos" in what:
        make_photos()
    if "video" in what:
        make_video()


if __name__ == "__main__":
    main()
