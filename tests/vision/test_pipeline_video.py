"""The live pipeline on the bundled 1080p video: capture thread, still-frame reuse, calibration
from each view, stability and events, checked against the scenes' manifests.

The detector here recognizes which bundled scene a frame shows and answers with that scene's
manifest boxes (a perfect detector), so what is measured is the pipeline around the models.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.detections import TileDetections
from vision.manifest import manifest_detections
from vision.pipeline import Pipeline

SAMPLES = Path(__file__).resolve().parents[2] / "vision" / "samples"


class SceneDetector:
    def __init__(self) -> None:
        self.scenes = []
        for path in sorted(SAMPLES.glob("table_*.jpg")):
            manifest = json.loads(path.with_suffix(".json").read_text())
            self.scenes.append((self._thumb(cv2.imread(str(path))), manifest))
        self.calls = 0

    @staticmethod
    def _thumb(image: np.ndarray) -> np.ndarray:
        return cv2.resize(image, (64, 36), interpolation=cv2.INTER_AREA).astype(np.float32)

    def detect(self, image: np.ndarray) -> TileDetections:
        self.calls += 1
        thumb = self._thumb(image)
        _, manifest = min(self.scenes, key=lambda s: float(np.abs(s[0] - thumb).mean()))
        return manifest_detections(manifest)


def test_sample_video_through_the_pipeline() -> None:
    det = SceneDetector()
    pipe = Pipeline(str(SAMPLES / "table_1080p.mp4"), det, ruleset="shanghai", stable_frames=5)
    results = list(pipe.frames())
    assert len(results) == 120
    assert det.calls <= 6  # three views, each read once or twice; still frames reuse them
    kinds = [s.kind for r in results for s in r.statuses] + [s.kind for s in pipe.statuses()]
    assert kinds[0] == "opened" and kinds[-1] == "ended"  # the end comes after the last frame
    flowers = {(e.data["seat"], e.data["tile"]) for r in results for e in r.events
               if e.type == "flower"}
    showdown = json.loads((SAMPLES / "table_2.json").read_text())
    for seat in showdown["game"]["seats"]:  # the last view's flowers were all reported
        for f in seat["flowers"]:
            assert (seat["seat"], f) in flowers
    final = pipe.hands
    assert all(h is not None for h in final)
    right = sum(sorted(h.concealed) == sorted(_tiles(s["concealed"]))
                for h, s in zip(final, showdown["game"]["seats"], strict=True))
    assert right >= 3  # face-up hands of the showdown, read from the video


def _tiles(text: str) -> list[int]:
    from scoring.tiles import parse_tiles

    return parse_tiles(text)
