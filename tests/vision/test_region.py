"""Read only the calibrated table (vision/region.py): the region, its boxes mapped back to the
frame, and the pipeline's whole-frame passes before calibration and after the camera moved."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from scoring.tiles import CLASS_NAMES, TILE_NAMES
from tests.vision.onnx_graphs import fixed_detector
from vision.changes import Change, detect_region, windowed
from vision.detector import Detector
from vision.geometry import TableCalibration
from vision.pipeline import Pipeline
from vision.region import CORNER_MARGIN, GUESSED_MARGIN, inside, table_region, tile_length

FRAME = (1920, 1080)
CORNERS = [[600, 900], [1400, 900], [1400, 100], [600, 100]]  # bottom-left first
ONE_M = TILE_NAMES.index("1m")


def _detector(tmp_path: Path, rows: Sequence[tuple[float, ...]]) -> Detector:
    """A dynamic detector that answers ``rows`` (input px of whatever it is run on) at 960."""
    model = fixed_detector(tmp_path / "d.onnx", list(CLASS_NAMES), list(rows), size=64,
                           dynamic=True, n_anchors=max(64, len(rows)))
    return Detector(model, read_dice=False, imgsz=960)


def _runs(detector: Detector) -> list[tuple[int, ...]]:
    """Record the shape of every input the detection model is run on."""
    shapes: list[tuple[int, ...]] = []
    run = detector.det.run

    def spy(tensor: np.ndarray) -> np.ndarray:
        shapes.append(tensor.shape[2:])
        return run(tensor)

    detector.det.run = spy  # type: ignore[method-assign]
    return shapes


def _ring(n: int = 16, radius: float = 150.0) -> list[tuple[float, ...]]:
    """Tiles (20 x 26 input px) on a ring around the centre of a 960x544 input."""
    ang = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return [(480 + radius * np.cos(a), 272 + radius * np.sin(a), 20, 26, ONE_M, 0.9)
            for a in ang]


def _table(level: int = 120) -> np.ndarray:
    return np.full((FRAME[1], FRAME[0], 3), level, np.uint8)


def test_region_of_corners_is_their_box_plus_a_margin() -> None:
    calib = TableCalibration.from_corners(CORNERS)
    m = CORNER_MARGIN * FRAME[0] / 40  # no tiles measured: a whole-table tile, 48 px
    assert tile_length(None, FRAME) == 48
    got = table_region(calib, None, FRAME)
    assert got is not None
    np.testing.assert_allclose(got, (600 - m, 100 - m, 1400 + m, 900 + m), atol=1)
    # clipped to the frame; a table over nearly all of it is read whole
    wide = TableCalibration.from_corners([[50, 1000], [1870, 1000], [1870, 60], [50, 60]])
    assert table_region(wide, None, FRAME) is None
    assert table_region(TableCalibration.whole_frame(*FRAME), None, FRAME) is None


def test_region_of_a_calibration_from_tiles_holds_them_and_more() -> None:
    from vision.detections import TileDetections

    rng = np.random.default_rng(0)
    centres = [(960 + 300 * np.cos(a), 540 + 300 * np.sin(a))
               for a in np.linspace(0, 2 * np.pi, 24, endpoint=False)]
    xyxy = np.array([[x - 20, y - 26, x + 20, y + 26] for x, y in centres], np.float32)
    dets = TileDetections(xyxy=xyxy + rng.normal(0, 0.5, xyxy.shape).astype(np.float32),
                          confidence=np.full(24, 0.9), class_id=np.full(24, ONE_M, np.int16))
    calib = TableCalibration.from_tiles(dets, *FRAME)
    region = table_region(calib, dets, FRAME)
    assert region is not None
    length = tile_length(dets, FRAME)
    assert length == pytest.approx(52, abs=1)  # the tiles' long side, above 48
    x0, y0, x1, y1 = region
    # the ring spans 85% of the fitted square; beyond it GUESSED_MARGIN tile lengths
    assert x0 <= xyxy[:, 0].min() - GUESSED_MARGIN * length
    assert x1 >= xyxy[:, 2].max() + GUESSED_MARGIN * length
    assert (y0, y1) == (0, FRAME[1])  # clipped to the frame
    assert x1 - x0 < 0.7 * FRAME[0]


def test_inside_drops_boxes_cut_by_the_region_not_by_the_frame() -> None:
    region = (500, 0, 1500, 900)
    boxes = np.array([[600, 100, 640, 150],  # inside
                      [490, 100, 530, 150],  # across the left border
                      [1460, 860, 1499, 899],  # touches the bottom-right borders
                      [700, 0, 740, 40]],  # at the frame's top edge, which the region shares
                     np.float32)
    assert inside(boxes, region, FRAME).tolist() == [True, False, False, True]


def test_change_within_the_region() -> None:
    change = Change(regions=((100, 100, 200, 200), (450, 450, 650, 650), (1600, 10, 1700, 90)))
    assert change.within((500, 0, 1500, 900)).regions == ((500, 450, 650, 650),)
    assert change.within((0, 0, 10, 10)).none
    assert change.within(None) is change
    assert Change(whole=True).within((500, 0, 1500, 900)).whole


def test_region_pass_maps_boxes_back_to_the_frame(tmp_path: Path) -> None:
    """The region (600, 100, 1400, 900) of a 1920x1080 frame at 960 (ratio 0.5, 2 px of
    padding above): the window of the 960x544 input is x 288..704, y 32..480; a box at
    (100, 50) of the window is at (388, 82) of the input, (776, 160) of the frame. A box
    reaching the region's border is dropped."""
    rows = [(100, 50, 20, 30, ONE_M, 0.9), (5, 5, 10, 10, ONE_M, 0.8)]
    detector = _detector(tmp_path, rows)
    shapes = _runs(detector)
    assert windowed(detector)
    image = _table()
    full = detector.detect(image)
    np.testing.assert_allclose(full.xyxy, [[180, 66, 220, 126], [0, 0, 20, 16]], atol=0.01)
    got = detect_region(detector, image, (600, 100, 1400, 900))
    assert shapes == [(544, 960), (448, 416)]
    assert len(got) == 1 and got.class_id.tolist() == [ONE_M]
    np.testing.assert_allclose(got.xyxy, [[756, 130, 796, 190]], atol=0.01)
    assert detector.last_found is not None and len(detector.last_found) == 1
    # no region, or a detector that cannot run on windows: the whole frame
    assert len(detect_region(detector, image, None)) == 2 and shapes[-1] == (544, 960)


