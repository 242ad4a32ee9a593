"""Backs told by their colour (``vision.backs``): a concealed kong's back boxed as a face, a
table's rim boxed as a back, a standing tile's top read as the blank 白."""

from __future__ import annotations

import cv2
import numpy as np

from scoring.tiles import format_tiles, parse_tiles
from tests.vision.scenes import (
    BACK,
    FACE,
    INK,
    KONG,
    RIM,
    detections,
    paint,
    table_corners,
    top_down,
)
from vision.backs import (
    BACK_SHARE,
    BLANK_BACK,
    LEAST_BACK,
    UNSURE_BACK,
    back_shares,
    told_by_colour,
    tops_told_by_colour,
)
from vision.detections import TileDetections
from vision.geometry import TableCalibration, read_table
from vision.labels import BACK_CLASS


def _seat0(dets: TileDetections):
    return read_table(dets, TableCalibration.from_corners(table_corners(top_down()))).seats[0]


def test_a_concealed_kongs_back_boxed_as_a_face_is_a_back_again() -> None:
    """Drawn-art tables table_s17_000019/20, REALVAL3 table_s16_000047: the kong's first back
    lying flat in the row was boxed as a face (the classifier named it 8p or P) and its last
    back was not found, so ``7777p`` came out as ``77p`` in the hand. Its colour is the
    wall's: a back, and the kong is read."""
    dets, truth = detections(KONG, top_down())
    kong = [i for i in range(len(dets)) if truth[i] == BACK_CLASS
            and np.median(dets.center[:, 1]) < dets.center[i, 1] < 1000][:2]
    assert len(kong) == 2  # seat 0's two backs (the wall's lie nearer the centre)
    first, last = sorted(kong, key=lambda i: dets.center[i, 0])
    eight_p = parse_tiles("8p")[0]
    dets.class_id[first], dets.confidence[first] = eight_p, 0.4
    dets.topk_ids[first] = [eight_p, -1, -1]
    image = paint(dets, truth)
    seen = dets[[i for i in range(len(dets)) if i != last]]
    before = _seat0(seen)
    assert "7777p" not in [format_tiles(m.tiles) for m in before.melds]
    after = _seat0(told_by_colour(image, seen))
    assert [(m.type, format_tiles(m.tiles)) for m in after.melds] == [
        ("pung", "444m"), ("concealed_kong", "7777p")]
    assert format_tiles(after.hand) == "333m12355p"


def test_a_box_on_the_rim_read_as_a_back_is_dropped_and_faces_stay_faces() -> None:
    """Boxes on a table's rim at the frame's edge read as backs made a row of their own beyond
    a seat's hand (drawn-art table_s17_000039: both hands went to the pond). A back box of
    another colour than the frame's backs is none; a face dense with ink stays a face."""
    dets, truth = detections(KONG, top_down())
    image = paint(dets, truth)
    image[1040:, :] = RIM
    rim = TileDetections(xyxy=np.array([[500, 1042, 535, 1079], [540, 1042, 575, 1079]]),
                         confidence=[0.45, 0.6], class_id=[BACK_CLASS, BACK_CLASS])
    dense = int(np.flatnonzero(np.array(truth) != BACK_CLASS)[0])
    x0, y0, x1, y1 = dets.xyxy[dense].astype(int).tolist()
    for y in range(y0 + 3, y1 - 2, 3):  # ink over most of the face, its ground between
        cv2.line(image, (x0 + 2, y), (x1 - 2, y), INK, 2)
    every = TileDetections.merge([dets, rim])
    shares = back_shares(image, every)
    assert shares is not None
    assert (shares[-2:] < LEAST_BACK).all() and shares[dense] < BACK_SHARE
    told = told_by_colour(image, every)
    assert len(told) == len(dets)  # the two rim boxes gone, nothing else
    assert (told.class_id == dets.class_id).all()


