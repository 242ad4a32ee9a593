"""A plain 白 the detector passed over, found by its row (``vision.blanks``): fresh real-face
tables table_s21_000160 (the hand's third 白 at the row's end) and table_s21_000068 (a kong's
fourth) showed no box there, not even at a tenth of the threshold. A concealed kong's back
passed over, found by its row and its colour."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.tiles import format_tiles, parse_tiles
from tests.vision.scenes import (
    BACK,
    FACE,
    KONG,
    Scene,
    SeatSpec,
    detections,
    paint,
    table_corners,
    tilted,
    top_down,
)
from vision.blanks import (
    DOUBLED,
    _between_blanks,
    back_places,
    face_places,
    hole_places,
    on_felt,
    row_end_places,
)
from vision.detections import TileDetections
from vision.detector import default_models_dir, load_detector
from vision.geometry import TableCalibration, read_table
from vision.labels import BACK_CLASS
from vision.metrics import iou_matrix

WHITE = parse_tiles("P")[0]
BLANKS = Scene(seats=[SeatSpec(hand="345m12355pPPP", melds=[("pung", "444m", 1)]),
                      SeatSpec(hand="1234567s1234p5m"), SeatSpec(hand="9876543m9876p5s"),
                      SeatSpec(hand="1234567m1234p5s")], wall=40)


def _passed_over(which: int = -1) -> tuple[np.ndarray, TileDetections, np.ndarray]:
    """The painted frame (白 faces drawn with no ink), the detections without one of the
    hand's 白 (``which``, left to right: the last by default), and that 白's box."""
    dets, truth = detections(BLANKS, top_down())
    image = paint(dets, truth)
    blanks = [i for i in range(len(dets)) if truth[i] == WHITE]
    for i in blanks:
        x0, y0, x1, y1 = dets.xyxy[i].astype(int).tolist()
        image[y0:y1 + 1, x0:x1 + 1] = FACE  # no ink
    gone = sorted(blanks, key=lambda i: dets.center[i, 0])[which]
    seen = dets[[i for i in range(len(dets)) if i != gone]]
    return image, seen, dets.xyxy[gone]


def _seat0(dets: TileDetections):
    return read_table(dets, TableCalibration.from_corners(table_corners(top_down()))).seats[0]


def test_the_one_place_that_shows_a_face_is_the_blank_the_detector_passed_over() -> None:
    image, seen, missing = _passed_over()
    ends = row_end_places(seen, image.shape)
    assert len(ends) >= 8  # the four hands' two ends, on felt but one
    assert iou_matrix(ends, seen.xyxy).max() < 0.15  # no place where a box is
    places = face_places(image, seen)
    assert len(places) == 1
    assert iou_matrix(places, missing[None]).item() > 0.8
    assert format_tiles(_seat0(seen).hand) == "345m12355pPP"


def test_a_row_seen_at_a_slant_whose_boxes_overlap_still_ends_in_a_place() -> None:
    """Fresh real-face table_s22_000008: a row running at a slant across the frame is boxed
    by upright boxes wider than its tiles, so neighbours' centres lie 0.77 of a box's length
    apart (a kong's fourth 白, beside the hand's first tile, was proposed by no place)."""
    image, seen, missing = _passed_over()
    hand = np.flatnonzero(seen.center[:, 1] > seen.center[:, 1].mean() + 200)  # seat 0's
    grown = seen.xyxy.copy()
    half = (grown[hand, 2] - grown[hand, 0]) * 0.65
    mid = (grown[hand, 2] + grown[hand, 0]) / 2
    grown[hand, 0], grown[hand, 2] = mid - half, mid + half
    slanted = seen.with_(xyxy=grown)
    places = face_places(image, slanted)
    assert len(places) == 1
    w = (missing[2] - missing[0]) * 0.65
    c = (missing[2] + missing[0]) / 2
    assert iou_matrix(places, np.array([[c - w, missing[1], c + w, missing[3]]])).item() > 0.8


def test_on_a_cloth_of_the_faces_colour_no_place_is_proposed() -> None:
    """A white cloth: colour cannot tell a blank face from the cloth, so nothing is added."""
    image, seen, _ = _passed_over()
    felt = np.all(image == image[0, 0], axis=2)
    image[felt] = (205, 225, 232)
    assert len(row_end_places(seen, image.shape)) >= 8
    assert len(face_places(image, seen)) == 0


def test_a_hole_one_tile_wide_inside_a_row_is_a_place_on_any_cloth() -> None:
    """Fresh real-face table_s22_000025: the middle of a winner's three 白 unboxed on a cloth
    near the faces' colour (8 from the place, 2 from the ground), so the felt test refused it
    and the win was lost. No row has a gap one tile wide: the hole holds a tile."""
    image, seen, missing = _passed_over(which=-2)
    felt = np.all(image == image[0, 0], axis=2)
    image[felt] = (205, 225, 232)
    places = face_places(image, seen)
    assert len(places) == 1
    assert iou_matrix(places, missing[None]).item() > 0.8


def test_on_a_light_cloth_a_place_far_nearer_the_ground_than_the_felt_shows_a_face() -> None:
    """Real-face table_s21_000131: a hand's second 白 unboxed at the row's end on a cloth 10.9
    from the place, 1.5 from the faces' ground; the felt test (15) refused it. A place five
    times nearer the ground than the felt is a face; the cloth's own places, near the felt,
    are not."""
    image, seen, missing = _passed_over()
    felt = np.all(image == image[0, 0], axis=2)
    image[felt] = (190, 215, 225)  # 7.4 from the faces' colour
    places = face_places(image, seen)
    assert len(places) == 1
    assert iou_matrix(places, missing[None]).item() > 0.8


def test_a_frame_with_fewer_than_two_faces_proposes_nothing() -> None:
    image, seen, _ = _passed_over()
    one = seen[np.flatnonzero(seen.is_tile)[:1]]
    assert len(face_places(image, one)) == 0
    assert len(face_places(image, TileDetections.empty())) == 0


def _hand_tile_unboxed(camera: np.ndarray) -> tuple[TileDetections, TileDetections, np.ndarray]:
    """Every box of BLANKS seen by ``camera``, the same without seat 0's fifth hand tile
    from the left, and that tile's box."""
    dets, _ = detections(BLANKS, camera)
    tiles = np.flatnonzero(dets.is_tile)
    low = tiles[np.argmax(dets.center[tiles, 1])]  # seat 0's row lies lowest in the frame
    height = float(dets.xyxy[low, 3] - dets.xyxy[low, 1])
    hand = tiles[dets.center[tiles, 1] > dets.center[low, 1] - 0.6 * height]
    gone = int(hand[np.argsort(dets.center[hand, 0])][4])
    return dets, dets[[i for i in range(len(dets)) if i != gone]], dets.xyxy[gone]


