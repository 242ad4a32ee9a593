"""Letterbox, decoding, NMS, class mapping and classifier batching, on ONNX graphs built here."""

from __future__ import annotations

from contextlib import nullcontext as does_not_raise
from pathlib import Path

import cv2
import numpy as np
import pytest

from scoring.tiles import CLASS_NAMES, TILE_NAMES
from tests.vision.onnx_graphs import centre_pixel_classifier, fixed_detector, red_for_class
from vision.detections import TileDetections
from vision.detector import (
    Detector,
    covered,
    letterbox,
    load_detector,
    mean_of_passes,
    nms,
    two_tile_straddlers,
    two_tiles_in_one_box,
    unsure_straddles_dropped,
)
from vision.labels import BACK_CLASS, name_to_class

CLS_NAMES = [*TILE_NAMES, *(f"die{k}" for k in range(1, 7))]


def test_letterbox_matches_ultralytics_padding() -> None:
    image = np.full((720, 1280, 3), 7, np.uint8)
    out, lb = letterbox(image, (640, 640))
    assert out.shape == (640, 640, 3)
    assert lb.ratio == 0.5 and (lb.pad_x, lb.pad_y) == (0, 140)
    assert out[0, 0, 0] == 114 and out[320, 320, 0] == 7 and out[639, 0, 0] == 114
    back = lb.to_image(np.array([[270, 295, 370, 345]], np.float32))
    np.testing.assert_allclose(back, [[540, 310, 740, 410]])


def test_nms_keeps_best_of_overlapping_boxes() -> None:
    boxes = np.array([[0, 0, 10, 10], [1, 0, 11, 10], [20, 20, 30, 30], [0, 0, 10, 10]],
                     np.float32)
    scores = np.array([0.5, 0.9, 0.8, 0.1], np.float32)
    assert nms(boxes, scores, 0.5).tolist() == [1, 2]
    assert nms(boxes, scores, 0.95).tolist() == [1, 2, 0]  # identical boxes 0 and 3 still merge
    assert nms(boxes, scores, 0.5, max_det=1).tolist() == [1]


def test_nms_threshold_is_strict_above() -> None:
    boxes = np.array([[0, 0, 10, 10], [5, 0, 15, 10]], np.float32)  # IoU 1/3
    scores = np.array([0.9, 0.8], np.float32)
    assert nms(boxes, scores, 0.34).tolist() == [0, 1]
    assert nms(boxes, scores, 0.33).tolist() == [0]


def test_covered_is_the_share_inside_surer_boxes() -> None:
    boxes = np.array([[0, 0, 30, 40], [30, 0, 60, 40], [15, 0, 45, 40], [100, 0, 130, 40]],
                     float)
    share = covered(boxes, np.array([0.9, 0.8, 0.5, 0.95]))
    assert share[2] == 1.0  # straddles the two surer tiles it lies across
    assert share[0] == share[3] == 0.0 and share[1] < 0.2  # touching, not covered
    assert covered(boxes, np.array([0.5, 0.8, 0.9, 0.95]))[2] == 0.0  # the surest box stays


def test_a_box_straddling_two_touching_tiles_is_dropped(tmp_path: Path) -> None:
    """Two touching tiles and a weaker box across both (IoU ~0.33 with each: NMS keeps it) at
    a 1:2 letterbox: the straddler goes, a back lying across the two stays."""
    names = [*CLASS_NAMES, "tile_back"]
    rows = [(300, 320, 30, 40, 13, 0.9), (330, 320, 30, 40, 14, 0.85),
            (315, 320, 30, 40, 15, 0.5), (315, 322, 30, 40, len(CLASS_NAMES), 0.4)]
    det = Detector(fixed_detector(tmp_path / "d.onnx", names, rows, size=640), conf=0.25,
                   read_dice=False, iou=0.95)
    out = det.detect(np.zeros((640, 640, 3), np.uint8))
    assert sorted(out.labels) == ["5p", "6p", "back"]


def test_an_unsure_face_box_half_inside_surer_ones_is_dropped() -> None:
    """Named boxes: two touching tiles, sure; a box across both, named unsurely (0.05 after
    its crop was classified), goes; the same box named surely stays where a fifth of it lies
    outside them, as do an unsure box of a tile of its own (an unseen design) touching a sure
    one, and the box across a face and a back (only surer faces count: a sixth of it lies in
    the face)."""
    xyxy = np.array([[0, 0, 30, 40], [30, 0, 60, 40], [27, 0, 47, 50], [100, 0, 130, 40],
                     [125, 0, 155, 40]], np.float32)
    kinds = np.array([13, 14, 15, 16, 17], np.int16)
    unsure = TileDetections(xyxy=xyxy, confidence=np.array([0.8, 0.7, 0.05, 0.05, 0.6]),
                            class_id=kinds)
    assert unsure_straddles_dropped(unsure).class_id.tolist() == [13, 14, 16, 17]
    sure = unsure.with_(confidence=np.array([0.8, 0.7, 0.3, 0.05, 0.6], np.float32))
    assert len(unsure_straddles_dropped(sure)) == 5
    back = unsure.with_(class_id=np.array([13, BACK_CLASS, 15, 16, 17], np.int16))
    assert unsure_straddles_dropped(back).class_id.tolist() == [13, BACK_CLASS, 15, 16, 17]


