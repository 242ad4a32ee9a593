"""Averaging classifiers into one ONNX: the weighted mean of their outputs, their metadata."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("onnx", reason="the onnx package is part of the dev and train extras")

from tests.vision.onnx_graphs import centre_pixel_classifier
from vision.detector import OnnxModel
from vision.training.ensemble import average_classifiers

NAMES = [f"{i}p" for i in range(1, 10)]


def test_the_average_is_the_weighted_mean_of_the_members(tmp_path: Path) -> None:
    sure = centre_pixel_classifier(tmp_path / "sure.onnx", NAMES, sharpness=4.0)
    unsure = centre_pixel_classifier(tmp_path / "unsure.onnx", NAMES, sharpness=0.5)
    out = average_classifiers([(sure, 3.0), (unsure, 1.0)], tmp_path / "avg.onnx")
    crops = np.random.default_rng(2).random((6, 3, 64, 64), np.float32)
    a, b = OnnxModel(sure, threads=1).run(crops), OnnxModel(unsure, threads=1).run(crops)
    assert not np.allclose(a, b, atol=1e-3)  # the members differ, so the weights matter
    merged = OnnxModel(out, threads=1)
    assert np.allclose(merged.run(crops), 0.75 * a + 0.25 * b, atol=1e-6)
    assert merged.fixed_batch is None  # the runtime still classifies a frame's crops at once
    assert {k: merged.meta[k] for k in ("names", "imgsz", "task")} == \
        {k: OnnxModel(sure, threads=1).meta[k] for k in ("names", "imgsz", "task")}
    assert "sure.onnx: 3" in merged.meta["average"]


def test_members_must_match_and_be_two_or_more(tmp_path: Path) -> None:
    one = centre_pixel_classifier(tmp_path / "one.onnx", NAMES)
    other = centre_pixel_classifier(tmp_path / "other.onnx", NAMES[:-1])
    with pytest.raises(ValueError, match="two classifiers"):
        average_classifiers([(one, 1.0)], tmp_path / "x.onnx")
    with pytest.raises(ValueError, match="same classes"):
        average_classifiers([(one, 1.0), (other, 1.0)], tmp_path / "x.onnx")
    with pytest.raises(ValueError, match="positive"):
        average_classifiers([(one, 1.0), (one, 0.0)], tmp_path / "x.onnx")
    assert not (tmp_path / "x.onnx").exists()


def test_export_average_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                            ) -> None:
    from ui.cli import main

    a = centre_pixel_classifier(tmp_path / "a.onnx", NAMES, sharpness=4.0)
    b = centre_pixel_classifier(tmp_path / "b.onnx", NAMES, sharpness=1.0)
    out = tmp_path / "models" / "classifier.onnx"
    assert main(["export", "--average", f"{a}:2", "--average", str(b), "--out", str(out)]) == 0
    assert "9 names" in capsys.readouterr().out and out.is_file()
    crops = np.random.default_rng(3).random((2, 3, 64, 64), np.float32)
    want = (2 * OnnxModel(a, threads=1).run(crops) + OnnxModel(b, threads=1).run(crops)) / 3
    assert np.allclose(OnnxModel(out, threads=1).run(crops), want, atol=1e-6)
    assert main(["export", "--average", str(a), "--out", str(tmp_path / "y.onnx")]) != 0
    assert "two classifiers" in capsys.readouterr().err
    assert main(["export", "--average", f"{a}:-1", "--average", str(b), "--out", str(out)]) == 2
    assert "expected a finite number > 0, got '-1'" in capsys.readouterr().err