def test_a_windows_fresh_boxes_are_told_by_the_colours_of_the_boxes_kept() -> None:
    """The change mask finds a window's few fresh boxes (``vision.changes``): alone they show
    too few sure backs and faces to tell a colour, so the frame's kept boxes tell it, and
    only the fresh ones change."""
    dets, truth = detections(KONG, top_down())
    image = paint(dets, truth)
    image[1040:, :] = RIM
    rim = TileDetections(xyxy=np.array([[500, 1042, 535, 1079], [540, 1042, 575, 1079]]),
                         confidence=[0.45, 0.6], class_id=[BACK_CLASS, BACK_CLASS])
    assert told_by_colour(image, rim) is rim
    assert len(told_by_colour(image, rim, context=dets)) == 0
    kong_back = int(np.flatnonzero(dets.is_back)[0])
    fresh = dets[[kong_back]]
    assert told_by_colour(image, fresh, context=dets).is_back.all()  # a back stays a back


def test_without_sure_backs_and_faces_of_two_colours_colour_tells_nothing() -> None:
    """A close-up of a hand shows no backs; a set whose backs are near-white cannot be told
    from its faces by colour: the boxes are left as the detector found them."""
    dets, truth = detections(KONG, top_down())
    image = paint(dets, truth)
    backs = np.flatnonzero(dets.is_back)
    few = dets[np.r_[np.flatnonzero(dets.is_tile), backs[:3]]]
    assert back_shares(image, few) is None
    pale = image.copy()
    pale[np.all(pale == BACK, axis=2)] = (205, 225, 232)  # backs nearly the faces' colour
    assert back_shares(pale, dets) is None
    assert told_by_colour(pale, dets) is dets


