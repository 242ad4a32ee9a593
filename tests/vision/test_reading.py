"""Table geometry, legal-reading repair and hand records, on crafted table scenes."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from scoring.record import parse_record
from scoring.tiles import format_tiles, parse_tiles
from tests.vision.scenes import Scene, SeatSpec, detections, table_corners, tilted, top_down
from vision.detections import TileDetections
from vision.geometry import (
    TableCalibration,
    find_table_corners,
    on_table,
    order_corners,
    read_table,
)
from vision.labels import BACK_CLASS
from vision.reading import read_detections, seat_states

SHOWDOWN = Scene(seats=[
    SeatSpec(hand="123m456p78988sWWW", flowers="f1f5", discards="1m9pN", drawn_apart=True,
             melds=[]),
    SeatSpec(hand="234m678m345p5s", melds=[("pung", "EEE", 0)], flowers="f2",
             discards="2s3s4s5s6s7s8s"),
    SeatSpec(hidden=10, melds=[("chow", "567m", 0)]),
    SeatSpec(hand="1234s", melds=[("exposed_kong", "2222p", 1), ("concealed_kong", "CCCC", None),
                               ("pung", "FFF", 2)]),
], wall=60, dice=(3, 4))


@pytest.mark.parametrize("camera", [top_down(), tilted()], ids=["top-down", "tilted"])
def test_seats_roles_melds_and_claims(camera: np.ndarray) -> None:
    dets, _ = detections(SHOWDOWN, camera)
    table = read_table(dets, TableCalibration.from_corners(table_corners(camera)))
    s0, s1, s2, s3 = table.seats
    assert format_tiles(s0.hand) == "123m456p78988sWWW" and s0.drawn_apart
    assert [(m.type, m.from_seat) for m in s0.melds] == []
    assert format_tiles(s0.flowers) == "f1f5" and format_tiles(s0.discards) == "1m9pN"
    assert format_tiles(s1.hand) == "234678m345p5s"
    assert [(m.type, format_tiles(m.tiles), m.from_seat) for m in s1.melds] == [
        ("pung", "EEE", 0)]
    assert format_tiles(s1.discards) == "2345678s"  # rows of six, nearest row first
    assert s2.hidden == 10 and s2.hand == []
    assert [(m.type, m.from_seat) for m in s2.melds] == [("chow", 1)]
    assert [(m.type, format_tiles(m.tiles), m.from_seat) for m in s3.melds] == [
        ("exposed_kong", "2222p", 1), ("concealed_kong", "CCCC", None), ("pung", "FFF", 0)]
    assert table.wall_stacks == 30
    roles = dict(zip(*np.unique(table.detections.role, return_counts=True), strict=True))
    assert roles["dice"] == 2 and roles["flower"] == 3 and roles["discard"] == 10


@pytest.mark.parametrize("gap", [8.0, 4.0, 3.0])
def test_melds_lying_close_together_are_told_apart(gap: float) -> None:
    """Melds laid 3-4 mm apart (boxes blur a gap under ``split_gap``): each still a meld,
    taken from the row's right end where its gap is wider than any inside it."""
    melds = [("exposed_kong", "2222p", 1), ("pung", "FFF", 2), ("pung", "EEE", None)]
    scene = Scene(seats=[SeatSpec(hand="1234567m", melds=melds), SeatSpec(), SeatSpec(),
                         SeatSpec()], meld_gap=gap)
    dets, _ = detections(scene, top_down())
    table = read_table(dets, TableCalibration.from_corners(table_corners(top_down())))
    s0 = table.seats[0]
    assert [(m.type, format_tiles(m.tiles)) for m in s0.melds] == [
        ("exposed_kong", "2222p"), ("pung", "FFF"), ("pung", "EEE")]
    assert format_tiles(s0.hand) == "1234567m"


def _seat0(scene: Scene, dets=None):
    cam = top_down()
    if dets is None:
        dets, _ = detections(scene, cam)
    return read_table(dets, TableCalibration.from_corners(table_corners(cam))).seats[0]


MELDED = Scene(seats=[SeatSpec(hand="22555pEEE", melds=[("chow", "789m", 0), ("pung", "WWW", 1)]),
                      SeatSpec(), SeatSpec(), SeatSpec()])


def test_a_gap_opened_inside_a_meld_does_not_put_the_melds_back_in_the_hand() -> None:
    """A box grown or shifted by a few pixels opens a gap inside a meld as wide as the one
    between two melds (seen on real-face tables: the sideways W of a pung boxed 4 px too
    wide): the row's end still cuts into the two sets after the hand's wider gap."""
    dets, _ = detections(MELDED, top_down())
    shifted = dets.xyxy.copy()
    shifted[13, [0, 2]] += 9.0  # the pung's last tile, 7.5 mm (0.28 widths) right
    s0 = _seat0(MELDED, dets.with_(xyxy=shifted))
    assert [(m.type, format_tiles(m.tiles)) for m in s0.melds] == [
        ("chow", "789m"), ("pung", "WWW")]
    assert format_tiles(s0.hand) == "22555pEEE"


def test_a_kong_whose_claimed_tile_is_misread_is_still_a_kong() -> None:
    scene = Scene(seats=[SeatSpec(hand="55m456p444666s", melds=[("exposed_kong", "8888m", 1)]),
                         SeatSpec(), SeatSpec(), SeatSpec()])
    dets, _ = detections(scene, top_down())
    eight_p = parse_tiles("8p")[0]
    dets.class_id[12] = eight_p  # the sideways 8m read as 8p, 8m not even a runner-up
    dets.topk_ids[12] = [eight_p, eight_p + 1, eight_p + 2]
    s0 = _seat0(scene, dets)
    assert [(m.type, format_tiles(m.tiles), m.certain) for m in s0.melds] == [
        ("exposed_kong", "8888m", False)]
    assert format_tiles(s0.hand) == "55m456p444666s"


def test_a_kong_with_a_second_tile_boxed_sideways_is_still_a_kong() -> None:
    """A kong's straight tile boxed as wide as the claimed one (REALVAL3 table_s16_000052:
    ``1p/ 1p 1p 1p/``): no meld shows two claimed tiles, but four of a kind at the row's end
    are a kong, its claimed tile unsure. Before, the kong stayed in the hand."""
    scene = Scene(seats=[SeatSpec(hand="55m456p444666s", melds=[("exposed_kong", "8888m", 2)]),
                         SeatSpec(), SeatSpec(), SeatSpec()])
    dets, _ = detections(scene, top_down())
    wide = dets.xyxy.copy()
    side, last = wide[13], wide[14]  # the claimed 8m (from across) and the kong's last 8m
    wide[14] = [last[0], side[1], last[0] + side[2] - side[0], side[3]]  # boxed as side is
    s0 = _seat0(scene, dets.with_(xyxy=wide))
    assert [(m.type, format_tiles(m.tiles), m.certain) for m in s0.melds] == [
        ("exposed_kong", "8888m", False)]
    assert format_tiles(s0.hand) == "55m456p444666s"


def _boxed_as_wide(dets: TileDetections, row: int, as_: int) -> TileDetections:
    """``dets`` with box ``row`` (an upright tile) grown along the row to the width and height
    of the sideways box ``as_``: a straight tile boxed as wide as the claimed one."""
    boxes = dets.xyxy.copy()
    side, box = boxes[as_], boxes[row]
    boxes[row] = [box[0], side[1], box[0] + side[2] - side[0], side[3]]
    return dets.with_(xyxy=boxes)


def test_a_pung_with_a_second_tile_boxed_sideways_is_still_a_pung() -> None:
    """Drawn-art table_s17_000017: two tiles of a pung ``444s`` were boxed as wide as a claimed
    one, the pung stayed in the hand (``44455s``) and the winner's hand was lost. Three of a
    kind in a row, two of them sideways, are a pung, its claimed tile unsure."""
    scene = Scene(seats=[SeatSpec(hand="55m456p444666s", melds=[("pung", "WWW", 1)]),
                         SeatSpec(), SeatSpec(), SeatSpec()])
    dets, _ = detections(scene, top_down())
    s0 = _seat0(scene, _boxed_as_wide(dets, 13, as_=12))  # the pung's last W as the claimed
    assert [(m.type, format_tiles(m.tiles), m.certain) for m in s0.melds] == [
        ("pung", "WWW", False)]
    assert format_tiles(s0.hand) == "55m456p444666s"


def test_a_pung_with_two_tiles_boxed_sideways_one_of_them_misread_is_still_a_pung() -> None:
    """Fresh real-face table_s21_000191: the winner's pung ``666s`` at the frame's edge, two of
    its tiles boxed sideways and one of those read ``4s`` (``6s`` its runner-up), stayed in
    the hand, and the repair then made the whole row a hand. Two of a kind and a third with
    that kind among its likely ones, two of them sideways, are a pung, its claimed tile
    unsure."""
    scene = Scene(seats=[SeatSpec(hand="55m456p444666s", melds=[("pung", "WWW", 1)]),
                         SeatSpec(), SeatSpec(), SeatSpec()])
    dets, _ = detections(scene, top_down(), misread={13: parse_tiles("S")[0]})
    assert dets.labels[13] == "S" and dets.labels[11] == dets.labels[12] == "W"
    s0 = _seat0(scene, _boxed_as_wide(dets, 13, as_=12))  # the misread W boxed as the claimed
    assert [(m.type, format_tiles(m.tiles), m.certain) for m in s0.melds] == [
        ("pung", "WWW", False)]
    assert format_tiles(s0.hand) == "55m456p444666s"


def test_the_hands_last_tile_beside_a_pung_is_not_read_anew_to_make_it_a_kong() -> None:
    """Fresh real-face table_s21_000103: the hand's last tile, a ``C`` read right, lay as far
    from the hand as from the pung ``888m`` after it, and the melds were read from it on, the
    ``C`` named ``8m`` from its runner-up: ``8888m``, and the winner's hand short of a ``C``.
    When the row from the next tile on cuts into melds read as seen, that tile is the hand's."""
    scene = Scene(seats=[SeatSpec(hand="55m456p44466sS", melds=[("pung", "WWW", 1)]),
                         SeatSpec(), SeatSpec(), SeatSpec()])
    dets, _ = detections(scene, top_down())
    assert dets.labels[10] == "S" and dets.labels[11:14] == ["W", "W", "W"]
    assert dets.topk_ids[10][1] == parse_tiles("W")[0]  # its runner-up is the pung's kind
    boxes = dets.xyxy.copy()
    gap_after = boxes[11, 0] - boxes[10, 2]
    boxes[10, [0, 2]] += gap_after / 2  # as far from the hand as from the pung
    s0 = _seat0(scene, dets.with_(xyxy=boxes))
    assert [(m.type, format_tiles(m.tiles)) for m in s0.melds] == [("pung", "WWW")]
    assert format_tiles(s0.hand) == "55m456p44466sS"


def test_a_chow_with_a_second_tile_boxed_sideways_is_still_a_chow() -> None:
    """Fresh real-face table_s18_000094: a chow ``567p`` with its 7p boxed as wide as the
    claimed 6p stayed in the hand. A run of three with two tiles called sideways is a chow,
    its claimed tile unsure, as three of a kind so are a pung."""
    scene = Scene(seats=[SeatSpec(hand="55m456p444666s", melds=[("chow", "567p", 0)]),
                         SeatSpec(), SeatSpec(), SeatSpec()])
    dets, _ = detections(scene, top_down())
    s0 = _seat0(scene, _boxed_as_wide(dets, 13, as_=11))  # the chow's last as the claimed
    assert [(m.type, format_tiles(m.tiles), m.certain) for m in s0.melds] == [
        ("chow", "567p", False)]
    assert format_tiles(s0.hand) == "55m456p444666s"


def test_a_chow_boxed_wide_throughout_is_a_chow_by_its_gaps() -> None:
    """Fresh real-face table_s45_000037: a chow ``345p`` whose three boxes all came out as wide
    as a claimed tile's (overlapping 0.37 widths), after the hand's gap, was read into the
    winner's hand. Boxes grown alike tell no claimed tile: the run is a chow as read, its
    claimed tile unknown, because the gap before it is the hand's."""
    scene = Scene(seats=[SeatSpec(hand="55m456p444666s", melds=[("chow", "567p", 0)]),
                         SeatSpec(), SeatSpec(), SeatSpec()])
    dets, _ = detections(scene, top_down())
    wide = _boxed_as_wide(_boxed_as_wide(dets, 12, as_=11), 13, as_=11)
    s0 = _seat0(scene, wide)
    assert [(m.type, format_tiles(m.tiles), m.sideways_index, m.certain) for m in s0.melds] == [
        ("chow", "567p", None, False)]
    assert format_tiles(s0.hand) == "55m456p444666s"


def test_a_hand_tile_read_as_the_pung_beside_it_does_not_make_it_a_kong() -> None:
    """Fresh real-face table_s18_000008: the hand's last tile, a 6s read 7s, lay a little apart
    from the hand (0.15 widths) and far from the pung ``777s`` after it (0.38); with the pung's
    sideways tile, ``7777s`` showed itself a meld and took it. A meld split inside, between two
    upright tiles, wider than a group's gap and the gap before it, is no meld."""
    scene = Scene(seats=[SeatSpec(hand="55m456p444669s", melds=[("pung", "WWW", 1)]),
                         SeatSpec(), SeatSpec(), SeatSpec()])
    dets, _ = detections(scene, top_down())
    width = float(np.median(dets.xyxy[:11, 2] - dets.xyxy[:11, 0]))
    moved = dets.xyxy.copy()
    moved[:10, [0, 2]] -= 0.15 * width  # the hand but its last tile
    gap = float(moved[11, 0] - moved[10, 2]) / width
    assert gap > 0.3  # the hand's gap to its melds
    classes = dets.class_id.copy()
    classes[10] = parse_tiles("W")[0]  # the 9s read as the pung's kind
    s0 = _seat0(scene, dets.with_(xyxy=moved, class_id=classes))
    assert [(m.type, format_tiles(m.tiles)) for m in s0.melds] == [("pung", "WWW")]
    assert format_tiles(s0.hand) == "55m456p44466sW"


def test_a_concealed_kong_at_the_row_end_missing_its_last_back() -> None:
    scene = Scene(seats=[SeatSpec(hand="333m12355p", melds=[("pung", "444m", 1),
                                                            ("concealed_kong", "7777p", None)]),
                         SeatSpec(), SeatSpec(), SeatSpec()])
    dets, _ = detections(scene, top_down())
    s0 = _seat0(scene, dets[[i for i in range(len(dets)) if i != 14]])  # the far back unseen
    assert [(m.type, format_tiles(m.tiles)) for m in s0.melds] == [
        ("pung", "444m"), ("concealed_kong", "7777p")]
    assert format_tiles(s0.hand) == "333m12355p"


def test_a_sideways_tile_boxed_as_two_halves_is_one_tile() -> None:
    """The bundled video's sideways 4p discard boxed as 4p and 2p, each square, overlapping
    by half: one tile, of the larger box's kind, read sideways in its meld."""
    dets, _ = detections(MELDED, top_down())
    side = 12  # the pung's sideways W
    x0, y0, x1, y1 = dets.xyxy[side]
    cut = (x1 - x0) * 0.7
    halves = dets[[side, side]]
    halves.xyxy[:] = [[x0, y0, x0 + cut, y1], [x1 - cut * 0.93, y0, x1, y1]]
    halves.class_id[1] = parse_tiles("E")[0]
    from vision.detections import TileDetections

    split = TileDetections.merge([dets[[i for i in range(len(dets)) if i != side]], halves])
    s0 = _seat0(MELDED, split)
    assert [(m.type, format_tiles(m.tiles), m.sideways_index) for m in s0.melds] == [
        ("chow", "789m", 0), ("pung", "WWW", 1)]
    assert format_tiles(s0.hand) == "22555pEEE"


@pytest.mark.parametrize("flower", [False, True])
def test_a_sideways_tiles_halves_boxed_wide_and_far_apart_are_one_tile(flower: bool) -> None:
    """REALVAL17D table_s32_000112: a chow's sideways claimed tile boxed as two halves, each
    grown past the tile's end, 0.64 widths apart centre to centre (over ``HALF_APART``'s
    former 0.6): read as two tiles, the chow went into the hand (here the pung WWW's sideways
    W is boxed so). Halves lie up to 0.69 apart;
    but where either box may be a flower, two boxes that far apart were two flowers laid
    close (REALVAL11D table_s26_000238: f2 read 1s beside f8), so those stay apart."""
    from vision.detections import TileDetections

    dets, _ = detections(MELDED, top_down())
    side = 12  # the pung's sideways W
    x0, y0, x1, y1 = dets.xyxy[side]
    width = y1 - y0  # lying sideways, the tile is a width tall
    grow, half = 0.1 * width, 0.93 * width
    halves = dets[[side, side]]
    halves.xyxy[:] = [[x0 - grow, y0, x0 - grow + half, y1], [x1 + grow - half, y0, x1 + grow, y1]]
    if flower:
        two = parse_tiles("f2")[0]
        halves.topk_ids[1, 1], halves.topk_probs[1, :2] = two, [0.6, 0.3]
    split = TileDetections.merge([dets[[i for i in range(len(dets)) if i != side]], halves])
    table = read_table(split, TableCalibration.from_corners(table_corners(top_down())))
    assert (table.detections.role == "half").any() != flower
    if not flower:
        assert [(m.type, format_tiles(m.tiles), m.sideways_index)
                for m in table.seats[0].melds] == [("chow", "789m", 0), ("pung", "WWW", 1)]