def test_pipeline_reads_the_table_once_calibrated_from_corners(tmp_path: Path) -> None:
    """With the change mask, the first frame is read whole (nothing calibrated before it),
    every later full pass only on the corners' region; analysing every frame whole (the
    yardstick) runs the models on the whole frame and keeps the region's boxes."""
    for motion in (1.5, -1.0):
        # in the whole input, (100, 50) is at frame (200, 96), beyond the region, and (300, 250)
        # at (600, 496), in it; in the region's window (from input x 224) both are in it
        detector = _detector(tmp_path, [(100, 50, 20, 30, ONE_M, 0.9),
                                        (300, 250, 20, 30, ONE_M, 0.9)])
        shapes = _runs(detector)
        pipe = Pipeline(None, detector, corners=CORNERS, motion=motion, settle=False)
        results = [pipe.process(_table(level), i, 0.2 * i)
                   for i, level in enumerate((120, 145, 200))]  # all changed each time
        # corners given: the camera is taken not to move
        assert pipe.region == (504, 4, 1496, 996)
        if motion < 0:
            assert shapes == [(544, 960)] * 3
            assert [len(r.detections) for r in results] == [1, 1, 1]
            continue
        assert shapes == [(544, 960), (512, 544), (512, 544)]
        assert [len(r.detections) for r in results] == [1, 2, 2]
        assert pipe.changes is not None and pipe.changes.passes == {"whole": 1, "table": 2}


def test_pipeline_reads_the_whole_frame_until_calibrated_and_after_the_camera_moved(
        tmp_path: Path) -> None:
    detector = _detector(tmp_path, _ring())
    shapes = _runs(detector)
    pipe = Pipeline(None, detector, settle=False)
    pipe.process(_table(), 0, 0.0)
    first, region = pipe.calibration, pipe.region
    assert first is not None and first.guessed and region is not None
    assert region[2] - region[0] < 0.7 * FRAME[0]
    # all changed, but less than a moved camera changes: the table's region only
    kept = pipe.process(_table(142), 1, 0.2)
    assert shapes[0] == (544, 960) and shapes[1][1] < 0.7 * 960
    assert pipe.calibration is first
    assert inside(kept.detections.xyxy, region, FRAME).all()
    pipe.process(_table(200), 2, 0.4)  # another view altogether: whole, calibrated anew
    assert shapes[2] == (544, 960) and pipe.calibration is not first
    assert pipe.changes is not None and pipe.changes.passes == {"whole": 2, "table": 1}
    # a detector that cannot run on windows (a fixed input size) reads every frame whole
    fixed = Detector(fixed_detector(tmp_path / "f.onnx", list(CLASS_NAMES), _ring(),
                                    size=960), read_dice=False)
    assert not windowed(fixed)
    pipe = Pipeline(None, fixed, settle=False)
    pipe.process(_table(), 0, 0.0)
    assert pipe.region is None


def test_nothing_the_bundled_video_table_holds_falls_outside_its_region() -> None:
    """The bundled video's table, calibrated as the pipeline does from its first frame (the
    walls alone: no hand is dealt yet): every labeled box of the whole game (hands, melds,
    flowers, discards, dice) lies inside the region, more than 2 tile lengths from its
    borders inside the frame."""
    import cv2

    from tests.vision.labeled_truth import VIDEO, script, step_detections
    from vision.reading import calibrate

    cap = cv2.VideoCapture(str(VIDEO))
    ok, first = cap.read()
    cap.release()
    assert ok
    dets = step_detections(0)
    calib = calibrate(first, None, 0, dets)
    region = table_region(calib, dets, FRAME)
    assert calib.guessed and region is not None
    boxes = np.concatenate([step_detections(k).xyxy for k in range(len(script()["steps"]))])
    assert len(boxes) > 1000 and inside(boxes, region, FRAME).all()
    spare = 2 * tile_length(dets, FRAME)
    x0, y0, x1, y1 = region
    assert x0 + spare < boxes[:, 0].min() and boxes[:, 2].max() < x1 - spare
    assert (y0 == 0 or y0 + spare < boxes[:, 1].min())
    assert (y1 == FRAME[1] or boxes[:, 3].max() < y1 - spare)
    assert x1 - x0 < 0.7 * FRAME[0]  # and the region is a real saving
