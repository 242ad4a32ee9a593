"""Freeing a batch-1 classifier's batch at export time gives the same answers in batches."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("onnx", reason="the onnx package is part of the dev and train extras")

from tests.vision.onnx_graphs import centre_pixel_classifier
from vision.detector import OnnxModel
from vision.training.batching import free_batch

NAMES = [f"{i}m" for i in range(1, 8)]


def test_free_batch_opens_a_batch_one_export(tmp_path: Path) -> None:
    src = centre_pixel_classifier(tmp_path / "one.onnx", NAMES, batch=1)
    dst = tmp_path / "free.onnx"
    assert free_batch(src, dst)
    one, free = OnnxModel(src, threads=1), OnnxModel(dst, threads=1)
    assert one.fixed_batch == 1 and free.fixed_batch is None
    crops = np.random.default_rng(1).random((5, 3, 64, 64), np.float32)
    alone = np.concatenate([one.run(crops[i:i + 1]) for i in range(5)])
    assert np.allclose(free.run(crops), alone, atol=1e-5)
    assert free.meta == one.meta  # names, imgsz and task survive


def test_free_batch_leaves_a_free_model_alone(tmp_path: Path) -> None:
    src = centre_pixel_classifier(tmp_path / "free.onnx", NAMES, batch="batch")
    dst = tmp_path / "out.onnx"
    assert not free_batch(src, dst)
    assert not dst.exists()