def test_a_box_over_two_touching_tiles_is_no_half_of_the_tile_it_holds() -> None:
    """Two touching hand tiles, the second boxed only by a box from just inside the first to
    its own far side (REALVAL6 table_s21_000188: 5p and 6p): the pair overlaps, lines up and
    is long like a sideways tile's two halves, but covers two tiles' area, so the first
    tile's box is no half."""
    dets, _ = detections(MELDED, top_down())
    first, second = _seat0(MELDED, dets).hand_rows[3:5]
    over = dets[[second]]
    over.xyxy[0, 0] = dets.xyxy[first, 0] + 0.1 * (dets.xyxy[first, 2] - dets.xyxy[first, 0])
    boxed = TileDetections.merge([dets[[i for i in range(len(dets)) if i != second]], over])
    table = read_table(boxed, TableCalibration.from_corners(table_corners(top_down())))
    assert not (table.detections.role == "half").any()


def test_faces_in_line_with_a_standing_hands_backs_are_melds() -> None:
    """Real-face table_s22_000136: four melds laid tight in line with the standing hand's two
    backs, no claimed tile boxed sideways and the boxes blurring every gap, were read as a
    hand of twelve. A hand standing shows backs only: the faces beside it are melds."""
    scene = Scene(seats=[SeatSpec(hidden=4, melds=[("chow", "567m", None), ("pung", "777s", None),
                                                   ("chow", "123p", None)]),
                         SeatSpec(), SeatSpec(), SeatSpec()])
    dets, _ = detections(scene, top_down())
    calib = TableCalibration.from_corners(table_corners(top_down()))
    table = read_table(dets, calib)
    faces = sorted((r for m in table.seats[0].melds for r in m.rows),
                   key=lambda r: dets.xyxy[r, 0])
    backs = sorted((r for r in range(len(dets)) if table.detections.role[r] == "hand"),
                   key=lambda r: -dets.xyxy[r, 0])
    x0, y0, x1, y1 = dets.xyxy[faces[0]].tolist()
    step = x1 - x0 + 1.0  # one run, evenly spaced, the backs first
    for i, r in enumerate(faces):
        dets.xyxy[r] = [x0 + i * step, y0, x1 + i * step, y1]
    for i, r in enumerate(backs, start=1):
        dets.xyxy[r] = [x0 - i * step, y0, x1 - i * step, y1]
    s0 = read_table(dets, calib).seats[0]
    assert s0.hidden == 4 and s0.hand == []
    assert [(m.type, format_tiles(m.tiles)) for m in s0.melds] == [
        ("chow", "567m"), ("pung", "777s"), ("chow", "123p")]


def test_touching_tiles_are_not_taken_for_halves() -> None:
    table = read_table(*_dets(SHOWDOWN))
    assert not (table.detections.role == "half").any()


def test_a_concealed_kongs_back_boxed_twice_is_one_back() -> None:
    """Drawn-art table_s17_000023: the kong's last back was boxed whole and again by its top
    half (IoU about 0.5, so NMS kept both); the five boxes made no meld and ``9999p`` stayed
    in the hand as ``99p``. The less sure box is the same back."""
    scene = Scene(seats=[SeatSpec(hand="333m12355p", melds=[("pung", "444m", 1),
                                                            ("concealed_kong", "9999p", None)]),
                         SeatSpec(), SeatSpec(), SeatSpec()])
    dets, _ = detections(scene, top_down())
    last = dets.xyxy[14]  # the kong's far back
    top = TileDetections(xyxy=[[last[0] - 1, last[1] - 2, last[2], (last[1] + last[3]) / 2]],
                         confidence=[0.34], class_id=[BACK_CLASS])
    s0 = _seat0(scene, TileDetections.merge([dets, top]))
    assert [(m.type, format_tiles(m.tiles)) for m in s0.melds] == [
        ("pung", "444m"), ("concealed_kong", "9999p")]
    assert format_tiles(s0.hand) == "333m12355p" and s0.hidden == 0


OTHER_HANDS = [SeatSpec(hand="1234567m1234p5s"), SeatSpec(hand="1234567s1234p5m"),
               SeatSpec(hand="9876543m9876p5s")]  # seats 1-3 at a showdown
ONE_S, F4 = parse_tiles("1s")[0], parse_tiles("f4")[0]


def _f4_read_as_1s(scene: Scene, body: int, odds: tuple[float, float] = (0.6, 0.3)):
    """The scene's detections with ``body`` (an f4) read as 1s, f4 its runner-up (``odds``:
    of the two)."""
    dets, truth = detections(scene, top_down(), {body: ONE_S})
    assert truth[body] == F4
    dets.topk_ids[body] = [ONE_S, F4, -1]
    dets.topk_probs[body] = [*odds, 0.0]
    return dets


def test_a_flower_misread_as_a_suit_tile_does_not_make_the_hand_a_pond() -> None:
    """A flower read as 1s lies 1.3 widths in front of the hand, nearer than any pond tile
    lies to a hand: the row is still the hand, as long as a pond row never is and as far out
    as the other seats' hands (seen on real-face tables: the winner's whole hand read as
    discards)."""
    scene = Scene(seats=[SeatSpec(hand="333456p22s", flowers="f4",
                                  melds=[("pung", "999p", 1), ("chow", "123s", 0)]),
                         *OTHER_HANDS])
    body = 14  # seat 0's flower, after its 8 hand and 6 meld tiles
    dets, truth = detections(scene, top_down(), {body: ONE_S})
    assert truth[body] == F4
    s0 = _seat0(scene, dets)
    assert format_tiles(s0.hand) == "333456p22s"
    assert [format_tiles(m.tiles) for m in s0.melds] == ["999p", "123s"]


@pytest.mark.parametrize("half_reads, flowers", [("f2", "f2"), ("2s", "")])
def test_a_flower_boxed_whole_and_by_half_is_named_by_both_boxes(half_reads: str,
                                                                 flowers: str) -> None:
    """A flower boxed whole, read 1s with the flower far behind (0.008, under what makes a
    tile in front of the hand a flower by its runner-up), and by its half, read as the
    flower at 0.87: one tile, the flower by both boxes' odds together (the bundled video's
    f2 set down crosswise, 1s at 0.61 whole and f2 at 0.87 by half, was read no flower in
    the live pass, which kept those boxes five frames). A half read as a suit tile, with no
    flower ranked by both, leaves the larger box's kind: half a 4p shows a 2p."""
    scene = Scene(seats=[SeatSpec(hand="333456p22s", flowers="f2",
                                  melds=[("pung", "999p", 1), ("chow", "123s", 0)]),
                         *OTHER_HANDS])
    dets, truth = detections(scene, top_down())
    body = truth.index(parse_tiles("f2")[0])  # seat 0's flower
    x0, y0, x1, y1 = dets.xyxy[body]
    pair = dets[[body, body]]
    pair.xyxy[1] = [x0, y0, x1, y0 + 0.6 * (y1 - y0)]  # the half: the face's far part
    one_s, f2, half = ONE_S, parse_tiles("f2")[0], parse_tiles(half_reads)[0]
    pair.class_id[:] = [one_s, half]
    pair.topk_ids[:] = [[one_s, f2, -1], [half, one_s, -1]]
    pair.topk_probs[:] = [[0.9, 0.008, 0.0], [0.87, 0.005, 0.0]]
    split = TileDetections.merge([dets[[i for i in range(len(dets)) if i != body]], pair])
    table = read_table(split, TableCalibration.from_corners(table_corners(top_down())))
    s0 = table.seats[0]
    assert (table.detections.role == "half").sum() == 1
    assert format_tiles(s0.flowers) == flowers
    assert format_tiles(s0.hand) == "333456p22s"


def test_melds_with_no_hand_in_view_are_not_the_pond_for_a_flower_misread() -> None:
    """A seat whose standing hand is out of view shows two melds (six tiles, a pond row's
    length) and three flowers in front, one read as 1s: that "pond" tile lies in line beside
    the flowers, not in the pond, so the melds are still the seat's outermost row (seen on
    REALVAL3 table_s16_000025: the melds were read as discards)."""
    scene = Scene(seats=[SeatSpec(flowers="f3f4f5", discards="9p5pC3s",
                                  melds=[("pung", "555m", 0), ("chow", "345s", 0)]),
                         *OTHER_HANDS])
    s0 = _seat0(scene, _f4_read_as_1s(scene, 7))
    assert [format_tiles(m.tiles) for m in s0.melds] == ["555m", "345s"]
    assert s0.hand == [] and format_tiles(s0.flowers) == "f3f4f5"
    assert format_tiles(s0.discards) == "95pC3s"


@pytest.mark.parametrize("flowers,body", [("f2f4", 13), ("f4", 12)], ids=["beside", "alone"])
def test_a_flower_read_as_a_suit_tile_among_the_flowers_is_a_flower(flowers: str,
                                                                     body: int) -> None:
    """A flower of an unseen look read as 1s with f4 its runner-up, lying beside the seat's
    other flowers or alone in the band in front of its hand: a flower (no discard lies
    there); the same tile in the pond stays a discard."""
    scene = Scene(seats=[SeatSpec(hand="1234567m123p55s", flowers=flowers, discards="9m"),
                         *OTHER_HANDS])
    table = read_table(_f4_read_as_1s(scene, body),
                       TableCalibration.from_corners(table_corners(top_down())))
    assert format_tiles(table.seats[0].flowers) == flowers
    assert format_tiles(table.seats[0].discards) == "9m" and table.corrected == {body: F4}
    pond = len(parse_tiles(flowers)) + 12  # the 9m discard, read as 1s with f4 behind it
    dets, _ = detections(scene, top_down(), {pond: ONE_S})
    dets.topk_ids[pond] = [ONE_S, F4, -1]
    dets.topk_probs[pond] = [0.6, 0.3, 0.0]
    table = read_table(dets, TableCalibration.from_corners(table_corners(top_down())))
    assert format_tiles(table.seats[0].discards) == "1s"


@pytest.mark.parametrize("behind, flowers", [(0.02, "f2f4"), (0.005, "f2")])
def test_a_flower_of_a_look_never_trained_on_is_a_flower_by_a_far_runner_up(
        behind: float, flowers: str) -> None:
    """A flower set's look the classifier never saw is read 1s surely, its flower far
    behind (on fresh real-face tables 1s at 0.8-0.98 with a flower at 0.01-0.09): lying
    beside the seat's flowers it is a flower; with no flower ranked even that likely (a
    bird of the bamboo set down there), a discard."""
    scene = Scene(seats=[SeatSpec(hand="1234567m123p55s", flowers="f2f4", discards="9m"),
                         *OTHER_HANDS])
    table = read_table(_f4_read_as_1s(scene, 13, (0.95, behind)),
                       TableCalibration.from_corners(table_corners(top_down())))
    assert format_tiles(table.seats[0].flowers) == flowers
    assert format_tiles(table.seats[0].hand) == "1234567m123p55s"


def test_melds_laid_tight_with_no_hand_before_them_are_melds() -> None:
    """A seat whose standing hand is not in its row, with two chows laid 1 mm apart: the
    gaps tell nothing, but each shows its claimed tile sideways, which no hand tile does."""
    scene = Scene(seats=[SeatSpec(melds=[("chow", "789s", 0), ("chow", "456s", 0)]),
                         *OTHER_HANDS], meld_gap=1.0)
    s0 = _seat0(scene)
    assert [(m.type, format_tiles(m.tiles)) for m in s0.melds] == [
        ("chow", "789s"), ("chow", "456s")]
    assert s0.hand == []


