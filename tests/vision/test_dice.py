"""Die faces by pip counting, on dice drawn here (white with black or red pips, dark with white)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detections import TileDetections
from vision.dice import count_pips, read_dice, read_faces

LAYOUT = {1: [(2, 2)], 2: [(1, 1), (3, 3)], 3: [(1, 1), (2, 2), (3, 3)],
          4: [(1, 1), (1, 3), (3, 1), (3, 3)], 5: [(1, 1), (1, 3), (2, 2), (3, 1), (3, 3)],
          6: [(1, 1), (1, 3), (2, 1), (2, 3), (3, 1), (3, 3)]}


def draw_die(face: int, size: int = 60, body=(235, 235, 235), pip=(20, 20, 20),
             angle: float = 0.0) -> np.ndarray:
    img = np.full((size + 20, size + 20, 3), (60, 110, 40), np.uint8)  # felt around it
    cv2.rectangle(img, (10, 10), (10 + size, 10 + size), body, -1)
    r = max(2, size // 11)
    for gy, gx in LAYOUT[face]:
        cv2.circle(img, (10 + gx * size // 4, 10 + gy * size // 4), r, pip, -1, cv2.LINE_AA)
    if angle:
        m = cv2.getRotationMatrix2D((img.shape[1] / 2, img.shape[0] / 2), angle, 1.0)
        img = cv2.warpAffine(img, m, img.shape[1::-1], borderValue=(60, 110, 40))
    return img[6:-6, 6:-6]


@pytest.mark.parametrize("face", range(1, 7))
@pytest.mark.parametrize(("body", "pip"), [((235, 235, 235), (20, 20, 20)),
                                           ((235, 235, 235), (30, 30, 200)),
                                           ((40, 40, 40), (240, 240, 240))],
                         ids=["black-pips", "red-pips", "dark-die"])
def test_count_pips(face: int, body, pip) -> None:
    assert count_pips(draw_die(face, body=body, pip=pip, angle=12)) == face


def test_read_faces_and_roll() -> None:
    canvas = np.full((200, 300, 3), (60, 110, 40), np.uint8)
    a, b = draw_die(3), draw_die(5)
    canvas[20:20 + a.shape[0], 20:20 + a.shape[1]] = a
    canvas[100:100 + b.shape[0], 200:200 + b.shape[1]] = b
    dets = TileDetections(xyxy=[[24, 24, 24 + 60, 24 + 60], [204, 104, 264, 164]],
                          confidence=[0.9, 0.8], class_id=[42, 42])
    dets = read_faces(canvas, dets)
    assert dets.face.tolist() == [3, 5]
    roll = read_dice(dets)
    assert roll is not None and roll.faces == (3, 5) and roll.total == 8
    assert read_dice(dets[:1]) is None


def test_dice_count_as_one_roll_only_while_they_lie_still() -> None:
    """Tumbling dice may show the same faces in two frames: not a roll until they stop; a
    pixel of jitter in a settled die's box is the same roll."""
    from vision.dice import DiceReading

    settled = DiceReading((3, 4), ((100, 100, 130, 130), (150, 100, 180, 130)))
    jitter = DiceReading((3, 4), ((102, 99, 131, 131), (149, 101, 180, 129)))
    rolling = DiceReading((3, 4), ((140, 100, 170, 130), (190, 100, 220, 130)))
    swapped = DiceReading((4, 3), ((150, 100, 180, 130), (100, 100, 130, 130)))
    assert settled.lying == jitter.lying == swapped.lying
    assert settled.lying != rolling.lying
    assert settled.lying != DiceReading((3, 5), settled.boxes).lying