def test_a_face_box_wholly_inside_surer_ones_is_dropped_however_named() -> None:
    """A box across two touching tiles that the detector scored above them (so its own rule
    kept it) but the classifier named less surely lies wholly inside the two: it goes even
    named at 0.45; one with a sixth of it outside them stays."""
    xyxy = np.array([[0, 0, 30, 40], [30, 0, 60, 40], [12, 0, 48, 40], [100, 0, 130, 40]],
                    np.float32)
    dets = TileDetections(xyxy=xyxy, confidence=np.array([0.8, 0.7, 0.45, 0.6]),
                          class_id=np.array([13, 14, 15, 16], np.int16))
    assert unsure_straddles_dropped(dets).class_id.tolist() == [13, 14, 16]
    out = dets.with_(xyxy=np.array([*xyxy[:2], [12, 0, 48, 48], xyxy[3]], np.float32))
    assert len(unsure_straddles_dropped(out)) == 4  # 40 of its 48 rows inside: 0.83
    surest = dets.with_(confidence=np.array([0.8, 0.7, 0.9, 0.6], np.float32))
    assert len(unsure_straddles_dropped(surest)) == 4  # named the surest: the others lie in it


def _row_of_tiles(n: int = 8) -> np.ndarray:
    """Face boxes of ``n`` touching tiles (30 x 40 px) in a row."""
    return np.array([[100 + 30 * i, 100, 130 + 30 * i, 140] for i in range(n)], np.float32)


def test_a_box_over_two_touching_tiles_holding_one_of_them_is_found_with_the_others_place(
        ) -> None:
    """Tile 4 boxed only by a box reaching from inside tile 3 to tile 4's far side (tile 3
    has its own box): that box straddles the two, and tile 4 lies where tile 3's box, moved
    until its far edges meet the straddler's, lies. A straddler whose far place is boxed is
    no tile of its own, nor is one holding two boxes; two halves of a sideways tile, which
    together cover one tile, are no straddler."""
    row = _row_of_tiles()
    straddler = np.array([[193, 100, 250, 140]], np.float32)
    kinds = np.arange(9, dtype=np.int16)
    lone = TileDetections(xyxy=np.concatenate([np.delete(row, 4, axis=0), straddler]),
                          confidence=np.full(8, 0.6), class_id=kinds[:8])
    rows, places, boxed = two_tile_straddlers(lone)
    assert rows.tolist() == [7] and not boxed.any()
    np.testing.assert_allclose(places[0], [220, 100, 250, 140])
    both = TileDetections(xyxy=np.concatenate([row, straddler]), confidence=np.full(9, 0.6),
                          class_id=kinds)
    assert two_tile_straddlers(both)[2].tolist() == [True]
    wide = np.array([[190, 100, 280, 140]], np.float32)  # holds tiles 3 and 4 whole
    two = TileDetections(xyxy=np.concatenate([np.delete(row, 5, axis=0), wide]),
                         confidence=np.full(8, 0.6), class_id=kinds[:8])
    assert two_tile_straddlers(two)[2].tolist() == [True]
    halves = np.array([[220, 100, 241, 140], [229, 100, 250, 140]], np.float32)
    split = TileDetections(xyxy=np.concatenate([np.delete(row, 4, axis=0), halves]),
                           confidence=np.full(9, 0.6), class_id=kinds)
    assert not len(two_tile_straddlers(split)[0])


def test_a_straddler_becomes_the_box_of_the_tile_it_leaves_named_there(tmp_path: Path) -> None:
    """The classifier names the straddler's far place (tile 4 painted 6p): the straddler
    becomes that tile's box and kind; where tile 4 has a box of its own, the straddler goes;
    where the place shows a die, not a tile, it stays as it was."""
    det = _two_stage(tmp_path, [(40, 40, 20, 20, 0, 0.8)])
    row = _row_of_tiles()
    image = np.zeros((300, 400, 3), np.uint8)
    kinds = [0, 1, 2, 3, 14, 5, 6, 7]  # tile 4 is 6p
    for (x0, y0, x1, y1), k in zip(row.astype(int), kinds, strict=True):
        image[y0:y1, x0:x1, 2] = red_for_class(k, len(CLS_NAMES))
    straddler = np.array([[193, 100, 250, 140]], np.float32)
    dets = TileDetections(xyxy=np.concatenate([np.delete(row, 4, axis=0), straddler]),
                          confidence=np.full(8, 0.6, np.float32),
                          class_id=np.array([0, 1, 2, 3, 5, 6, 7, 3], np.int16))
    out = det.straddlers_split(image, dets)
    assert len(out) == 8 and TILE_NAMES[int(out.class_id[7])] == "6p"
    np.testing.assert_allclose(out.xyxy[7], [220, 100, 250, 140])
    assert out.topk_ids[7, 0] == out.class_id[7]
    boxed = TileDetections.merge([dets, TileDetections(xyxy=row[4:5], confidence=[0.6],
                                                       class_id=[14])])
    assert sorted(det.straddlers_split(image, boxed).class_id.tolist()) == [0, 1, 2, 3, 5, 6,
                                                                           7, 14]
    image[100:140, 220:250, 2] = red_for_class(len(TILE_NAMES) + 2, len(CLS_NAMES))  # a die
    kept = det.straddlers_split(image, dets)
    np.testing.assert_allclose(kept.xyxy, dets.xyxy)


def test_a_box_over_two_touching_tiles_that_hold_no_box_is_cut_both_ways() -> None:
    """Tiles 4 and 5 boxed by one box alone (twice the area of the boxes around it): it is
    cut in two across x and across y, for the classifier to say which cut shows two tiles. A
    box holding another face box is a straddler's case, and a box over three tiles or one is
    none."""
    row = _row_of_tiles()
    double = np.array([[220, 100, 280, 140]], np.float32)
    kinds = np.arange(9, dtype=np.int16)
    dets = TileDetections(xyxy=np.concatenate([np.delete(row, [4, 5], axis=0), double]),
                          confidence=np.full(7, 0.6), class_id=kinds[:7])
    rows, halves = two_tiles_in_one_box(dets)
    assert rows.tolist() == [6]
    np.testing.assert_allclose(halves[0], [[220, 100, 250, 140], [250, 100, 280, 140],
                                           [220, 100, 280, 120], [220, 120, 280, 140]])
    holding = TileDetections.merge([dets, TileDetections(xyxy=row[4:5], confidence=[0.6],
                                                         class_id=[4])])
    assert not len(two_tiles_in_one_box(holding)[0])
    three = np.array([[220, 100, 310, 140]], np.float32)
    over_three = dets.with_(xyxy=np.concatenate([np.delete(row, [4, 5, 6], axis=0), three,
                                                 row[7:8]]))
    assert not len(two_tiles_in_one_box(over_three)[0])
    assert not len(two_tiles_in_one_box(dets[:6])[0])


