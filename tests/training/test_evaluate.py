"""``vision.evaluate`` on a hand-built ONNX detector with known outputs and a tiny folder."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from ui.cli import main
from vision.evaluate import OnnxDetector, evaluate, letterbox, load_dataset, nms

SIZE = 64


def constant_detector(path: Path, rows: np.ndarray, names: list[str]) -> Path:
    """An ONNX "detector" whose output (1, 4 + nc, anchors) is ``rows``, whatever the image."""
    out = numpy_helper.from_array(rows[None].astype(np.float32), "out_value")
    graph = helper.make_graph(
        [helper.make_node("ReduceSum", ["images"], ["s"], keepdims=0),
         helper.make_node("Mul", ["s", "zero"], ["z"]),
         helper.make_node("Add", ["out_value", "z"], ["output0"])],
        "constant",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, SIZE, SIZE])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, list(rows[None].shape))],
        [out, numpy_helper.from_array(np.zeros((), np.float32), "zero")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    for k, v in {"task": "detect", "imgsz": f"[{SIZE}, {SIZE}]",
                 "names": repr(dict(enumerate(names)))}.items():
        model.metadata_props.add(key=k, value=v)
    onnx.save(model, str(path))
    return path


def anchors(*boxes: tuple[float, float, float, float, int, float], nc: int) -> np.ndarray:
    """Columns (cx, cy, w, h, class scores...) in letterboxed input pixels."""
    cols = []
    for cx, cy, w, h, cls, score in boxes:
        scores = np.zeros(nc)
        scores[cls] = score
        cols.append(np.concatenate([[cx, cy, w, h], scores]))
    return np.array(cols).T


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


def test_letterbox_and_nms() -> None:
    img, scale, px, py = letterbox(np.zeros((64, 128, 3), np.uint8), 64)
    assert (img.shape, scale, px, py) == ((64, 64, 3), 0.5, 0, 16)
    boxes = np.array([[0, 0, 10, 10], [1, 0, 11, 10], [50, 50, 60, 60]], float)
    assert nms(boxes, np.array([0.5, 0.9, 0.4]), 0.5).tolist() == [1, 2]


def test_detector_boxes_are_mapped_back_to_the_image(folder: Path, tmp_path: Path) -> None:
    # in input pixels the 1m box is cx 8, cy 32 (16 bar + 16), w 16, h 16
    rows = anchors((8, 32, 16, 16, 0, 0.9), (8.5, 32, 16, 16, 0, 0.6), (40, 32, 16, 16, 1, 0.8),
                   nc=2)
    model = OnnxDetector(constant_detector(tmp_path / "m.onnx", rows, ["1m", "2m"]))
    out = model(np.zeros((64, 128, 3), np.uint8))
    assert out.names == ["1m", "2m"]  # the 0.6 duplicate is suppressed
    np.testing.assert_allclose(out.boxes, [[0, 16, 32, 48], [64, 16, 96, 48]], atol=1e-4)


def test_evaluate_counts_a_missing_tile(folder: Path, tmp_path: Path) -> None:
    rows = anchors((8, 32, 16, 16, 0, 0.9), nc=2)  # finds the 1m, never the 2m
    model = OnnxDetector(constant_detector(tmp_path / "m.onnx", rows, ["1m", "2m"]))
    report = evaluate(model, load_dataset(folder), conf=0.25, label="constant")
    table = report.evaluation.ap_table()
    assert table == {"1m": (1.0, 1.0), "2m": (0.0, 0.0)}
    assert report.evaluation.exact_multiset == 1  # image b only
    assert report.evaluation.confusions == {("2m", "missed"): 1}


def test_eval_command_prints_the_report(folder: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    rows = anchors((8, 32, 16, 16, 0, 0.9), nc=2)
    model = constant_detector(tmp_path / "m.onnx", rows, ["1m", "2m"])
    assert main(["eval", str(model), "--data", str(folder), "--no-reference"]) == 0
    text = capsys.readouterr().out
    assert "mAP@0.5 0.500" in text
    assert "exact tile multiset: 1/2 images (50.0%)" in text
    assert main(["eval", str(tmp_path / "none.onnx"), "--data", str(folder),
                 "--no-reference"]) == 2
    # a detector exported with a fixed input cannot be run at another size: said in one line
    assert main(["eval", str(tmp_path / "m.onnx"), "--data", str(folder), "--no-reference",
                 "--imgsz", "960"]) == 2
    assert "fixed 64 px input, cannot run at 960" in capsys.readouterr().err


def test_pipeline_with_a_dice_model_reads_dice_with_it(tmp_path: Path) -> None:
    """``DET+CLS+DICE``: die boxes are named by the dice model, tile boxes by the classifier."""
    import sys

    sys.path.insert(0, str(Path(__file__).parents[1] / "vision"))
    from onnx_graphs import centre_pixel_classifier, red_for_class

    from vision.evaluate import TILE_NAMES, load_model

    cls_names = [*TILE_NAMES, *(f"die{k}" for k in range(1, 7))]
    dice_names = [f"die{k}" for k in range(1, 7)]
    image = np.zeros((64, 128, 3), np.uint8)
    image[16:48, 0:32, 2] = red_for_class(4, len(cls_names))  # 5m
    image[16:48, 64:96, 2] = red_for_class(1, len(dice_names))  # die1 to cls, die2 to dice
    # boxes in the 64x64 letterboxed input (scale 0.5, 16 px bars top and bottom)
    det = constant_detector(tmp_path / "d.onnx", anchors(
        (8, 32, 16, 16, 0, 0.9), (40, 32, 16, 16, 1, 0.9), nc=2), ["tile", "die"])
    cls = centre_pixel_classifier(tmp_path / "c.onnx", cls_names)
    dice = centre_pixel_classifier(tmp_path / "x.onnx", dice_names)
    boxes = np.array([[0, 16, 32, 48], [64, 16, 96, 48]], float)
    two = load_model(f"{det}+{cls}")
    three = load_model(f"{det}+{cls}+{dice}")
    assert two.classify(image, boxes, ["tile", "die"])[0] == ["5m", "die1"]
    assert three.classify(image, boxes, ["tile", "die"])[0] == ["5m", "die2"]
    assert three(image).names == ["5m", "die2"]
    with pytest.raises(ValueError, match="not die faces"):
        load_model(f"{det}+{cls}+{cls}")
    with pytest.raises(ValueError, match="expected DETECTOR"):
        load_model(f"{det}+{cls}+{dice}+{dice}")
