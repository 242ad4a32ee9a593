"""Smoke tests of the shipped models (``models/*.onnx``); skipped, saying so, while absent.

They check that the models load, declare what the pipeline needs, and run end to end on the
bundled photos with well-formed results; accuracy is measured by ``mjtable eval`` and the bench,
not here (the weights change while training goes on).
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


def test_shipped_models_run_on_the_samples() -> None:
    det = load_detector()
    assert det.det.imgsz[0] % 32 == 0
    for path in sorted(SAMPLES.glob("table_*.jpg")):
        dets = det.detect(cv2.imread(str(path)), conf=0.05)
        assert (dets.xyxy[:, 0] >= 0).all() and (dets.xyxy[:, 2] <= 1920).all()
        assert (dets.xyxy[:, 1] >= 0).all() and (dets.xyxy[:, 3] <= 1080).all()
        assert (dets.xyxy[:, 2] > dets.xyxy[:, 0]).all()
        assert ((dets.confidence > 0) & (dets.confidence <= 1)).all()
        assert not dets.data["coarse"].any()  # every coarse tile was named by the classifier
        assert ((dets.face > 0) == dets.is_die).all() or not det.two_stage


def test_shipped_models_read_a_sample_photo_end_to_end() -> None:
    from vision.reading import read_image

    out = read_image(cv2.imread(str(SAMPLES / "table_2.jpg")), load_detector(),
                     ruleset="shanghai")
    assert out.record is not None and out.record["ruleset"] == "shanghai"
    assert len(out.record["seats"]) == 4


def test_two_stage_design_has_a_matching_classifier() -> None:
    det = load_detector()
    if not det.two_stage:
        pytest.skip("the shipped detector is single-stage")
    assert det.cls is not None and len(det.cls.names) >= 42


@pytest.mark.skipif(not (MODELS / "dice_finder.onnx").is_file(),
                    reason="no shipped dice finder")
def test_shipped_dice_finder_reads_a_still_of_two_dice() -> None:
    """table_0's two dice (3 and 1, 21-24 px) cut out as a small photo of their own: a still of
    dice, which the finder reads at its own scale."""
    det = load_detector(stills=True)
    assert det.finder is not None and det.finder.dynamic
    photo = cv2.imread(str(SAMPLES / "table_0.jpg"))[487:587, 876:976]
    dets = det.detect(photo)
    assert sorted(dets.face[dets.is_die].tolist()) == [1, 3]
