"""``mjtable eval --data``: the shipped Detector scored on a tiny labeled folder, models built
in the test (``tests/vision/onnx_graphs.py``) so every number is known.
The built graphs ignore their input, so photos are read once (``--no-flips``, ``flips=False``):
a mirror image's boxes would not meet the photo's."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.onnx_graphs import centre_pixel_classifier, fixed_detector, red_for_class
from ui.cli import main
from vision.evaluate import (
    TILE_NAMES,
    classify_boxes,
    evaluate,
    load_dataset,
    load_model,
)
from vision.metrics import Detections

SIZE = 64


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Two 128x64 images (letterboxed to 64: scale 0.5, 16 px bars top and bottom)."""
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    for stem in ("a", "b"):
        cv2.imwrite(str(tmp_path / "images" / f"{stem}.png"), np.full((64, 128, 3), 200, np.uint8))
    # a: 1m at x 0..32, y 16..48 and 2m at x 64..96 (pixels of the 128x64 image)
    (tmp_path / "labels" / "a.txt").write_text("0 0.125 0.5 0.25 0.5\n1 0.625 0.5 0.25 0.5\n")
    (tmp_path / "labels" / "b.txt").write_text("0 0.125 0.5 0.25 0.5\n")
    (tmp_path / "data.yaml").write_text("names:\n  0: '1m'\n  1: '2m'\n")
    return tmp_path


def finds_one_1m(path: Path) -> Path:
    """A detector that finds the 1m (and a weaker duplicate of it), never the 2m; boxes in the
    64x64 letterboxed input: the 1m is cx 8, cy 32 (16 bar + 16), w 16, h 16."""
    return fixed_detector(path, ["1m", "2m"], [(8, 32, 16, 16, 0, 0.9), (8.5, 32, 16, 16, 0, 0.6)],
                          size=SIZE)


def test_evaluate_counts_a_missing_tile(folder: Path, tmp_path: Path) -> None:
    report = evaluate(load_model(finds_one_1m(tmp_path / "m.onnx"),
                                 flips=False), load_dataset(folder),
                      label="constant")
    table = report.evaluation.ap_table()
    assert table == {"1m": (1.0, 1.0), "2m": (0.0, 0.0)}  # the duplicate is suppressed
    assert report.evaluation.exact_multiset == 1  # image b only
    assert report.evaluation.confusions == {("2m", "missed"): 1}
    assert report.stage is None and not report.crop_accuracy  # a single-stage model


def test_eval_command_prints_the_report(folder: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    model = finds_one_1m(tmp_path / "m.onnx")
    assert main(["eval", "--no-flips", str(model), "--data", str(folder), "--no-reference"]) == 0
    text = capsys.readouterr().out
    assert "mAP@0.5 0.500" in text
    assert "exact tile multiset: 1/2 images (50.0%)" in text
    assert main(["eval", "--no-flips", str(tmp_path / "none.onnx"), "--data", str(folder),
                 "--no-reference"]) == 2
    assert "none.onnx: no such ONNX model" in capsys.readouterr().err
    # a detector exported with a fixed input cannot be run at another size: said in one line
    assert main(["eval", "--no-flips", str(model), "--data", str(folder), "--no-reference",
                 "--imgsz", "960"]) == 2
    assert "fixed 64x64 input, cannot run at 960" in capsys.readouterr().err


def test_a_riichi_named_reference_is_scored_in_our_names(folder: Path, tmp_path: Path,
                                                         capsys) -> None:
    """The reference (riichi names, grey input) goes through the same Detector; its names are
    ours by the time they are scored."""
    ref = fixed_detector(tmp_path / "ref.onnx", ["2m", "1m", "chun"],
                         [(8, 32, 16, 16, 1, 0.9), (40, 32, 16, 16, 2, 0.8)], size=SIZE)
    detector = load_model(ref, grey=True, flips=False)
    assert detector.grey and detector.stills
    report = evaluate(detector, load_dataset(folder), label="reference")
    assert report.evaluation.confusions["2m", "C"] == 1  # chun read as C, not a 2m
    assert main(["eval", "--no-flips",
                 str(finds_one_1m(tmp_path / "m.onnx")), "--data", str(folder),
                 "--reference", str(ref)]) == 0
    assert "== reference mahjong-detector" in capsys.readouterr().out


def test_two_stage_scores_its_stage_and_its_classifiers(folder: Path, tmp_path: Path) -> None:
    """DET+CLS+DICE: the detection stage alone in coarse names, the whole pipeline in tile and
    die names, and the classifiers alone on the labeled boxes; die boxes go to the dice model."""
    cls_names = [*TILE_NAMES, *(f"die{k}" for k in range(1, 7))]
    dice_names = [f"die{k}" for k in range(1, 7)]
    image = np.zeros((64, 128, 3), np.uint8)
    image[16:48, 0:32, 2] = red_for_class(4, len(cls_names))  # 5m
    image[16:48, 64:96, 2] = red_for_class(1, len(dice_names))  # die1 to cls, die2 to dice
    det = fixed_detector(tmp_path / "d.onnx", ["tile", "die"],
                         [(8, 32, 16, 16, 0, 0.9), (40, 32, 16, 16, 1, 0.9)], size=SIZE)
    cls = centre_pixel_classifier(tmp_path / "c.onnx", cls_names)
    dice = centre_pixel_classifier(tmp_path / "x.onnx", dice_names)
    gt = Detections(np.array([[0, 16, 32, 48], [64, 16, 96, 48]], float), np.ones(2),
                    ["5m", "die2"])
    two = load_model(f"{det}+{cls}", flips=False)
    three = load_model(f"{det}+{cls}+{dice}", flips=False)
    assert classify_boxes(two, image, gt) == ["5m", "die1"]
    assert classify_boxes(three, image, gt) == ["5m", "die2"]
    (tmp_path / "data" / "images").mkdir(parents=True)
    (tmp_path / "data" / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "data" / "images" / "a.png"), image)
    (tmp_path / "data" / "labels" / "a.txt").write_text(
        f"4 0.125 0.5 0.25 0.5\n{42 + 1} 0.625 0.5 0.25 0.5\n")
    (tmp_path / "data" / "data.yaml").write_text("names: " + repr(cls_names) + "\n")
    report = evaluate(three, load_dataset(tmp_path / "data"), label="three")
    assert report.evaluation.ap_table() == {"5m": (1.0, 1.0), "die2": (1.0, 1.0)}
    assert report.stage is not None
    assert report.stage.ap_table() == {"die": (1.0, 1.0), "tile": (1.0, 1.0)}
    assert report.crop_accuracy == {"tiles": (1, 1), "dice": (1, 1)}
    assert three.finder is None
    finder = fixed_detector(tmp_path / "f.onnx", ["tile", "die"], [], size=SIZE, dynamic=True)
    assert load_model(f"{det}+{cls}+{dice}+{finder}", flips=False).finder is not None
    with pytest.raises(ValueError, match="expected a models folder or DETECTOR"):
        load_model(f"{det}+{cls}+{dice}+{finder}+{dice}", flips=False)
    with pytest.raises(FileNotFoundError, match="needs the crop classifier, but none was given"):
        load_model(det, flips=False)
