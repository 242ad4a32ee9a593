"""A tile is named from a tight and a loose crop of its box, their odds multiplied."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.onnx_graphs import centre_pixel_classifier, fixed_detector
from vision.detector import Detector
from vision.training.crops import READ_PADS, padded_probs

BOX = np.array([[40.0, 40.0, 60.0, 60.0]])


def _frame() -> np.ndarray:
    """Black inside the box, white around it: only a loose crop shows white."""
    image = np.full((100, 100, 3), 255, np.uint8)
    image[40:60, 40:60] = 0
    return image


def _by_white(crops: list[np.ndarray]) -> np.ndarray:
    """Odds that depend on what a crop shows: all black says class 0, some white class 1."""
    return np.array([[0.7, 0.3, 0.0] if c.max() == 0 else [0.2, 0.5, 0.3] for c in crops])


def test_the_odds_of_each_crop_are_multiplied() -> None:
    probs = padded_probs(_frame(), BOX, _by_white, pads=(0.0, 0.2), size=16)
    both = np.sqrt([0.7 * 0.2, 0.3 * 0.5, 1e-6 * 0.3])
    assert probs.shape == (1, 3)
    np.testing.assert_allclose(probs[0], both / both.sum(), rtol=1e-5)
    assert probs[0].argmax() == 1  # the tight crop alone says 0, the two together 1
    # one pad is one crop's odds, as before
    np.testing.assert_allclose(padded_probs(_frame(), BOX, _by_white, pads=(0.0,), size=16)[0],
                               [0.7, 0.3, 0.0], atol=1e-5)


def test_each_crops_odds_are_weighed_before_they_are_multiplied() -> None:
    seen: list[int] = []

    def weigh(crops: list[np.ndarray], probs: np.ndarray) -> np.ndarray:
        seen.append(int(crops[0].max()))
        return probs[:, ::-1].copy()

    probs = padded_probs(_frame(), BOX, _by_white, pads=(0.0, 0.2), size=16, weigh=weigh)
    assert seen == [0, 255]
    both = np.sqrt([1e-6 * 0.3, 0.3 * 0.5, 0.7 * 0.2])
    np.testing.assert_allclose(probs[0], both / both.sum(), rtol=1e-5)


def test_a_detector_reads_with_the_two_crops_and_refuses_odd_pads(tmp_path: Path) -> None:
    det_path = fixed_detector(tmp_path / "d.onnx", ["tile", "die", "tile_back"],
                              [(320, 320, 40, 56, 0, 0.9)])
    cls_path = centre_pixel_classifier(tmp_path / "c.onnx", [f"{k}m" for k in range(1, 10)])
    assert Detector(det_path, cls_path).pads == READ_PADS == (0.0, 0.2)
    assert Detector(det_path, cls_path, pads=[0.1]).pads == (0.1,)
    for bad in ([], [0.7], [-0.1]):
        with pytest.raises(ValueError, match=r"crop pads must be one or more shares in 0\.\.0\.5"):
            Detector(det_path, cls_path, pads=bad)
