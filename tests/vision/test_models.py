"""Smoke tests of the shipped models (``models/*.onnx``); skipped, saying so, while absent.

They check that the models load, declare what the pipeline needs, and find tiles in the bundled
photos; accuracy is measured by ``mjtable eval`` and the bench, not here.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from vision.detector import default_models_dir, load_detector

MODELS = default_models_dir()
SAMPLES = Path(__file__).resolve().parents[2] / "vision" / "samples"
pytestmark = pytest.mark.skipif(not (MODELS / "detector.onnx").is_file(),
                                reason=f"no shipped detector at {MODELS / 'detector.onnx'} yet")


def test_shipped_models_load_and_find_tiles_in_the_samples() -> None:
    det = load_detector()
    assert det.det.imgsz[0] % 32 == 0
    found = 0
    for path in sorted(SAMPLES.glob("table_*.jpg")):
        dets = det.detect(cv2.imread(str(path)))
        assert (dets.xyxy[:, 2] <= 1920).all() and (dets.xyxy[:, 3] <= 1080).all()
        found += int(dets.is_tile.sum())
    assert found > 30


def test_two_stage_design_has_a_matching_classifier() -> None:
    det = load_detector()
    if not det.two_stage:
        pytest.skip("the shipped detector is single-stage")
    assert det.cls is not None and len(det.cls.names) >= 42