@pytest.mark.parametrize(("painted", "cut"), [(("f7", "f6"), True), (("4p", "2p"), False),
                                              (("f6", "f6"), False)])
def test_two_flowers_boxed_as_one_are_cut_into_their_boxes(tmp_path: Path,
                                                           painted: tuple[str, str],
                                                           cut: bool) -> None:
    """REALVAL9D table_s24_000109: f7 and f6 laid side by side, boxed as one f6: the box is
    cut into the two flowers' boxes, each named at its place. Only two different flowers:
    half a suit tile can show another surely (a 4p's half a 2p), and no set holds a flower
    twice."""
    det = _two_stage(tmp_path, [(40, 40, 20, 20, 0, 0.8)])
    row = _row_of_tiles()
    image = np.zeros((300, 400, 3), np.uint8)
    kinds = [0, 1, 2, 3, *(TILE_NAMES.index(p) for p in painted), 6, 7]
    for (x0, y0, x1, y1), k in zip(row.astype(int), kinds, strict=True):
        image[y0:y1, x0:x1, 2] = red_for_class(k, len(CLS_NAMES))
    double = np.array([[220, 100, 280, 140]], np.float32)
    dets = TileDetections(xyxy=np.concatenate([np.delete(row, [4, 5], axis=0), double]),
                          confidence=np.full(7, 0.6, np.float32),
                          class_id=np.array([0, 1, 2, 3, 6, 7, kinds[5]], np.int16))
    out = det.two_flowers_split(image, dets)
    if not cut:
        np.testing.assert_allclose(out.xyxy, dets.xyxy)
        return
    assert len(out) == 8
    assert [TILE_NAMES[int(k)] for k in out.class_id[6:]] == list(painted)
    np.testing.assert_allclose(out.xyxy[6:], row[4:6])


@pytest.mark.parametrize(("name", "expected", "context"), [
    ("5p", (9 + 4, 0), does_not_raise()),
    ("chun", (31, 0), does_not_raise()),
    ("tou", (27, 0), does_not_raise()),
    ("haku", (33, 0), does_not_raise()),
    ("f8", (41, 0), does_not_raise()),
    ("die", (42, 0), does_not_raise()),
    ("die4", (42, 4), does_not_raise()),
    ("tile", (-1, 0), does_not_raise()),
    ("tile_face", (-1, 0), does_not_raise()),
    ("tile_back", (BACK_CLASS, 0), does_not_raise()),
    ("joker", None, pytest.raises(ValueError, match="joker")),
    ("die9", None, pytest.raises(ValueError, match="die9")),
])
def test_class_names(name: str, expected: tuple[int, int] | None, context) -> None:
    with context:
        assert name_to_class(name) == expected


def test_single_stage_decoding_maps_boxes_to_original_pixels(tmp_path: Path) -> None:
    names = list(CLASS_NAMES)
    scores = np.zeros(len(names), np.float32)
    scores[13], scores[14] = 0.9, 0.3  # 5p, with 6p as runner-up
    rows = [
        (320, 320, 100, 50, *scores),
        (322, 320, 100, 50, 14, 0.6),   # overlapping 6p: suppressed (class-agnostic NMS)
        (100, 200, 40, 60, 42, 0.7),    # a die
        (500, 500, 40, 60, 0, 0.1),     # below the threshold
    ]
    det = Detector(fixed_detector(tmp_path / "d.onnx", names, rows), conf=0.25, read_dice=False)
    image = np.zeros((720, 1280, 3), np.uint8)
    out = det.detect(image)
    assert out.labels == ["5p", "die"]
    np.testing.assert_allclose(out.xyxy[0], [540, 310, 740, 410], atol=1e-3)
    np.testing.assert_allclose(out.confidence, [0.9, 0.7], atol=1e-6)
    assert out.topk_ids[0, 0] == 13 and out.topk_ids[0, 1] == 14  # the runner-up is kept
    assert out.topk_probs[0, 0] > out.topk_probs[0, 1] > 0
    assert not det.two_stage


def test_a_dynamic_detector_runs_at_the_size_asked(tmp_path: Path) -> None:
    """Boxes come back through the letterbox of the size asked (320: scale 0.25, 640: 0.5)."""
    rows = [(160, 160, 40, 20, 13, 0.9)]  # centre of a 320 input
    path = fixed_detector(tmp_path / "d.onnx", list(CLASS_NAMES), rows, size=320, dynamic=True)
    image = np.zeros((720, 1280, 3), np.uint8)
    own = Detector(path, read_dice=False)
    assert own.det.imgsz == (320, 320)  # the exported size, from the metadata
    # 1280x720 into 320 runs as 320x192 (a rectangle): scale 0.25, 6 px bars top and bottom
    np.testing.assert_allclose(own.detect(image).xyxy[0], [560, 576, 720, 656], atol=1e-3)
    big = Detector(path, read_dice=False, imgsz=640)
    assert big.det.imgsz == (640, 640)
    # into 640 as 640x384: scale 0.5, 12 px bars
    np.testing.assert_allclose(big.detect(image).xyxy[0], [280, 276, 360, 316], atol=1e-3)
    with pytest.raises(ValueError, match="multiple of 32"):
        Detector(path, imgsz=500)
    fixed = fixed_detector(tmp_path / "f.onnx", list(CLASS_NAMES), rows, size=320)
    with pytest.raises(ValueError, match="fixed 320x320 input, cannot run at 960"):
        Detector(fixed, imgsz=960)
    assert Detector(fixed, imgsz=320).det.imgsz == (320, 320)