def test_a_stray_box_beyond_a_hand_does_not_hide_the_hand() -> None:
    """One box read as a tile back 2 widths beyond seat 0's hand (the rim of the table, a
    stray): no row of the seat, whose hand is read as usual."""
    from vision.detections import TileDetections
    from vision.labels import BACK_CLASS

    scene = Scene(seats=[SeatSpec(hand="122m134789p48sSP"), *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    stray = dets[[0]]
    stray.class_id[0] = BACK_CLASS
    stray.xyxy[0, [1, 3]] += 2.2 * (stray.xyxy[0, 3] - stray.xyxy[0, 1])  # down: beyond seat 0
    s0 = _seat0(scene, TileDetections.merge([dets, stray]))
    assert format_tiles(s0.hand) == "122m134789p48sSP" and s0.hidden == 0


def test_a_flower_read_as_a_suit_tile_is_no_hand_of_a_seat_without_one() -> None:
    """A seat whose hand is out of view: its flower row is its outermost, and the flower read
    as 1s (f4 its runner-up) beside its f2 is a flower, not a hand of one tile."""
    scene = Scene(seats=[SeatSpec(flowers="f2f4", discards="9m"), *OTHER_HANDS])
    s0 = _seat0(scene, _f4_read_as_1s(scene, 1))
    assert s0.hand == [] and format_tiles(s0.flowers) == "f2f4"


def test_a_tile_at_a_hand_tiles_place_along_the_row_is_not_in_the_row() -> None:
    """The flower read as 1s lies a little nearer the hand than its row (0.86 widths in front,
    inside the hand row's band) at much the same place along it as a hand tile: two tiles
    cannot lie there side by side, so the one off the row's middle is the flower."""
    scene = Scene(seats=[SeatSpec(hand="1234567m123p55s", flowers="f2f4"), *OTHER_HANDS])
    dets = _f4_read_as_1s(scene, 13)
    dets.xyxy[13, [1, 3]] += 13.0  # 10.8 mm toward the hand, in front of the last hand tile
    dets.xyxy[13, [0, 2]] = dets.xyxy[11, [0, 2]]
    s0 = _seat0(scene, dets)
    assert format_tiles(s0.hand) == "1234567m123p55s" and format_tiles(s0.flowers) == "f2f4"


def _astride(dets: TileDetections, row: int, toward: int, share: float, conf: float,
             kind: str) -> TileDetections:
    """``dets`` with a box of ``kind`` scored ``conf`` astride tile ``row`` and its neighbour
    ``toward``: the tile's box moved ``share`` of the way to the neighbour's, in line."""
    box = dets.xyxy[row] + share * (dets.xyxy[toward] - dets.xyxy[row])
    k = parse_tiles(kind)[0]
    return TileDetections.merge([dets, TileDetections(
        xyxy=box[None], confidence=[conf], class_id=[k], topk_ids=[[k, ONE_S, -1]],
        topk_probs=[[0.4, 0.3, 0.0]])])


def test_of_two_boxes_at_one_place_in_the_rows_line_the_surer_is_the_tiles() -> None:
    """Fresh real-face table_s35_000012: the last 1s of a hand's 111s boxed by its own box
    (0.29) and by one astride it and the 1s before (0.18), 0.54 widths apart along the row,
    the own box 0.08 widths farther out than the other. Lying in line, they are one tile's
    two boxes, and the surer is the tile's; before, the one farther from the row's middle line
    was taken for a tile lying in front of the row, and the hand read the box astride."""
    scene = Scene(seats=[SeatSpec(hand="567m12388p111sEEE"), *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    assert format_tiles([int(k) for k in dets.class_id[8:11]]) == "111s"
    dets.confidence[10] = 0.29
    dets.xyxy[10, [1, 3]] += 2.6  # 0.08 widths out, away from the table's middle
    dets = _astride(dets, 10, 9, 0.46, 0.18, "2s")
    dets = dets[np.arange(len(dets)) != 9]  # the middle 1s unboxed
    assert format_tiles(_seat0(scene, dets).hand) == "567m12388p11sEEE"


def test_a_box_in_line_close_to_both_its_neighbours_lies_astride_them() -> None:
    """A box half a width from each of two tiles' boxes along a hand's row, in line with
    them, lies astride both (fresh real-face table_s30_000299: 444s boxed three times and
    once astride the first two): it is no tile, whatever it is scored, and both tiles keep
    their boxes; before, one of the two was left out of the row with it."""
    scene = Scene(seats=[SeatSpec(hand="567m12388p111sEEE"), *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    dets = _astride(dets, 9, 10, 0.5, 0.95, "2s")
    assert format_tiles(_seat0(scene, dets).hand) == "567m12388p111sEEE"


def test_boxes_beyond_the_row_at_its_tiles_places_are_not_in_the_row() -> None:
    """Fresh real-face table_s26_000102: three unsure boxes (0.12-0.38) on the table's rim,
    0.8 widths beyond a seat's row, each at a row tile's place along it. Of two boxes at one
    place lying apart across the row, the one farther from the line the row's other tiles
    make is no part of it, on either side; taking the one nearer the table's middle for a
    flower in front, the row lost three tiles to the rim's boxes."""
    scene = Scene(seats=[SeatSpec(hand="567m12388p111sEEE"), *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    width = float(dets.xyxy[1, 0] - dets.xyxy[0, 0])
    beyond = dets.xyxy[[2, 6, 11]] + np.array([0, 0.8 * width, 0, 0.8 * width], np.float32)
    rim = TileDetections(xyxy=beyond, confidence=[0.3] * 3, class_id=[parse_tiles("P")[0]] * 3)
    s0 = _seat0(scene, TileDetections.merge([dets, rim]))
    assert format_tiles(s0.hand) == "567m12388p111sEEE"


def _out_of_step(dets: TileDetections, first: int) -> TileDetections:
    """``dets`` with three tiles from row ``first`` boxed out of step (REALVAL9D
    table_s24_000099, three 4s): the middle box 0.45 widths on toward the last, the last box
    less sure than it, so the last two lie 0.55 widths apart, at one place."""
    mid, last = first + 1, first + 2
    dets.xyxy[mid] += 0.45 * (dets.xyxy[last] - dets.xyxy[mid])
    dets.confidence[mid], dets.confidence[last] = 0.76, 0.67
    return dets


def test_a_hand_a_tile_short_takes_back_a_box_beside_its_row() -> None:
    """Three 4s boxed out of step at a hand's end: of the last two boxes, at one place, the
    less sure is left out as a second box of the other's tile, and the hand holds 12. The row
    leaves room for two tiles there (two widths from the first 4s to the last), and no hand
    holds 12 (13 or 14, a meld counting 3): the box is taken back into the row."""
    scene = Scene(seats=[SeatSpec(hand="1234567m123p444s"), *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    assert format_tiles([int(k) for k in dets.class_id[10:13]]) == "444s"
    assert format_tiles(_seat0(scene, _out_of_step(dets, 10)).hand) == "1234567m123p444s"


def _named_by_nearest_tile(tiles: TileDetections, truth: list[int]):
    """A stand-in for the crop classifier: a box is the tile nearest its middle (``tiles``,
    their true kinds ``truth``), 0.9 sure."""
    def name_at(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        middle = (boxes[:, :2] + boxes[:, 2:]) / 2
        near = np.linalg.norm(middle[:, None] - tiles.center[None], axis=2).argmin(axis=1)
        return np.array(truth)[near][:, None], np.full((len(boxes), 1), 0.9)
    return name_at


def test_boxes_out_of_step_taken_back_are_named_at_their_tiles_places() -> None:
    """Fresh REALVAL22D table_s37_000190: of a hand's last tiles boxed out of step, the box
    astride two reads the kind of the one it was boxed with. Taken back into the row, it and
    its partner are named again each at its own tile's place (the classifier's, here a stand-in
    that names a box by the tile nearest its middle): 456s, not 466s."""
    scene = Scene(seats=[SeatSpec(hand="1234567m123p456s"), *OTHER_HANDS])
    dets, truth = detections(scene, top_down())
    tiles = dets[np.arange(len(dets))]  # where each tile lies
    dets = _out_of_step(dets, 10)
    six = parse_tiles("6s")[0]
    dets.class_id[11] = six
    dets.topk_ids[11] = [six, parse_tiles("5s")[0], -1]
    calib = TableCalibration.from_corners(table_corners(top_down()))

    name_at = _named_by_nearest_tile(tiles, truth)

    assert format_tiles(read_table(dets, calib).seats[0].hand) == "1234567m123p466s"
    named = read_table(dets, calib, name_at=name_at)
    assert format_tiles(named.seats[0].hand) == "1234567m123p456s"
    # scored as the classifier scores a box: the detector's own score times the new odds
    own = dets.confidence[11] / dets.topk_probs[11, 0]
    assert named.detections.confidence[11] == pytest.approx(own * 0.9)


def test_a_box_named_anew_keeps_the_detectors_score_and_ranks_what_fits() -> None:
    """``TileDetections.renamed``: the class is the first kind, the confidence the detector's
    own score (confidence over the old first odds) times the new first odds, the top-k the
    kinds that fit with the rest emptied; rows not named stay as they were."""
    one, two, three, four = parse_tiles("1m2m3m4m")
    dets = TileDetections(xyxy=np.array([[0, 0, 10, 14], [12, 0, 22, 14]], np.float32),
                          confidence=np.array([0.4, 0.9], np.float32),
                          class_id=np.array([one, two]),
                          topk_ids=np.array([[one, two, three], [two, one, -1]]),
                          topk_probs=np.array([[0.5, 0.3, 0.2], [1.0, 0.0, 0.0]], np.float32))

    out = dets.renamed({0: (np.array([four, three]), np.array([0.75, 0.25], np.float32))})

    assert out.class_id.tolist() == [four, two]
    assert out.confidence.tolist() == pytest.approx([0.8 * 0.75, 0.9])
    assert out.topk_ids.tolist() == [[four, three, -1], [two, one, -1]]
    assert out.topk_probs[0].tolist() == pytest.approx([0.75, 0.25, 0.0])
    assert dets.class_id.tolist() == [one, two]  # a copy
    assert dets.renamed({}) is dets


def test_a_winner_box_taken_back_is_named_again_as_a_still_and_live() -> None:
    """The winner's 444s boxed out of step, the box astride the last two read 5s (its top-k
    without 4s), the last left out: taken back, the hand is 445s and no reading from the
    top-k finishes it. Named again at
    their places (a stand-in classifier naming a box by the tile nearest its middle), the two
    read 44s and the win is found, by ``read`` and by the live pipeline's still reading."""
    scene = Scene(seats=[SeatSpec(hand="123456789m55p444s"), *OTHER_HANDS])
    dets, calib = _dets(scene)
    _, truth = detections(scene, top_down())
    tiles = dets[np.arange(len(dets))]
    dets = _out_of_step(dets, 11)
    four_s, five_s, eight_s = parse_tiles("4s5s8s")
    dets.class_id[12], dets.topk_ids[12] = five_s, [five_s, eight_s, -1]
    for sure in (11, 13):  # the two 4s boxed alone read 4s only
        dets.topk_ids[sure], dets.topk_probs[sure] = [four_s, -1, -1], [1.0, 0.0, 0.0]

    name_at = _named_by_nearest_tile(tiles, truth)

    assert not parse_record(read_detections(dets, calib, ruleset="shandong").record).wins
    out = read_detections(dets, calib, ruleset="shandong", name_at=name_at)
    assert format_tiles(sorted(parse_record(out.record).seats[0].concealed)) == \
        "123456789m55p444s"

    class Named(_Still):
        def as_still(self):
            return self

        def name_places(self, image: np.ndarray, boxes: np.ndarray):
            return name_at(boxes)

    assert _live_wins(Named(dets), "shandong")[0] == [[0]]


def test_a_stray_box_in_a_winners_row_of_fifteen_is_left_out_as_a_still_and_live() -> None:
    """Fresh real-face table_s24_000029: a box read 1s at 0.07 across the gap between the
    winner's hand and the claimed 8s of ``879s`` made the row 15 tiles, one more than any
    hand holds, and no win was read. Without its least sure box the hand finishes: the box is
    a stray, left out, by ``read`` and by the live pipeline's still reading alike."""
    scene = Scene(seats=[SeatSpec(hand="456m345p22888s", melds=[("chow", "879s", 0)]),
                         *OTHER_HANDS])
    dets, calib = _dets(scene)
    _, row = _meld_row(scene)
    hand_end, claimed = dets.xyxy[row[10]], dets.xyxy[row[11]]
    width = float(hand_end[2] - hand_end[0])
    box = [hand_end[2] - 0.1 * width, hand_end[1], claimed[0] + 0.5 * width, hand_end[3]]
    stray = TileDetections(xyxy=np.array([box], np.float32),
                           confidence=np.array([0.07], np.float32),
                           class_id=np.array(parse_tiles("1s")))
    dets = TileDetections.merge([dets, stray])

    out = read_detections(dets, calib, ruleset="shandong")

    record = parse_record(out.record)
    assert record.wins[0].seat == 0
    assert format_tiles(sorted(record.seats[0].concealed)) == "456m345p22888s"
    assert [m.text for m in record.seats[0].melds] == ["789s"]
    assert any("left out as a stray" in n for n in out.notes)
    assert _live_wins(_Still(dets), "shandong")[0] == [[0]]
    # a hand that finishes only by renaming a sure tile besides (its 5p read 6p at 0.99999, 5p
    # its runner-up at 1e-5) is no stray's: two unlikely things at once, and no win is read
    five = dets.labels.index("5p")  # the winner's: no other seat holds one
    dets.topk_ids[:] = -1  # every other tile read surely: no other kind is likely for any
    dets.topk_ids[:, 0], dets.topk_probs[:] = dets.class_id, [1.0, 0.0, 0.0]
    dets.class_id[five] = parse_tiles("6p")[0]
    dets.topk_ids[five, :2] = [dets.class_id[five], parse_tiles("5p")[0]]
    dets.topk_probs[five, :2] = [0.99999, 0.00001]
    out = read_detections(dets, calib, ruleset="shandong")
    assert not parse_record(out.record).wins
    assert not any("left out as a stray" in n for n in out.notes)


def test_a_box_at_one_place_with_a_tile_stays_out_of_a_full_row() -> None:
    """The same two boxes at one place, but a whole hand beside them (13): the less sure is
    still a second box, left out of the row."""
    scene = Scene(seats=[SeatSpec(hand="1234567m123p4444s"), *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    dets = _out_of_step(dets, 11)
    assert format_tiles(_seat0(scene, dets).hand) == "1234567m123p444s"


def test_a_winning_hand_a_tile_short_takes_back_the_box_it_lacks() -> None:
    """REALVAL9D table_s24_000099: the winner's 444s boxed out of step, its last 4s left out
    as a second box, and the hand lying down 13 tiles: no win was recorded. The box its
    finished hand lacks is taken back, and the change is told."""
    scene = Scene(seats=[SeatSpec(hand="123456789m55p444s"), *OTHER_HANDS])
    dets, calib = _dets(scene)
    dets = _out_of_step(dets, 11)
    out = read_detections(dets, calib, ruleset="shandong")
    record = parse_record(out.record)
    assert record.wins[0].seat == 0
    assert format_tiles(sorted(record.seats[0].concealed)) == "123456789m55p444s"
    assert any("the tile its finished hand lacks" in n for n in out.notes)
    named = read_detections(dets, calib, ruleset="shandong", winner=0)  # as `read --winner`
    assert format_tiles(sorted(parse_record(named.record).seats[0].concealed)) == \
        "123456789m55p444s"
    assert _live_wins(_Still(dets), "shandong")[0] == [[0]]  # live, the same reading step


def test_a_tile_boxed_twice_before_a_gap_makes_no_pair() -> None:
    """REALVAL11D table_s26_000233: a seat waiting on a single 2p, its four melds laid apart,
    the 2p boxed twice 0.03 widths apart. The gap before the melds leaves room for two tiles,
    but two boxes of one tile lie nearer than two tiles out of step (``SPARE_STEP``): no 22p,
    and no win by a seat whose hand was never finished."""
    melds = [("chow", "123m", 0), ("chow", "789p", 0), ("chow", "123s", 0), ("chow", "345s", 0)]
    scene = Scene(seats=[SeatSpec(hand="2p", melds=melds), *OTHER_HANDS], meld_gap=12.0)
    dets, calib = _dets(scene)
    dets = _astride(dets, 0, 1, 0.03, 0.6, "2p")
    out = read_detections(dets, calib, ruleset="shandong")
    assert format_tiles(out.table.seats[0].hand) == "2p"
    assert not parse_record(out.record).wins


def test_a_flower_in_front_of_a_sideways_meld_tile_is_not_in_the_row() -> None:
    """REALVAL3 table_s16_000030: an f4 read as 3s lies in front of a chow's sideways tile,
    its centre a little over half a width along from it. Neighbours in a row lie a width
    apart or more (more beside a sideways tile), so it is the flower, and the chow is read."""
    scene = Scene(seats=[SeatSpec(hand="1234567m55s", melds=[("chow", "456p", 0)],
                                  flowers="f2f4"), *OTHER_HANDS])
    dets = _f4_read_as_1s(scene, 13)
    side = dets.xyxy[9]  # the chow's sideways 4p
    middle = (side[0] + side[2]) / 2 - 18.0  # 0.55 widths along from its centre
    dets.xyxy[13, [1, 3]] += 13.0  # toward the hand, as in the scene
    dets.xyxy[13, [0, 2]] = [middle - 16.2, middle + 16.2]
    s0 = _seat0(scene, dets)
    assert [format_tiles(m.tiles) for m in s0.melds] == ["456p"]
    assert format_tiles(s0.hand) == "1234567m55s" and format_tiles(s0.flowers) == "f4f2"


def test_a_flower_at_the_rows_end_in_front_of_its_line_is_not_in_the_row() -> None:
    """Fresh real-face table_s26_000043: an f8 read as 1s lay a width past the row's last meld
    and 1.06 widths in front of the row's line (its own tiles within 0.4 of it), close enough
    to be taken into the row; ending it, it left no cut of melds, and the seat's hand and both
    melds were read as a hand of fifteen. A tile at a row's end that far in front of the
    others' line is no part of the row: the flower, and the melds read again."""
    scene = Scene(seats=[SeatSpec(hand="1234567m55s", melds=[("chow", "456p", 0)],
                                  flowers="f2f4"), *OTHER_HANDS])
    dets = _f4_read_as_1s(scene, 13)
    last = dets.xyxy[11]  # the chow's last tile, the row's right end
    width = float(last[2] - last[0])
    dets.xyxy[13] = last + np.array([1.05, -1.06, 1.05, -1.06], np.float32) * width
    s0 = _seat0(scene, dets)
    assert [format_tiles(m.tiles) for m in s0.melds] == ["456p"]
    assert format_tiles(s0.hand) == "1234567m55s" and "f4" in format_tiles(s0.flowers)


def test_unsure_boxes_on_the_cloth_beyond_a_hand_are_no_row() -> None:
    """Fresh real-face table_s27_000217: five boxes on a light cloth a tile's length beyond
    the winner's hand, scored 0.08-0.19 and read 9s and 白, made the seat's outermost run;
    the hand, inside it, was read as the pond. A run of unsure faces alone, sure faces inside
    it, is no row; the same run scored surely still is (the row rules are unchanged)."""
    scene = Scene(seats=[SeatSpec(hand="1234567m55s", melds=[("chow", "456p", 0)]),
                         *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    hand = np.flatnonzero(dets.center[:, 1] > np.percentile(dets.center[:, 1], 85))
    first = hand[np.argsort(dets.center[hand, 0])][:4]
    beyond = dets[first]
    height = float(np.median(beyond.xyxy[:, 3] - beyond.xyxy[:, 1]))
    beyond = beyond.with_(xyxy=beyond.xyxy + np.array([0, 1.3, 0, 1.3], np.float32) * height,
                          confidence=np.full(len(beyond), 0.12, np.float32))
    s0 = _seat0(scene, TileDetections.merge([dets, beyond]))
    assert format_tiles(s0.hand) == "1234567m55s"
    assert [format_tiles(m.tiles) for m in s0.melds] == ["456p"]
    sure = beyond.with_(confidence=np.full(len(beyond), 0.6, np.float32))
    assert format_tiles(_seat0(scene, TileDetections.merge([dets, sure])).hand) != "1234567m55s"


def test_a_hand_tile_read_as_a_flower_stays_in_the_hand() -> None:
    """A tile in line with a hand's row read as f4 (its own kind the runner-up): flowers lie in
    front of the hand, never in its row, so it is the runner-up, in the hand."""
    scene = Scene(seats=[SeatSpec(hand="1234567m123p55s"), *OTHER_HANDS])
    dets, truth = detections(scene, top_down(), {5: parse_tiles("f4")[0]})
    assert truth[5] == parse_tiles("6m")[0]
    table = read_table(dets, TableCalibration.from_corners(table_corners(top_down())))
    assert format_tiles(table.seats[0].hand) == "1234567m123p55s"
    assert table.seats[0].flowers == [] and table.corrected == {5: truth[5]}


def test_a_closed_hand_of_sets_is_not_cut_into_melds() -> None:
    """Tiles of a standing hand lie touching: no gap there starts a meld, though the whole
    row cuts into sets."""
    scene = Scene(seats=[SeatSpec(hand="123m234p567s789s"), SeatSpec(), SeatSpec(),
                         SeatSpec()])
    s0 = _seat0(scene)
    assert s0.melds == [] and format_tiles(s0.hand) == "123m234p567789s"


@pytest.mark.parametrize("toward", [1, -1], ids=["forward", "back"])
def test_a_box_shifted_onto_its_neighbour_opens_no_gap_between_sets(toward: int) -> None:
    """A hand's tile boxed 0.38 widths off its place along the row (a held-back 4s, fresh
    REALVAL23D table_s38_000093): the gap it leaves on one side is as wide as a meld's, the
    other side overlaps its neighbour as no two tiles lying flat do. The gap is the box's
    error: the hand is not cut into ``456s 789s 999s`` melds."""
    scene = Scene(seats=[SeatSpec(hand="123m55p456789999s"), *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    four = 5 if toward > 0 else 6  # the 4s boxed onto the 5s, or the 5s onto the 4s
    assert format_tiles([int(dets.class_id[four])]) == ("4s" if toward > 0 else "5s")
    step = dets.xyxy[four + toward] - dets.xyxy[four]
    dets.xyxy[four] += 0.38 * step
    s0 = _seat0(scene, dets)
    assert s0.melds == [] and format_tiles(s0.hand) == "123m55p456789999s"


def test_a_face_among_a_standing_hands_backs_is_a_stray() -> None:
    """A standing hand shows backs only: a back read as a face (or half of a sideways meld
    tile boxed twice) is no hand of one tile beside ten backs; the pung is read as before."""
    scene = Scene(seats=[SeatSpec(hidden=10, melds=[("pung", "333p", 1)]), *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    clean = _seat0(scene, dets)
    assert clean.hidden == 10 and clean.hand == []
    back = next(i for i in range(len(dets)) if dets.is_back[i]
                and dets.center[i, 1] > dets.center[:, 1].mean())  # one of seat 0's (bottom)
    dets.class_id[back] = parse_tiles("2s")[0]
    s0 = _seat0(scene, dets)
    assert s0.hand == [] and s0.hand_rows == [] and s0.hidden == 9
    assert [(m.type, format_tiles(m.tiles)) for m in s0.melds] == [("pung", "333p")]


def test_a_standing_hand_boxed_beyond_its_melds_keeps_them_melds() -> None:
    """The bundled table_1's seat 3: its standing hand's backs were boxed at a slant, 1.3
    widths beyond the line of its two chows and reaching along it over the first. The backs
    are the hand, the face-up run with the sideways tiles its melds, not the pond."""
    scene = Scene(seats=[SeatSpec(hidden=10, melds=[("chow", "456m", 0), ("chow", "123m", 0)]),
                         *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    mine = dets.center[:, 1] > dets.center[:, 1].mean() + 200  # seat 0 lies at the bottom
    backs = np.flatnonzero(dets.is_back & mine)
    ups = np.flatnonzero(dets.is_tile & mine)
    assert len(backs) == 10 and len(ups) == 6
    width = float(np.median(dets.xyxy[ups, 2] - dets.xyxy[ups, 0]))
    dets.xyxy[backs[:, None], [1, 3]] += 1.3 * width  # down: beyond the melds' line
    dets.xyxy[backs[:, None], [0, 2]] += 3.0 * width  # along: over the first chow
    s0 = _seat0(scene, dets)
    assert [(m.type, format_tiles(m.tiles)) for m in s0.melds] == [
        ("chow", "456m"), ("chow", "123m")]
    assert s0.hand == [] and s0.hidden == 10 and s0.discards == []


def test_melds_inside_a_standing_hand_stay_melds_beside_the_walls_end() -> None:
    """Fresh real-face table_s21_000025: a standing hand's backs, its two chows (claimed tiles
    sideways) just inside them, and the wall's end a width past them, 0.7 widths farther in.
    The face-up run inside the backs went on into the wall's stacks, held backs, and so was
    not taken: the chows were read as discards. The melds end where the wall begins."""
    scene = Scene(seats=[SeatSpec(hidden=3, melds=[("chow", "345p", 2), ("chow", "123m", 0)],
                                  flowers="f7f8"), *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    mine = dets.center[:, 1] > 900  # seat 0 lies at the bottom
    backs = np.flatnonzero(dets.is_back & mine)
    ups = np.flatnonzero(dets.is_tile & mine)
    assert len(backs) == 3 and len(ups) == 8
    width = float(np.median(dets.xyxy[ups, 2] - dets.xyxy[ups, 0]))
    dets.xyxy[backs[:, None], [1, 3]] += 1.6 * width  # down: beyond the melds' line
    melds = ups[~np.isin(dets.class_id[ups], parse_tiles("f7f8"))]
    wall = dets[np.repeat(backs[:1], 5)]  # the wall's last stacks, 0.7 widths inside them
    wall.xyxy[:, [1, 3]] = dets.xyxy[melds[-1], [1, 3]] - 0.7 * width
    wall.xyxy[:, 0] = float(dets.xyxy[melds, 2].max()) + width * (1.0 + np.arange(5))
    wall.xyxy[:, 2] = wall.xyxy[:, 0] + 0.95 * width
    s0 = _seat0(scene, TileDetections.merge([dets, wall]))
    assert sorted(format_tiles(m.tiles) for m in s0.melds) == ["123m", "345p"]
    assert s0.hidden == 3 and s0.discards == [] and format_tiles(s0.flowers) in ("f7f8", "f8f7")


def test_melds_half_a_width_beyond_the_wall_with_the_standing_hand_unboxed_are_melds() -> None:
    """Fresh real-face table_s21_000165 and table_s22_000032: a seat's standing hand not
    boxed at all, its two chows (claimed tiles sideways) lying half a width beyond its wall.
    The row ran on from the melds into the wall's 17 stacks, more backs than a hand holds, so
    the whole row was taken for the wall and the melds for discards. Face-up tiles beyond all
    of a wall's backs, a claimed tile sideways among them, are the seat's melds."""
    scene = Scene(seats=[SeatSpec(melds=[("chow", "345m", 0), ("chow", "456p", 2)]),
                         *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    mine = np.flatnonzero(dets.is_tile & (dets.center[:, 1] > 900))  # seat 0: the bottom
    assert len(mine) == 6
    width = float(np.median(dets.xyxy[mine, 2] - dets.xyxy[mine, 0]))
    height = float(np.median(dets.xyxy[mine, 3] - dets.xyxy[mine, 1]))
    wall = dets[np.repeat(mine[:1], 17)]  # 17 stacks, centres 0.6 widths inside the melds'
    wall.class_id[:] = BACK_CLASS  # (a wall's stacks stand high: their boxes reach out)
    wall.xyxy[:, 1] = float(np.median(dets.center[mine, 1])) - 0.6 * width - height / 2
    wall.xyxy[:, 3] = wall.xyxy[:, 1] + height
    wall.xyxy[:, 0] = float(dets.xyxy[mine, 0].min()) - 8 * width + width * np.arange(17)
    wall.xyxy[:, 2] = wall.xyxy[:, 0] + 0.98 * width
    s0 = _seat0(scene, TileDetections.merge([dets, wall]))
    assert sorted(format_tiles(m.tiles) for m in s0.melds) == ["345m", "456p"]
    assert s0.hand == [] and s0.discards == []


def test_three_discards_alone_in_a_seats_row_are_no_hand() -> None:
    """Fresh real-face table_s22_000072: every standing hand unboxed, a seat's outermost tiles
    were its first three discards, read as its hand. No hand shows so few tiles without backs
    or melds (it holds 13 or 14, less three a meld): they are the pond's."""
    others = [SeatSpec(discards="2s3s4s5s6s7s8s")] * 3
    s0 = _seat0(Scene(seats=[SeatSpec(discards="1m9pN"), *others]))
    assert s0.hand == [] and s0.melds == []
    assert sorted(s0.discards) == sorted(parse_tiles("1m9pN"))


def test_a_run_at_the_hands_end_before_a_wider_gap_is_no_meld() -> None:
    """Fresh real-face table_s21_000040: a hand ending ``123 345s``, its last run boxed an
    eighth of a width apart from the rest, then the hand's gap and a chow with its claimed tile
    sideways. The run was cut as a meld though the gap after it, between it and the chow, was
    wider than the one before it: melds lie closer together (8 mm) than to the hand (14 mm)."""
    scene = Scene(seats=[SeatSpec(hand="88m789p123345s", melds=[("chow", "123p", 0)]),
                         *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    mine = np.flatnonzero(dets.is_tile & (dets.center[:, 1] > 900))  # seat 0: the bottom
    run = mine[np.argsort(dets.center[mine, 0])][8:11]
    assert format_tiles(dets.class_id[run].tolist()) == "345s"
    width = float(np.median(dets.xyxy[mine, 2] - dets.xyxy[mine, 0]))
    dets.xyxy[run[:, None], [0, 2]] += 0.13 * width
    s0 = _seat0(scene, dets)
    assert [format_tiles(m.tiles) for m in s0.melds] == ["123p"]
    assert format_tiles(s0.hand) == "88m789p123345s"


def test_three_of_a_kind_far_apart_along_a_row_are_no_meld() -> None:
    """Fresh real-face table_s21_000027: three 白 read on the tops of a standing hand that was
    otherwise unboxed, six widths apart along its row, were read as a pung. A meld's tiles
    lie side by side."""
    scene = Scene(seats=[SeatSpec(hand="PPP"), *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    mine = np.flatnonzero(dets.is_tile & (dets.center[:, 1] > 900))  # seat 0: the bottom
    width = float(np.median(dets.xyxy[mine, 2] - dets.xyxy[mine, 0]))
    for j, row in enumerate(mine[np.argsort(dets.center[mine, 0])]):
        dets.xyxy[row, [0, 2]] += (j - 1) * 5.5 * width
    s0 = _seat0(scene, dets)
    assert s0.melds == [] and s0.hand == []


def test_a_tile_boxed_twice_in_the_rows_band_is_no_pond_before_the_hand() -> None:
    """Fresh real-face table_s22_000081: a winner's hand row lying a width farther in than the
    other seats' hands, one of its tiles boxed twice (the second box a little off the row, so
    left out of it). That box was taken for the pond, lying where no pond lies, and the whole
    hand for discards; the pond lies well inside the row."""
    scene = Scene(seats=[SeatSpec(hand="456666788mSSS55p"), *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    mine = np.flatnonzero(dets.center[:, 1] > 900)  # seat 0 lies at the bottom
    assert len(mine) == 14
    width = float(np.median(dets.xyxy[mine, 2] - dets.xyxy[mine, 0]))
    dets.xyxy[mine[:, None], [1, 3]] -= 1.2 * width  # up: farther in than the other hands
    twice = dets[mine[5:6]]
    twice.xyxy[:, [1, 3]] += 0.3 * width  # the same tile boxed again, a little off the row
    twice.xyxy[:, [0, 2]] += 0.45 * width
    s0 = _seat0(scene, TileDetections.merge([dets, twice]))
    assert format_tiles(sorted(s0.hand)) == "456666788m55pSSS" and len(s0.discards) <= 1


@pytest.mark.parametrize(("melds", "shown"), [
    ([("pung", "NNN", None), ("pung", "555p", None)], ["NNN", "555p"]),
    ([("kong", "2222s", None), ("pung", "666p", None)], ["2222s", "666p"])])
def test_melds_of_a_seat_whose_hand_is_out_of_view_are_no_hand(melds, shown) -> None:
    """Fresh real-face table_s21_000161 and 000142: a seat's standing hand out of view, its
    melds laid tight (no gap that parts them) with no claimed tile seen sideways. Six tiles,
    or a kong and a pung, are no hand's count (13 or 14 less three a meld): they are melds."""
    scene = Scene(seats=[SeatSpec(melds=melds, flowers="f6"), *OTHER_HANDS], meld_gap=1.0)
    s0 = _seat0(scene)
    assert [format_tiles(m.tiles) for m in s0.melds] == shown
    assert s0.hand == [] and format_tiles(s0.flowers) == "f6"


def test_a_kong_and_a_pung_before_melds_shown_by_their_claimed_tiles_are_melds() -> None:
    """Fresh real-face table_s22_000062: a seat's hand out of view, a kong and a pung laid
    tight (no claimed tile seen, no gap between them) before two runs each shown by its claimed
    tile. The runs were cut as melds and the kong and pung left as a hand of seven; the kong
    taken as three, that is six tiles, no hand's count: they are melds too."""
    melds = [("kong", "7777m", None), ("pung", "999p", None), ("chow", "456p", 0),
             ("chow", "789s", 0)]
    scene = Scene(seats=[SeatSpec(melds=melds, flowers="f6"), *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    row = np.flatnonzero((dets.center[:, 1] > 900) & (dets.class_id < 34))
    row = row[np.argsort(dets.center[row, 0])]
    kong, pung = row[:4], row[4:7]
    gap = float(dets.xyxy[pung[0], 0] - dets.xyxy[kong[-1], 2])
    dets.xyxy[kong[:, None], [0, 2]] += gap - 0.5  # laid against the pung
    s0 = _seat0(scene, dets)
    assert [format_tiles(m.tiles) for m in s0.melds] == ["7777m", "999p", "456p", "789s"]
    assert s0.hand == []


def test_a_hand_of_sets_with_a_tile_over_is_still_a_hand() -> None:
    """Seven face-up tiles that cut into a kong and a pung with none over could be melds, but
    eight (a pung, a pung, a pair) are a hand's count: a hand."""
    scene = Scene(seats=[SeatSpec(hand="222s666p55m"), *OTHER_HANDS])
    s0 = _seat0(scene)
    assert s0.melds == [] and format_tiles(sorted(s0.hand)) == "55m666p222s"


def test_a_flower_past_the_corner_diagonal_belongs_to_the_row_it_lies_in_front_of() -> None:
    """REALVAL3 table_s16_000048: a flower in front of a row's end, near the table corner,
    lies past the diagonal that splits the seats. It is in front of seat 0's row (2 widths
    in, beside the row's first tile) and of no row of the seat beside: seat 0's."""
    scene = Scene(seats=[SeatSpec(hand="1234567m123p55s", flowers="f2",
                                  melds=[("pung", "EEE", 1), ("pung", "WWW", 2),
                                         ("pung", "999p", 1)]), *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    f2 = int(np.flatnonzero(dets.class_id == parse_tiles("f2")[0])[0])
    row = np.flatnonzero(dets.center[:, 1] > dets.center[f2, 1] + 5)  # seat 0's row
    w, h = (float(np.median(dets.xyxy[row, j + 2] - dets.xyxy[row, j])) for j in (0, 1))
    cx = float(dets.xyxy[row, 0].min()) - 0.3 * w
    cy = float(np.median(dets.center[row, 1])) - 2.0 * w
    dets.xyxy[f2] = [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]
    centre = 540.0  # top_down's picture centre
    assert abs(cx - centre) > abs(cy - centre)  # past the diagonal: seat 3's side of it
    table = read_table(dets, TableCalibration.from_corners(table_corners(top_down())))
    assert format_tiles(table.seats[0].flowers) == "f2" and table.seats[3].flowers == []


def test_a_flower_past_the_diagonal_of_a_seat_showing_no_row_joins_the_flowers_beside_it(
        ) -> None:
    """Fresh real-face table_s18_000053: a seat's standing hand unboxed, its flowers ``f3 f4
    f8`` in a row toward the corner, the ``f8`` past the diagonal; it went to the seat beside.
    A flower in front of no row of the diagonal's seat and apart from its flowers, in line
    beside the flowers of one other seat, is that seat's."""
    scene = Scene(seats=[SeatSpec(hidden=13, flowers="f3f4f8"), *OTHER_HANDS])
    dets, truth = detections(scene, top_down())
    flowers = np.flatnonzero(np.isin(dets.class_id, parse_tiles("f3f4f8")))
    standing = [i for i in range(len(dets)) if truth[i] == BACK_CLASS
                and dets.center[i, 1] > dets.center[flowers, 1].max()]
    assert len(flowers) == 3 and len(standing) == 13
    w = float(np.median(dets.xyxy[flowers, 2] - dets.xyxy[flowers, 0]))
    centre = 540.0  # top_down's picture centre
    cy = float(dets.center[flowers[0], 1])
    shift = (centre + (cy - centre) + 0.6 * w) - float(dets.center[flowers, 0].max())
    dets.xyxy[flowers[:, None], [0, 2]] += shift  # toward the corner
    last = flowers[np.argmax(dets.center[flowers, 0])]
    assert abs(dets.center[last, 0] - centre) > abs(cy - centre)  # past the diagonal
    seen = dets[[i for i in range(len(dets)) if i not in standing]]
    table = read_table(seen, TableCalibration.from_corners(table_corners(top_down())))
    assert format_tiles(table.seats[0].flowers) == "f3f4f8"
    assert all(not t.flowers for t in table.seats[1:])


def test_the_ponds_first_discards_close_in_front_of_a_standing_hand_are_discards() -> None:
    """Fresh real-face table_s18_000077: a seat's first three discards lay close in front of
    its standing hand, in its row, and were read as its hand, ``3m1s9s`` beside ten backs.
    Faces that make no meld beside a standing hand of twice their number are discards."""
    scene = Scene(seats=[SeatSpec(hidden=10, discards="3m1s9s"), *OTHER_HANDS], wall=40)
    dets, truth = detections(scene, top_down())
    near = (dets.center[:, 1] > 540) & (np.abs(dets.center[:, 0] - 540) < 250)  # seat 0's side
    pond = np.flatnonzero(np.isin(dets.class_id, parse_tiles("3m1s9s")) & near)
    backs = np.flatnonzero(np.array(truth) == BACK_CLASS)
    standing = backs[dets.center[backs, 1] > dets.center[backs, 1].max() - 5]  # the outermost
    assert len(pond) == 3 and len(standing) == 10
    w = float(np.median(dets.xyxy[pond, 2] - dets.xyxy[pond, 0]))
    row_y = float(np.median(dets.center[standing, 1]))
    dets.xyxy[pond[:, None], [1, 3]] += row_y - 0.8 * w - float(np.median(dets.center[pond, 1]))
    s0 = _seat0(scene, dets)
    assert s0.hand == [] and s0.hidden == 10 and not s0.melds
    assert format_tiles(s0.discards) == "3m19s"


def test_a_row_the_geometry_calls_mostly_sideways_is_told_by_its_own_shape() -> None:
    """Three tiles of a row all taken for sideways (a calibration off by a turn) cannot be:
    a row holds at most one claimed tile a meld, so the row's usual box shape is upright and
    only the box wider than it by half of what lying across adds is sideways. Two neighbours
    called sideways must look it; one alone keeps the geometry's word."""
    from vision.geometry import _row_sideways

    rows, along = np.arange(4), np.arange(4.0)
    seen = np.log(np.array([0.75, 0.74, 1.35, 0.76]))  # width / height: one across
    across = np.full(4, np.log(1.37) * 2)
    every = np.ones(4, bool)
    assert _row_sideways(rows, every, seen, across, along).tolist() == [False, False, True,
                                                                        False]
    pair = np.array([False, True, True, False])  # neighbours: the upright one is not
    assert _row_sideways(rows, pair, seen, across, along).tolist() == [False, False, True,
                                                                       False]
    alone = np.array([True, False, False, False])  # one alone: the geometry is kept
    assert _row_sideways(rows, alone, seen, across, along).tolist() == alone.tolist()


@pytest.mark.parametrize(("read", "runners_up", "meld"), [
    ("133m", ["2m", "2m", "2m"], "123m"),  # fresh table_s22_000080: one tile misread
    ("277m", ["8m", "6m", "6m"], None),  # table_s22_000096: a hand's tiles, two renamed
    ("555m", ["6m", "6m", "6m"], "555m"),
    ("556m", ["6m", "6m", "5m"], None),  # a pung with no claimed tile only as read
])
def test_a_run_with_no_claimed_tile_renames_one_tile_at_most(read, runners_up, meld) -> None:
    """Three upright tiles (no claimed tile seen sideways) are a meld only when they make a
    set as read, or a run with one tile named by a likely-enough other kind. Naming two by
    kinds the classifier all but ruled out (1e-4) cut a winner's hand into runs."""
    from vision.geometry import _as_meld

    kinds = parse_tiles(read)
    alts = parse_tiles("".join(runners_up[i] for i in range(3)))
    dets = TileDetections(xyxy=np.array([[40.0 * i, 0, 40.0 * i + 30, 40] for i in range(3)]),
                          confidence=np.full(3, 0.8), class_id=kinds,
                          topk_ids=np.array([[k, a] for k, a in zip(kinds, alts, strict=True)]),
                          topk_probs=np.tile([0.9999, 0.0001], (3, 1)))
    out = _as_meld(dets, [0, 1, 2], np.zeros(3, bool), seat=0)
    assert (out and format_tiles(sorted(out.tiles))) == meld if meld else out is None


@pytest.mark.parametrize("side,claimed_from", [(0, 3), (1, 2), (2, 1)])
def test_sideways_position_tells_whom_the_pung_came_from(side: int, claimed_from: int) -> None:
    scene = Scene(seats=[SeatSpec(hand="1234567m11p", melds=[("pung", "SSS", side)]),
                         SeatSpec(), SeatSpec(), SeatSpec()])
    dets, _ = detections(scene, top_down())
    table = read_table(dets, TableCalibration.from_corners(table_corners(top_down())))
    assert [(m.type, m.from_seat) for m in table.seats[0].melds] == [("pung", claimed_from)]


def test_whole_record_from_a_showdown_is_valid_and_right() -> None:
    out = read_detections(*_dets(SHOWDOWN), ruleset="shandong", dealer=1)
    record = parse_record(out.record)  # validates every field and the counts
    assert record.wins[0].seat == 0 and record.wins[0].tile == parse_tiles("W")[0]
    assert record.seats[1].melds[0].from_seat == 0
    assert record.seats[3].melds[1].type == "concealed_kong"
    assert record.seats[2].concealed == ()  # standing tiles seen from behind: unknown
    assert record.context.dice == (3, 4)
    assert out.repair.legal and not out.repair.changes
    assert set(out.waits) == {1, 3}  # the seats showing 13 tiles face up
    assert [t for t, _ in out.waits[1]] == parse_tiles("5s")
    assert out.waits[3] == []  # 1234s waits on 1s / 4s pairs, which Shandong's 258 rule refuses


def _dets(scene: Scene, misread: dict[int, int] | None = None):
    cam = top_down()
    dets, _ = detections(scene, cam, misread)
    return dets, TableCalibration.from_corners(table_corners(cam))


def test_a_stray_back_beside_a_winning_hand_laid_down_hides_no_win() -> None:
    """A back box in the winner's row (the detector's least sure kind, one more than the hand
    holds) neither hides the win nor empties the winner's hand in the record, as the live
    pipeline's win check has it; another seat's backs still leave its hand unknown."""
    seats = [SeatSpec(hand="123m456p78988sWWW", hidden=1), *SHOWDOWN.seats[1:]]
    out = read_detections(*_dets(Scene(seats=seats, wall=60, dice=(3, 4))), ruleset="shandong")
    assert out.table.seats[0].hidden == 1 and out.table.seats[0].face_up_count == 14
    record = parse_record(out.record)
    assert record.wins[0].seat == 0
    assert format_tiles(sorted(record.seats[0].concealed)) == "123m456p78889sWWW"
    assert record.seats[2].concealed == ()  # ten standing tiles seen from behind: unknown
    assert any("1 back beside a winning hand" in n for n in out.notes)


def test_impossible_winner_hand_is_repaired_from_top_k_and_flagged() -> None:
    # body 4 is the winner's 5p; read as 6p (runner-up 5p): 123m4 6 6p... is not a finished hand
    out = read_detections(*_dets(SHOWDOWN, {4: parse_tiles("6p")[0]}), ruleset="shandong")
    assert out.repair.legal
    assert [str(c) for c in out.repair.changes] == ["6p->5p"]
    assert format_tiles(out.table.seats[0].hand) == "123m456p78988sWWW"
    assert any("6p->5p" in n for n in out.notes)
    parse_record(out.record)


@pytest.mark.parametrize(("odds", "won"), [((0.99, 0.01), True), ((0.9995, 0.0005), False)])
def test_a_hand_that_finishes_only_by_renaming_a_sure_tile_is_no_win(
        odds: tuple[float, float], won: bool) -> None:
    """Fresh real-face table_s31_000233: a seat whose melds were read into its hand finished
    only with a 2p read at 0.997 renamed 8p, and was recorded as the winner in the true
    winner's place. A hand is read finished only by changes likelier than 1 in 1000 together
    (``WIN_REPAIR``): the winner's 5p read 6p with 5p the runner-up at 0.01 is mended; at
    0.0005 no win is read, unless the caller names the winner (then the likeliest reading
    that finishes it, however unlikely)."""
    dets, calib = _dets(SHOWDOWN, {4: parse_tiles("6p")[0]})
    dets.topk_ids[:, 1:], dets.topk_probs[:] = -1, [1.0, 0.0, 0.0]  # every other tile sure
    dets.topk_ids[4, 1], dets.topk_probs[4, :2] = parse_tiles("5p")[0], odds
    out = read_detections(dets, calib, ruleset="shandong")
    wins = parse_record(out.record).wins
    assert bool(wins) == won
    assert [str(c) for c in out.repair.changes] == (["6p->5p"] if won else [])
    named = read_detections(dets, calib, ruleset="shandong", winner=0)
    assert parse_record(named.record).wins[0].seat == 0
    assert format_tiles(named.table.seats[0].hand) == "123m456p78988sWWW"


def test_a_reading_is_the_same_on_a_busy_machine(monkeypatch) -> None:
    """The repair search, of a still and of a live frame, is bounded by its tries, not by
    seconds: on a machine so busy that every look at the clock finds ten seconds gone, the same
    record comes out (with a deadline, the search stopped before its first try and the win was
    lost)."""
    import copy
    import itertools
    import time

    from vision.pipeline import REPAIR_TRIES
    from vision.reading import legal_reading

    misread = _dets(SHOWDOWN, {4: parse_tiles("6p")[0]})
    table = read_table(*misread)

    def both() -> tuple:
        still = read_detections(*misread, ruleset="shandong")
        live = copy.deepcopy(table)
        fixed, finished = legal_reading(live, "shandong", [0], max_tries=REPAIR_TRIES)
        return still.record, [str(c) for c in fixed.changes], finished, format_tiles(
            live.seats[0].hand)

    calm = both()
    ticks = itertools.count(0.0, 10.0)
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks))
    monkeypatch.setattr(time, "monotonic", lambda: next(ticks))
    assert both() == calm
    assert calm[1:] == (["6p->5p"], [0], "123m456p78988sWWW")


def test_a_misread_elsewhere_does_not_cost_the_win_laid_down() -> None:
    """The winner's 5p read as 6p (runner-up 5p), and two of seat 1's discards read as C with
    no runner-up at all beside seat 3's concealed kong of C: a fifth and sixth C that no
    change can take away. The winner's own hand is still finished from its top-k; the rest
    is left as seen and said to be impossible."""
    c, five_p = parse_tiles("C")[0], parse_tiles("5p")[0]
    dets, calib = _dets(SHOWDOWN, {4: parse_tiles("6p")[0], 37: c, 38: c})
    for row in (37, 38):
        dets.topk_ids[row] = [c, -1, -1]
        dets.topk_probs[row] = [1.0, 0.0, 0.0]
    out = read_detections(dets, calib, ruleset="shandong")
    assert out.record["outcome"] == "win" and out.record["wins"][0]["seat"] == 0
    assert format_tiles(out.table.seats[0].hand) == "123m456p78988sWWW"
    assert [(c.old, c.new) for c in out.repair.changes] == [(parse_tiles("6p")[0], five_p)]
    assert not out.repair.legal and any("6 copies of C" in n for n in out.notes)


def test_fifth_copy_is_repaired() -> None:
    scene = Scene(seats=[SeatSpec(hand="1111m234p567s999s", melds=[]),
                         SeatSpec(discards="2m"), SeatSpec(), SeatSpec()])
    one_m = parse_tiles("1m")[0]
    # the 2m discard (body 13) is misread as 1m, a fifth copy; its runner-up is 2m
    out = read_detections(*_dets(scene, {13: one_m}), ruleset="shandong", winner=None)
    assert [str(c) for c in out.repair.changes] == ["1m->2m"]
    assert out.table.seats[1].discards == parse_tiles("2m")


def test_meld_read_from_runner_up_makes_a_set() -> None:
    scene = Scene(seats=[SeatSpec(hand="1234567m111p", melds=[("chow", "456s", 0)]),
                         SeatSpec(), SeatSpec(), SeatSpec()])
    # the chow's 5s (body 11) read as 6s: "4 6 6s" is no set; top-k brings back 5s
    out = read_detections(*_dets(scene, {11: parse_tiles("6s")[0]}), ruleset="shandong")
    assert format_tiles(sorted(out.table.seats[0].melds[0].tiles)) == "456s"
    assert any("read as 5s" in n for n in out.notes)


def test_count_problem_is_reported_not_hidden() -> None:
    scene = Scene(seats=[SeatSpec(hand="1234567m11p"), SeatSpec(), SeatSpec(), SeatSpec()])
    out = read_detections(*_dets(scene), ruleset="shandong")
    assert any("seat 0: 9 tiles seen" in n for n in out.notes)
    assert out.record["seats"][0]["concealed"] == ""


def test_seat_state_key_ignores_hand_order() -> None:
    a = seat_states(read_table(*_dets(SHOWDOWN)))[0]
    assert a.to_json()["concealed"] == "123m456p78988sWWW"
    shuffled = dataclasses.replace(a, concealed=tuple(reversed(a.concealed)))
    assert shuffled != a and shuffled.key == a.key  # the same tiles in another order
    changed = dataclasses.replace(a, concealed=(*a.concealed[:-1], a.concealed[0]))
    assert changed.key != a.key  # one tile differs


def test_find_table_corners_on_a_drawn_table() -> None:
    import cv2

    image = np.full((720, 1280, 3), (60, 60, 60), np.uint8)
    quad = np.array([[300, 690], [1000, 680], [930, 80], [350, 60]], np.int32)
    cv2.fillConvexPoly(image, quad, (40, 120, 40))
    found = find_table_corners(image)
    assert found is not None
    np.testing.assert_allclose(found, quad, atol=6)
    np.testing.assert_array_equal(order_corners(quad[[2, 0, 3, 1]].astype(float)), quad)


def test_calibration_saves_and_loads() -> None:
    calib = TableCalibration.from_corners(table_corners(top_down()), bottom_seat=2)
    again = TableCalibration.from_json(calib.to_json())
    pts = np.array([[100.0, 200.0], [900.0, 500.0]])
    np.testing.assert_allclose(again.to_table(pts), calib.to_table(pts))
    with pytest.raises(ValueError, match="4 corners"):
        TableCalibration.from_corners([[0, 0], [1, 1]])
    with pytest.raises(ValueError, match="bottom_seat"):
        TableCalibration.from_corners(table_corners(top_down()), bottom_seat=4)


def test_indicator_turned_over_in_the_wall_is_read() -> None:
    scene = Scene(seats=[SeatSpec(hand="1234567m111p55s"), SeatSpec(), SeatSpec(), SeatSpec()],
                  wall=144, indicator="7p")
    dets, _ = detections(scene, top_down())
    table = read_table(dets, TableCalibration.from_corners(table_corners(top_down())))
    assert table.indicator == parse_tiles("7p")[0]
    assert (table.detections.role == "indicator").sum() == 1
    out = read_detections(dets, TableCalibration.from_corners(table_corners(top_down())),
                          ruleset="liaoyang")
    assert out.record["context"]["indicator"] == "7p"


def test_a_back_beside_the_wall_does_not_make_a_discard_the_indicator() -> None:
    """A back lying at the pond's depth (the next wall's corner stack falling to this seat,
    or a stray box) is no reason to read the seat's discard as a tile turned in its wall."""
    from vision.detections import TileDetections
    from vision.labels import BACK_CLASS

    scene = Scene(seats=[SeatSpec(hidden=13, discards="1m"), SeatSpec(hidden=13),
                         SeatSpec(hidden=13), SeatSpec(hidden=13)], wall=144)
    dets, _ = detections(scene, top_down())
    calib = TableCalibration.from_corners(table_corners(top_down()))
    discard = int(np.flatnonzero(read_table(dets, calib).detections.role == "discard")[0])
    stray = dets.xyxy[discard] + np.array([150, 0, 150, 0], np.float32)  # same depth, aside
    dets = TileDetections.merge([dets, TileDetections(xyxy=stray[None], confidence=[0.3],
                                                      class_id=[BACK_CLASS])])
    table = read_table(dets, calib)
    assert table.indicator is None and format_tiles(table.seats[0].discards) == "1m"


def test_a_wall_boxed_twice_does_not_halve_the_tile_width() -> None:
    """A detector may box a wall's stacks twice, half a tile apart (the two tiles of a stack
    seen offset). Those boxes are no neighbours: counted as such they made the median spacing
    half a tile, so a meld's tiles lay two "widths" apart and fell out of their meld."""
    from vision.detections import TileDetections

    scene = Scene(seats=[SeatSpec(hidden=10, melds=[("chow", "456p", 0)]),
                         SeatSpec(hidden=13), SeatSpec(hidden=13), SeatSpec(hidden=13)],
                  wall=144)
    dets, _ = detections(scene, top_down())
    calib = TableCalibration.from_corners(table_corners(top_down()))
    plain = read_table(dets, calib).seats[0]
    assert [(m.type, format_tiles(m.tiles)) for m in plain.melds] == [("chow", "456p")]
    walls = np.flatnonzero(read_table(dets, calib).detections.role == "wall")
    mine = walls[dets.center[walls, 1] > 800]  # seat 0's wall, at the bottom of the picture
    half = (dets.xyxy[mine, 2] - dets.xyxy[mine, 0]) / 2
    twice = dets[mine].with_(xyxy=dets.xyxy[mine] + np.stack([half, 0 * half] * 2, axis=1))
    seat = read_table(TileDetections.merge([dets, twice]), calib).seats[0]
    assert (seat.melds, seat.hidden, seat.hand) == (plain.melds, plain.hidden, plain.hand)


def test_repair_search_stops_after_its_tries() -> None:
    """A hand no few changes can finish: the search asks at most ``max_tries`` readings, then
    says it stopped (the live pipeline's bound on a frame's work)."""
    from vision.repair import repair, winning_test

    scene = Scene(seats=[SeatSpec(hand="1m3m5m7m9m1p3p5p7p9p1s3s5sE"), SeatSpec(hidden=13),
                         SeatSpec(hidden=13), SeatSpec(hidden=13)])
    finished = winning_test(None)
    for tries in (50, 400):
        asked = 0

        def counted(tiles: list) -> bool:
            nonlocal asked
            asked += 1
            return finished(tiles)

        fixed = repair(read_table(*_dets(scene)), {0: counted}, max_tries=tries)
        assert not fixed.legal and "search stopped before a legal reading was found" in \
            fixed.problems
        assert tries <= asked <= tries + 2  # the table's own check, then the tries


def test_found_corners_that_cut_through_the_tiles_are_not_trusted() -> None:
    import cv2

    from vision.reading import calibrate

    image = np.full((1080, 1080, 3), (60, 60, 60), np.uint8)
    cv2.fillConvexPoly(image, np.array([[200, 900], [880, 900], [880, 300], [200, 300]],
                                       np.int32), (40, 120, 40))
    dets, _ = detections(SHOWDOWN, top_down())  # tiles spread over the whole picture
    assert find_table_corners(image) is not None
    assert calibrate(image).guessed is False  # without tiles to check, the corners stand
    assert calibrate(image, dets=dets).guessed is True


class _Still:
    """A detector that reports the same detections for every frame."""

    def __init__(self, dets) -> None:
        self.dets = dets

    def detect(self, image: np.ndarray):
        return self.dets


def _live_wins(detector, ruleset: str):
    """The seats of each win event the live pipeline reports over four frames of a still
    picture (``detector``'s detections, the top-down camera's corners), and the pipeline."""
    from vision.pipeline import Pipeline

    pipe = Pipeline(None, detector, ruleset=ruleset,
                    corners=table_corners(top_down()).tolist(), stable_readings=2)
    frame = np.zeros((1080, 1080, 3), np.uint8)
    events = [e for k in range(4) for e in pipe.process(frame, k, float(k)).events]
    return [e.data["seats"] for e in events if e.type == "win"], pipe


def test_live_liaoyang_win_uses_the_indicator_like_a_photo() -> None:
    """Seat 0's 14 tiles are finished only with 8p as 混 (the indicator 7p's next tile): the
    live pipeline must find the win the photo path finds, through the same reading step."""
    scene = Scene(seats=[SeatSpec(hand="123m456p789s111p5s8p"), SeatSpec(), SeatSpec(),
                         SeatSpec()], wall=144, indicator="7p")
    dets, calib = _dets(scene)
    photo = read_detections(dets, calib, ruleset="liaoyang")
    assert photo.record["wins"] and photo.record["wins"][0]["seat"] == 0
    wins, pipe = _live_wins(_Still(dets), "liaoyang")
    assert wins == [[0]]
    assert pipe.indicator == parse_tiles("7p")[0]


@pytest.mark.parametrize("turn", [-25.0, 18.0])
def test_a_table_turned_under_the_camera_is_seated_from_its_rows(turn: float) -> None:
    """No corners found: the tile-based calibration squares the rows before seating, so a
    table turned 18-25 degrees still gives every seat its own hand, melds and flowers."""
    a = np.radians(turn)
    spin = np.array([[np.cos(a), -np.sin(a), 540], [np.sin(a), np.cos(a), 540], [0, 0, 1]])
    camera = spin @ np.array([[1, 0, -540], [0, 1, -540], [0, 0, 1]]) @ top_down()
    dets, _ = detections(SHOWDOWN, camera)
    table = read_table(dets, TableCalibration.from_tiles(dets, 1080, 1080))
    s0, s1, s2, s3 = table.seats
    assert format_tiles(s0.hand) == "123m456p78988sWWW"
    assert format_tiles(s0.flowers) == "f1f5" and format_tiles(s1.flowers) == "f2"
    assert [(m.type, format_tiles(m.tiles)) for m in s1.melds] == [("pung", "EEE")]
    assert s2.hidden == 10 and [m.type for m in s2.melds] == ["chow"]
    assert [m.type for m in s3.melds] == ["exposed_kong", "concealed_kong", "pung"]


def test_tiles_of_the_next_table_at_the_picture_edge_are_left_out() -> None:
    """A few tiles of a neighbouring table cut by the picture's right edge: without corners
    they would pull the guessed centre toward them and hand a corner of the table to the
    wrong seat; they are read as ``outside``, no seat's."""
    from vision.detections import TileDetections

    camera = np.array([[0.9, 0, 960], [0, -0.9, 540], [0, 0, 1]], float)  # 1920x1080 frame
    dets, _ = detections(SHOWDOWN, camera)
    ys = np.arange(6) * 45.0 + 300
    next_table = TileDetections(
        xyxy=np.c_[np.full(6, 1890.0), ys, np.full(6, 1920.0), ys + 40].astype(np.float32),
        confidence=np.ones(6, np.float32), class_id=np.array(parse_tiles("123456s")[:6]))
    both = TileDetections.merge([dets, next_table])
    table = read_table(both, TableCalibration.from_tiles(both, 1920, 1080))
    assert (table.detections.role[-6:] == "outside").all()
    assert (table.detections.seat[-6:] == -1).all()
    s0, s1, s2, s3 = table.seats
    assert format_tiles(s0.hand) == "123m456p78988sWWW" and format_tiles(s1.flowers) == "f2"
    assert [(m.type, format_tiles(m.tiles)) for m in s1.melds] == [("pung", "EEE")]
    assert s2.hidden == 10
    assert [m.type for m in s3.melds] == ["exposed_kong", "concealed_kong", "pung"]


def test_a_next_tables_whole_wall_at_the_picture_edge_is_left_out() -> None:
    """A next table's wall along the picture's left edge, sixteen stacks of backs: more than a
    few tiles, but a small group beside this table's (REALVAL3 table_s16_000092, where
    thirteen such backs stretched the guessed table and seat 2's meld, flowers and pond went to
    its neighbours). Read as ``outside``, the seats are as without it."""
    from vision.detections import TileDetections
    from vision.labels import BACK_CLASS

    camera = np.array([[0.9, 0, 960], [0, -0.9, 540], [0, 0, 1]], float)  # 1920x1080 frame
    dets, _ = detections(SHOWDOWN, camera)
    plain = read_table(dets, TableCalibration.from_tiles(dets, 1920, 1080))
    ys = np.arange(16) * 40.0 + 220
    wall = TileDetections(
        xyxy=np.c_[np.zeros(16), ys, np.full(16, 36.0), ys + 32].astype(np.float32),
        confidence=np.ones(16, np.float32), class_id=np.full(16, BACK_CLASS, np.int16))
    both = TileDetections.merge([dets, wall])
    table = read_table(both, TableCalibration.from_tiles(both, 1920, 1080))
    assert (table.detections.role[-16:] == "outside").all()
    for seat, alone in zip(table.seats, plain.seats, strict=True):
        assert (seat.hand, seat.melds, seat.flowers, seat.hidden) == (
            alone.hand, alone.melds, alone.flowers, alone.hidden)


def test_more_misread_copies_than_the_search_changes_still_give_the_win() -> None:
    """Five of seat 1's discards read as W, eight W on the table with the winner's three: four
    changes, more than the search's three. Each kind is brought back to its copies on its own
    first, and the winner's hand, read right, is recorded as the win."""
    w = parse_tiles("W")[0]
    misread = dict.fromkeys(range(33, 38), w)  # seat 1's 2s 3s 4s 5s 6s
    out = read_detections(*_dets(SHOWDOWN, misread), ruleset="shandong", dealer=1)
    assert out.repair.legal
    changed = sorted(str(c) for c in out.repair.changes)
    assert len(changed) == 4 and all(c.startswith("W->") for c in changed)
    assert out.record["outcome"] == "win" and out.record["wins"][0]["seat"] == 0
    assert format_tiles(out.table.seats[0].hand) == "123m456p78988sWWW"


def test_a_flower_seen_twice_when_all_eight_are_shown_is_no_flower() -> None:
    """REALVAL3 table_s16_000034/000063, drawn-art table_s17_000004: a box in a seat's flower
    row on something else (a discard 發, a standing tile's side) read as a flower that another
    seat shows, with all eight flowers on the table: no flower is left for it, so it is the
    tile it most likely is, left out of the seat's flowers, and the reading is legal."""
    scene = dataclasses.replace(SHOWDOWN, seats=[
        dataclasses.replace(SHOWDOWN.seats[0], flowers="f1f5F"),  # a 發 in the flower row
        dataclasses.replace(SHOWDOWN.seats[1], flowers="f2f3f4"),
        dataclasses.replace(SHOWDOWN.seats[2], flowers="f6"),
        dataclasses.replace(SHOWDOWN.seats[3], flowers="f7f8")])
    f2 = parse_tiles("f2")[0]
    dets, calib = _dets(scene, {16: f2})  # the 發 read as f2 (0.6), 發 its runner-up (0.3)
    assert dets.topk_ids[16][1] == parse_tiles("F")[0]
    out = read_detections(dets, calib, ruleset="shandong", dealer=1)
    assert out.repair.legal and [str(c) for c in out.repair.changes] == ["f2->F"]
    assert format_tiles(out.table.seats[0].flowers) == "f1f5"
    assert format_tiles(out.table.seats[1].flowers) == "f2f3f4"
    assert out.table.detections.role[16] == "outside"
    assert out.record["outcome"] == "win" and out.record["wins"][0]["seat"] == 0
    assert any(n.startswith("changed f2->F: no flower") for n in out.notes)


def test_a_flower_seen_twice_becomes_another_so_the_win_is_recorded() -> None:
    """Seat 0's f5 read as f2, which seat 1 also shows, and no other flower among its
    classes: a set has one of each flower, so one f2 is changed to a flower not on the table
    (a guess, shown as a change) and the winner's hand still makes a record."""
    out = read_detections(*_dets(SHOWDOWN, {15: parse_tiles("f2")[0]}), ruleset="shandong",
                          dealer=1)
    assert out.repair.legal and len(out.repair.changes) == 1
    assert str(out.repair.changes[0]).startswith("f2->")
    flowers = [f for s in out.table.seats for f in s.flowers]
    assert len(flowers) == len(set(flowers)) == 3
    assert out.record["outcome"] == "win" and out.record["wins"][0]["seat"] == 0
    assert any(n.startswith("changed f2->") for n in out.notes)


@pytest.mark.parametrize("unsure_first", [True, False])
def test_of_a_flower_seen_twice_the_unsure_one_becomes_another(unsure_first: bool) -> None:
    """REALVAL15D live, table_s30_000037: a flower read unsurely (1s 0.25, then f3 0.21 by
    its row) showed the kind of another seat's sure f3 (0.99), and neither ranked the one
    flower missing from the table. An unranked kind cost the same for both, and the sure one
    was changed; it costs as if the classifier gave it 1e-4, from each tile's own odds, so
    the unsure one is, whichever of the two the search meets first."""
    f2, one_s, two_s = parse_tiles("f2")[0], parse_tiles("1s")[0], parse_tiles("2s")[0]
    dets, calib = _dets(SHOWDOWN, {15: f2})  # seat 0's f5 read as f2, which seat 1 shows
    sure = int(np.flatnonzero((dets.class_id == f2) & (np.arange(len(dets)) != 15))[0])
    unsure, other = (15, sure) if unsure_first else (sure, 15)
    dets.topk_ids[unsure], dets.topk_probs[unsure] = [one_s, f2, two_s], [0.25, 0.21, 0.2]
    dets.topk_ids[other], dets.topk_probs[other] = [f2, one_s, two_s], [0.99, 0.005, 0.005]
    dets.confidence[unsure] = 0.2
    out = read_detections(dets, calib, ruleset="shandong", dealer=1)
    assert out.repair.legal and [c.row for c in out.repair.changes] == [unsure]
    assert int(out.table.detections.class_id[other]) == f2


def test_a_seats_face_up_tiles_are_walked_hand_melds_flowers_without_a_kongs_backs() -> None:
    """The one walk over a seat's face-up tiles (repair, the unsure list and the dashboard's
    corrections share it): every face once, a concealed kong's two backs never."""
    scene = Scene(seats=[SeatSpec(hand="333m12355p", flowers="f2f5",
                                  melds=[("pung", "444m", 1), ("concealed_kong", "7777p", None)]),
                         SeatSpec(), SeatSpec(), SeatSpec()])
    dets, _ = detections(scene, top_down())
    table = read_table(dets, TableCalibration.from_corners(table_corners(top_down())))
    walked = table.seats[0].face_up(table.detections.is_tile)
    kinds = table.detections.class_id
    assert [(p, i) for _, p, i in walked] == [("hand", i) for i in range(8)] + [
        ("meld", 0)] * 3 + [("meld", 1)] * 2 + [("flowers", 0), ("flowers", 1)]
    assert format_tiles([int(kinds[r]) for r, p, _ in walked if p == "meld"]) == "444m77p"
    assert len({r for r, _, _ in walked}) == len(walked)
    assert not table.detections.is_back[[r for r, _, _ in walked]].any()


def _ring_and_group(gap: float) -> tuple[np.ndarray, np.ndarray]:
    """A table's tiles as a square ring (one spacing apart, 18 a side) and a row of six beyond
    its near side, ``gap`` spacings out, cut by the picture's edge: points and edge flags."""
    side = np.arange(-9, 9, dtype=float)
    ring = np.concatenate([np.c_[side, np.full(18, -9.0)], np.c_[side, np.full(18, 9.0)],
                           np.c_[np.full(18, -9.0), side], np.c_[np.full(18, 9.0), side]])
    group = np.c_[np.arange(-3, 3, dtype=float), np.full(6, -9.0 - gap)]
    return np.concatenate([ring, group]), np.r_[np.zeros(len(ring), bool), np.ones(6, bool)]


@pytest.mark.parametrize("gap", [6.0, 8.0])
def test_a_near_seats_faces_cut_by_the_frame_stay_on_the_table(gap: float) -> None:
    """Fresh real-face tables table_s21_000186, 000011 and table_s22_000017 (no table corners
    found): a near seat's laid-down hand, melds or flowers cut by the frame's edge, 4.6 to 8.3
    spacings beyond the rest, were taken for the next table's and left out. A group of faces
    alone that near is the seat's own; of backs, or far out, the next table's (11 spacings and
    more in table_s16_000092 and table_s22_000063)."""
    pts, edge = _ring_and_group(gap)
    faces = np.r_[np.zeros(len(pts) - 6, bool), np.ones(6, bool)]
    assert not on_table(pts, edge)[-6:].any()  # without what they show: the next table's
    assert on_table(pts, edge, faces).all()
    assert not on_table(pts, edge, np.zeros(len(pts), bool))[-6:].any()  # a wall's backs
    far, far_edge = _ring_and_group(14.0)
    assert not on_table(far, far_edge, faces)[-6:].any()


def test_a_standing_hand_whose_faces_are_boxed_edge_on_is_no_laid_down_hand() -> None:
    """Fresh real-face table_s21_000020, table_s22_000052: a seat's standing hand, seen from
    above and in front, showed its faces edge-on and was boxed as faces a third as deep as a
    tile lying down (read S S N S P as a laid-down hand). Boxes flatter than a tile lying
    across are standing tiles: the hand is hidden, the melds and the other seats as before."""
    dets, _ = detections(SHOWDOWN, top_down())
    calib = TableCalibration.from_corners(table_corners(top_down()))
    plain = read_table(dets, calib)
    rows = np.flatnonzero((plain.detections.role == "hand") & (plain.detections.seat == 2))
    assert len(rows) == 10 and plain.seats[2].hidden == 10
    xyxy, kinds = dets.xyxy.copy(), dets.class_id.copy()
    middle, deep = (xyxy[rows, 1] + xyxy[rows, 3]) / 2, (xyxy[rows, 3] - xyxy[rows, 1]) * 0.35
    xyxy[rows, 1], xyxy[rows, 3] = middle - deep / 2, middle + deep / 2
    kinds[rows] = parse_tiles("SSNSPEEWW1m")
    table = read_table(dets.with_(xyxy=xyxy, class_id=kinds), calib)
    s2 = table.seats[2]
    assert s2.hand == [] and s2.hidden == 10
    assert [(m.type, format_tiles(m.tiles)) for m in s2.melds] == [("chow", "567m")]
    assert (table.detections.is_back[rows]).all()
    for seat, alone in zip(table.seats[:2], plain.seats[:2], strict=True):
        assert (seat.hand, seat.melds, seat.flowers) == (alone.hand, alone.melds, alone.flowers)


@pytest.mark.parametrize(("shape", "sure", "still", "standing"), [
    ("edge-on", 0.9, True, True), ("lying", 0.9, True, False), ("edge-on", 0.9, False, False),
    ("across", 0.3, True, True), ("across", 0.9, True, False)],
    ids=["edge-on", "lying", "stream", "across-unsure", "across-sure"])
def test_one_face_boxed_edge_on_beside_melds_is_a_standing_hands_end(
        shape: str, sure: float, still: bool, standing: bool) -> None:
    """Fresh real-face table_s25_000056, table_s27_000009, table_s26_000054 (some 35 seats over
    twelve draws): a standing hand left unboxed but for one tile at its end, seen edge-on and
    read 白 or a suit tile, made a seat's hand of one beside its melds. On a still, one box as
    flat as a standing tile beside melds is that hand's end: hidden, the melds as they were. A
    box lying flat there is still read as the hand; so is a flat one in a stream, where a
    tile being drawn or turned shows so for a frame or two (the bundled video's kong). A box
    lying across its seat, a standing tile's top and face boxed together, is that end too
    when unsure (table_s33_000048, 0.25); a sure one is a claimed tile whose meld's other
    tiles went unboxed (table_s25_000063's 3p) and stays."""
    dets, _ = detections(SHOWDOWN, top_down())
    calib = TableCalibration.from_corners(table_corners(top_down()))
    plain = read_table(dets, calib)
    rows = np.flatnonzero((plain.detections.role == "hand") & (plain.detections.seat == 2))
    meld = np.flatnonzero((plain.detections.role == "meld") & (plain.detections.seat == 2))
    end = rows[np.argmin(np.abs(dets.center[rows, 0] - dets.center[meld, 0].mean()))]
    xyxy, kinds = dets.xyxy.copy(), dets.class_id.copy()
    centre, size = (xyxy[end, :2] + xyxy[end, 2:]) / 2, xyxy[end, 2:] - xyxy[end, :2]
    if shape != "lying":  # a third as deep, or turned a quarter
        size = size * [1.0, 0.35] if shape == "edge-on" else size[::-1]
        xyxy[end] = np.r_[centre - size / 2, centre + size / 2]
    kinds[end] = parse_tiles("P")[0]
    conf = dets.confidence.copy()
    conf[end] = sure
    kept = np.setdiff1d(np.arange(len(dets)), np.setdiff1d(rows, [end]))
    table = read_table(dets.with_(xyxy=xyxy, class_id=kinds, confidence=conf)[kept], calib,
                       still=still)
    s2 = table.seats[2]
    assert [(m.type, format_tiles(m.tiles)) for m in s2.melds] == [("chow", "567m")]
    if standing:
        assert s2.hand == [] and s2.hidden == 1
    else:
        assert format_tiles(s2.hand) == "P" and s2.hidden == 0
    for seat, alone in zip(table.seats[:2], plain.seats[:2], strict=True):
        assert (seat.hand, seat.melds, seat.flowers) == (alone.hand, alone.melds, alone.flowers)


def test_unsure_boxes_scattered_beyond_a_hand_are_no_row() -> None:
    """Fresh real-face table_s25_000262: three boxes on a white rim beyond the winner's hand,
    2.3 and 6.7 widths apart and scored 0.11-0.29, made the seat's outermost run, and the hand
    inside it was read as the pond. Boxes that do not lie side by side, all unsure, beyond a
    row of faces, are no row; the same boxes scored surely still are one (the rules are as
    they were)."""
    scene = Scene(seats=[SeatSpec(hand="1234567m55s", melds=[("chow", "456p", 0)]),
                         *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    mine = np.flatnonzero(dets.is_tile & (dets.center[:, 1] > 900))  # seat 0: the bottom
    along = mine[np.argsort(dets.center[mine, 0])]
    beyond = dets[along[[0, 3, 9]]]  # 3 and 6 widths apart
    height = float(np.median(beyond.xyxy[:, 3] - beyond.xyxy[:, 1]))
    beyond = beyond.with_(xyxy=beyond.xyxy + np.array([0, 1.6, 0, 1.6], np.float32) * height,
                          class_id=np.full(len(beyond), BACK_CLASS, np.int16),
                          confidence=np.full(len(beyond), 0.3, np.float32))
    s0 = _seat0(scene, TileDetections.merge([dets, beyond]))
    assert format_tiles(s0.hand) == "1234567m55s" and s0.hidden == 0
    assert [format_tiles(m.tiles) for m in s0.melds] == ["456p"]
    sure = beyond.with_(confidence=np.full(len(beyond), 0.6, np.float32))
    assert format_tiles(_seat0(scene, TileDetections.merge([dets, sure])).hand) != "1234567m55s"


@pytest.mark.parametrize(("apart", "melds"), [(0.12, []), (0.3, ["EEE"])])
def test_a_hands_last_set_a_little_apart_is_no_meld(apart: float, melds: list[str]) -> None:
    """Fresh real-face table_s25_000036: a winner's hand ending ``EEE``, boxed 0.15 widths
    apart from the rest, was read as a pung beside the hand. The hand lies 14 mm (half a
    width) from its melds: a first meld with no claimed tile seen, a gap of up to ``split_gap``
    after a run of hand tiles, is the hand's end; a wider gap still makes it a meld."""
    scene = Scene(seats=[SeatSpec(hand="45688m456p999sEEE"), *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    mine = np.flatnonzero(dets.is_tile & (dets.center[:, 1] > 900))  # seat 0: the bottom
    run = mine[np.argsort(dets.center[mine, 0])][11:]
    assert format_tiles(dets.class_id[run].tolist()) == "EEE"
    width = float(np.median(dets.xyxy[mine, 2] - dets.xyxy[mine, 0]))
    dets.xyxy[run[:, None], [0, 2]] += apart * width
    s0 = _seat0(scene, dets)
    assert [format_tiles(m.tiles) for m in s0.melds] == melds
    assert len(s0.hand) == 14 - 3 * len(melds)


@pytest.mark.parametrize("camera", [top_down(), tilted()], ids=["top-down", "tilted"])
def test_a_claimed_tile_boxed_short_is_still_the_melds_claimed_tile(camera: np.ndarray) -> None:
    """Fresh real-face table_s32_000088: a chow's sideways 6s was boxed over its left two
    thirds only, as an upright tile, so it lay 0.5 widths from both neighbours and no gap
    told the chow from the hand: 14 hand tiles and no meld. A hand's tiles touch and one tile
    makes no meld: a face-up tile lying a quarter width or more from the faces on both sides
    is a claimed tile lying sideways. A hand tile boxed a little narrow is not."""
    scene = Scene(seats=[SeatSpec(hand="22m123445566p", melds=[("chow", "645s", 0)]),
                         *OTHER_HANDS])
    dets, _ = detections(scene, camera)
    corners = TableCalibration.from_corners(table_corners(camera))
    mine = np.flatnonzero(dets.is_tile)
    mine = mine[np.argsort(-dets.center[mine, 1])][:14]  # seat 0: the lowest in the frame
    row = mine[np.argsort(dets.center[mine, 0])]
    claimed = row[11]
    assert format_tiles([int(dets.class_id[claimed])]) == "6s"
    short = dets.xyxy.copy()
    short[claimed, 2] -= (short[claimed, 2] - short[claimed, 0]) * 0.4  # its left 60%
    s0 = read_table(dets.with_(xyxy=short), corners).seats[0]
    assert [(m.type, format_tiles(m.tiles)) for m in s0.melds] == [("chow", "645s")]
    assert format_tiles(s0.hand) == "22m123445566p"
    narrow = dets.xyxy.copy()
    tile = row[5]
    narrow[tile, [0, 2]] += np.array([1, -1]) * (narrow[tile, 2] - narrow[tile, 0]) * 0.1
    s0 = read_table(dets.with_(xyxy=narrow), corners).seats[0]
    assert format_tiles(s0.hand) == "22m123445566p" and len(s0.melds) == 1


def test_flowers_misread_as_suit_tiles_in_a_row_beside_one_another_are_flowers() -> None:
    """A standing hand's seat shows four flowers in a row, the two at its far end of a look
    never trained on, read 1s with their own flower behind: the one beside f3 is a flower,
    and so is the one beside it in turn (fresh real-face REALVAL10D table_s25_000114: three
    of five flowers read 1s, 3p and 1s were taken for discards)."""
    scene = Scene(seats=[SeatSpec(hidden=13, flowers="f1f2f3f4"), *OTHER_HANDS])
    dets, truth = detections(scene, top_down(), {13: ONE_S, 14: ONE_S})
    for body in (13, 14):
        dets.topk_ids[body] = [ONE_S, truth[body], -1]
        dets.topk_probs[body] = [0.9, 0.05, 0.0]
    s0 = _seat0(scene, dets)
    assert format_tiles(s0.flowers) == "f1f2f3f4"
    assert s0.discards == []


def test_a_standing_hand_with_its_flowers_in_front_is_a_hand_however_near_the_pond() -> None:
    """A standing hand and a chow in one row, three flowers in front of them, one read 1s
    (f4 behind it) and so taken for the pond's nearest tile: the pond seemed to lie as near
    the row as it lies to a wall, and the row was dropped, its chow read as discards. The
    seat's flowers lying just inside the row say it is the hand (fresh real-face REALVAL9D
    table_s24_000119: a standing hand and `111p` read as a wall and discards)."""
    scene = Scene(seats=[SeatSpec(hidden=11, melds=[("chow", "789p", 0)], flowers="f1f2f4"),
                         *OTHER_HANDS])
    dets, truth = detections(scene, top_down())
    body = truth.index(F4)
    dets, _ = detections(scene, top_down(), {body: ONE_S})
    dets.topk_ids[body] = [ONE_S, F4, -1]
    dets.topk_probs[body] = [0.68, 0.25, 0.0]
    s0 = _seat0(scene, dets)
    assert s0.hidden == 11 and [format_tiles(m.tiles) for m in s0.melds] == ["789p"]
    assert format_tiles(s0.flowers) == "f1f2f4" and s0.discards == []


def test_tiles_lying_along_the_wall_are_no_indicator() -> None:
    """One tile turned over in the wall row is the indicator; several face-up tiles at the
    wall's depth are the seat's pond lying along it (fresh real-face table_s45_000198: six
    discards beside a wall that the camera's tilt drew across their depth were all taken for
    indicators, off the seat)."""
    scene = Scene(seats=[SeatSpec(hidden=13), SeatSpec(hidden=13), SeatSpec(hidden=13),
                         SeatSpec(hidden=13)], wall=144)
    dets, _ = detections(scene, top_down())
    calib = TableCalibration.from_corners(table_corners(top_down()))
    role = read_table(dets, calib).detections.role
    low = dets.center[:, 1] > 0.8 * dets.center[:, 1].max()  # seat 0's wall, at the bottom
    stacks = np.flatnonzero((role == "wall") & low)
    stacks = stacks[np.argsort(dets.center[stacks, 0])][4:7]  # three stacks side by side
    kinds = parse_tiles("123m")
    faces = TileDetections(xyxy=dets.xyxy[stacks], confidence=[0.9, 0.9, 0.9], class_id=kinds)
    rest = np.setdiff1d(np.arange(len(dets)), stacks)
    assert (dets[rest].class_id == BACK_CLASS).all()  # no other face on the table
    table = read_table(TileDetections.merge([dets[rest], faces]), calib)
    assert table.indicator is None
    assert sorted(table.seats[0].discards) == sorted(kinds)


def _meld_row(scene: Scene) -> tuple[TileDetections, np.ndarray]:
    """A top-down scene's detections and seat 0's row (the lowest 14 faces), left to right."""
    dets, _ = detections(scene, top_down())
    mine = np.flatnonzero(dets.is_tile)
    mine = mine[np.argsort(-dets.center[mine, 1])][:14]
    return dets, mine[np.argsort(dets.center[mine, 0])]


@pytest.mark.parametrize(("side", "meld"), [(2, ("pung", "666m")), (0, ("chow", "546m"))])
def test_a_claimed_tile_at_a_melds_right_end_makes_no_run(side: int,
                                                         meld: tuple[str, str]) -> None:
    """REALVAL29D table_s44_000234: a pung ``666m`` with its first 6m read 5m and its second's
    runner-up 4m, the claimed tile sideways at the right end, was taken for the likelier
    run ``456m``. A run is claimed only from the 上家 and its claimed tile lies at the left:
    one at the right end makes a pung. With the claimed tile at the left the run stands."""
    scene = Scene(seats=[SeatSpec(hand="55m123456p789s", melds=[("pung", "666m", side)]),
                         *OTHER_HANDS])
    dets, row = _meld_row(scene)
    first, second, third = row[11:]
    four, five, six, seven = parse_tiles("4m5m6m7m")
    dets.class_id[first] = five
    for r, ids, probs in ((first, [five, six, four], [0.7, 0.2, 0.1]),
                          (second, [six, four, seven], [0.6, 0.3, 0.1]),
                          (third, [six, seven, four], [0.9, 0.05, 0.05])):
        dets.topk_ids[r], dets.topk_probs[r] = ids, probs
    s0 = _seat0(scene, dets)
    assert [(m.type, format_tiles(m.tiles)) for m in s0.melds] == [meld]
    assert format_tiles(s0.hand) == "55m123456p789s"


def _boxed_short_after_hand(dets: TileDetections, row: np.ndarray, claimed: int, cut: float,
                            hand: int) -> TileDetections:
    """``dets`` with the claimed tile's box cut by ``cut`` of its width on the right and the
    row's first ``hand`` tiles (the hand) moved 0.1 widths on, 0.4 widths from the melds."""
    short = dets.xyxy.copy()
    short[claimed, 2] -= (short[claimed, 2] - short[claimed, 0]) * cut
    width = float(np.median(dets.xyxy[row[:hand], 2] - dets.xyxy[row[:hand], 0]))
    short[row[:hand, None], [0, 2]] += 0.1 * width
    return dets.with_(xyxy=short)


def test_a_claimed_tile_boxed_short_at_a_melds_end_is_still_claimed() -> None:
    """Fresh real-face table_s27_000005: four melds laid 4 mm apart, the chow ``657p``'s
    sideways 6p boxed over its left part only, 0.44 widths from its 5p; no gap then cut the
    row's end into the melds before it, and the hand was read ``22m EEE 999s 657p``, holding
    two claimed tiles. A hand holds none: a box half across beside wide gaps is taken for the
    claimed tile where that leaves none in the hand. A hand's last box lying so stays the
    hand's when the melds leave no claimed tile in it."""
    melds = [("pung", "EEE", 0), ("pung", "999s", 2), ("chow", "657p", 0), ("pung", "888p", 2)]
    scene = Scene(seats=[SeatSpec(hand="22m", melds=melds), *OTHER_HANDS], meld_gap=4.0)
    dets, row = _meld_row(scene)
    claimed = row[8]
    assert dets.labels[claimed] == "6p"
    s0 = _seat0(scene, _boxed_short_after_hand(dets, row, claimed, 0.32, 2))  # its left 68%
    assert [format_tiles(m.tiles) for m in s0.melds] == ["EEE", "999s", "657p", "888p"]
    assert format_tiles(s0.hand) == "22m"
    scene = Scene(seats=[SeatSpec(hand="22m456p", melds=melds[:2]), *OTHER_HANDS])
    dets, row = _meld_row(scene)
    last = dets.xyxy.copy()  # the hand's last tile boxed half across before the hand's gap
    end = row[4]
    last[end, 1] += (last[end, 3] - last[end, 1]) * 0.25  # lower 75% of an upright tile
    s0 = _seat0(scene, dets.with_(xyxy=last))
    assert [format_tiles(m.tiles) for m in s0.melds] == ["EEE", "999s"]
    assert format_tiles(s0.hand) == "22m456p"


def test_a_claimed_tile_boxed_over_part_of_its_length_is_still_claimed() -> None:
    """Fresh real-face table_s24_000271: the chow ``312s``'s sideways 3s boxed over its left
    part only, a box as long along the row as it is across it, so shaped like an upright tile
    (0.49 widths from its 1s); the hand was read ``999m45556p 978s 312s``, the chow ``978s``
    before it with it. Across the row the box is as short as a tile lying across it (its
    width, where an upright tile shows its length): a claimed tile boxed short. The melds
    lie 4 mm apart and the hand 0.4 widths before them, as there."""
    melds = [("chow", "978s", 0), ("chow", "312s", 0)]
    scene = Scene(seats=[SeatSpec(hand="999m45556p", melds=melds), *OTHER_HANDS],
                  meld_gap=4.0)
    dets, row = _meld_row(scene)
    claimed = row[11]
    assert dets.labels[claimed] == "3s"
    s0 = _seat0(scene, _boxed_short_after_hand(dets, row, claimed, 0.4, 8))  # its left 60%
    assert [format_tiles(m.tiles) for m in s0.melds] == ["978s", "312s"]
    assert format_tiles(s0.hand) == "999m45556p"


@pytest.mark.parametrize("odds", [(0.5, 0.3, 0.2), (0.999998, 1e-6, 1e-6)])
def test_a_box_astride_two_melds_makes_no_kong(odds: tuple[float, float, float]) -> None:
    """Fresh real-face table_s41_000210: a narrow box astride a pung ``444s`` and the pung
    ``999s`` after it, read 6s with 4s among its likely ones, 0.3 widths over both, made the
    kong ``4444s``. Tiles lying flat in a row never overlap: a kong's tile named anew whose
    box lies a quarter width or more over a neighbour's is a stray, and the other three the
    pung (a kong boxed apart with its claimed tile misread stays one:
    ``test_a_kong_whose_claimed_tile_is_misread_is_still_a_kong``), also where the stray is
    all but sure of its own kind, too sure for the kong to be read (``MELD_ANEW``; REALVAL11D
    table_s26_000220: 888m, a 3s box half over its claimed 8m)."""
    melds = [("pung", "444s", 0), ("pung", "999s", 1)]
    scene = Scene(seats=[SeatSpec(hand="88m333456p", melds=melds), *OTHER_HANDS])
    dets, row = _meld_row(scene)
    last, first = row[10], row[11]
    assert dets.labels[last] == "4s" and dets.labels[first] == "9s"
    box = (dets.xyxy[last] + dets.xyxy[first]) / 2
    width = dets.xyxy[last, 2] - dets.xyxy[last, 0]
    box[[0, 2]] = (box[0] + box[2]) / 2 + np.array([-0.22, 0.22]) * width
    four, six, nine = parse_tiles("4s6s9s")
    stray = TileDetections(xyxy=box[None], confidence=[0.3], class_id=[six],
                           topk_ids=[[six, four, nine]], topk_probs=[odds])
    s0 = _seat0(scene, TileDetections.merge([dets, stray]))
    assert [format_tiles(m.tiles) for m in s0.melds] == ["444s", "999s"]
    assert format_tiles(s0.hand) == "88m333456p"


def test_a_meld_beside_a_standing_tile_seen_edge_on_is_a_meld() -> None:
    """Fresh real-face REALVAL9D table_s24_000057: a seat's standing hand out of its row but
    for one unsure box on a tile's edge, 0.05 widths before the seat's kong ``2222m``; a
    meld that close to a hand's tile is the hand's end, so the kong was read as a hand. A box
    flatter than a tile lying down is a standing tile seen edge-on, no laid hand: the kong
    stands."""
    scene = Scene(seats=[SeatSpec(melds=[("exposed_kong", "2222m", 0)]), *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    mine = np.flatnonzero(dets.is_tile)
    kong = mine[np.argsort(-dets.center[mine, 1])][:4]
    kong = kong[np.argsort(dets.center[kong, 0])]
    assert format_tiles(dets.class_id[kong].tolist()) == "2222m"
    first = dets.xyxy[kong[1]]  # an upright tile's box, put edge-on before the claimed one
    width = first[2] - first[0]
    left = dets.xyxy[kong[0], 0] - 0.05 * width
    edge = np.array([left - width, first[3] - 0.55 * width, left, first[3]])
    white = parse_tiles("P")[0]
    stray = TileDetections(xyxy=edge[None], confidence=[0.17], class_id=[white],
                           topk_ids=[[white, -1, -1]], topk_probs=[[0.4, 0.0, 0.0]])
    s0 = _seat0(scene, TileDetections.merge([dets, stray]))
    assert [format_tiles(m.tiles) for m in s0.melds] == ["2222m"]
    assert format_tiles(s0.hand) == "P"  # the stray, left to the rules on strays


@pytest.mark.parametrize(("group", "meld"), [("9m9p7p8p", None), ("9p7p8p", ("chow", "789p"))])
def test_a_claimed_tile_makes_no_meld_of_tiles_named_anew_against_the_odds(
        group: str, meld: tuple[str, str] | None) -> None:
    """REALVAL9D table_s24_000155: a 9m, the claimed 9p lying sideways and 7p 8p after it,
    each all but sure of its kind with 9p among its unlikely ones, were read as the kong
    ``9999p`` (a claimed tile lets a group be read anew). A meld names its tiles anew only
    where the kinds it gives them are at least 1 in 20,000 as likely as each one's own
    (``MELD_ANEW``): the four are no meld, the last three the chow ``789p``."""
    from vision.geometry import _as_meld

    kinds = parse_tiles(group)
    nine = parse_tiles("9p")[0]
    n = len(kinds)
    dets = TileDetections(xyxy=np.array([[40.0 * i, 0, 40.0 * i + 30, 40] for i in range(n)]),
                          confidence=np.full(n, 0.8), class_id=kinds,
                          topk_ids=np.array([[k, nine if k != nine else kinds[0]]
                                             for k in kinds]),
                          topk_probs=np.tile([0.99999, 0.00001], (n, 1)))
    sideways = np.array([int(k) == nine for k in kinds])
    out = _as_meld(dets, list(range(n)), sideways, seat=0)
    assert (out.type, format_tiles(sorted(out.tiles))) == meld if meld else out is None
    unbounded = _as_meld(dets, list(range(n)), sideways, seat=0, bound=np.inf)
    assert unbounded is not None  # what the bound takes away


def test_two_unsure_backs_beyond_a_hand_laid_down_make_it_no_melds(monkeypatch) -> None:
    """REALVAL14D table_s29_000069: two unsure back boxes lying beyond the winner's hand laid
    down (14 faces) made it a standing hand, its faces cut into runs as melds beside it. A
    row showing a hand's faces (``HAND_FACES``) is a hand laid down, whatever backs lie by;
    fewer faces beside two backs are still melds beside a standing hand
    (``test_faces_in_line_with_a_standing_hands_backs_are_melds``)."""
    import vision.geometry as geometry

    scene = Scene(seats=[SeatSpec(hand="55m123p456p789s", melds=[("chow", "789s", 0)]),
                         *OTHER_HANDS])
    dets, row = _meld_row(scene)
    height = float(np.median(dets.xyxy[row, 3] - dets.xyxy[row, 1]))
    beyond = dets.xyxy[row[8:10]] + np.array([0.0, 1.2, 0.0, 1.2]) * height
    backs = TileDetections(xyxy=beyond, confidence=[0.3, 0.26], class_id=[BACK_CLASS] * 2,
                           topk_ids=[[BACK_CLASS, -1, -1]] * 2, topk_probs=[[1.0, 0, 0]] * 2)
    both = TileDetections.merge([dets, backs])
    s0 = _seat0(scene, both)
    assert format_tiles(s0.hand) == "55m123456p789s"
    assert [format_tiles(m.tiles) for m in s0.melds] == ["789s"]
    monkeypatch.setattr(geometry, "HAND_FACES", 99)
    assert _seat0(scene, both).melds != s0.melds  # what the rule keeps from happening


def test_melds_with_the_flowers_just_inside_and_the_pond_beyond_are_no_pond(monkeypatch) -> None:
    """REALVAL13D table_s28_000133: a seat's melds ``789m 444p``, its standing hand unboxed, its
    flower just inside them and its pond far inside, a stray box between the melds and the
    flower: the stray lay too near the melds for a pond to end, so the melds were read as the
    pond. A face-up row with the seat's flowers just inside it and the pond well inside them
    (``FLOWERS_CLEAR``) is the seat's row."""
    import vision.geometry as geometry

    scene = Scene(seats=[SeatSpec(flowers="f4", discards="9p3m2pNW7p9p8mE",
                                  melds=[("chow", "789m", 0), ("pung", "444p", 1)]),
                         *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    mine = np.flatnonzero(dets.is_tile)
    row = mine[np.argsort(-dets.center[mine, 1])][:6]
    last = row[np.argmax(dets.center[row, 0])]
    width, height = dets.xyxy[last, 2:] - dets.xyxy[last, :2]
    box = dets.xyxy[last] + np.array([1.2 * width, -0.7 * height] * 2)
    two = parse_tiles("2s")[0]
    stray = TileDetections(xyxy=box[None], confidence=[0.5], class_id=[two],
                           topk_ids=[[two, -1, -1]], topk_probs=[[0.9, 0.0, 0.0]])
    both = TileDetections.merge([dets, stray])
    s0 = _seat0(scene, both)
    assert [format_tiles(m.tiles) for m in s0.melds] == ["789m", "444p"]
    assert s0.hand == [] and format_tiles(s0.flowers) == "f4"
    monkeypatch.setattr(geometry, "FLOWERS_CLEAR", np.inf)
    assert _seat0(scene, both).melds == []  # what the rule keeps from happening


def test_unsure_backs_beyond_melds_with_their_flowers_just_inside_are_no_row() -> None:
    """REALVAL9D table_s24_000095: six unsure back boxes, slivers at the frame's foot 2.6
    widths beyond a seat's melds ``888s FFF SSS`` (its standing hand unboxed), took the row's
    place; the melds, their flowers just inside them, were read as the pond. Flowers lie just
    inside the hand: backs far beyond the flowers are not the row."""
    scene = Scene(seats=[SeatSpec(flowers="f1f6f7", discards="8m5m5s6p2p",
                                  melds=[("pung", "888s", 0), ("pung", "FFF", 1),
                                         ("pung", "SSS", 2)]),
                         *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    mine = np.flatnonzero(dets.is_tile)
    row = mine[np.argsort(-dets.center[mine, 1])][:9]
    width = float(np.median(dets.xyxy[row, 2] - dets.xyxy[row, 0]))
    x0, y0 = float(dets.xyxy[row, 0].min()), float(dets.xyxy[row, 3].max())
    boxes = np.array([[x0 + 4 * width + 0.4 * i * width, y0 + 1.8 * width,
                       x0 + 5 * width + 0.4 * i * width, y0 + 2.0 * width] for i in range(6)])
    backs = TileDetections(xyxy=boxes, confidence=[0.3] * 6, class_id=[BACK_CLASS] * 6,
                           topk_ids=[[BACK_CLASS, -1, -1]] * 6,
                           topk_probs=[[0.9, 0.0, 0.0]] * 6)
    s0 = _seat0(scene, TileDetections.merge([dets, backs]))
    assert [format_tiles(m.tiles) for m in s0.melds] == ["888s", "FFF", "SSS"]
    assert format_tiles(s0.flowers) == "f1f6f7"


def test_a_hands_end_past_the_diagonal_stays_in_its_row() -> None:
    """REALVAL33D table_s48_000048: a hand laid down ran on past the diagonal that splits the
    seats, and its last two tiles, 2m 3m, were read as the next seat's discards. Tiles in
    line with a seat's row that run on from its end, a step apart, are the row's, unless
    they lie in line with a row of their own seat's too."""
    scene = Scene(seats=[SeatSpec(hand="234m3449p16sSWN", flowers="f1f3"),
                         SeatSpec(discards="1p2p3p"), SeatSpec(hand="9876543m9876p5s"),
                         SeatSpec(hand="1234567s1234p5m")], wall=40)
    dets, _ = detections(scene, top_down())
    tiles = np.flatnonzero(dets.is_tile)
    low = tiles[np.argmax(dets.center[tiles, 1])]
    height = float(dets.xyxy[low, 3] - dets.xyxy[low, 1])
    row = tiles[dets.center[tiles, 1] > dets.center[low, 1] - 0.6 * height]
    xyxy = dets.xyxy.copy()
    xyxy[row] += [300, 0, 300, 0]  # the row's last two tiles lie past the diagonal
    seats = read_table(dets.with_(xyxy=xyxy),
                       TableCalibration.from_corners(table_corners(top_down()))).seats
    assert format_tiles(seats[0].hand) == "234m3449p16sSWN"
    assert format_tiles(seats[1].discards) == "123p"


def test_a_kongs_claimed_tile_a_little_over_its_neighbour_is_no_stray() -> None:
    """REALVAL33D table_s48_000057: a kong ``7777p``'s claimed tile, lying sideways at the
    row's end, boxed small and read 6p (7p its runner-up), lay 0.26 widths over its neighbour
    by the row's measure (the two boxes shared 8% of its area): read as a stray, the kong lost
    its tile. A stray lies well over its neighbour (``STRAY_OVERLAP``, 0.3: the strays found
    lay 0.51 and 0.58 over)."""
    scene = Scene(seats=[SeatSpec(hand="334455m4568p", melds=[("exposed_kong", "7777p", 3)]),
                         *OTHER_HANDS])
    dets, row = _meld_row(scene)
    claimed = row[13]
    assert dets.labels[claimed] == "7p"
    xyxy = dets.xyxy.copy()
    width = xyxy[row[12], 2] - xyxy[row[12], 0]
    xyxy[claimed, [0, 2]] -= 0.27 * width  # its box 0.27 widths over its neighbour's
    six, seven = parse_tiles("6p7p")
    kinds = dets.class_id.copy()
    kinds[claimed] = six
    ids, probs = dets.topk_ids.copy(), dets.topk_probs.copy()
    ids[claimed, :2], probs[claimed, :2] = [six, seven], [0.6, 0.3]
    short = dets.with_(xyxy=xyxy, class_id=kinds, topk_ids=ids, topk_probs=probs)
    s0 = _seat0(scene, short)
    assert [format_tiles(m.tiles) for m in s0.melds] == ["7777p"]


def test_two_stray_boxes_beyond_a_hand_do_not_hide_the_hand() -> None:
    """REALVAL34D table_s49_000071: two boxes on the next table, one beyond the other, lay
    beyond a seat's hand laid down: the farther was left outside as a stray and the nearer
    took the row's place, so the hand was read as the pond. Nothing lies beyond a hand: each
    box or two alone beyond where the other hands lie is left outside in turn."""
    scene = Scene(seats=[SeatSpec(hand="122m134789p48sSP"), *OTHER_HANDS])
    dets, _ = detections(scene, top_down())
    strays = dets[[0, 1]]
    strays.class_id[:] = parse_tiles("PC")
    height = float(strays.xyxy[0, 3] - strays.xyxy[0, 1])
    strays.xyxy[:, [1, 3]] += np.array([[2.2], [4.4]]) * height  # down: beyond seat 0
    s0 = _seat0(scene, TileDetections.merge([dets, strays]))
    assert format_tiles(s0.hand) == "122m134789p48sSP"


def test_a_flower_read_as_a_tile_beyond_the_hands_beside_its_flowers_stays_a_flower() -> None:
    """REALVAL34D table_s49_000003: a seat's standing hand went unboxed and its flower row,
    the camera's tilt drawing it beyond where the other hands lay, ended in an f4 read 1s
    (f4 its runner-up): taken for a stray box beyond a hand and left outside. A box lying in
    line beside the seat's own flowers is a flower read as a suit tile, named by its
    runner-up."""
    scene = Scene(seats=[SeatSpec(hidden=13, flowers="f1f2f3f4", discards="123m456p"),
                         *OTHER_HANDS])
    dets, truth = detections(scene, top_down())
    body, flowers = truth.index(F4), np.arange(13, 17)  # after the 13 standing backs
    dets.class_id[body] = ONE_S
    dets.topk_ids[body] = [ONE_S, F4, -1]
    dets.topk_probs[body] = [0.37, 0.31, 0.0]
    xyxy = dets.xyxy.copy()
    xyxy[np.ix_(flowers, [1, 3])] += 2.0 * float(np.median(xyxy[flowers, 3] - xyxy[flowers, 1]))
    unboxed = np.arange(len(dets)) < 13  # the standing hand's backs
    s0 = _seat0(scene, dets.with_(xyxy=xyxy)[~unboxed])
    assert format_tiles(s0.flowers) == "f1f2f3f4"


def test_a_hand_as_far_out_as_most_hands_stays_a_hand_beside_a_flower_read_as_a_tile() -> None:
    """REALVAL34D table_s49_000104: a winner's hand laid down, its flower read as a suit tile
    1.6 widths inside it, was read as the pond because one other seat's row lay 1.0 width
    farther out (a near seat, boxed larger). A face-up row longer than a pond's is a hand as
    far out as the other hands lie, by their median, not their farthest."""
    scene = Scene(seats=[SeatSpec(hand="333456p22s", flowers="f4",
                                  melds=[("pung", "999p", 1), ("chow", "123s", 0)]),
                         *OTHER_HANDS])
    body = 14  # seat 0's flower, after its 8 hand and 6 meld tiles
    dets, truth = detections(scene, top_down(), {body: ONE_S})
    assert truth[body] == F4
    tiles = np.flatnonzero(dets.is_tile)
    top = tiles[np.argsort(dets.center[tiles, 1])][:15]  # seat 2's hand, across the table
    xyxy = dets.xyxy.copy()
    xyxy[top, 1::2] -= 1.2 * float(np.median(xyxy[top, 2] - xyxy[top, 0]))
    s0 = _seat0(scene, dets.with_(xyxy=xyxy))
    assert format_tiles(s0.hand) == "333456p22s"
    assert [format_tiles(m.tiles) for m in s0.melds] == ["999p", "123s"]


@pytest.mark.parametrize("sure", [0.24, 0.9])
def test_a_box_over_two_tiles_of_a_pung_leaves_the_pung(sure: float) -> None:
    """REALVAL34D table_s49_000046: a box read 1s at 0.24 lay astride a pung ``777p``'s second
    and third tiles, a third of a width over each: four boxes that made no meld, so the row's
    melds were read into the hand. Tiles lying flat never overlap: four boxes that make no
    meld, one lying ``STRAY_OVERLAP`` over a neighbour, are the meld the other three make
    and a stray, whatever the stray's odds (table_s49_000181: a sideways 9p boxed also as 8p
    at 0.64)."""
    scene = Scene(seats=[SeatSpec(hand="88m334566p", melds=[("chow", "123s", 0),
                                                         ("pung", "777p", None)]),
                         *OTHER_HANDS])
    dets, row = _meld_row(scene)
    second, third = row[12], row[13]
    assert dets.labels[second] == "7p" and dets.labels[third] == "7p"
    width = dets.xyxy[second, 2] - dets.xyxy[second, 0]
    xyxy = dets.xyxy.copy()
    xyxy[third, [0, 2]] += 0.35 * width  # the last tile a little apart, as a claimed one lies
    box = xyxy[second].copy()
    box[[0, 2]] = [xyxy[second, 2] - 0.32 * width, xyxy[third, 0] + 0.32 * width]
    one, two = parse_tiles("1s2s")
    stray = TileDetections(xyxy=box[None], confidence=[sure], class_id=[one],
                           topk_ids=[[one, two, -1]], topk_probs=[[0.6, 0.3, 0.0]])
    s0 = _seat0(scene, TileDetections.merge([dets.with_(xyxy=xyxy), stray]))
    assert [format_tiles(m.tiles) for m in s0.melds] == ["123s", "777p"]
    assert format_tiles(s0.hand) == "88m334566p"

