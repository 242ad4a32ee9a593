"""Reading synthetic table scenes end to end against their manifests (``datasets`` generator).

The generator's boxes stand in for a perfect detector, so this measures the table logic alone:
calibration from the picture, seats, roles, melds with whom they were claimed from, flowers,
discards, hidden hands and dice. The accuracy figure is printed (``pytest -s``) and held to a
floor, so a regression in the geometry fails here.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import datasets.art as art  # ours: a broken import must fail, not skip
import datasets.scene as scene_mod
from vision.dice import read_dice
from vision.geometry import TableCalibration, read_table
from vision.manifest import Score, bottom_seat, compare, manifest_detections
from vision.reading import calibrate

pytestmark = pytest.mark.skipif(not art.available_styles(),
                                reason=f"no tile art at {art.ART_ROOT} (set MJTABLE_ART to "
                                       "shared/art)")

SCENES = 6
FLOOR = 0.9
AUTO_FLOOR = 0.88


def rig_calibration(scene) -> TableCalibration:  # type: ignore[no-untyped-def]
    """The calibration a fixed rig has (corners clicked once): fitted from where the generator
    put the tiles lying flat, in table millimetres, and where they appear in the picture."""
    src, dst = [], []
    for lab in scene.labels:
        body = scene.bodies[lab.body]
        if body.role in ("discard", "meld", "flower") and 0 <= body.kind < 42:
            src.append(body.center[:2])
            x1, y1, x2, y2 = lab.xyxy
            dst.append(((x1 + x2) / 2, (y1 + y2) / 2))
    hom, _ = cv2.findHomography(np.array(src, np.float64), np.array(dst, np.float64),
                                cv2.RANSAC, 4.0)
    half = 480.0
    table = np.array([[[-half, -half]], [[half, -half]], [[half, half]], [[-half, half]]])
    return TableCalibration.from_corners(cv2.perspectiveTransform(table, hom).reshape(4, 2))


def _read_all(calibrated: bool) -> Score:
    total = Score()
    for index in range(SCENES):
        scene = scene_mod.make_scene("table", 11, index, (1280, 720))
        manifest = scene.manifest
        dets = manifest_detections(manifest)
        calib = rig_calibration(scene) if calibrated else \
            calibrate(scene.image, bottom_seat=bottom_seat(manifest), dets=dets)
        table = read_table(dets, calib)
        dice = read_dice(table.detections)
        total += compare(table, manifest, dice.faces if dice else None)
    return total


@pytest.mark.slow
def test_synthetic_tables_read_against_manifests() -> None:
    rig = _read_all(calibrated=True)
    auto = _read_all(calibrated=False)
    print(f"\nsynthetic tables, perfect detections, calibrated rig: {rig.summary()}")
    print(f"synthetic tables, perfect detections, corners found or estimated from the tiles: "
          f"{auto.summary()}")
    for miss in rig.misses:
        print("  rig miss:", miss)
    assert rig.accuracy("flowers") == 1.0 and rig.accuracy("dice") == 1.0
    assert rig.accuracy() >= FLOOR, rig.summary()
    assert auto.accuracy() >= AUTO_FLOOR, auto.summary()