def test_conf_argument_overrides_threshold(tmp_path: Path) -> None:
    rows = [(320, 320, 100, 50, 0, 0.3)]
    det = Detector(fixed_detector(tmp_path / "d.onnx", list(CLASS_NAMES), rows), read_dice=False)
    image = np.zeros((640, 640, 3), np.uint8)
    assert len(det.detect(image)) == 1
    assert len(det.detect(image, conf=0.5)) == 0


def test_riichi_named_reference_model_reads_in_project_classes(tmp_path: Path) -> None:
    names = ["1m", "1p", "chun", "tou"]
    rows = [(100, 100, 30, 40, 2, 0.8), (300, 100, 30, 40, 3, 0.8)]
    det = Detector(fixed_detector(tmp_path / "d.onnx", names, rows), read_dice=False)
    assert det.detect(np.zeros((640, 640, 3), np.uint8)).labels == ["C", "E"]


def _two_stage(tmp_path: Path, rows, batch: int | str = "batch") -> Detector:
    d = fixed_detector(tmp_path / "d.onnx", ["tile", "die", "tile_back"], rows)
    c = centre_pixel_classifier(tmp_path / "c.onnx", CLS_NAMES, batch=batch)
    return Detector(d, c, read_dice=False)


def _scene_for(rows, classes: list[int]) -> np.ndarray:
    """A 640x640 frame where each box is filled with the red value that names its class."""
    image = np.zeros((640, 640, 3), np.uint8)
    for (cx, cy, w, h, *_), j in zip(rows, classes, strict=True):
        image[int(cy - h / 2):int(cy + h / 2), int(cx - w / 2):int(cx + w / 2), 2] = \
            red_for_class(j, len(CLS_NAMES))
    return image


@pytest.mark.parametrize("batch", ["batch", 1, 4])
def test_two_stage_classifies_every_crop_in_batches(tmp_path: Path, batch) -> None:
    rows = [(40 + 60 * i, 100, 40, 56, 0, 0.8) for i in range(9)]
    rows.append((300, 400, 40, 40, 1, 0.9))  # a die, read by the classifier as die5
    rows.append((500, 400, 40, 56, 2, 0.9))  # a face-down tile: not classified
    classes = [0, 4, 9, 13, 27, 31, 33, 35, 41, 42 + 4, 0]
    det = _two_stage(tmp_path, rows, batch)
    out = det.detect(_scene_for(rows, classes))
    assert det.two_stage
    # a fixed batch is kept (the runtime needs no onnx package): batch 1 runs crop by crop
    assert det.cls is not None and det.cls.fixed_batch == (None if batch == "batch" else batch)
    by_x = out[np.argsort(out.center[:, 0] + 1000 * out.center[:, 1])]
    assert by_x.labels == ["1m", "5m", "1p", "5p", "E", "C", "P", "f2", "f8", "die", "back"]
    assert by_x.face.tolist() == [0] * 9 + [5, 0]
    assert (by_x.topk_probs[:9, 0] > 0.9).all()
    assert by_x.topk_ids.shape[1] == 5


def test_coarse_detector_without_classifier_is_a_clear_error(tmp_path: Path) -> None:
    d = fixed_detector(tmp_path / "d.onnx", ["tile", "die"], [])
    with pytest.raises(FileNotFoundError, match="needs the crop classifier"):
        Detector(d, tmp_path / "missing.onnx")


def test_missing_and_corrupt_models_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no detector model"):
        load_detector(tmp_path)
    (tmp_path / "detector.onnx").write_bytes(b"not a model")
    with pytest.raises(ValueError, match="not a loadable ONNX model"):
        load_detector(tmp_path)


def test_bad_image_is_a_clear_error(tmp_path: Path) -> None:
    det = Detector(fixed_detector(tmp_path / "d.onnx", list(CLASS_NAMES), []))
    with pytest.raises(ValueError, match="BGR uint8"):
        det.detect(np.zeros((10, 10), np.uint8))


@pytest.mark.parametrize(("kwargs", "context"), [
    ({}, does_not_raise()),
    ({"confidence": np.zeros(3)}, pytest.raises(ValueError, match="confidence")),
    ({"role": np.array(["hand", "sky"])}, pytest.raises(ValueError, match="sky")),
    ({"topk_ids": np.zeros((2, 3)), "topk_probs": np.zeros((2, 2))},
     pytest.raises(ValueError, match="topk_probs")),
])
def test_tile_detections_validate_shapes(kwargs, context) -> None:
    base = {"xyxy": np.zeros((2, 4)), "confidence": np.ones(2), "class_id": np.array([0, 5])}
    with context:
        TileDetections(**{**base, **kwargs})


def test_tile_detections_mask_and_merge() -> None:
    d = TileDetections(xyxy=np.arange(12).reshape(3, 4), confidence=[0.1, 0.5, 0.9],
                       class_id=[1, 42, 3], data={"track": np.array([7, 8, 9])})
    kept = d[d.confidence > 0.2]
    assert kept.class_id.tolist() == [42, 3] and kept.data["track"].tolist() == [8, 9]
    assert d[d.is_die].labels == ["die"]
    merged = TileDetections.merge([kept, d[0]])
    assert len(merged) == 3 and merged.data["track"].tolist() == [8, 9, 7]