@pytest.mark.parametrize(("camera", "shape"), [(top_down(), (1080, 1080)),
                                               (tilted(), (1080, 1920))], ids=["above", "tilted"])
def test_a_hand_tile_passed_over_inside_the_row_is_the_one_hole(
        camera: np.ndarray, shape: tuple[int, int]) -> None:
    """Fresh real-face table_s24_000138: a 4s between a 5s and an S was boxed by neither, and
    the winner's hand was a tile short. One step past a box, two steps short of the next, no
    box: the hole. The whole row, its melds beside a claimed tile lying sideways, has none."""
    every, seen, missing = _hand_tile_unboxed(camera)
    places, _ = hole_places(seen, shape)
    assert len(places) == 1
    assert iou_matrix(places, missing[None]).item() > 0.7
    assert len(hole_places(every, shape)[0]) == 0


def test_a_hole_half_under_a_box_doubling_its_neighbour_is_still_a_hole() -> None:
    """Fresh real-face table_s30_000299: of a hand's 444s the detector boxed the first two and
    once more the second with the third (a box 0.6 steps on, reaching 0.45 steps short of
    the third's middle); that box was later dropped as doubling the second, and the hand was
    a tile short. A box that doubles another (IoU ``DOUBLED`` or more) holds no place of its
    own: the third's place is a hole. A box on the place a little off it, doubling none,
    still fills it."""
    _, seen, missing = _hand_tile_unboxed(top_down())
    before = int(np.argmin(np.linalg.norm(seen.center - (missing[:2] + missing[2:]) / 2
                                          + [missing[2] - missing[0], 0], axis=1)))
    box = seen.xyxy[before].copy()
    step = float(missing[0] - box[0])
    box[0] += 0.35 * step
    box[2] = missing[2] - 0.1 * step  # from the second's middle over most of the third
    doubling = seen[[before]].with_(xyxy=box[None], confidence=np.array([0.4], np.float32))
    assert iou_matrix(doubling.xyxy, seen.xyxy[[before]]).item() >= DOUBLED
    places, _ = hole_places(TileDetections.merge([seen, doubling]), (1080, 1080))
    assert len(places) == 1
    assert iou_matrix(places, missing[None]).item() > 0.7
    off = missing - np.array([0.15 * step, 0, 0.15 * step, 0], np.float32)
    shifted = doubling.with_(xyxy=off[None])
    assert iou_matrix(shifted.xyxy, seen.xyxy).max() < DOUBLED
    assert len(hole_places(TileDetections.merge([seen, shifted]), (1080, 1080))[0]) == 0