def _standing_top_and_blank(image: np.ndarray, dets: TileDetections, back: tuple[int, ...]
                            ) -> tuple[int, int, np.ndarray]:
    """The first face box painted as a standing tile seen from above (its back's top in
    ``back`` above its ivory side), the second as a 白 face (no ink), both read 白: their rows
    and the mask of the two."""
    faces = np.flatnonzero(dets.is_tile)
    standing, blank = int(faces[0]), int(faces[1])
    x0, y0, x1, y1 = dets.xyxy[standing].astype(int).tolist()
    image[y0:y1, x0:x1] = FACE
    image[y0:(y0 + y1) // 2, x0:x1] = back  # its back's top above its side
    bx0, by0, bx1, by1 = dets.xyxy[blank].astype(int).tolist()
    image[by0:by1, bx0:bx1] = FACE  # 白: no ink
    dets.class_id[[standing, blank]] = parse_tiles("P")[0]
    rows = np.zeros(len(dets), bool)
    rows[[standing, blank]] = True
    return standing, blank, rows


def test_a_standing_tiles_top_read_as_the_blank_is_left_out_and_a_blank_face_stays() -> None:
    """Fresh real-face table_s18_000055: a seat's one standing tile, seen from above as its
    back's top and its ivory side, was boxed as a face and read 白 (``P``): a hand tile
    where none shows. A box read 白 that shows the backs' colour is left out; a 白 face,
    all ground, stays."""
    dets, truth = detections(KONG, top_down())
    image = paint(dets, truth)
    standing, blank, rows = _standing_top_and_blank(image, dets, BACK)
    shares = back_shares(image, dets, rows)
    assert shares is not None and shares[blank] < BLANK_BACK <= shares[standing] < BACK_SHARE
    assert not shares[~rows].any()  # only the boxes asked about are measured
    told = tops_told_by_colour(image, dets)
    keep = np.ones(len(dets), bool)
    keep[standing] = False
    assert len(told) == len(dets) - 1
    assert (told.xyxy == dets.xyxy[keep]).all() and (told.class_id == dets.class_id[keep]).all()
    assert tops_told_by_colour(image, told) is told  # nothing read 白 shows a back now


def test_a_standing_tiles_top_named_unsurely_is_left_out_and_a_sure_dark_face_stays() -> None:
    """Fresh real-face table_s21_000021 and 000143: a seat showing only melds, its one standing
    tile seen from above, boxed as a face and named ``2s`` or ``C`` with a score near 0.1,
    stood in its hand. A face named with a score under ``UNSURE_FACE`` showing the backs'
    colour over ``UNSURE_BACK`` of its middle is left out; the same colour on a face named
    surely (dense dark ink) or a face named unsurely on its ground stays."""
    dets, truth = detections(KONG, top_down())
    image = paint(dets, truth)
    faces = np.flatnonzero(dets.is_tile)
    standing, dark, faint = (int(i) for i in faces[:3])
    for row in (standing, dark):
        x0, y0, x1, y1 = dets.xyxy[row].astype(int).tolist()
        image[y0:y1, x0:x1] = FACE
        image[y0:(y0 + y1) // 2 + 2, x0:x1] = BACK  # its back's top above its side
    conf = dets.confidence.copy()
    conf[[standing, faint]] = 0.11
    dets = dets.with_(confidence=conf)
    shares = back_shares(image, dets)
    assert shares is not None
    assert UNSURE_BACK <= shares[standing] < BACK_SHARE and shares[faint] < UNSURE_BACK
    assert dets.class_id[standing] != parse_tiles("P")[0]
    told = tops_told_by_colour(image, dets)
    keep = np.ones(len(dets), bool)
    keep[standing] = False
    assert len(told) == len(dets) - 1 and (told.xyxy == dets.xyxy[keep]).all()


def test_on_a_set_with_light_backs_a_blank_face_stays_and_a_standing_top_still_goes() -> None:
    """Fresh real-face table_s21_000003: light backs and faces dense with ink, so a 白 face,
    all ground, lay nearer the backs' colour than the inked faces' (0.54 of it) and was left
    out as a standing tile's top. The ground (the faces' brightest) decides for a 白: the
    白 face stays, a standing tile's top (half of it the backs' colour) still goes."""
    dets, truth = detections(KONG, top_down())
    light = (150, 195, 215)  # 20 from the faces' ground in Lab
    image = paint(dets, truth)
    image[np.all(image == BACK, axis=2)] = light
    faces = np.flatnonzero(dets.is_tile)
    for row in faces:  # ink over most of every face, its ground between
        x0, y0, x1, y1 = dets.xyxy[row].astype(int).tolist()
        for y in range(y0 + 2, y1 - 1, 3):
            image[y:y + 2, x0 + 2:x1 - 2] = INK  # two rows of ink in three
    standing, blank, rows = _standing_top_and_blank(image, dets, light)
    shares = back_shares(image, dets, rows)
    assert shares is not None and shares[blank] >= BLANK_BACK  # nearer the backs than the ink
    told = tops_told_by_colour(image, dets)
    keep = np.ones(len(dets), bool)
    keep[standing] = False
    assert len(told) == len(dets) - 1 and (told.xyxy == dets.xyxy[keep]).all()


def test_a_face_inked_in_the_backs_hue_stays_a_face() -> None:
    """A blue-inked 8p of ``tile-faces`` (8p/130) on a set with blue backs (fresh real-face
    table_s44_000090): its saturated ink and the pale rings between were both nearer the blue
    backs' colour than the faces' over its whole middle, so the winner's 8p became a back and
    the hand showed 13 faces. It lies far from the backs' colour itself: a face."""
    dets, truth = detections(KONG, top_down())
    image = paint(dets, truth)
    blue = int(np.flatnonzero(np.array(truth) != BACK_CLASS)[0])
    x0, y0, x1, y1 = dets.xyxy[blue].astype(int).tolist()
    image[y0 + 2:y1 - 1, x0 + 2:x1 - 1] = (235, 70, 20)  # saturated blue ink (BGR)
    image[y0 + 2:y1 - 1:4, x0 + 2:x1 - 1] = (245, 190, 150)  # pale rings between
    shares = back_shares(image, dets)
    assert shares is not None and shares[blue] >= BACK_SHARE  # nearer the backs, all of it
    told = told_by_colour(image, dets)
    assert told.class_id[blue] == dets.class_id[blue]
    assert (told.is_back == dets.is_back).all()  # the backs stay backs, nothing else changes