def test_crop_cut_from_full_resolution_frame(tmp_path: Path) -> None:
    """The classifier sees the original pixels, not the 640 letterboxed copy."""
    rows = [(320, 320, 8, 8, 0, 0.9)]  # 8 px in the 640 input = 24 px in the 1920 frame
    det = _two_stage(tmp_path, rows)
    frame = np.zeros((1920, 1920, 3), np.uint8)
    frame[950:970, 950:970, 2] = red_for_class(20, len(CLS_NAMES))  # only the centre 20 px
    frame = cv2.GaussianBlur(frame, (1, 1), 0)
    assert det.detect(frame).labels == [TILE_NAMES[20]]


def test_unchanged_tiles_keep_their_classification(tmp_path: Path) -> None:
    rows = [(40 + 60 * i, 100, 40, 56, 0, 0.8) for i in range(5)]
    classes = [0, 4, 9, 13, 27]
    det = _two_stage(tmp_path, rows)
    image = _scene_for(rows, classes)
    first = det.detect(image)
    assert det.crops_classified == 5
    second = det.detect(image.copy())
    assert det.crops_classified == 5 and second.labels == first.labels
    changed = image.copy()
    changed[72:128, 140:180, 2] = red_for_class(30, len(CLS_NAMES))  # the third tile becomes N
    third = det.detect(changed)
    assert det.crops_classified == 6
    assert sorted(third.labels) == sorted(["1m", "5m", "N", "5p", "E"])


def test_boxes_clipped_to_slivers_at_the_edge_are_dropped(tmp_path: Path) -> None:
    rows = [(-30, 320, 40, 40, 0, 0.9), (320, 320, 40, 40, 0, 0.9)]  # one lies off the image
    det = _two_stage(tmp_path, rows)
    out = det.detect(np.zeros((640, 640, 3), np.uint8))
    assert len(out) == 1 and out.xyxy[0, 0] == 300


def test_die_face_classifier_reads_die_boxes(tmp_path: Path) -> None:
    """With a die-face model, die boxes take its answer; tiles still go to the crop classifier."""
    dice_names = [f"die{k}" for k in range(1, 7)]
    rows = [(100, 100, 40, 56, 0, 0.8), (300, 400, 40, 40, 1, 0.9)]
    image = np.zeros((640, 640, 3), np.uint8)
    image[72:128, 80:120, 2] = red_for_class(4, len(CLS_NAMES))  # the tile: 5m
    # the die's centre reads as die1 to the crop classifier, as die2 to the dice model
    image[380:420, 280:320, 2] = red_for_class(1, len(dice_names))
    d = fixed_detector(tmp_path / "d.onnx", ["tile", "die", "tile_back"], rows)
    c = centre_pixel_classifier(tmp_path / "c.onnx", CLS_NAMES)
    both = Detector(d, c, read_dice=False)
    three = Detector(d, c, dice=centre_pixel_classifier(tmp_path / "x.onnx", dice_names),
                     read_dice=False)
    for det, face in ((both, 1), (three, 2)):
        out = det.detect(image)
        by_x = out[np.argsort(out.center[:, 0])]
        assert by_x.labels == ["5m", "die"]
        assert by_x.face.tolist() == [0, face]
    assert "x.onnx (6 classes" in three.describe()
    with pytest.raises(ValueError, match="not a die-face classifier"):
        Detector(d, c, dice=c)


def test_automatic_size_tries_the_table_size_when_tiles_are_tiny(tmp_path: Path) -> None:
    """A dynamic detector that finds only tiny boxes at its exported size is run at 960; the
    first frame with enough boxes fixes the size for the frames after it."""
    # 6x8 px boxes, tiny at 320; y 100 lies inside the picture at 320 and at 960 (1080p runs
    # as 320x192 and 960x544), so both sizes find all four
    rows_small = [(200 + 20 * i, 100, 6, 8, 0, 0.8) for i in range(4)]
    path = fixed_detector(tmp_path / "d.onnx", list(CLASS_NAMES), rows_small, size=320,
                          dynamic=True)
    image = np.zeros((1080, 1920, 3), np.uint8)
    det = Detector(path, read_dice=False)
    assert det.sizes == (320, 960)
    calls: list[tuple[int, ...]] = []
    run = det.det.session.run

    def spy(names, feeds):  # type: ignore[no-untyped-def]
        calls.append(tuple(feeds["images"].shape[2:]))
        return run(names, feeds)

    det.det.session = type("Spy", (), {"run": staticmethod(spy)})()
    out = det.detect(image)
    # the graph gives the same boxes at either size, so 960 finds no more: 320 is kept
    assert calls == [(192, 320), (544, 960)] and len(out) == 4
    assert det.sizes == (320,)
    det.detect(image)
    assert calls[-1] == (192, 320) and len(calls) == 3

    # a model blind at 320 (as ours is to a whole 1080p table) is run at 960 from then on
    blind = fixed_detector(tmp_path / "x.onnx", list(CLASS_NAMES),
                           [(200 + 20 * i, 480, 6, 8, 0, 0.8) for i in range(4)], size=320,
                           dynamic=True, blind_below=960)
    table = Detector(blind, read_dice=False)
    assert len(table.detect(image)) == 4 and table.sizes == (960,)
    assert table.det.imgsz == (960, 960)
    # a frame with nothing on it decides nothing: both sizes stay in the running
    empty = Detector(blind, read_dice=False, conf=0.9)
    assert len(empty.detect(image)) == 0 and empty.sizes == (320, 960)
    assert empty.det.imgsz == (320, 320)

    big = fixed_detector(tmp_path / "b.onnx", list(CLASS_NAMES),
                         [(40 + 40 * i, 100, 30, 40, 0, 0.8) for i in range(4)], size=320,
                         dynamic=True)
    plain = Detector(big, read_dice=False)
    plain.detect(image)
    assert plain.sizes == (320,)  # 960 finds no more: the exported size stays

    # a close-up: 960 finds more boxes, but large ones (fragments of big tiles): 320 stays
    close = fixed_detector(tmp_path / "c.onnx", list(CLASS_NAMES),
                           [(40 + 70 * i, 100, 60, 80, 0, 0.8) for i in range(4)]
                           + [(40 + 70 * i, 400, 60, 80, 0, 0.8) for i in range(4)],
                           size=320, dynamic=True, blind_below=960, seen_always=4)
    assert len(Detector(close, read_dice=False, imgsz=960).detect(image)) == 8
    closeup = Detector(close, read_dice=False)
    assert len(closeup.detect(image)) == 4 and closeup.sizes == (320,)
    assert Detector(big, read_dice=False, imgsz=960).sizes == (960,)
    fixed = fixed_detector(tmp_path / "f.onnx", list(CLASS_NAMES), rows_small, size=320)
    assert Detector(fixed, read_dice=False).sizes == (320,)  # a fixed input: no choice
    with pytest.raises(ValueError, match="pixels or 'auto'"):
        Detector(big, imgsz="big")