@pytest.mark.skipif(not (default_models_dir() / "classifier.onnx").is_file(),
                    reason="no shipped classifier")
def test_a_hole_named_surely_is_the_tile_and_a_box_straddling_it_goes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Fresh real-face table_s27_000142: the unboxed 2s's hole was named, but a 3s box over
    half of it and half of the 3s beside it (0.57 steps from the hole) stayed, and the row
    rule then kept one of the three. Named surely, the hole's tile is the surest box there:
    a box all but wholly inside it and its neighbour straddles them. Unsure, nothing is added."""
    every, seen, missing = _hand_tile_unboxed(top_down())
    image = paint(every, detections(BLANKS, top_down())[1])
    nxt = seen.xyxy[np.argmin(np.linalg.norm(seen.center - (missing[:2] + missing[2:]) / 2
                                             - [missing[2] - missing[0], 0], axis=1))]
    step = (nxt - missing)[0]
    straddler = seen[np.flatnonzero(seen.is_tile)[:1]]
    shift = np.array([0.6 * step, 0, 0.6 * step, 0], np.float32)
    straddler = straddler.with_(xyxy=(missing + shift)[None],
                                confidence=np.array([0.4], np.float32))
    boxed = TileDetections.merge([seen, straddler])
    det = load_detector()
    cmap = np.array(det.cls.classes.class_id)
    two_p = parse_tiles("2p")[0]
    sure = np.zeros(len(cmap), np.float32)
    sure[int(np.flatnonzero(cmap == two_p)[0])] = 0.97
    monkeypatch.setattr(det, "crop_probs", lambda img, boxes, pads=None: np.tile(
        sure, (len(boxes), 1)))
    found = det.unboxed_in_rows(image, boxed)
    assert len(found) == len(seen) + 1  # the hole's tile in, the straddler out
    assert found.class_id[-1] == two_p and found.confidence[-1] == pytest.approx(det.conf)
    assert iou_matrix(found.xyxy[-1:], missing[None]).item() > 0.7
    assert iou_matrix(found.xyxy, straddler.xyxy).max() < 0.9
    assert format_tiles(_seat0(found).hand) == "345m12355pPPP"
    sure[:] = 0.5 / len(cmap)
    assert len(det.unboxed_in_rows(image, boxed)) == len(boxed)


@pytest.mark.skipif(not (default_models_dir() / "classifier.onnx").is_file(),
                    reason="no shipped classifier")
def test_a_hole_the_box_beyond_reaches_into_is_a_hole_and_the_box_is_cut_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Fresh real-face table_s35_000012: of a hand's 111s the first 1s was boxed 1.3 tiles
    long, over part of the unboxed second, which was then no tile's size two steps on from
    the third: no hole was found, and the winner's hand was a tile short. The box beyond a
    hole may be up to ``HOLE_LONG`` times longer along the row; once the hole is named, that
    box is cut back to the hole's edge, its own tile's."""
    every, seen, missing = _hand_tile_unboxed(top_down())
    image = paint(every, detections(BLANKS, top_down())[1])
    beyond = int(np.argmin(np.linalg.norm(seen.center - (missing[:2] + missing[2:]) / 2
                                          - [missing[2] - missing[0], 0], axis=1)))
    step = float(seen.xyxy[beyond, 0] - missing[0])
    xyxy = seen.xyxy.copy()
    xyxy[beyond, 0] -= 0.3 * step  # 1.3 tiles long, into the hole
    reaching = seen.with_(xyxy=xyxy)
    places, into = hole_places(reaching, (1080, 1080))
    assert len(places) == 1 and into.tolist() == [beyond]
    assert iou_matrix(places, missing[None]).item() > 0.7
    det = load_detector()
    cmap = np.array(det.cls.classes.class_id)
    sure = np.zeros(len(cmap), np.float32)
    sure[int(np.flatnonzero(cmap == parse_tiles("2p")[0])[0])] = 0.97
    monkeypatch.setattr(det, "crop_probs", lambda img, boxes, pads=None: np.tile(
        sure, (len(boxes), 1)))
    found = det.unboxed_in_rows(image, reaching)
    assert len(found) == len(seen) + 1
    assert np.abs(found.xyxy[beyond] - seen.xyxy[beyond]).max() < 0.1 * step
    assert format_tiles(_seat0(found).hand) == "345m12355pPPP"


