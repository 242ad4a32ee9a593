"""Work only where the table changed (vision/changes.py): the change mask, the windows, and the
pipeline's events with it against analysing every frame in full."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.capture import load_image
from vision.changes import SCALE, ChangeTracker, _merge_overlapping
from vision.detector import STRIDE, default_models_dir, load_detector
from vision.pipeline import Pipeline
from vision.samples.clips import local_change_clip

SAMPLES = Path(__file__).resolve().parents[2] / "vision" / "samples"
shipped = pytest.mark.skipif(not (default_models_dir() / "detector.onnx").is_file(),
                             reason="no shipped models")


def _table() -> np.ndarray:
    rng = np.random.default_rng(0)
    image = np.full((1080, 1920, 3), 120, np.uint8)
    image[500:560, 900:940] = 230  # a tile
    return np.clip(image + rng.normal(0, 3, image.shape), 0, 255).astype(np.uint8)


def test_change_mask_regions(tmp_path: Path) -> None:
    """Sensor noise is no change; a new tile is one region around it; a camera that moved is
    the whole frame."""
    from scoring.tiles import CLASS_NAMES
    from tests.vision.onnx_graphs import fixed_detector
    from vision.detector import Detector

    model = fixed_detector(tmp_path / "d.onnx", list(CLASS_NAMES), [], size=64, dynamic=True)
    detector = Detector(model, read_dice=False, imgsz=960)
    tracker = ChangeTracker()
    image = _table()
    change = tracker.compare(image)
    assert change.whole  # nothing kept yet
    assert len(tracker.detect(detector, image, change)) == 0
    noisy = np.clip(image + np.random.default_rng(1).normal(0, 3, image.shape), 0, 255)
    assert tracker.compare(noisy.astype(np.uint8)).none
    moved = image.copy()
    moved[700:760, 1300:1340] = 230
    change = tracker.compare(moved)
    assert not change.whole and len(change.regions) == 1
    x0, y0, x1, y1 = change.regions[0]
    assert x0 <= 1300 < 1340 <= x1 and y0 <= 700 < 760 <= y1
    assert x1 - x0 < 40 + 10 * SCALE and y1 - y0 < 60 + 10 * SCALE  # the tile and a rim
    photo = load_image(SAMPLES / "table_0.jpg")
    tracker.detect(detector, photo, tracker.compare(photo))
    assert tracker.compare(photo).none
    moved = np.roll(photo, 6, axis=1)  # every tile's edges changed: windows over it all
    tracker.detect(detector, moved, tracker.compare(moved))
    assert tracker.passes == {"whole": 3} and tracker.last_windows == []
    moved[500:560, 900:940] = 230  # one new tile: one window
    tracker.detect(detector, moved, tracker.compare(moved))
    assert tracker.passes["windows"] == 1 and len(tracker.last_windows) == 1


def test_windows_merge_where_they_overlap() -> None:
    assert _merge_overlapping([[0, 0, 64, 64], [32, 32, 96, 96], [200, 0, 264, 64]]) == \
        [(0, 0, 96, 96), (200, 0, 264, 64)]
    assert _merge_overlapping([[0, 0, 64, 64], [64, 0, 128, 64]]) == \
        [(0, 0, 64, 64), (64, 0, 128, 64)]  # touching is not overlapping


def _events(pipe: Pipeline, frames: list[np.ndarray], fps: float) -> list[tuple]:
    out = []
    for i, frame in enumerate(frames):
        out += [(e.frame, e.type, e.data) for e in pipe.process(frame, i, i / fps).events]
    return out


@shipped
@pytest.mark.slow
def test_change_mask_gives_the_events_of_full_analysis() -> None:
    """A clip in which the dice are taken away, a tile is discarded and the dice come back:
    the shipped models on the changed windows only give the events they give on every frame
    in full (the clip has no sensor noise, so full analysis is repeatable)."""
    clip = local_change_clip()
    masked = Pipeline(None, load_detector(), ruleset="shanghai")
    full = Pipeline(None, load_detector(), ruleset="shanghai", motion=-1)
    assert full.changes is None
    got = _events(masked, clip.frames, clip.fps)
    assert got == _events(full, clip.frames, clip.fps)
    assert [e[1] for e in got].count("dice") == 2  # the dice came back: the next roll
    assert masked.changes is not None
    # each change read twice (its reading confirmed on the next frame), the rest reused; the
    # first frame whole, the next full pass on the calibrated table's region only
    assert masked.changes.passes == {"whole": 1, "table": 1, "windows": 4}
    x0, y0, x1, y1 = masked.changes.last_windows[0]  # the dice's window: a small part
    assert x0 % STRIDE == y0 % STRIDE == 0 and (x1 - x0) * (y1 - y0) < 0.1 * 960 * 544


def _video_events(detector: object, **kw: object) -> list[tuple]:
    pipe = Pipeline(str(SAMPLES / "table_1080p.mp4"), detector, ruleset="shandong", dealer=0,
                    **kw)
    return [(r.frame.index, e.type, e.data) for r in pipe.frames() for e in r.events]


@pytest.mark.slow
def test_bundled_video_gives_the_events_of_full_analysis() -> None:
    """The bundled video (two hands, sensor noise) with readings that do not depend on the
    noise (the labeled-truth detector): every event, at the same frame, whether each frame is
    analysed in full or the change mask reuses still frames and confirms each change with a
    second reading; and the delay is one frame (0.2 s) after each step of the script."""
    from tests.vision.labeled_truth import LabeledTruthDetector, script

    masked, full = LabeledTruthDetector(), LabeledTruthDetector()
    got = _video_events(masked)
    assert got == _video_events(full, motion=-1)
    assert full.calls == script()["frames"] and masked.calls < script()["frames"] / 2
    starts = {e["type"]: [] for e in script()["events"]}
    for e in script()["events"]:
        starts[e["type"]].append(script()["steps"][e["step"]]["frames"][0])
    discards = [frame for frame, kind, _ in got if kind == "discard"]
    assert [f - 1 for f in discards] == starts["discard"]


@shipped
@pytest.mark.slow
def test_bundled_video_with_the_shipped_models_both_ways() -> None:
    """The shipped models on the bundled video (two hands, sensor noise): every event, at the
    same frame, whether each frame is analysed in full or only what changed. The models'
    least sure boxes differ between the two (sensor noise moves tile backs across their
    threshold from frame to frame; the change mask keeps boxes read earlier), so this holds
    only because no event rests on them: seats are read by what they show face up, and the
    table's geometry is not swayed by one box more or fewer. (Before: 42 events against 52,
    seat 3's count of backs flickering 13/14 into ``hand`` events and delaying its discards.)"""
    masked = _video_events(load_detector())
    assert masked == _video_events(load_detector(), motion=-1)
    kinds = [e[1] for e in masked]
    assert kinds.count("dice") == 4 and kinds.count("win") == 2
    # and they are the script's match events, in order (each discard, claim, flower, roll, wall
    # break and win), with no extra one: a sideways tile boxed as two halves is one tile, and
    # a discard after a claim seen only together is still a discard
    from tests.vision.labeled_truth import script
    from vision.stability import MATCH_EVENT_TYPES

    want = [(e["type"], {k: v for k, v in e.items() if k not in ("type", "step")})
            for e in script()["events"]]
    assert [(t, d) for _, t, d in masked if t in MATCH_EVENT_TYPES] == want


