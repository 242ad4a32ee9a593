"""Blank 白 faces the detector passes over: places one tile on from a row's end that show a face.

A plain white 白 has no ink, and where a tile set prints no frame on it the detector, which finds
tiles by their ink, often boxes nothing there, not even at a tenth of its threshold (the unframed
白 of a held-back `tiles-real` set: 16 of 25 missed on a fresh draw of tables, a third of the
hands short of one tile). Tiles lie in rows, a tile's width apart. So one tile on past either end
of two touching face boxes, where no box is, is a place a tile may lie. It is a face when its
middle shows the faces' ground colour, unlike the felt's: the felt is no face, and on a white
cloth colour cannot tell and nothing is proposed. The crop classifier then names the place;
only a sure 白 is kept (on felt it says 白 too, seeing no ink: hence the colour test first).
A place with a face box one tile on past it again is a hole inside a row, and no row has a gap
one tile wide: there the felt's colour is not asked (on a light cloth near the faces' ground it
refused a winner's middle 白, table_s22_000025).

The same places find a concealed kong's back the detector passed over (back, face, face, back
laid in a row; a back lying flat among faces is boxed far less surely than a wall's): a place
that shows the frame's backs' colour, far nearer it than the felt's, is a back.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import NamedTuple

import cv2
import numpy as np

from vision.backs import (
    BLANK_CLASS,
    face_ground,
    frame_colours,
    ground_colour,
    middle_lab,
    nearer_back,
)
from vision.detections import TileDetections
from vision.metrics import iou_matrix

# centre distance of two touching tiles, in the first one's length that way: under 1 where a row
# runs at a slant across the frame and its upright boxes overlap (0.77 on table_s22_000008)
ALONG = (0.7, 1.3)
ACROSS = 0.35  # their centres' offset across the row, in the first one's size that way
ALIKE = 1.33  # the two boxes' sides differ by this ratio at most
BEYOND = 0.3  # a face box's centre this near (in the first tile's length) one tile past a place
EMPTY = 0.15  # IoU with every box found under which a place holds no box yet
# Lab distances of a place's middle (median colour): as near the ground as a face, as far from
# the felt as no felt. Measured over the places proposed on the held-back tables (REALVAL3, 4, 6,
# ARTVAL, ARTVAL2; MODELS.md, nineteenth session): places on labeled 白 faces lie 0.5-9.2 from
# the ground and 19.6-79.7 from the felt but for two at 5.3 and 10.9; places on felt or cloth as
# near the ground as 10 lie 12.5 from the felt at most.
GROUND_NEAR = 10.0
FELT_APART = 15.0
# on a light cloth, near the ground's colour itself, a place this many times nearer the ground
# than the felt shows a face too: over REALVAL3, 4, 6, 7, ARTVAL and ARTVAL2 the places on 白
# that FELT_APART refused lay 6.0, 7.3 and 17 times nearer (one 1.4), those on nothing read 白
# 4.3 times at most (MODELS.md, twenty-fourth session); but a felt nearer the faces than
# FELT_LEAST (the 白 places above: 5.2 and more) is one colour can no longer tell from them
GROUND_OVER_FELT = 5.0
FELT_LEAST = 4.0
# the felt beside a place: clear pixels within this many of its sizes around it, this many
# at the least
BESIDE_REACH = 1.5
BESIDE_LEAST = 50
# a place is a back where this share of its middle is nearer the backs' colour than the faces'
# and its median colour this many times nearer the backs' than the felt's. Over the places
# proposed on REALVAL6 and 7 (11,656; MODELS.md, twenty-sixth session) the 9 on a concealed
# kong's unboxed back show 0.84 and more and lie 3.8 times nearer at the least (4.8 and 18.2,
# Lab, on a green felt under green backs); of the 11,631 on nothing 3 pass both. It must also
# lie FELT_APART from the felt, as a face's place must: on a felt near the backs' colour the
# tiles' shadows show it (fresh real-face table_s25_000142: a dark green felt 11.7 from its green
# backs, eight back places past rows' ends, none on a back, the nearest 14.8 from the felt)
BACK_PLACE_SHARE = 0.8
FELT_OVER_BACK = 3.0
# a box read as 白 whose middle lies farther than GROUND_NEAR from the faces' ground and this
# many times nearer the felt shows the felt: over 600 scenes of REALVAL9D-14D (120 each) the 683
# boxes on labeled 白 faces lay at most 2.4 times nearer the felt than the ground (those beyond
# GROUND_NEAR), and 9 of the 41 白 boxes on no face lay 3 times nearer or more (bare felt between
# a wall and a row; MODELS.md, thirty-first session)
FELT_OVER_GROUND = 3.0
# a back box whose middle lies farther than GROUND_NEAR from the frame's backs' colour and this
# many times nearer the felt shows the felt: over 150 scenes of REALVAL9D the 5,355 back boxes
# on labeled backs lay at most 4.3 times nearer the felt than the backs' colour, and 82 of the
# 906 on no labeled tile 6 times nearer or more (MODELS.md, thirty-second session)
FELT_OVER_BACKS = 6.0
# a hole inside a row: a place one step past a face box (its step from a touching neighbour)
# where no box's centre lies within this share of the step, with a face box two steps on
# (within BEYOND): seen at a slant, a row's boxes overlap their neighbours, so a box's place
# there overlaps both sides' boxes and the IoU test of the row's ends cannot tell it empty
HOLE_EMPTY = 0.5
LONE_REACH = 4.0  # tile lengths within which a lone face box looks for its row
LONE_ALIGN = 0.9  # cosine over which that row runs along the line to the lone box
# the face box beyond a hole lies this many steps on, its size and the box's before the hole
# alike within HOLE_ALIKE (a gap between melds beside a claimed tile lying sideways, 1.5 to 1.7
# steps, is no hole)
HOLE_STEPS = (1.8, 2.3)
# a claimed tile lying sideways beyond a hole lies half its extra length farther on (no
# nearer: beside the hand's gap and no hole it lay 1.83 steps on, REALVAL11D
# table_s26_000123), and may lie this many steps farther still: the hand's gap before its
# melds (14 mm over a tile's 27.6) lies on one side of a hole where a meld's first tile went
# unboxed (REALVAL33D table_s48_000114: a kong of 白 read as a pung, its first tile unboxed
# between the hand's F and the claimed 白, 2.6 steps apart). Not beyond a tile lying along the
# row: a meld's first tile boxed doubly, no box holding its place, lay 2.4 steps from the hand
# (REALVAL10D table_s25_000049)
HOLE_GAP = 0.5
HOLE_TURNED = 1.7  # a tile lying across a row is this many times longer along it, at most
HOLE_ALIKE = 1.15
# the face box beyond a hole may be longer than the box before it along the row, up to this
# many times (alike across): a box over its tile and part of the unboxed one (fresh real-face
# table_s35_000012: 111s boxed 1.3 tiles long over the first 1s and part of the second, the
# second unboxed); it is cut back to its own tile once the hole shows one. Such a hole holds
# no box at IoU HOLE_BOXED or more, one doubling another or not (fresh real-face
# table_s32_000267: a 9s boxed on its place, doubling a box astride it and the next)
HOLE_LONG = 1.4
HOLE_BOXED = 0.5
# and only beside boxes of a tile's size, alike within HOLE_ALIKE the median of the HOLE_NEAR
# face boxes nearest them: a tile boxed as two halves makes a short step beside which a whole
# tile's box looks long (fresh real-face table_s33_000242: a 4s's halves, 22 and 23 px wide
# beside 29)
HOLE_NEAR = 8
# a face box overlapping another face box by this IoU or more doubles it (touching tiles' boxes
# overlap by about 0.05): a box over a tile and much of the next holds no place of its own, so
# it leaves a hole there open (fresh real-face table_s30_000299: 444s boxed as 4s, 4s and a box
# over the second and third, later dropped as doubling the second; over REALVAL9D-18D, 0.3 won
# 8 seats and lost none, 0.2 lost one of them on REALVAL9D; MODELS.md, thirty-third session)
DOUBLED = 0.3
ONE_PLACE = 0.2  # IoU of two back places over which they are one (the nearer the backs' kept)
# two boxes read 白 in line with this room between them (in the narrower one's length along
# the row) hold a 白 between them: a pung of 白 whose middle tile went unboxed beside its
# sideways claimed one, which no touching pair measures a step for (fresh real-face
# table_s38_000114: 0.93 widths between, table_s29_000053: 0.86), their middles less than
# half a tile's length apart across it (a row seen at a slant)
BLANK_ROOM = (0.7, 1.3)
FELT_STEP = 8  # the felt's colour is taken from every 8th pixel each way (a frame's time)
FELT_MARGIN = 6  # pixels around each box left out of the felt


def felt_colour(image: np.ndarray, dets: TileDetections) -> np.ndarray | None:
    """(3,) median Lab colour of the table between the boxes: inside the hull of the boxes'
    centres, clear of every box; None when fewer than three boxes or no such pixel."""
    if len(dets) < 3:
        return None
    step = FELT_STEP
    small = image[::step, ::step]
    mask = np.zeros(small.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, cv2.convexHull(np.round(dets.center / step).astype(np.int32)), 1)
    _clear_of(mask, dets.xyxy / step, FELT_MARGIN / step)
    keep = mask > 0
    if not keep.any():
        return None
    return _median_lab(small[keep])


def _clear_of(mask: np.ndarray, boxes: np.ndarray, margin: float) -> None:
    """Zero ``mask`` over each of ``boxes`` (xyxy in the mask's pixels) grown by ``margin``:
    the felt is taken clear of every box."""
    for x0, y0, x1, y1 in boxes:
        mask[max(0, int(y0 - margin)):max(0, int(np.ceil(y1 + margin))),
             max(0, int(x0 - margin)):max(0, int(np.ceil(x1 + margin)))] = 0


def _median_lab(px: np.ndarray) -> np.ndarray:
    """(3,) median Lab colour of BGR pixels (K, 3)."""
    lab = cv2.cvtColor(px.reshape(-1, 1, 3).astype(np.float32) / 255.0, cv2.COLOR_BGR2LAB)
    return np.median(lab.reshape(-1, 3), axis=0)


def row_end_places(dets: TileDetections, shape: tuple[int, ...]) -> np.ndarray:
    """(K, 4) xyxy boxes one tile on past each face box, away from a touching face box of its
    size in line with it, that lie inside the image and overlap no box found (one a place)."""
    return _places(dets, shape)[0]


def _alike(ratio: np.ndarray, within: float) -> np.ndarray:
    """Which boxes' sizes (``ratio``: one's over the other's, per side) differ by under
    ``within`` on both sides."""
    return ((ratio > 1 / within) & (ratio < within)).all(axis=2)


def _in_image(places: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """(K,) bool: the xyxy ``places`` that lie wholly inside an image of ``shape``."""
    h, w = shape[:2]
    return ((places[:, 0] >= 0) & (places[:, 1] >= 0) & (places[:, 2] <= w)
            & (places[:, 3] <= h))


def _distinct(places: np.ndarray, order: Iterable[int], iou: float) -> list[int]:
    """The places, visited in ``order``, that overlap none kept before them by ``iou`` or
    more: one place proposed twice (from both sides, or from two boxes) is kept once."""
    kept: list[int] = []
    for i in order:
        if not kept or iou_matrix(places[i:i + 1], places[kept]).max() < iou:
            kept.append(i)
    return kept


class _Rows(NamedTuple):
    """The face boxes' row geometry: centres and sizes (w, h), offsets ``d[a, k]`` from a to
    k, size ratios, a's length along the line to k, which pairs are alike in size (``ALIKE``)
    and which touch (alike, a tile's length apart along a row, in line)."""

    c: np.ndarray
    size: np.ndarray
    d: np.ndarray
    ratio: np.ndarray
    length: np.ndarray
    alike: np.ndarray
    touching: np.ndarray


def _touching(dets: TileDetections) -> _Rows | None:
    """The face boxes' :class:`_Rows`; None with fewer than two faces."""
    faces = np.flatnonzero(dets.is_tile)
    if len(faces) < 2:
        return None
    b = dets.xyxy[faces].astype(np.float64)
    c = (b[:, :2] + b[:, 2:]) / 2
    size = b[:, 2:] - b[:, :2]  # (w, h)
    d = c[None, :, :] - c[:, None, :]  # d[a, k]: from a to k
    ratio = size[None, :, :] / size[:, None, :]
    alike = _alike(ratio, ALIKE)
    across_x = np.abs(d[..., 0]) >= np.abs(d[..., 1])  # the row runs left-right
    along = np.where(across_x, np.abs(d[..., 0]), np.abs(d[..., 1]))
    off = np.where(across_x, np.abs(d[..., 1]), np.abs(d[..., 0]))
    length = np.where(across_x, size[:, None, 0], size[:, None, 1])
    width = np.where(across_x, size[:, None, 1], size[:, None, 0])
    touching = (alike & (along >= ALONG[0] * length) & (along <= ALONG[1] * length)
                & (off <= ACROSS * width))
    np.fill_diagonal(touching, False)
    return _Rows(c, size, d, ratio, length, alike, touching)


def _places(dets: TileDetections, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`row_end_places`, and for each whether a face box lies one tile on past it again:
    a hole inside a row, one tile wide, where no row has a gap that size."""
    none = np.zeros((0, 4), np.float32), np.zeros(0, bool)
    pairs = _touching(dets)
    if pairs is None:
        return none
    c, size, d, length = pairs.c, pairs.size, pairs.d, pairs.length
    a, k = np.nonzero(pairs.touching)
    if not len(a):
        return none
    centre = c[a] - d[a, k]
    half = size[a] / 2
    beyond = np.linalg.norm(c[None, :, :] - (centre - d[a, k])[:, None, :], axis=2)
    between = (beyond <= BEYOND * length[a, k][:, None]).any(axis=1)
    lone_centre, lone_half = _lone_places(pairs)
    centre = np.concatenate([centre, lone_centre])
    half = np.concatenate([half, lone_half])
    between = np.concatenate([between, np.zeros(len(lone_centre), bool)])
    places = np.concatenate([centre - half, centre + half], axis=1)
    keep = _in_image(places, shape)
    if keep.any() and len(dets):
        keep[keep] = iou_matrix(places[keep], dets.xyxy.astype(np.float64)).max(axis=1) < EMPTY
    places, between = places[keep], between[keep]
    kept = _distinct(places, range(len(places)), 0.5)
    return places[kept].astype(np.float32), between[kept]


def _lone_places(rows: _Rows) -> tuple[np.ndarray, np.ndarray]:
    """Centres and half sizes of the places either side of a face box with no neighbour along
    its row, a step from it along the line to the nearest face box of its size a gap away whose
    row runs along that line (the step that box makes with its neighbour): a meld of 白 found
    by one box of three (fresh real-face table_s26_000122: a pung's middle 白 alone boxed)."""
    c, size, d, length, alike = rows.c, rows.size, rows.d, rows.length, rows.alike
    dist = np.maximum(np.linalg.norm(d, axis=2), 1e-9)
    nextto = rows.touching | rows.touching.T
    has = nextto.any(axis=1)
    centres, halves = [], []
    for a in range(len(c)):
        span = dist[a] / length[a]
        near = np.flatnonzero(alike[a] & has & (span > ALONG[1]) & (span < LONE_REACH))
        if not len(near):
            continue
        found = None
        for k in near[np.argsort(dist[a, near])].tolist():
            unit = -d[a, k] / dist[a, k]  # from k toward a
            mates = np.flatnonzero(nextto[k])
            along = np.abs(d[k, mates] @ unit) >= LONE_ALIGN * dist[k, mates]
            if along.any():  # k's row runs along the line
                found = unit, float(dist[k, mates[along][0]])
                break
        if found is None:
            continue
        unit, step = found
        mine = np.flatnonzero(nextto[a])
        if (np.abs(d[a, mine] @ unit) >= LONE_ALIGN * dist[a, mine]).any():
            continue  # a has a neighbour along the row: no lone box
        for sign in (1.0, -1.0):
            centres.append(c[a] + sign * step * unit)
            halves.append(size[a] / 2)
    if not centres:
        return np.zeros((0, 2)), np.zeros((0, 2))
    return np.array(centres), np.array(halves)


def hole_places(dets: TileDetections, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(K, 4) places one tile wide inside a row where no box is: one step past a face box
    (the step from its touching neighbour on the other side), with a face box of its size in
    line two steps on and no box's centre near the place (a tile the detector passed over,
    or boxed together with a neighbour; fresh real-face table_s24_000138, table_s27_000142),
    but a box doubling another (``DOUBLED``); and for each, the row of that box beyond it
    where it is longer along the row (``HOLE_LONG``), reaching into the hole, else -1."""
    none = np.zeros((0, 4), np.float32), np.zeros(0, np.int64)
    pairs = _touching(dets) if int(dets.is_tile.sum()) >= 3 else None
    if pairs is None:
        return none
    c, size, d, ratio = pairs.c, pairs.size, pairs.d, pairs.ratio
    j, a = np.nonzero(pairs.touching)  # a touches j, the step from j to a: d[j, a]
    if not len(j):
        return none
    step = d[j, a]
    reach = np.linalg.norm(step, axis=1)
    # the next face box on, of a's size: HOLE_STEPS on along the step, off its line by under
    # ACROSS of a step; the hole lies half way to it
    rel = c[None, :, :] - c[a][:, None, :]  # (P, F): from a to every face
    t = np.einsum("pfk,pk->pf", rel, step) / reach[:, None] ** 2
    side_off = np.abs(np.einsum("pfk,pk->pf", rel, step[:, ::-1] * [1, -1])) / reach[:, None]
    same = _alike(ratio, HOLE_ALIKE)
    # or longer along the step than a and j, alike across it (the sides' ratios, k's over a's)
    along_y = (np.abs(step[:, 1]) > np.abs(step[:, 0]))[:, None]  # (P, 1): the row runs along y
    longer = np.ones(t.shape, bool)
    for x in (j, a):
        r = ratio[x]  # (P, F, 2): every face box's sides (w, h) over x's
        length = np.where(along_y, r[..., 1], r[..., 0])
        width = np.where(along_y, r[..., 0], r[..., 1])
        longer &= (length > 1) & (length <= HOLE_LONG) & (width > 1 / HOLE_ALIKE) \
            & (width < HOLE_ALIKE)
    # or a tile lying across the row (a claimed tile turned sideways) where a lies along it:
    # longer along the row than a, its long side along the row where a's lies across it
    long_side = np.where(along_y, size[None, :, 1] > size[None, :, 0],
                         size[None, :, 0] > size[None, :, 1])  # (P, F): its long side along
    turned = long_side & ~long_side[np.arange(len(a)), a][:, None] & (length > 1) \
        & (length <= HOLE_TURNED)
    extra = np.where(turned, (length - 1) / 2, 0.0)  # a turned tile's centre lies farther on
    nearest, farthest = HOLE_STEPS[0] + extra, HOLE_STEPS[1] + extra + np.where(turned, HOLE_GAP, 0)
    near = np.argsort(np.linalg.norm(d, axis=2), axis=1)[:, 1:HOLE_NEAR + 1]
    sized = _alike((size / np.median(size[near], axis=1))[:, None, :], HOLE_ALIKE)[:, 0]
    longer &= (sized[a] & sized[j])[:, None]
    turned &= (sized[a] & sized[j])[:, None]
    # a tile lying across is narrower across the row: laid against the row's edge, its centre
    # lies off the line by half the difference
    across = np.where(along_y, size[None, :, 0], size[None, :, 1])  # (P, F)
    slack = np.where(turned, np.abs(across - across[np.arange(len(a)), a][:, None]) / 2, 0.0)
    on = (t >= nearest) & (t <= farthest) \
        & (side_off <= ACROSS * reach[:, None] + slack) & ((same[a] & same[j]) | longer | turned)
    closed = on.any(axis=1)
    k = np.where(closed, np.argmax(on, axis=1), a)
    reaching = longer[np.arange(len(k)), k] & ~(same[a] & same[j])[np.arange(len(k)), k]
    centre = (c[a] + c[k]) / 2
    faces = np.flatnonzero(dets.is_tile)
    overlap = iou_matrix(dets.xyxy[faces], dets.xyxy[faces])
    np.fill_diagonal(overlap, 0.0)
    holds = np.ones(len(dets), bool)  # the boxes that hold a place: all but doubling ones
    holds[faces[overlap.max(axis=1) >= DOUBLED]] = False
    every = dets.center[holds].astype(np.float64)
    empty = (np.linalg.norm(every[None, :, :] - centre[:, None, :], axis=2)
             > HOLE_EMPTY * reach[:, None]).all(axis=1)
    # a box reaching into the hole is no measure of it: the hole is the box before's size
    half = np.where(reaching[:, None], size[a] / 2, (size[a] + size[k]) / 4)
    places = np.concatenate([centre - half, centre + half], axis=1)
    boxed = iou_matrix(places, dets.xyxy[faces].astype(np.float64)).max(axis=1) >= HOLE_BOXED
    found = np.flatnonzero(empty & closed & ~(reaching & boxed) & _in_image(places, shape))
    # a hole is proposed from both its sides
    found = found[_distinct(places[found], range(len(found)), 0.5)]
    beyond = np.where(reaching[found], faces[k[found]], -1)
    return places[found].astype(np.float32), beyond


def _between_blanks(dets: TileDetections, shape: tuple[int, ...]) -> np.ndarray:
    """(K, 4) places between two boxes read 白 lying in line with one tile's room between
    them (``BLANK_ROOM``) and no box there, the narrower box's size."""
    blanks = np.flatnonzero(dets.is_tile & (dets.class_id == BLANK_CLASS))
    out = []
    for i, j in itertools.combinations(blanks, 2):
        lo, hi = dets.xyxy[i].astype(np.float64), dets.xyxy[j].astype(np.float64)
        dx, dy = abs(hi[0] + hi[2] - lo[0] - lo[2]), abs(hi[1] + hi[3] - lo[1] - lo[3])
        along = 0 if dx >= dy else 1
        if lo[along] > hi[along]:
            lo, hi = hi, lo
        length = min(lo[along + 2] - lo[along], hi[along + 2] - hi[along])
        size = max(lo[3 - along] - lo[1 - along], hi[3 - along] - hi[1 - along])
        room = hi[along] - lo[along + 2]
        off = abs(hi[1 - along] + hi[3 - along] - lo[1 - along] - lo[3 - along]) / 2
        if not BLANK_ROOM[0] * length <= room <= BLANK_ROOM[1] * length or off > size / 2:
            continue
        mid = (lo[along + 2] + hi[along]) / 2
        across = (lo[1 - along] + lo[3 - along] + hi[1 - along] + hi[3 - along]) / 4
        box = np.zeros(4)
        box[[along, along + 2]] = mid - length / 2, mid + length / 2
        box[[1 - along, 3 - along]] = across - size / 2, across + size / 2
        out.append(box)
    if not out:
        return np.zeros((0, 4), np.float32)
    places = np.array(out)
    keep = _in_image(places, shape) & (
        iou_matrix(places, dets.xyxy.astype(np.float64)).max(axis=1) < EMPTY)
    return places[keep].astype(np.float32)


def face_places(image: np.ndarray, dets: TileDetections) -> np.ndarray:
    """(K, 4) the row-end places (:func:`row_end_places`) and those between two 白 a tile apart
    (:func:`_between_blanks`) whose middle shows the faces' ground colour, unlike the felt's
    (or, for a hole inside a row, whatever the felt's): where a face the detector passed over
    may lie."""
    places, between = _places(dets, image.shape)
    pairs = _between_blanks(dets, image.shape)
    if len(pairs):
        places = np.concatenate([places, pairs]).astype(np.float32)
        between = np.concatenate([between, np.zeros(len(pairs), bool)])
    ground = ground_colour(image, dets) if len(places) else None
    if ground is None:
        return places[:0]
    colours = np.full((len(places), 3), np.inf, np.float32)
    for i, box in enumerate(places):
        px = middle_lab(image, box)
        if len(px):
            colours[i] = np.median(px, axis=0)
    to_ground = np.linalg.norm(colours - ground, axis=1)
    near = to_ground <= GROUND_NEAR
    # or near the ground of the face beside it, lit as it is, where the felt beside it is far
    # too: a table lit unevenly shows faces' grounds far apart (REALVAL33D table_s48_000118: a
    # 白 at a hand's end 12.6 from the frame's ground, 1.7 from its neighbour's), and felt in
    # shade lies near a shaded face's ground (REALVAL14D table_s29_000085: 0.8)
    shaded = np.zeros(len(places), bool)
    for i in np.flatnonzero(~near):  # the felt beside looked at only where the ground is near
        shaded[i] = np.linalg.norm(colours[i] - _ground_beside(image, dets, places[i])) \
            <= GROUND_NEAR and np.linalg.norm(colours[i] - _felt_beside(
                image, dets, places[i])) >= FELT_APART
    # the felt's colour only where a place looks like a face (most frames: none)
    felt = felt_colour(image, dets) if ((near | shaded) & ~between).any() else None
    if felt is None:
        apart = np.zeros(len(places), bool)
    else:
        to_felt = np.linalg.norm(colours - felt, axis=1)
        apart = (to_felt >= FELT_APART) | (
            (to_felt >= FELT_LEAST) & (to_ground * GROUND_OVER_FELT <= to_felt))
    return places[((near | shaded) & apart) | (near & between)]


def _ground_beside(image: np.ndarray, dets: TileDetections, box: np.ndarray) -> np.ndarray:
    """(3,) Lab ground of the face box nearest a place, lit as it is (inf where none)."""
    faces = np.flatnonzero(dets.is_tile)
    if not len(faces):
        return np.full(3, np.inf)
    centre = (box[:2] + box[2:]) / 2
    ground = face_ground(image, dets.xyxy[faces[np.argmin(np.linalg.norm(
        dets.center[faces] - centre, axis=1))]])
    return np.full(3, np.inf) if ground is None else ground


def _felt_beside(image: np.ndarray, dets: TileDetections, box: np.ndarray) -> np.ndarray:
    """(3,) Lab median of the felt around a place, lit as it is: the pixels within
    ``BESIDE_REACH`` of its size clear of every box (inf where fewer than ``BESIDE_LEAST``)."""
    size = box[2:] - box[:2]
    x0, y0 = np.maximum(np.floor(box[:2] - BESIDE_REACH * size), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(box[2:] + BESIDE_REACH * size),
                        [image.shape[1], image.shape[0]]).astype(int)
    if x1 <= x0 or y1 <= y0:
        return np.full(3, np.inf)
    clear = np.ones((y1 - y0, x1 - x0), bool)
    boxes = np.vstack([dets.xyxy, box[None]])
    inside = (boxes[:, 2] + FELT_MARGIN > x0) & (boxes[:, 0] - FELT_MARGIN < x1) \
        & (boxes[:, 3] + FELT_MARGIN > y0) & (boxes[:, 1] - FELT_MARGIN < y1)
    _clear_of(clear, boxes[inside] - [x0, y0, x0, y0], FELT_MARGIN)
    px = image[y0:y1, x0:x1][clear]
    return _median_lab(px) if len(px) >= BESIDE_LEAST else np.full(3, np.inf)


def on_felt(image: np.ndarray, dets: TileDetections) -> np.ndarray:
    """(N,) bool: the boxes read as 白 whose middle shows the felt and not the faces' ground,
    and the back boxes whose middle shows the felt and not the frame's backs' colour. The
    classifier names a place with no ink 白, so a box the detector put on bare felt is read as
    a 白 (a discard that was never made); the detector boxes a patch of felt as a back now and
    then too (fresh real-face table_s25_000142: past a chow's last tile, where it made the
    chow no meld). A 白 face shows its ground, a back its colour; where the felt is of that
    colour neither is told, and none is marked."""
    out = np.zeros(len(dets), bool)
    blank = np.flatnonzero(dets.is_tile & (dets.class_id == BLANK_CLASS))
    backs = np.flatnonzero(dets.is_back)
    ground = ground_colour(image, dets) if len(blank) else None
    colours = frame_colours(image, dets) if len(backs) else None
    felt = felt_colour(image, dets) if ground is not None or colours is not None else None
    if felt is None:
        return out
    for rows, own, over in ((blank, ground, FELT_OVER_GROUND),
                            (backs, None if colours is None else colours[0], FELT_OVER_BACKS)):
        if own is None:
            continue
        for r in rows:
            px = middle_lab(image, dets.xyxy[r])
            if len(px):
                colour = np.median(px, axis=0)
                to_own = float(np.linalg.norm(colour - own))
                out[r] = to_own > GROUND_NEAR and to_own >= over * float(
                    np.linalg.norm(colour - felt))
    return out


def back_places(image: np.ndarray, dets: TileDetections) -> np.ndarray:
    """(K, 4) the row-end places (:func:`row_end_places`) that show the frame's backs' colour
    (:func:`vision.backs.frame_colours`), unlike the felt's: a back the detector passed over."""
    places = row_end_places(dets, image.shape)
    colours = frame_colours(image, dets) if len(places) else None
    if colours is None:
        return places[:0]
    back, _ = colours
    middles = [middle_lab(image, box) for box in places]
    shaded = np.array([len(px) > 0 and nearer_back(px, *colours) >= BACK_PLACE_SHARE
                       for px in middles])
    felt = felt_colour(image, dets) if shaded.any() else None
    if felt is None:
        return places[:0]
    to_back = np.full(len(places), np.inf)
    for i in np.flatnonzero(shaded):
        colour = np.median(middles[i], axis=0)
        to_felt = float(np.linalg.norm(colour - felt))
        if to_felt >= FELT_APART and float(np.linalg.norm(colour - back)) * FELT_OVER_BACK \
                < to_felt:
            to_back[i] = float(np.linalg.norm(middles[i] - back, axis=1).mean())
    # a hole a tile wide is proposed from both its sides, a few pixels apart: one back, the
    # place whose every pixel lies nearest the backs' colour (the other takes in the gap)
    order = [int(i) for i in np.argsort(to_back) if np.isfinite(to_back[i])]
    return places[sorted(_distinct(places, order, ONE_PLACE))]