def _pung_of_blanks() -> tuple[np.ndarray, TileDetections, list[int]]:
    """The painted frame of seat 0's hand and a pung of 白 (claimed at the left), 白 drawn with
    no ink, its detections and the pung's rows left to right."""
    scene = Scene(seats=[SeatSpec(hand="1234567m123p", melds=[("pung", "PPP", 0)]),
                         *BLANKS.seats[1:]], wall=40)
    dets, truth = detections(scene, top_down())
    image = paint(dets, truth)
    blanks = sorted((i for i in range(len(dets)) if truth[i] == WHITE),
                    key=lambda i: dets.center[i, 0])
    for i in blanks:
        x0, y0, x1, y1 = dets.xyxy[i].astype(int).tolist()
        image[y0:y1 + 1, x0:x1 + 1] = FACE  # no ink
    return image, dets, blanks


def test_a_pung_of_blanks_boxed_by_one_tile_alone_is_found_from_it() -> None:
    """Fresh real-face table_s26_000122: of a pung of 白 only the middle tile was boxed. It has
    no neighbour along its row, so no row end was proposed from it, and the pung was read as
    one 白 in the hand. A step either way from it (the step of the hand's row, which runs
    along the line to it a gap away) are places too: the last 白 is found from it."""
    image, dets, (claimed, _, last) = _pung_of_blanks()
    seen = dets[[i for i in range(len(dets)) if i not in (claimed, last)]]
    places = face_places(image, seen)
    assert (iou_matrix(places, dets.xyxy[[last]]) > 0.7).any()


def _blank_on_felt() -> tuple[np.ndarray, TileDetections]:
    """The painted frame (白 faces with no ink) and every box, with one more read as 白 on the
    bare felt between seat 0's row and the table's middle."""
    image, seen, missing = _passed_over()
    every = TileDetections.merge([seen, seen[np.flatnonzero(seen.class_id == WHITE)[:1]]])
    xyxy = every.xyxy.copy()
    xyxy[-1] = missing - np.array([0, 180, 0, 180], np.float32)
    every = every.with_(xyxy=xyxy)
    x0, y0, x1, y1 = xyxy[-1].astype(int)
    assert np.all(image[y0:y1 + 1, x0:x1 + 1] == image[0, 0])  # felt alone
    return image, every


def test_a_blank_read_on_bare_felt_is_marked_and_the_blank_faces_are_not() -> None:
    """The bundled table_0 remade: a box on bare felt between seat 1's wall and its flowers
    (detector score 0.2501, just over the threshold) was read as 白, an extra discard. It lies
    38 from the faces' ground and 2.3 from the felt; a 白 face shows its ground."""
    image, every = _blank_on_felt()
    assert (every.class_id[np.flatnonzero(every.is_tile)] == WHITE).sum() == 3
    assert np.flatnonzero(on_felt(image, every)).tolist() == [len(every) - 1]