def test_stills_choose_their_size_each_a_stream_keeps_its_first(tmp_path: Path) -> None:
    """Unrelated photos (``stills``) each decide between 320 and 960; the frames of one camera
    keep the first frame's choice."""
    from tests.vision.onnx_graphs import photo_scale_detector

    path = photo_scale_detector(tmp_path / "d.onnx", list(CLASS_NAMES))
    square, wide = np.zeros((960, 960, 3), np.uint8), np.zeros((1080, 1920, 3), np.uint8)
    # flips off: the graph ignores its input, so a mirrored photo's boxes would not meet
    stills = Detector(path, read_dice=False, stills=True, flips=False)
    found = []
    for image in (square, wide, square, wide):
        found.append((len(stills.detect(image)), stills.size_used))
    assert found == [(12, 960), (4, 320), (12, 960), (4, 320)]
    assert stills.sizes == (320, 960) and not stills.reuse_crops
    stream = Detector(path, read_dice=False)
    assert [len(stream.detect(image)) for image in (square, wide)] == [12, 4]
    assert stream.sizes == (960,)
    other = Detector(path, read_dice=False)
    assert [len(other.detect(image)) for image in (wide, square)] == [4, 4]
    assert other.sizes == (320,)


def test_low_threshold_chooses_the_size_the_operating_one_does(tmp_path: Path) -> None:
    """Evaluation asks for faint boxes too; only boxes at the operating threshold decide the
    size, else ten faint boxes seen only at 960 would move a 1080p photo to 960."""
    from tests.vision.onnx_graphs import photo_scale_detector

    path = photo_scale_detector(tmp_path / "d.onnx", list(CLASS_NAMES))
    det = Detector(path, read_dice=False, stills=True, flips=False)
    wide = np.zeros((1080, 1920, 3), np.uint8)
    assert len(det.detect(wide, conf=0.01)) == 4 and det.size_used == 320
    square = np.zeros((960, 960, 3), np.uint8)
    assert len(det.detect(square, conf=0.01)) == 22 and det.size_used == 960


def test_a_still_of_dice_takes_the_table_size_only_for_dice_it_alone_finds(
        tmp_path: Path) -> None:
    """At 960 a close-up die's pips come back as small dice: they lie inside the dice found at
    320, which stays. Far dice that only 960 finds move a still of dice to 960, but not a
    still of tiles (where 960 breaks tiles into die-like parts) nor a stream."""
    die = CLASS_NAMES.index("die")
    near = [(60, 60, 40, 40, die, 0.8), (60, 200, 40, 40, die, 0.8)]  # seen at both sizes
    # a 960x960 photo runs 1:1 at 960 and at a third of its size at 320, where the two near
    # dice cover 120..240 x 120..240 and 120..240 x 540..660 of the photo
    pips = [(x, y, 12, 12, die, 0.8) for x in (160, 200) for y in (160, 200, 580, 620)]
    far = [(500 + 60 * i, 500, 14, 14, die, 0.8) for i in range(4)]
    image = np.zeros((960, 960, 3), np.uint8)

    def still(always, only_960, name: str, stills: bool = True) -> Detector:
        path = fixed_detector(tmp_path / name, list(CLASS_NAMES), always + only_960, size=320,
                              dynamic=True, blind_below=960, seen_always=len(always))
        return Detector(path, read_dice=False, stills=stills, flips=False)

    pipped = still(near, pips, "pips.onnx")
    assert len(pipped.detect(image)) == 2 and pipped.size_used == 320
    distant = still(near, far, "far.onnx")
    assert len(distant.detect(image)) == 6 and distant.size_used == 960
    tiles = [(200 + 50 * i, 60, 40, 56, 0, 0.8) for i in range(3)]
    among_tiles = still(tiles + near, far, "tiles.onnx")
    assert len(among_tiles.detect(image)) == 5 and among_tiles.size_used == 320
    stream = still(near, far, "stream.onnx", stills=False)
    assert len(stream.detect(image)) == 2 and stream.size_used == 320
    # a few tile-like boxes at 960 do not make a photo of dice a whole table: it takes dozens
    specks = still(near, [(500 + 30 * i, 100, 8, 10, 0, 0.8) for i in range(4)], "s.onnx")
    assert specks.detect(image).is_die.sum() == 2 and specks.size_used == 320
    table = still(near, [(500 + 30 * i, 100, 8, 10, 0, 0.8) for i in range(8)], "t.onnx")
    assert table.detect(image).is_tile.sum() == 8 and table.size_used == 960