@shipped
@pytest.mark.slow
def test_bundled_video_with_the_change_mask() -> None:
    """The bundled video (two hands played, with sensor noise): most frames are still and
    reused, and most of the frames analysed run the detector on windows only; the full passes
    after the first read the calibrated table's region only. Each of the two hands laid down
    is read again as a still where it is first seen, and so are the frames after it analysed
    while it lies."""
    masked = Pipeline(str(SAMPLES / "table_1080p.mp4"), load_detector())
    results = list(masked.frames())
    analysed = sum(not r.reused for r in results)
    assert masked.changes is not None
    passes = masked.changes.passes
    assert passes["whole"] + passes["table"] + passes["windows"] + passes["still"] \
        == analysed < len(results) / 2
    assert passes["still again"] == 2 == sum("still" in r.timings for r in results)
    assert passes["still"] < passes["windows"] / 4
    assert passes["windows"] > 2 * (passes["whole"] + passes["table"])
    assert passes["whole"] == 1 and passes["table"] > 0


@shipped
@pytest.mark.slow
def test_windows_find_what_the_whole_frame_finds() -> None:
    """After each change of the clip, the kept boxes plus those found in the windows are the
    boxes of a whole-frame pass: same number, same classes, within 2 px (the window's edge is
    the model's only other context)."""
    from vision.detector import box_iou

    clip = local_change_clip()
    tracker, masked, full = ChangeTracker(), load_detector(), load_detector()
    for i in (0, 7, 14):
        frame = clip.frames[i]
        got = tracker.detect(masked, frame, tracker.compare(frame))
        want = full.detect(frame)
        assert len(got) == len(want) > 100
        match = box_iou(want.xyxy, got.xyxy).argmax(axis=1)
        assert sorted(match.tolist()) == list(range(len(got)))
        assert np.array_equal(want.class_id, got.class_id[match])
        np.testing.assert_allclose(want.xyxy, got.xyxy[match], atol=2.0)
    assert tracker.passes == {"whole": 1, "windows": 2}


@shipped
@pytest.mark.parametrize("photo", ["table_1.jpg", "table_2.jpg"])
def test_the_table_regions_pass_tells_backs_by_colour_as_a_whole_pass_does(photo: str) -> None:
    """The live pipeline's full pass reads the calibrated table's region alone
    (``detect_region``); it tells backs by their colour as ``Detector.detect`` does, or a
    rim or shadow boxed as backs makes a row of its own (table_1: four more backs than the
    whole frame's pass; REALVAL6 table_s21_000040: three beside the winner's hand, which
    was then taken for discards)."""
    from vision.changes import detect_region
    from vision.reading import calibrate
    from vision.region import inside, table_region

    image = load_image(SAMPLES / photo)
    detector = load_detector()
    whole = detector.detect(image)
    frame = (image.shape[1], image.shape[0])
    region = table_region(calibrate(image, None, 0, whole), whole, frame)
    assert region is not None
    whole = whole[inside(whole.xyxy, region, frame)]
    found = detect_region(detector, image, region)
    assert abs(int(found.is_back.sum()) - int(whole.is_back.sum())) <= 1
    assert abs(len(found) - len(whole)) <= 1