def test_a_back_read_on_bare_felt_is_marked_and_the_walls_backs_are_not() -> None:
    """Fresh real-face table_s25_000142: a patch of felt past a chow's last tile boxed as a
    back (score 0.25) made the chow no meld. A back box whose middle shows the felt and not
    the backs' colour is marked; on a felt of the backs' colour none is."""
    image, every = _blank_on_felt()
    on_cloth = every[[len(every) - 1]]
    on_cloth = on_cloth.with_(class_id=np.full(1, BACK_CLASS, np.int16))
    backs = TileDetections.merge([every[:-1], on_cloth])
    assert backs.is_back.sum() > 10
    assert np.flatnonzero(on_felt(image, backs)).tolist() == [len(backs) - 1]
    image[np.all(image == image[0, 0], axis=2)] = BACK
    assert not on_felt(image, backs).any()


def test_on_a_cloth_of_the_faces_colour_no_blank_is_marked() -> None:
    image, every = _blank_on_felt()
    image[np.all(image == image[0, 0], axis=2)] = (205, 225, 232)
    assert not on_felt(image, every).any()
    assert not on_felt(image, TileDetections.empty()).any()


@pytest.mark.skipif(not (default_models_dir() / "classifier.onnx").is_file(),
                    reason="no shipped classifier")
def test_the_shipped_classifier_names_the_place_and_the_hand_is_whole_again() -> None:
    image, seen, missing = _passed_over()
    det = load_detector()
    found = det.unboxed_blanks(image, seen)
    assert len(found) == len(seen) + 1
    assert found.class_id[-1] == WHITE and found.is_tile[-1]
    assert iou_matrix(found.xyxy[-1:], missing[None]).item() > 0.8
    assert found.confidence[-1] == pytest.approx(det.conf)
    assert format_tiles(_seat0(found).hand) == "345m12355pPPP"
    # nothing more is added a second time, and felt is never named
    assert len(det.unboxed_blanks(image, found)) == len(found)


def _kong_backs_unboxed(which: tuple[int, ...]) -> tuple[np.ndarray, TileDetections, np.ndarray]:
    """The painted frame, the detections without seat 0's kong's backs ``which`` (0: the one
    nearer the pung, 1: the row's last), and those backs' boxes."""
    dets, truth = detections(KONG, top_down())
    image = paint(dets, truth)
    backs = sorted([i for i in range(len(dets)) if truth[i] == BACK_CLASS
                    and np.median(dets.center[:, 1]) < dets.center[i, 1] < 1000][:2],
                   key=lambda i: dets.center[i, 0])  # seat 0's kong, made first
    assert abs(dets.center[backs[1], 0] - dets.center[backs[0], 0]) < 200
    gone = [backs[k] for k in which]
    return image, dets[[i for i in range(len(dets)) if i not in gone]], dets.xyxy[gone]


@pytest.mark.parametrize("which", [(0,), (1,), (0, 1)])
def test_a_concealed_kongs_unboxed_back_is_found_by_its_colour_and_the_kong_read(
        which: tuple[int, ...]) -> None:
    """Fresh real-face tables table_s21_000008 (the kong's back beside the hand unboxed: the
    hole between the hand and the kong was proposed from both its sides), table_s21_000078
    (both backs unboxed), table_s22_000041, 000183: ``7777p`` came out as ``77p`` in the hand
    or as nothing. A place at a row's end that shows the backs' colour is a back."""
    image, seen, missing = _kong_backs_unboxed(which)
    if 0 in which:  # the row's last back alone unboxed: the row already reads the kong
        assert "7777p" not in [format_tiles(m.tiles) for m in _seat0(seen).melds]
    places = back_places(image, seen)
    assert len(places) == len(which)
    assert (iou_matrix(places, missing).max(axis=0) > 0.8).all()
    found = load_detector().unboxed_backs(image, seen)
    assert len(found) == len(seen) + len(which) and found.is_back[len(seen):].all()
    seat = _seat0(found)
    assert [(m.type, format_tiles(m.tiles)) for m in seat.melds] == [
        ("pung", "444m"), ("concealed_kong", "7777p")]
    assert format_tiles(seat.hand) == "333m12355p" and seat.hidden == 0