def test_a_table_still_looks_again_for_its_dice_at_the_frames_own_scale(tmp_path: Path) -> None:
    """A whole table runs at 960, where its dice may be too small to find; a still looks again
    in a 640-px window at the middle of the tiles, 1:1, and adds the dice found there."""
    die = CLASS_NAMES.index("die")
    # a 1080p frame runs as 960x544 (half size, 2 px of padding above): tiles at input y 272
    # lie at y 540 of the frame; the dice rows, at input y 600, fall below a 960 input's
    # picture but inside the window (x 420..1060, y 220..860 around the tiles' middle)
    tiles = [(300 + 20 * i, 272, 10, 14, 0, 0.8) for i in range(8)]
    dice = [(100, 600, 20, 20, die, 0.8), (140, 600, 20, 20, die, 0.8)]
    path = fixed_detector(tmp_path / "d.onnx", list(CLASS_NAMES), tiles + dice, size=320,
                          dynamic=True, blind_below=640)
    image = np.zeros((1080, 1920, 3), np.uint8)
    still = Detector(path, read_dice=False, stills=True)
    out = still.detect(image)
    assert still.size_used == 960 and still.det.imgsz[0] == 960
    assert out.is_tile.sum() == 8
    np.testing.assert_allclose(out.xyxy[out.is_die], [[510, 810, 530, 830], [550, 810, 570, 830]])
    stream = Detector(path, read_dice=False)
    assert not stream.detect(image).is_die.any() and stream.sizes == (960,)
    # a model exported with a fixed 960 input cannot run the window: the table pass stands
    fixed = fixed_detector(tmp_path / "f.onnx", list(CLASS_NAMES), tiles, size=960)
    assert Detector(fixed, read_dice=False, stills=True).detect(image).is_tile.sum() == 8


def test_the_dice_window_keeps_a_die_it_does_not_find_again(tmp_path: Path) -> None:
    """A still whose table pass finds one sure die looks again in the 640-px window, whose
    dice take the place of the table pass's dice they box again; a die the window does not
    find again stays."""
    from tests.vision.onnx_graphs import two_scale_detector

    die = CLASS_NAMES.index("die")
    # 960x544 at half size (frame y = 2 y - 4): tiles 24 px wide, a sure die at (900, 596)
    # and an unsure one at (960, 596); the window spans x 420..1060, y 220..860 of the frame
    tiles = [(300 + 20 * i, 272, 12, 16, 0, 0.8) for i in range(8)]
    large = [*tiles, (450, 300, 10, 10, die, 0.8), (480, 300, 10, 10, die, 0.2)]
    window_die = (540, 377, 20, 22, die, 0.7)  # frame (960, 597), 20x22
    path = two_scale_detector(tmp_path / "d.onnx", list(CLASS_NAMES), large, [window_die],
                              split=700)
    image = np.zeros((1080, 1920, 3), np.uint8)
    out = Detector(path, read_dice=False, stills=True).detect(image)
    assert out.is_tile.sum() == 8
    np.testing.assert_allclose(out.xyxy[out.is_die], [[890, 586, 910, 606],
                                                      [950, 586, 970, 608]])
    stream = Detector(path, read_dice=False).detect(image)
    np.testing.assert_allclose(stream.xyxy[stream.is_die], [[890, 586, 910, 606]])


def test_a_table_stills_loose_die_box_is_boxed_again_at_the_frames_own_scale(
        tmp_path: Path) -> None:
    """A die box at 960 at least as long as the tiles are wide holds more than its die: a
    still boxes it again on a 192-px window around it, 1:1, and takes the window's die box
    that overlaps it (IoU 0.3). A die boxed tightly, a window die elsewhere and a stream are
    left alone."""
    from tests.vision.onnx_graphs import two_scale_detector

    die = CLASS_NAMES.index("die")
    # a 1080p frame runs as 960x544 at half size, 2 px of padding above (frame y = 2 y - 4):
    # tiles 20 px wide; a loose die of 40 px at (960, 596), a tight one of 18 px at (1040, 596)
    tiles = [(300 + 20 * i, 272, 10, 14, 0, 0.8) for i in range(8)]
    large = [*tiles, (480, 300, 20, 20, die, 0.8), (520, 300, 9, 9, die, 0.8)]
    # the loose die's window spans x 864..1056, y 500..692: its die is 22x24 at (960, 598)
    window_die, elsewhere = (96, 98, 22, 24, die, 0.7), (20, 20, 10, 10, die, 0.7)
    image = np.zeros((1080, 1920, 3), np.uint8)

    def dice(small: list[tuple[float, ...]], name: str, stills: bool = True) -> np.ndarray:
        path = two_scale_detector(tmp_path / name, list(CLASS_NAMES), large, small, split=640)
        out = Detector(path, read_dice=False, stills=stills).detect(image)
        assert out.is_tile.sum() == 8
        return out.xyxy[out.is_die]

    np.testing.assert_allclose(dice([window_die, elsewhere], "w.onnx"),
                               [[949, 586, 971, 610], [1031, 587, 1049, 605]])
    loose = [[940, 576, 980, 616], [1031, 587, 1049, 605]]
    np.testing.assert_allclose(dice([elsewhere], "e.onnx"), loose)
    np.testing.assert_allclose(dice([window_die], "s.onnx", stills=False), loose)


