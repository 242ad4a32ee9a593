"""Training smoke tests: prepare, train one epoch, export, and ONNX parity with torch.

They need the ``train`` extra (torch, ultralytics) and are skipped with that reason without it;
CI installs only the dev extra. A few images at a tiny size keep them to about a minute.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

pytestmark = pytest.mark.train

torch = pytest.importorskip("torch", reason="needs the train extra (pip install 'mjtable[train]')")
pytest.importorskip("ultralytics", reason="needs the train extra (pip install 'mjtable[train]')")

from ui.cli import main  # noqa: E402
from vision.evaluate import OnnxClassifier, OnnxDetector  # noqa: E402
from vision.training.prepare import CLASSIFIER_NAMES  # noqa: E402


def fake_dataset(root: Path, n: int, classes: int, dice: bool) -> Path:
    """A tiles-real/dice-real shaped folder: coloured rectangles on grey, YOLO labels."""
    rng = np.random.default_rng(1)
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    groups = ["file,source_root"]
    for i in range(n):
        img = np.full((96, 96, 3), 90, np.uint8)
        rows = []
        for k in range(3):
            cls = int(rng.integers(classes))
            x, y = 8 + 28 * k, int(rng.integers(10, 50))
            cv2.rectangle(img, (x, y), (x + 20, y + 28), (40 * cls % 255, 200, 255 - 30 * k), -1)
            cx, cy = (x + 10) / 96, (y + 14) / 96
            rows.append(f"{cls} {cx:.4f} {cy:.4f} {20 / 96:.4f} {28 / 96:.4f}")
        cv2.imwrite(str(root / "images" / f"img{i}.jpg"), img)
        (root / "labels" / f"img{i}.txt").write_text("\n".join(rows) + "\n")
        groups.append(f"img{i}.jpg,photo{i // 2}")
    if not dice:
        (root / "groups.csv").write_text("\n".join(groups) + "\n")
    return root


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("smoke")
    tiles = fake_dataset(base / "tiles", 10, 42, dice=False)
    dice = fake_dataset(base / "dice", 4, 6, dice=True)
    out = base / "work"
    assert main(["train", "prepare", "--data", str(tiles), "--dice", str(dice),
                 "--out", str(out)]) == 0
    return out


def test_prepare_keeps_copies_of_a_photo_in_one_fold(prepared: Path) -> None:
    import csv

    with (prepared / "split.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    folds: dict[str, set[str]] = {}
    for row in rows:
        folds.setdefault(row["group"], set()).add(row["fold"])
    assert all(len(f) == 1 for f in folds.values())
    assert {r["fold"] for r in rows} == {"train", "val"}


def test_detector_trains_exports_and_matches_torch(prepared: Path) -> None:
    project = prepared / "runs"
    assert main(["train", "detector", "--data", str(prepared / "detector" / "data.yaml"),
                 "--epochs", "1", "--imgsz", "64", "--batch", "4", "--workers", "0",
                 "--project", str(project), "--name", "det"]) == 0
    onnx_path = prepared / "det.onnx"
    assert main(["export", str(project / "det"), "--out", str(onnx_path)]) == 0
    det = OnnxDetector(onnx_path)
    assert det.names == ["tile_face", "tile_back", "die"] and det.size == 64

    from ultralytics import YOLO

    model = YOLO(str(project / "det" / "weights" / "last.pt")).model.float().eval()
    x = torch.rand(1, 3, 64, 64)
    with torch.no_grad():
        expected = model(x)[0].numpy()
    got = det.session.run(None, {det.input: x.numpy()})[0]
    np.testing.assert_allclose(got, expected, rtol=1e-3, atol=1e-3)


def test_classifier_trains_and_exports(prepared: Path) -> None:
    project = prepared / "runs"
    assert main(["train", "classifier", "--data", str(prepared / "classifier"),
                 "--epochs", "1", "--imgsz", "64", "--batch", "8", "--workers", "0",
                 "--project", str(project), "--name", "cls"]) == 0
    onnx_path = prepared / "cls.onnx"
    assert main(["export", str(project / "cls"), "--out", str(onnx_path)]) == 0
    cls = OnnxClassifier(onnx_path)
    assert sorted(cls.names) == sorted(CLASSIFIER_NAMES)
    probs = cls.probs(np.zeros((3, 64, 64, 3), np.uint8))
    np.testing.assert_allclose(probs.sum(1), 1.0, atol=1e-4)
