"""An unsure tile is read again turned a little either way; a sure one is not."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from tests.vision.onnx_graphs import centre_pixel_classifier, fixed_detector
from vision.detector import Detector, default_models_dir, load_detector
from vision.evaluate import load_model
from vision.training.crops import ASKEW, ASKEW_BELOW, padded_probs, turned_crop

BOX = np.array([[40.0, 30.0, 60.0, 70.0]])


def _upright_bar() -> np.ndarray:
    """A white frame with a black upright bar down the box's middle and beyond it."""
    image = np.full((100, 100, 3), 255, np.uint8)
    image[:, 49:51] = 0
    return image


def _bar_x(crop: np.ndarray, row: int) -> float:
    dark = np.flatnonzero(crop[row, :, 0] < 128)
    return float(dark.mean())


def test_a_turned_crop_turns_counter_clockwise_about_the_middle() -> None:
    crop = turned_crop(_upright_bar(), BOX[0], 15.0, size=32, pad=0.0)
    assert crop.shape == (32, 32, 3)
    top, bottom = _bar_x(crop, 2), _bar_x(crop, 29)
    assert top < 15.5 < bottom  # turned counter-clockwise: the top goes left
    assert abs((top + bottom) / 2 - 15.5) < 1.0  # about the middle
    square = turned_crop(_upright_bar(), BOX[0], -15.0, size=32, pad=0.0)
    assert _bar_x(square, 2) > 15.5 > _bar_x(square, 29)


def test_a_box_at_the_image_edge_is_turned_without_shifting() -> None:
    image = _upright_bar()[:, 30:]  # the bar at x 19..20 of 70
    edge = np.array([0.0, 0.0, 40.0, 40.0])  # its middle at x 20, y 20
    crop = turned_crop(image, edge, 0.0, size=40, pad=0.0)
    assert crop.shape == (40, 40, 3)
    assert abs(_bar_x(crop, 20) - 19.5) <= 1.0
    with pytest.raises(ValueError, match="empty box"):
        turned_crop(image, np.array([5.0, 5.0, 5.0, 9.0]), 15.0)


def _counting(sure: float) -> tuple[list[int], Callable[[list[np.ndarray]], np.ndarray]]:
    """A classifier of two classes whose first is ``sure`` for an upright bar and less sure
    for a turned one; it counts the crops it is shown."""
    shown: list[int] = []

    def probs(crops: list[np.ndarray]) -> np.ndarray:
        shown.append(len(crops))
        out = []
        for c in crops:
            h = c.shape[0]
            straight = abs(_bar_x(c, 1) - _bar_x(c, h - 2)) < 1.0
            p = sure if straight else 0.2
            out.append([p, 1.0 - p])
        return np.array(out)

    return shown, probs


def test_a_sure_tile_is_read_once_a_pad_and_an_unsure_one_also_turned() -> None:
    shown, probs = _counting(0.95)
    out = padded_probs(_upright_bar(), BOX, probs, pads=(0.0, 0.2), size=16, askew=ASKEW)
    assert shown == [1, 1]  # sure: no turned crop
    np.testing.assert_allclose(out[0], [0.95, 0.05], atol=1e-5)

    shown, probs = _counting(0.8)
    out = padded_probs(_upright_bar(), BOX, probs, pads=(0.0, 0.2), size=16, askew=ASKEW)
    assert shown == [1, 1, 1, 1, 1, 1]  # two pads, then each pad turned either way
    logs = np.log([[0.8, 0.2]] * 2 + [[0.2, 0.8]] * 4).mean(axis=0)
    odds = np.exp(logs)
    np.testing.assert_allclose(out[0], odds / odds.sum(), rtol=1e-5)
    assert out[0].argmax() == 1  # the turned crops outweigh the square ones here

    shown, probs = _counting(0.8)
    padded_probs(_upright_bar(), BOX, probs, pads=(0.0, 0.2), size=16)
    assert shown == [1, 1]  # no angles: never turned
    assert 0.8 < ASKEW_BELOW < 0.95


def test_a_still_is_read_askew_by_default_a_stream_not_and_odd_angles_are_refused(
        tmp_path: Path) -> None:
    det_path = fixed_detector(tmp_path / "d.onnx", ["tile", "die", "tile_back"],
                              [(320, 320, 40, 56, 0, 0.9)])
    cls_path = centre_pixel_classifier(tmp_path / "c.onnx", [f"{k}m" for k in range(1, 10)])
    assert Detector(det_path, cls_path, stills=True).askew == ASKEW == (-15.0, 15.0)
    assert Detector(det_path, cls_path).askew == ()  # a stream
    assert Detector(det_path, cls_path, askew=[10.0]).askew == (10.0,)
    assert Detector(det_path, cls_path, stills=True, askew=()).askew == ()
    assert load_model(f"{det_path}+{cls_path}").askew == ASKEW
    assert load_model(f"{det_path}+{cls_path}", askew=False).askew == ()
    for bad in ([0.0], [50.0], [-45.0]):
        with pytest.raises(ValueError, match=r"askew angles must lie in -45\.\.45 degrees"):
            Detector(det_path, cls_path, askew=bad)


@pytest.mark.skipif(not (default_models_dir() / "classifier.onnx").is_file(),
                    reason="no shipped models")
def test_eval_no_askew_reads_every_tile_once_a_pad() -> None:
    """``mjtable eval --no-askew`` measures what the turned reading adds: the same models
    (``read``, ``detect`` and ``eval`` read stills turned; ``watch``'s stream does not)."""
    from ui.cli import build_parser

    models = default_models_dir()
    assert load_model(models).askew == ASKEW
    assert load_model(models, askew=False).askew == ()
    assert load_detector(models).askew == ()
    assert load_detector(models, stills=True).askew == ASKEW
    assert build_parser().parse_args(["eval", "--tables", "x", "--no-askew"]).no_askew
    assert not build_parser().parse_args(["eval", "--tables", "x"]).no_askew


@pytest.mark.skipif(not (default_models_dir() / "classifier.onnx").is_file(),
                    reason="no shipped models")
def test_a_streams_still_twin_reads_a_photo_as_read_does() -> None:
    """``Detector.as_still``: the stream's loaded models, read as ``mjtable read`` reads a
    photo (a pipeline reads a hand laid down so); the stream itself is left as it was."""
    from tests.vision.labeled_truth import SAMPLES
    from vision.capture import load_image

    stream = load_detector()
    twin = stream.as_still()
    assert twin.det is stream.det and twin.cls is stream.cls and twin.as_still() is twin
    assert (twin.stills, twin.turns, twin.askew, twin.reuse_crops, twin.flips) == (
        True, 4, ASKEW, False, False)
    assert (stream.stills, stream.turns, stream.askew) == (False, 1, ())
    image = load_image(SAMPLES / "table_2.jpg")
    got, want = twin.detect(image), load_detector(stills=True).detect(image)
    assert np.array_equal(got.class_id, want.class_id) and np.allclose(got.xyxy, want.xyxy)
    assert stream.sizes == stream.candidates  # the twin chose its size, not the stream's