def test_a_still_of_dice_takes_the_dice_the_finder_sees_at_the_photos_own_scale(
        tmp_path: Path) -> None:
    """The finder reads a 640-px photo of dice 1:1 (a larger one shrunk to 640): its dice take
    the place of the detector's, which stay only where the finder found none. Not on a photo
    of tiles, nor in a stream; a model that is no dynamic dice finder is a clear error."""
    die = CLASS_NAMES.index("die")
    # at 320 the photo is halved: one loose box over two dice, one die the finder misses
    loose, alone = (100, 50, 30, 10, die, 0.8), (250, 250, 20, 20, die, 0.8)
    pair = [(180, 100, 20, 20, die, 0.8), (220, 100, 20, 20, die, 0.8)]
    far = [(400 + 40 * i, 500, 10, 10, die, 0.7) for i in range(3)]
    finder_path = fixed_detector(tmp_path / "finder.onnx", list(CLASS_NAMES), pair + far,
                                 size=320, dynamic=True, blind_below=640)
    photo = np.zeros((640, 640, 3), np.uint8)

    def reader(stills: bool = True, rows=(loose, alone)) -> Detector:
        path = fixed_detector(tmp_path / f"m{len(rows)}.onnx", list(CLASS_NAMES), list(rows),
                              size=320, dynamic=True)
        return Detector(path, read_dice=False, stills=stills, flips=False,
                        dice_finder=finder_path)

    out = reader().detect(photo)
    np.testing.assert_allclose(out.xyxy, [[170, 90, 190, 110], [210, 90, 230, 110],
                                          [395, 495, 405, 505], [435, 495, 445, 505],
                                          [475, 495, 485, 505], [480, 480, 520, 520]])
    big = reader()
    assert big.detect(np.zeros((1280, 1280, 3), np.uint8)).is_die.sum() == 6
    assert big.finder is not None and big.finder.imgsz == (640, 640)
    assert reader(stills=False).detect(photo).is_die.sum() == 2
    tiles = [(60 + 40 * i, 200, 30, 40, 0, 0.8) for i in range(3)]
    assert reader(rows=(loose, alone, *tiles)).detect(photo).is_die.sum() == 2
    with pytest.raises(ValueError, match="not a dice finder"):
        Detector(finder_path, read_dice=False, dice_finder=fixed_detector(
            tmp_path / "fixed.onnx", list(CLASS_NAMES), far, size=640))


def test_a_close_up_still_scores_each_box_by_its_mean_over_four_mirror_images(
        tmp_path: Path) -> None:
    """The graph ignores its input, so a box in the middle of a square photo lies in the same
    place in all four mirror images (its score stays), one off the middle in four places, each
    found one way only (a quarter of its score, under the threshold)."""
    rows = [(160, 160, 40, 56, 0, 0.8), (60, 60, 40, 56, 0, 0.8)]
    path = fixed_detector(tmp_path / "d.onnx", list(CLASS_NAMES), rows, size=320)
    image = np.zeros((320, 320, 3), np.uint8)
    still = Detector(path, read_dice=False, stills=True)
    assert still.flips and not Detector(path, read_dice=False).flips
    out = still.detect(image)
    np.testing.assert_allclose(out.xyxy, [[140, 132, 180, 188]])
    np.testing.assert_allclose(out.confidence, [0.8], rtol=1e-6)
    low = still.detect(image, conf=0.1)  # evaluation's low threshold keeps all four quarters
    assert len(low) == 5 and sorted(np.round(low.confidence, 2)) == [0.2] * 4 + [0.8]
    assert len(Detector(path, read_dice=False, stills=True, flips=False).detect(image)) == 2


def test_mean_of_passes_groups_one_box_a_pass() -> None:
    def boxes(*rows: tuple[float, ...]) -> TileDetections:
        a = np.array(rows, np.float32).reshape(-1, 5)
        return TileDetections(xyxy=a[:, :4], confidence=a[:, 4],
                              class_id=np.zeros(len(a), np.int16))

    one = boxes((0, 0, 10, 10, 0.9), (2, 0, 12, 10, 0.5))  # two boxes of one pass overlap
    two = boxes((1, 0, 11, 10, 0.7), (50, 50, 60, 60, 0.6))
    out = mean_of_passes([one, two], 0.5)
    order = np.argsort(-out.confidence)
    np.testing.assert_allclose(out.confidence[order], [0.8, 0.3, 0.25])
    np.testing.assert_allclose(out.xyxy[order[0]], [0.5, 0, 10.5, 10])
    assert len(mean_of_passes([boxes(), boxes()], 0.5)) == 0


def test_grey_input_is_the_reference_models(tmp_path: Path) -> None:
    """``grey``: the frame turned grey, its contrast stretched, padded with black."""
    det = Detector(fixed_detector(tmp_path / "d.onnx", list(CLASS_NAMES), [], size=64),
                   read_dice=False, grey=True)
    seen: list[np.ndarray] = []
    run = det.det.session.run

    def spy(names, feeds):  # type: ignore[no-untyped-def]
        seen.append(feeds["images"])
        return run(names, feeds)

    det.det.session = type("Spy", (), {"run": staticmethod(spy)})()
    image = np.zeros((64, 128, 3), np.uint8)
    image[:, :64] = (10, 100, 200)
    image[:, 64:] = (50, 60, 70)
    det.detect(image)
    x = seen[0][0]  # (3, 64, 64): the picture 32 rows high between 16-row bars
    assert np.array_equal(x[0], x[1]) and np.array_equal(x[1], x[2])
    assert x[:, :16].max() == 0 and x[:, 48:].max() == 0
    assert x[0, 16:48].min() == 0.0 and x[0, 16:48].max() == 1.0


@pytest.mark.parametrize(("hw", "size", "want"), [
    ((1080, 1920), 960, (544, 960)), ((640, 640), 320, (320, 320)),
    ((1080, 1920), 320, (192, 320)), ((1920, 1080), 960, (960, 544)),
    ((1, 2000), 960, (32, 960))])
def test_a_dynamic_detector_runs_on_a_rectangle_not_a_padded_square(hw, size, want) -> None:
    from vision.detector import rect_shape

    assert rect_shape(hw, size) == want


def test_stills_classify_tiles_in_four_turns_and_a_stream_once() -> None:
    assert load_detector(stills=True).turns == 4
    assert load_detector().turns == 1
    with pytest.raises(ValueError, match="turns must be 1 or 4"):
        load_detector(turns=3)
