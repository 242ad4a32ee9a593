"""A labeled-truth detector for the bundled game video: it answers each frame with the boxes
the generator labeled for that frame (``table_1080p.script.json``), not with a model.

It tests everything around the models (capture, still-frame reuse, table geometry, stability,
events, the dashboard) on a real video; what the shipped models read is measured elsewhere. A
frame is recognized by its exact pixels: the video is decoded once here, as the pipeline's
capture decodes it, and every frame's hash is mapped to its step of the script.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.detections import TileDetections
from vision.manifest import manifest_detections

SAMPLES = Path(__file__).resolve().parents[2] / "vision" / "samples"
VIDEO = SAMPLES / "table_1080p.mp4"
SCRIPT = SAMPLES / "table_1080p.script.json"


@cache
def script() -> dict[str, Any]:
    return json.loads(SCRIPT.read_text(encoding="utf-8"))


def _key(image: np.ndarray) -> bytes:
    return hashlib.blake2b(np.ascontiguousarray(image).data, digest_size=16).digest()


@cache
def frame_steps(video: Path = VIDEO) -> dict[bytes, int]:
    """Each decoded frame's hash -> the step of the script it shows."""
    step_of = [k for k, s in enumerate(script()["steps"]) for _ in range(*s["frames"])]
    cap = cv2.VideoCapture(str(video))
    out: dict[bytes, int] = {}
    try:
        for index in range(len(step_of)):
            ok, image = cap.read()
            if not ok:
                raise ValueError(f"{video}: ends at frame {index}, the script has "
                                 f"{len(step_of)}")
            out[_key(image)] = step_of[index]
    finally:
        cap.release()
    return out


@cache
def step_detections(step: int) -> TileDetections:
    objects = [{"tile": name, "xyxy": [x1, y1, x2, y2], "visible": vis, "face": face}
               for name, x1, y1, x2, y2, vis, face in script()["steps"][step]["objects"]]
    return manifest_detections({"objects": objects})


class LabeledTruthDetector:
    """Answers a frame of the bundled video with its labeled boxes (see the module doc)."""

    def __init__(self, video: Path = VIDEO) -> None:
        self.steps = frame_steps(video)
        self.calls = 0

    def detect(self, image: np.ndarray) -> TileDetections:
        self.calls += 1
        step = self.steps.get(_key(image))
        if step is None:
            raise ValueError("a frame that is not in the bundled video's script")
        return step_detections(step)