@pytest.mark.parametrize("felt_colour", [BACK, (150, 90, 45)])
def test_no_back_is_proposed_on_a_felt_of_the_backs_colour_nor_where_none_is_missing(
        felt_colour: tuple[int, int, int]) -> None:
    """On a felt of the backs' colour, or within ``FELT_APART`` of it (9 Lab here: fresh
    real-face table_s25_000142, a dark green felt 11.7 from its green backs, where the tiles'
    shadows past eight rows' ends showed the backs' colour), colour cannot tell a back."""
    image, seen, _ = _kong_backs_unboxed((1,))
    felt = np.all(image == image[0, 0], axis=2)
    image[felt] = felt_colour
    assert len(back_places(image, seen)) == 0
    whole, every, _ = _kong_backs_unboxed(())
    assert len(back_places(whole, every)) == 0


@pytest.mark.skipif(not (default_models_dir() / "classifier.onnx").is_file(),
                    reason="no shipped classifier")
def test_places_are_named_by_their_top_kinds(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Detector.name_places``: the classifier's top kinds of each box, likeliest first, as
    tile kinds (a die face is no tile: -1), with their odds; what the reading names a box
    taken back into a row by."""
    det = load_detector()
    cmap = np.array(det.cls.classes.class_id)
    two_p, five_s = parse_tiles("2p5s")
    die = int(np.flatnonzero(cmap >= 42)[0])
    odds = np.zeros(len(cmap), np.float32)
    odds[int(np.flatnonzero(cmap == two_p)[0])] = 0.6
    odds[die] = 0.3
    odds[int(np.flatnonzero(cmap == five_s)[0])] = 0.1
    monkeypatch.setattr(det, "crop_probs", lambda img, boxes, pads=None: np.tile(
        odds, (len(boxes), 1)))
    kinds, probs = det.name_places(np.zeros((64, 64, 3), np.uint8),
                                   np.array([[0, 0, 20, 30], [20, 0, 40, 30]], np.float32), k=3)
    assert kinds.tolist() == [[two_p, -1, five_s]] * 2
    assert probs[:, 0] == pytest.approx([0.6, 0.6]) and probs[0, 1] == pytest.approx(0.3)


def test_a_blank_between_two_blanks_a_tile_apart_is_a_place() -> None:
    """Fresh real-face table_s38_000114: a pung of 白, its claimed tile sideways at the left,
    its middle 白 unboxed, 0.93 widths between the two boxes found. No touching pair measures
    a step beside either (the sideways box is not the upright one's size), so no hole was
    proposed and the pung was read as two 白 in the hand. Two boxes read 白 in line with a
    tile's room between them hold a place there (here the lone box's step finds it too); on
    felt, two 白 discards a tile apart hold none (the place shows the felt)."""
    image, dets, (claimed, middle, last) = _pung_of_blanks()
    seen = dets[[i for i in range(len(dets)) if i != middle]]
    assert iou_matrix(_between_blanks(seen, image.shape), dets.xyxy[[middle]]).item() > 0.6
    assert (iou_matrix(face_places(image, seen), dets.xyxy[[middle]]) > 0.6).any()
    apart = seen.xyxy.copy()  # the same two boxes moved onto bare felt, a tile apart
    shift = np.array([0.0, -6.0, 0.0, -6.0]) * (dets.xyxy[last, 3] - dets.xyxy[last, 1])
    both = [int(np.flatnonzero((seen.xyxy == dets.xyxy[i]).all(axis=1))[0])
            for i in (claimed, last)]
    apart[both] += shift
    between = (dets.xyxy[middle] + shift)[None]
    assert _between_blanks(seen.with_(xyxy=apart), image.shape).shape == (1, 4)
    assert not (iou_matrix(face_places(image, seen.with_(xyxy=apart)), between) > 0.3).any()


# seat 0: a hand, then a kong of 白 whose second tile was claimed, lying sideways
KONG_BESIDE = Scene(seats=[SeatSpec(hand="1m469p22668sF", melds=[("exposed_kong", "PPPP", 1)]),
                           SeatSpec(hand="1234567s1234p5m"), SeatSpec(hand="9876543m9876p5s"),
                           SeatSpec(hand="1234567m1234p5s")], wall=40)


def test_a_melds_first_tile_between_the_hand_and_a_claimed_tile_is_a_hole() -> None:
    """REALVAL33D table_s48_000114: a kong of 白 read as a pung, its first tile unboxed between
    the hand's F and the claimed 白 lying sideways. The box beyond lay 2.6 steps on, past
    ``HOLE_STEPS``: the hand's gap before its melds lies on one side of the hole, and the
    claimed tile's box is longer along the row. Unhurt, the row shows no hole."""
    dets, truth = detections(KONG_BESIDE, top_down())
    tiles = np.flatnonzero(dets.is_tile)
    low = tiles[np.argmax(dets.center[tiles, 1])]
    height = float(dets.xyxy[low, 3] - dets.xyxy[low, 1])
    row = tiles[dets.center[tiles, 1] > dets.center[low, 1] - 0.6 * height]
    row = row[np.argsort(dets.center[row, 0])]
    gone = int(row[10])  # the hand's ten tiles, then the kong's first
    assert truth[gone] == WHITE
    seen = dets[[i for i in range(len(dets)) if i != gone]]
    places, beyond = hole_places(seen, (1080, 1080))
    assert len(places) == 1 and beyond.tolist() == [-1]  # the claimed tile is not cut back
    assert iou_matrix(places, dets.xyxy[gone][None]).item() > 0.5
    assert len(hole_places(dets, (1080, 1080))[0]) == 0


def test_a_blank_in_shade_at_a_rows_end_is_told_by_its_neighbours_ground() -> None:
    """REALVAL33D table_s48_000118: a 白 at a hand's end, unboxed, 12.6 from the frame's
    faces' ground (``GROUND_NEAR`` 10) in a corner the light reaches less, 1.7 from its
    neighbour's: the colour test refused it. A place is weighed against the ground of the face
    nearest it too, lit as it is (and the felt beside it)."""
    image, seen, missing = _passed_over()
    tiles = np.flatnonzero(seen.is_tile)
    low = tiles[np.argmax(seen.center[tiles, 1])]
    height = float(seen.xyxy[low, 3] - seen.xyxy[low, 1])
    y0 = int(seen.xyxy[low, 1] - 0.5 * height)
    shade = image[y0:].astype(np.float32) * 0.8  # seat 0's row lies in shade
    image[y0:] = shade.astype(np.uint8)
    places = face_places(image, seen)
    assert len(places) == 1
    assert iou_matrix(places, missing[None]).item() > 0.8


def test_felt_in_shade_beside_a_shaded_face_shows_no_face() -> None:
    """REALVAL14D table_s29_000085: on a cloth near the faces' colour, the felt past a hand's
    end at the frame's foot, in shade, lay 0.8 from its shaded neighbour's ground: by that
    ground alone it would pass for a face. A place near the ground beside it, and not the
    frame's, must lie far from the felt beside it too, lit alike."""
    dets, truth = detections(BLANKS, top_down())
    image = paint(dets, truth)
    felt = np.all(image == image[0, 0], axis=2)
    image[felt] = (190, 215, 225)  # 7.4 from the faces' colour
    tiles = np.flatnonzero(dets.is_tile)
    low = tiles[np.argmax(dets.center[tiles, 1])]
    height = float(dets.xyxy[low, 3] - dets.xyxy[low, 1])
    y0 = int(dets.xyxy[low, 1] - 0.5 * height)
    image[y0:] = (image[y0:].astype(np.float32) * 0.8).astype(np.uint8)  # seat 0 in shade
    assert len(row_end_places(dets, image.shape)) >= 8
    assert len(face_places(image, dets)) == 0
