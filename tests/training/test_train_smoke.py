"""Training smoke tests: prepare, train one epoch, export, and ONNX parity with torch.

They need the ``train`` extra (torch, ultralytics) and are skipped with that reason without it;
CI installs only the dev extra. A few images at a tiny size keep them to about a minute.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.train

torch = pytest.importorskip("torch", reason="needs the train extra (pip install 'mjtable[train]')")
pytest.importorskip("ultralytics", reason="needs the train extra (pip install 'mjtable[train]')")

from tests.training.fakes import fake_dataset  # noqa: E402
from ui.cli import main  # noqa: E402
from vision.detector import OnnxModel, to_tensor  # noqa: E402
from vision.training.prepare import CLASSIFIER_NAMES  # noqa: E402


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("smoke")
    tiles = fake_dataset(base / "tiles", 10, 42, dice=False)
    dice = fake_dataset(base / "dice", 4, 6, dice=True)
    out = base / "work"
    assert main(["train", "prepare", "--data", str(tiles), "--dice", str(dice),
                 "--out", str(out)]) == 0
    return out


def test_detector_trains_exports_and_matches_torch(prepared: Path) -> None:
    project = prepared / "runs"
    assert main(["train", "detector", "--data", str(prepared / "detector" / "data.yaml"),
                 "--epochs", "1", "--imgsz", "64", "--batch", "4", "--workers", "0",
                 "--project", str(project), "--name", "det"]) == 0
    onnx_path = prepared / "det.onnx"
    assert main(["export", str(project / "det"), "--out", str(onnx_path)]) == 0
    det = OnnxModel(onnx_path)
    assert det.names == ("tile_face", "tile_back", "die") and det.imgsz == (64, 64)

    from ultralytics import YOLO

    model = YOLO(str(project / "det" / "weights" / "last.pt")).model.float().eval()
    x = torch.rand(1, 3, 64, 64)
    with torch.no_grad():
        expected = model(x)[0].numpy()
    got = det.run(x.numpy())
    np.testing.assert_allclose(got, expected, rtol=1e-3, atol=1e-3)
    # a --dynamic export gives the same answers at its size and runs at another
    dyn_path = prepared / "det-dynamic.onnx"
    assert main(["export", str(project / "det"), "--out", str(dyn_path), "--dynamic"]) == 0
    dyn = OnnxModel(dyn_path)
    dyn.resize(128)
    assert dyn.imgsz == (128, 128)
    got = dyn.run(x.numpy())
    np.testing.assert_allclose(got, expected, rtol=1e-3, atol=1e-3)
    assert dyn.run(torch.rand(1, 3, 128, 128).numpy()).shape[2] \
        == 4 * got.shape[2]  # four times the anchors at twice the side


def test_classifier_trains_and_exports(prepared: Path) -> None:
    project = prepared / "runs"
    assert main(["train", "classifier", "--data", str(prepared / "classifier"),
                 "--epochs", "1", "--imgsz", "64", "--batch", "8", "--workers", "0",
                 "--project", str(project), "--name", "cls"]) == 0
    onnx_path = prepared / "cls.onnx"
    assert main(["export", str(project / "cls"), "--out", str(onnx_path)]) == 0
    cls = OnnxModel(onnx_path)
    assert sorted(cls.names) == sorted(CLASSIFIER_NAMES)
    probs = cls.run(to_tensor([np.zeros((64, 64, 3), np.uint8)]))  # batch 1: fixed or free
    np.testing.assert_allclose(probs.sum(1), 1.0, atol=1e-4)
