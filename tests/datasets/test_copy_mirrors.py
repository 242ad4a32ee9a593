"""The export's copies told apart by handedness: turned and scaled copies stay on one side, a
mirror image goes to the other, and every copy listed as mirrored is its siblings' mirror."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets import copy_mirrors, photo_faces

SAMPLE = Path(__file__).resolve().parents[2] / "vision" / "samples" / "table_2.jpg"
ROOT = photo_faces.DATA_ROOT / "tiles-real"


def _copy(image: np.ndarray, degrees: float, scale: float, mirrored: bool) -> np.ndarray:
    """A 640-px copy as the export makes them: turned and scaled about the middle, maybe
    flipped."""
    if mirrored:
        image = np.ascontiguousarray(image[:, ::-1])
    h, w = image.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, scale)
    return cv2.warpAffine(image, turn, (w, h), borderValue=(0, 0, 0))


def test_turned_copies_share_a_side_and_a_mirror_image_takes_the_other() -> None:
    photo = cv2.resize(cv2.imread(str(SAMPLE)), (640, 640), interpolation=cv2.INTER_AREA)
    copies = [_copy(photo, 0, 1.0, False), _copy(photo, 90, 0.8, False),
              _copy(photo, 30, 0.9, True), _copy(photo, 180, 1.0, True)]
    assert copy_mirrors.same_hand(copies[0], copies[1]) is True
    assert copy_mirrors.same_hand(copies[0], copies[2]) is False
    assert copy_mirrors.sides(copies) == [0, 0, 1, 1]
    assert copy_mirrors.sides(copies[2:] + copies[:1]) == [0, 0, 1]


def test_a_featureless_copy_tells_nothing() -> None:
    photo = cv2.resize(cv2.imread(str(SAMPLE)), (640, 640), interpolation=cv2.INTER_AREA)
    blank = np.full_like(photo, 128)
    assert copy_mirrors.same_hand(photo, blank) is None
    assert copy_mirrors.sides([photo, blank, photo]) is None


@pytest.mark.skipif(not ROOT.is_dir(), reason=f"shared datasets not found at {ROOT}")
def test_each_listed_copy_mirrors_a_sibling_that_is_not_listed() -> None:
    siblings = {f.name: files for files in copy_mirrors.copies_by_photo(ROOT).values()
                for f in files}
    for name in photo_faces.MIRRORED_COPIES:
        files = siblings[name]
        plain = [f for f in files if f.name not in photo_faces.MIRRORED_COPIES]
        assert plain, f"{name}: every copy of its photo is listed"
        listed = cv2.imread(str(next(f for f in files if f.name == name)))
        assert copy_mirrors.same_hand(listed, cv2.imread(str(plain[0]))) is False, name
