"""``mjtable eval`` runs what ``mjtable detect`` runs (models built in the test)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
from onnx_graphs import photo_scale_detector

from scoring.tiles import CLASS_NAMES
from ui.cli import main
from vision.capture import load_image
from vision.evaluate import evaluate, load_dataset, load_model, named

SAMPLES = Path(__file__).resolve().parents[2] / "vision" / "samples"


def test_eval_runs_what_detect_runs(tmp_path: Path, capsys) -> None:
    """The same models folder, the same photos in the same order: eval's predictions at the
    operating threshold are detect's output, box for box (the input size chosen per photo)."""
    models = tmp_path / "models"
    models.mkdir()
    photo_scale_detector(models / "detector.onnx", list(CLASS_NAMES))
    (tmp_path / "data" / "images").mkdir(parents=True)
    (tmp_path / "data" / "labels").mkdir()
    photos = []
    for name, shape in (("a_square", (960, 960)), ("b_wide", (1080, 1920)),
                        ("c_square", (960, 960))):
        photos.append(tmp_path / "data" / "images" / f"{name}.png")
        cv2.imwrite(str(photos[-1]), np.zeros((*shape, 3), np.uint8))
        (tmp_path / "data" / "labels" / f"{name}.txt").write_text("")
    assert main(["detect", "--json", "--models", str(models), *map(str, photos)]) == 0
    shown = [json.loads(x)["detections"] for x in capsys.readouterr().out.splitlines()]
    detector = load_model(models)
    ours = []
    for path in photos:
        dets = detector.detect(load_image(path), conf=0.01)  # as evaluate() asks
        ours.append(dets[dets.confidence >= detector.conf])  # the operating threshold
    assert [d.to_json_list() for d in ours] == shown
    assert [len(d) for d in shown] == [12, 4, 12]
    report = evaluate(detector, load_dataset(tmp_path / "data"), label="same")
    assert report.evaluation.images == 3
    assert sum(report.evaluation.confusions.values()) == 28  # 12 + 4 + 12 on nothing labeled
    assert named(ours[1], {"1m"}).names == ["1m"] * 4

