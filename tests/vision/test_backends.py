"""The inference backends: the choice by name, and OpenVINO finding what onnxruntime finds on
the bundled table photos with the shipped models (skipped where openvino is not installed)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.backends import OpenVinoSession, openvino_installed, resolve_backend
from vision.capture import load_image
from vision.detector import box_iou, load_detector

SAMPLES = Path(__file__).resolve().parents[2] / "vision" / "samples"
needs_openvino = pytest.mark.skipif(not openvino_installed(), reason="openvino not installed")


def test_backend_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MJTABLE_BACKEND", raising=False)
    assert resolve_backend("onnxruntime") == "onnxruntime"
    # auto: the one measured faster for stills and video alike (vision/backends.py)
    assert resolve_backend() == resolve_backend("auto") == "onnxruntime"
    monkeypatch.setenv("MJTABLE_BACKEND", "onnxruntime")
    assert resolve_backend() == "onnxruntime"
    with pytest.raises(ValueError, match="unknown inference backend 'tensorrt'"):
        resolve_backend("tensorrt")


@needs_openvino
def test_openvino_finds_what_onnxruntime_finds() -> None:
    """Every box of the shipped models on the bundled 1080p photos, at the whole-table size:
    same boxes (to a hundredth of a pixel), classes, die faces and confidences."""
    ort = load_detector(backend="onnxruntime", stills=True, imgsz=960)
    ov = load_detector(backend="openvino", stills=True, imgsz=960)
    assert ov.det.backend == "openvino" and ov.describe().endswith("on openvino")
    photos = sorted(SAMPLES.glob("table_*.jpg"))
    assert photos
    for path in photos:
        image = load_image(path)
        a, b = ort.detect(image), ov.detect(image)
        assert len(a) == len(b) > 50, path.name
        match = box_iou(a.xyxy, b.xyxy).argmax(axis=1)
        assert sorted(match.tolist()) == list(range(len(b)))  # one to one
        np.testing.assert_allclose(a.xyxy, b.xyxy[match], atol=0.01)
        np.testing.assert_allclose(a.confidence, b.confidence[match], atol=1e-3)
        assert np.array_equal(a.class_id, b.class_id[match])
        assert np.array_equal(a.face, b.face[match])


@needs_openvino
def test_openvino_compiles_a_slow_shape_that_comes_back(tmp_path: Path) -> None:
    """Free height and width: any shape runs; one that was slow gets its own compile when it
    comes back, a quick one does not."""
    from tests.vision.onnx_graphs import fixed_detector

    path = fixed_detector(tmp_path / "d.onnx", ["tile"], [(10, 10, 4, 4, 0, 0.9)], size=64,
                          dynamic=True)
    session = OpenVinoSession(path, threads=1)
    assert session.input_shape[1] == 3 and isinstance(session.input_shape[2], str)
    session._slow.add((1, 3, 64, 96))  # as if its first run had taken 30 ms or more
    for shape in [(1, 3, 64, 96), (1, 3, 32, 32), (1, 3, 32, 32), (1, 3, 64, 96)]:
        (out,) = session.run(None, {"images": np.zeros(shape, np.float32)})
        assert out.shape == (1, 5, 64) and out[0, 4, 0] == pytest.approx(0.9)
    assert list(session._exact) == [(1, 3, 64, 96)]  # 32x32 runs in far less than 30 ms
    with pytest.raises(ValueError, match="not a loadable ONNX model"):
        OpenVinoSession(tmp_path, threads=1)
