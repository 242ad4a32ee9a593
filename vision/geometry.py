"""Table geometry: where each tile lies on the table, whose it is, and what it is doing there.

A :class:`TableCalibration` maps image pixels to the table plane (x to the right of seat 0, y away
from seat 0, the centre at 0). Seats sit around it in play order, counterclockwise seen from
above: seat 0 at the bottom of the picture, seat 1 on the right. Distances are then measured in
tile widths (the median width of the tiles seen), so the same rules hold for any camera height
and any tile size. Going outward from the centre a seat has its discard pond, the wall (face-down
stacks), then one row with the standing hand on the left and the laid-down melds on its right
(the claimed tile turned sideways on the side of the seat it came from), and flowers set aside.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from scoring.tiles import NUM_KINDS, NUM_TILES, Tile, is_flower, suit_of
from vision.detections import TileDetections
from vision.detector import box_iou, covers_two_tiles
from vision.labels import BACK_CLASS

SAME_PLACE = 0.2  # boxes overlapping more (IoU) box one place twice: no neighbours (touching
#                   tiles' boxes overlap by a few pixels at most, about 0.05)
FLOWER_BAND = 2.2  # tile widths in front of the hand where its flowers lie (about 1.3; the wall
#                    lies 3 widths in front of the hand, the pond over 5)
FLOWER_RUNNER_UP = 0.01  # a tile there is a flower when a flower among its runner-ups is this
#                         likely: a flower of a look never trained on is read 1s at 0.8-0.98,
#                         its own flower or another behind it at 0.01-0.09 (fresh real-face
#                         tables, REALVAL10D and 14D), while a tile of another sort ranks no
#                         flower at 0.01 (MODELS.md, fortieth session)
SUIT_RUNNER_UP = 0.1  # a flower in a hand's row is a suit or honour tile when one is this likely
MELD_ANEW = float(np.log(20_000.0))  # a meld names its tiles anew only where the kinds it
#   gives them are at least 1 in 20,000 as likely as each one's likeliest, all together: on
#   REALVAL9D-11D's melds read with tiles named anew, those right cost up to log 7,300 (a
#   2s1s2s read 123s), those costing over log 160,000 were all wrong (a 789p and a 9m read
#   as a kong of 9p, 345s 456s as 4444s)
POND_ROW = 6  # discards lie in rows of six: a longer face-up row is a hand
HALF_APART = 0.7  # tile widths: two face-up boxes closer than this, centre to centre, and
HALF_OVERLAP = 0.3  # overlapping by this share of the smaller, box one tile twice (two tiles
#                     lie a width apart or more; touching tiles' boxes overlap by a sliver).
# A sideways tile's halves lie up to 0.69 widths apart (REALVAL17D table_s32_000112: 0.64); of
# two boxes 0.6 to 0.7 apart where either may be a flower (one among its likely kinds at
# FLOWER_RUNNER_UP), the two were flowers laid close (REALVAL11D table_s26_000238: f2 read 1s
# beside f8; REALVAL14D table_s29_000242), so those are joined nearer only
FLOWER_HALVES_APART = 0.6
HALF_ALIGN = 0.2  # share of a box's size by which two halves' edges across the split may differ
HALF_LONG = 1.2  # two halves make a tile (27 x 37 mm) at least this much longer along the split
LONE_FACES = 3  # face-up tiles alone in a seat's row (no backs, no melds) taken for no hand
STANDING_BESIDE = 2  # backs in a seat's row that make its faces melds beside a standing hand
FLOWERS_CLEAR = 1.0  # tile widths from a hand's flowers to its pond, at the least (the
#                     flowers lie about 1.3 in front of the hand, the pond 5.4 inside it)
HAND_FACES = 13  # faces in a seat's row that are a hand laid down, whatever backs lie by
STRAY_FACES = 2  # face-up boxes among a standing hand's backs taken for strays, at most
# a box's shape between a tile lying along its seat (0) and one lying across (1), on its log
# width/height: a hand read from two boxes or more this flat or flatter (their median) is
# standing, its faces seen edge-on from above. Over REALVAL6 and 7 the 10,288 boxes on laid
# hand tiles show 0.41 at their 99th per cent, the 89 on meld tiles 1.23; seats whose hand was
# read from such boxes showed 1.31-1.7 (MODELS.md, twenty-sixth session)
STANDING_FLAT = 1.2
STANDING_UNSURE = 0.5  # a lone box across its seat beside melds, scored under this: standing
# tile widths in front of the line of the rest of its row beyond which a face-up tile at a
# row's end lies in front of the row, not in it (a flower read as a suit tile, fresh real-face
# table_s26_000043: 1.06 in front, past the melds); the row's own tiles lie within 0.4 of it
OFF_LINE = 0.75
# tile widths from a row's end to the next tile on, past the diagonal that splits the seats:
# a tile a width on, a claimed one lying sideways 1.2, a meld 1.3 past the hand's end (a
# tile nearer is one boxed twice, farther no tile of the row)
PAST_STEP = (0.7, 1.7)
# a seat's outermost run whose face-up boxes are all scored under this (detector x classifier)
# while sure faces lie inside it is no row: boxes on bare cloth beyond the hand (fresh
# real-face table_s27_000217: five at 0.08-0.19 on a light cloth, read 9s and 白, took the
# hand's place and the hand was read as the pond)
UNSURE_RUN = 0.2
# a seat's outermost run whose boxes do not lie side by side (most of them farther than
# SCATTERED_STEP widths from the next along it), all scored under SCATTERED_SURE, with a row of
# three faces or more inside it, is no row: boxes on the table's rim beyond the hand (fresh
# real-face table_s25_000262: three 白 read on a white rim 2.3 and 6.7 widths apart, scored
# 0.11-0.29; table_s24_000088: five backs on a wooden rim, steps 0.8-2, scored 0.26-0.33) took
# the hand's place, and the hand was read as the pond. A row's tiles lie a width apart, a
# claimed tile's sideways neighbour 1.2 widths on, a meld's next meld 1.3 at most
SCATTERED_STEP = 1.4
SCATTERED_SURE = 0.5
# tile widths of the gap on both sides of a face-up tile between two face-up neighbours lying
# along a seat's row over which it is a claimed tile lying sideways, boxed short: a hand's tiles
# touch, a meld lies 0.3 widths from the next and one tile makes no meld (fresh real-face
# table_s32_000088: the sideways 6s of a 456s chow boxed 29x37 for 44x35, 0.5 widths from
# both neighbours, and the chow was read as hand tiles; over 150 scenes of REALVAL12D (every other),
# 8 boxes lay so, 3 of them on claimed tiles; MODELS.md, thirty-third session)
SHORT_BOXED = 0.25
# a claimed tile boxed short at a meld's end: a face-up box between lying along and across
# (``flat``, 0 along, 1 across) with the gaps on its two sides SHORT_BOXED_ENDS widths or more
# together, the box covering only part of the sideways tile (fresh real-face table_s27_000005:
# a 657p chow's 6p boxed 0.36 of the way across, 0.44 widths from its 5p; table_s30_000123: a
# 666s pung's middle tile 0.48 across, 0.21 and 0.13 from its neighbours). A hand's last tile
# lies so before the hand's gap too, so such a box is taken for a claimed one only where the
# melds read without it leave a claimed tile in the hand, which no hand holds
SHORT_FLAT = 0.25
SHORT_BOXED_ENDS = 0.3
# ... or a box as short across the row as a tile lying across it (its width, not its length,
# 0.75 of an upright tile's), however short along it: boxed over only part of its length the
# claimed tile looks upright (fresh real-face table_s24_000271: a 123s chow's sideways 3s
# boxed 38x46 where the row's upright faces are boxed 58 high, 0.49 widths from its 1s)
SHORT_ACROSS = 0.85
# a kong's box named anew lying this many widths over a neighbour's in the row is a stray
# (:func:`_stray_in_kong`): tiles lying flat in a row never overlap. The strays found lay 0.51
# and 0.58 over; a claimed tile boxed small, 0.26 over by the row's measure though the boxes
# shared 8% of its area, is none (REALVAL33D table_s48_000057: 7777p read as 777p)
STRAY_OVERLAP = 0.3
# of two face-up boxes of a seat's row at much the same place along it (under 0.6 widths
# apart), lying this many widths or more apart across it, the one farther from the line the
# row's other tiles make lies in front of the row (a flower) or beyond it (the table's rim);
# nearer each other than that, both box one tile (a box astride two touching tiles, or a tile
# boxed twice) and the surer is the tile's. Over 3,600 scenes of REALVAL9D-20D, of 327 pairs
# with one box on a row tile, the surer kept in line and the outer one apart picked it 281
# times (0.4-0.6 alike), the one nearer the row's median line 179 (fresh real-face
# table_s35_000012: a 1s's own box, 0.29, left out for one astride it and the next, 0.18); the
# line the other tiles make, not the outer side, leaves out the rim's boxes too
# (table_s26_000102). MODELS.md, thirty-fifth session
CLOSE_ACROSS = 0.5
# of two boxes at much the same place in a row, the row leaves room for both as tiles where the
# boxes beside them lie this many widths from the pair's far box (at a row's end), or this
# many plus one apart (two tiles between them, not one): three 4s boxed out of step, a box
# astride the last two and one on the last, the last left out as a second box (REALVAL9D
# table_s24_000099, 1.8 widths from the first 4s to the last). MODELS.md, thirty-sixth session
ROOM = 1.5
# and the two lie out of step, this many widths apart along the row or more (a box astride two
# tiles beside one's own box, about half a width), not one tile boxed twice (nearer): in the 48
# scenes of REALVAL9D-20D whose seats the spares changed, 0.38-0.60 but for one, 0.03, a lone
# 2p boxed twice before a gap to its melds, read as a pair and a win by the wrong seat
# (REALVAL11D table_s26_000233)
SPARE_STEP = 0.3
RENAME_SURE = 0.5  # a kept spare box and its partner named again at their places: this sure

# boxes (K, 4) in image pixels -> their top-k tile kinds and odds (K, k), the crop classifier's
NameAt = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]

# --------------------------------------------------------------- calibration


def seat_axes(seat: int) -> tuple[np.ndarray, np.ndarray]:
    """(right, toward the player) unit vectors of a seat in the table plane."""
    ang = seat * np.pi / 2
    c, s = np.cos(ang), np.sin(ang)
    return np.array([c, s]), np.array([s, -c])


@dataclass(frozen=True)
class TableCalibration:
    """A homography from image pixels to table coordinates (the table square is -1..1)."""

    homography: np.ndarray  # (3, 3)
    corners: tuple[tuple[float, float], ...] = ()  # image pixels, as given or found
    guessed: bool = False  # no corners: the picture's centre stands in for the table's
    bottom_seat: int = 0
    frame: tuple[int, int] = (0, 0)  # the picture's width and height, when guessed from it

    def to_json(self) -> dict[str, object]:
        """What a rig saves once calibrated (corners clicked in the dashboard)."""
        if not self.corners:
            raise ValueError("only a calibration made from corners can be saved")
        return {"corners": [list(c) for c in self.corners], "bottom_seat": self.bottom_seat}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> TableCalibration:
        corners = data.get("corners")
        bottom = data.get("bottom_seat", 0)
        if not isinstance(corners, list) or not isinstance(bottom, int):
            raise ValueError("a saved calibration has 'corners' (4 x [x, y]) and 'bottom_seat'")
        return cls.from_corners(corners, bottom)

    @classmethod
    def from_corners(cls, corners: Sequence[Sequence[float]],
                     bottom_seat: int = 0) -> TableCalibration:
        """From the table's corners in image pixels, in the order: bottom left, bottom right,
        top right, top left of the picture (the left and right of the player sitting at the
        bottom edge, then the far edge). ``bottom_seat`` is the seat at the bottom edge."""
        pts = np.asarray(corners, np.float32).reshape(-1, 2)
        if pts.shape != (4, 2):
            raise ValueError(f"a table calibration needs 4 corners (x, y), got {len(pts)}")
        if not 0 <= bottom_seat <= 3:
            raise ValueError(f"bottom_seat must be a seat 0..3, got {bottom_seat}")
        ang = bottom_seat * np.pi / 2  # seat k's edge is seat 0's edge turned k quarter turns
        rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
        dst = (np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) @ rot.T
               ).astype(np.float32)
        h, _ = cv2.findHomography(pts, dst)
        if h is None or abs(np.linalg.det(h)) < 1e-12:
            raise ValueError(f"the corners {pts.tolist()} do not outline a table")
        return cls(homography=h, corners=tuple((float(x), float(y)) for x, y in pts.tolist()),
                   bottom_seat=bottom_seat)

    @classmethod
    def whole_frame(cls, width: int, height: int, bottom_seat: int = 0) -> TableCalibration:
        """A camera squared to the table over its centre, ``bottom_seat`` at the bottom: the
        picture's centre is the table's and its pixels are square."""
        cx, cy, r = width / 2, height / 2, max(width, height) / 2
        calib = cls.from_corners([[cx - r, cy + r], [cx + r, cy + r], [cx + r, cy - r],
                                  [cx - r, cy - r]], bottom_seat)
        return cls(homography=calib.homography, guessed=True, frame=(width, height))

    @classmethod
    def from_tiles(cls, dets: TileDetections, width: int, height: int,
                   bottom_seat: int = 0) -> TableCalibration:
        """Without corners: undo the camera's tilt from the tiles themselves.

        Every tile has the same size, so how their boxes grow across the picture gives the
        perspective. For ``q = (x, y) / (g1 x + g2 y + 1)`` a box's linear size grows as
        ``g1 x + g2 y + 1`` along x and as its square along y, so ``sqrt(area) ** (2/3)`` is
        fitted as a linear function of (x, y). The squeeze that remains (foreshortening) is
        removed by making the ring of tiles as tall as it is wide, since a table is square.
        """
        tiles = dets.is_tile | dets.is_back
        if tiles.sum() < 12:
            return cls.whole_frame(width, height, bottom_seat)
        # tiles lying face up measure the plane best; standing hands and two-high walls rise
        # above it and look larger or smaller than their footprint
        sizing = dets.is_tile if dets.is_tile.sum() >= 8 else tiles
        sbox = dets.xyxy[sizing].astype(np.float64)
        box = dets.xyxy[tiles].astype(np.float64)
        c = (box[:, :2] + box[:, 2:]) / 2
        r = max(width, height) / 2
        xy = (((sbox[:, :2] + sbox[:, 2:]) / 2) - [width / 2, height / 2]) / r  # about -1..1
        size = np.sqrt(np.prod(sbox[:, 2:] - sbox[:, :2], axis=1)).clip(1e-3) ** (2 / 3)
        design = np.c_[np.ones(len(xy)), xy]
        coef, *_ = np.linalg.lstsq(design, size, rcond=None)
        g = coef[1:] / max(coef[0], 1e-9)
        g = np.clip(g, -0.8, 0.8)  # beyond this the fit is noise, not a camera
        persp = np.array([[1, 0, 0], [0, 1, 0], [g[0], g[1], 1.0]])
        norm = np.array([[1 / r, 0, -width / 2 / r], [0, 1 / r, -height / 2 / r], [0, 0, 1]])
        h = persp @ norm
        pts = cv2.perspectiveTransform(c.reshape(-1, 1, 2), h).reshape(-1, 2)
        turn = row_angle(pts)  # a table turned under the camera: square its rows first
        ct, st = np.cos(-turn), np.sin(-turn)
        unturn = np.array([[ct, -st, 0], [st, ct, 0], [0, 0, 1]])
        h = unturn @ h
        pts = pts @ unturn[:2, :2].T
        # not a neighbour's tiles; nor, for the span fitted here, a near seat's faces cut by
        # the frame (``read_table`` seats those): they stretched the fit toward their side
        # and seated the far side worse (REALVAL3 table_s16_000048)
        pts = pts[on_table(pts, at_edge(box, (width, height)))]
        lo, hi = np.percentile(pts, [2, 98], axis=0)
        span = np.maximum(hi - lo, 1e-6)
        centre = (lo + hi) / 2
        k = 1.0 / max(span[0], span[1]) * 2 * 0.85  # the ring of tiles spans most of the table
        fit = np.array([[k * span.max() / span[0], 0, 0], [0, -k * span.max() / span[1], 0],
                        [0, 0, 1]]) @ np.array([[1, 0, -centre[0]], [0, 1, -centre[1]],
                                                [0, 0, 1]])
        ang = bottom_seat * np.pi / 2
        rot = np.array([[np.cos(ang), -np.sin(ang), 0], [np.sin(ang), np.cos(ang), 0],
                        [0, 0, 1]])
        return cls(homography=rot @ fit @ h, guessed=True, frame=(width, height))

    def to_table(self, points: np.ndarray) -> np.ndarray:
        """(N, 2) image pixels to (N, 2) table coordinates."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        if not len(pts):
            return np.zeros((0, 2))
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def to_image(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, np.linalg.inv(self.homography)).reshape(-1, 2)


def at_edge(xyxy: np.ndarray, frame: tuple[int, int], margin: float = 3.0) -> np.ndarray:
    """(N,) which boxes touch the picture's edge (``frame``: width, height)."""
    w, h = frame
    return ((xyxy[:, 0] <= margin) | (xyxy[:, 1] <= margin) | (xyxy[:, 2] >= w - margin)
            | (xyxy[:, 3] >= h - margin))


def on_table(pts: np.ndarray, edge: np.ndarray, faces: np.ndarray | None = None,
             link: float = 3.0, few: int = 12, beyond: float = 1.0, far_out: float = 1.3,
             wall_side: int = 36, own_gap: float = 9.5) -> np.ndarray:
    """Which of the tiles at ``pts`` (N, 2) (table plane, or roughly so) lie on this table: a
    group standing apart (no tile within ``link`` tile spacings), cut by the picture's edge
    (``edge``, (N,) bool) and lying wholly ``beyond`` the radius that holds 80% of all tiles,
    is the next table's, or the floor's, when it is small (fewer than ``few``) or lies
    ``far_out`` times that radius away and holds no more than a next table's wall side shows
    (``wall_side``: 18 stacks of two). A seat's own few tiles (its flowers, a short row) do not
    touch the picture's edge, or have one nearer the centre; a seat's own row cut by the edge
    (a hand, with no wall left inside it) lies about at that radius, not far beyond it. A
    group of face-up tiles alone (``faces``, (N,) bool, where given) within ``own_gap``
    spacings of the other tiles is a near seat's laid-down hand, melds or flowers cut by the
    frame, however far out: a next table's lie beyond its edge and ours, 11 spacings and more
    away (its wall's backs are a next table's too, however near)."""
    n = len(pts)
    keep = np.ones(n, bool)
    if n < few:
        return keep
    dist = _distances(pts)
    # spacing: the second-nearest tile, since a two-high wall stack shows two boxes at one place
    spacing = float(np.median(np.partition(dist, 1, axis=1)[:, 1]))
    near = dist <= link * spacing
    radius = np.hypot(*(pts - np.median(pts, axis=0)).T)
    far = beyond * float(np.percentile(radius, 80))
    group = np.full(n, -1)
    for start in range(n):
        if group[start] >= 0:
            continue
        group[start], todo = start, [start]
        while todo:
            i = todo.pop()
            for j in np.flatnonzero(near[i] & (group < 0)):
                group[j] = start
                todo.append(int(j))
    sizes = np.bincount(group, minlength=n)
    for start in np.flatnonzero(sizes):
        members = group == start
        size, nearest = int(sizes[start]), float(radius[members].min())
        if faces is not None and faces[members].all() and (~members).any() and float(
                dist[members][:, ~members].min()) <= own_gap * spacing:
            continue
        if edge[members].any() and ((size < few and nearest > far)
                                    or (size <= wall_side and nearest > far_out * far)):
            keep[members] = False
    return keep


def row_angle(pts: np.ndarray) -> float:
    """How far the table is turned from the picture's axes (radians, within +-45 degrees),
    from the rows its tiles lie in: each tile's nearest neighbour lies along its row (or
    across it, a quarter turn away), so the step to it, its angle taken four times over,
    averages to the rows' direction whichever sides of the table are in view."""
    if len(pts) < 8:
        return 0.0
    step = pts - pts[np.argmin(_distances(pts), axis=1)]
    ang = 4 * np.arctan2(step[:, 1], step[:, 0])
    s, c = float(np.sin(ang).sum()), float(np.cos(ang).sum())
    if np.hypot(s, c) < 0.3 * len(pts):  # no agreement: no rows to go by
        return 0.0
    return float(np.arctan2(s, c) / 4)


def find_table_corners(image: np.ndarray, min_area: float = 0.2) -> np.ndarray | None:
    """The table top as the largest convex four-sided region covering at least ``min_area`` of
    the picture, corners ordered for :meth:`TableCalibration.from_corners`; ``None`` if absent.

    The table cloth is one colour that differs from the room: the picture is quantized by its
    dominant colour near the centre and the outline of that region is simplified to 4 corners.
    """
    h, w = image.shape[:2]
    scale = 480 / max(h, w)
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (7, 7), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    sh, sw = lab.shape[:2]
    centre = lab[sh // 3: 2 * sh // 3, sw // 3: 2 * sw // 3].reshape(-1, 3)
    cloth = np.median(centre, axis=0)
    dist = np.linalg.norm(lab - cloth, axis=2)
    mask = (dist < max(18.0, float(np.percentile(np.linalg.norm(centre - cloth, axis=1), 60))
                       * 2.0)).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((15, 15), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    if cv2.contourArea(hull) < min_area * sh * sw:
        return None
    peri = cv2.arcLength(hull, True)
    quad = None
    for eps in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float32) / scale
            break
    if quad is None:
        return None
    margin = 0.01 * max(h, w)
    if (quad[:, 0].min() < margin or quad[:, 1].min() < margin
            or quad[:, 0].max() > w - margin or quad[:, 1].max() > h - margin):
        return None  # the table runs out of the picture: its edge here is the frame's
    return order_corners(quad)


def order_corners(pts: np.ndarray) -> np.ndarray:
    """Four image points ordered bottom-left, bottom-right, top-right, top-left (seat 0 at the
    bottom of the picture)."""
    c = pts.mean(axis=0)
    ang = np.arctan2(-(pts[:, 1] - c[1]), pts[:, 0] - c[0])  # y up
    ordered = pts[np.argsort(ang)]  # counterclockwise from -pi: bottom-left first
    start = int(np.argmin(np.abs(np.arctan2(-(ordered[:, 1] - c[1]), ordered[:, 0] - c[0])
                                 + 3 * np.pi / 4)))
    return np.roll(ordered, -start, axis=0)


# --------------------------------------------------------------- layout reading


@dataclass(frozen=True)
class TableLayout:
    """How rows are told apart, in tile widths (measured per seat, so any camera height and
    tile size reads the same).

    A seat's hand and melds form its outermost row; the wall (face-down) and the pond
    (face-up) lie farther in, across a gap wider than ``outer_gap``.
    """

    outer_gap: float = 0.9  # hand row to wall: about 2 widths; hand to melds: under 0.6
    # a standing hand's backs boxed beyond its melds (tall tiles seen at a slant): a meld row
    # with a sideways tile up to this far inside a row of backs only still joins it
    standing_gap: float = 1.6
    split_gap: float = 0.2  # a gap wider than this (tile widths) separates groups in a row
    meld_gap: float = 0.1  # a narrower gap still ends a meld that its tiles make
    tile_aspect: float = 1.37  # tile height / width (27 x 37 mm)


@dataclass(frozen=True)
class MeldReading:
    type: str
    tiles: tuple[Tile, ...]
    from_seat: int | None
    sideways_index: int | None
    rows: tuple[int, ...]  # rows of the detections, left to right
    certain: bool = True  # False: the claimed tile or a tile was not seen clearly

    def to_json(self) -> dict[str, object]:
        from scoring.tiles import format_tiles

        out: dict[str, object] = {"type": self.type, "tiles": format_tiles(self.tiles)}
        if self.from_seat is not None:
            out["from"] = self.from_seat
        return out


@dataclass
class SeatReading:
    """What one seat shows: hand tiles in order (left to right as the player sees them)."""

    seat: int
    hand: list[Tile] = field(default_factory=list)
    hand_rows: list[int] = field(default_factory=list)
    hidden: int = 0  # standing tiles seen only from behind
    melds: list[MeldReading] = field(default_factory=list)
    flowers: list[Tile] = field(default_factory=list)
    flower_rows: list[int] = field(default_factory=list)
    discards: list[Tile] = field(default_factory=list)
    discard_rows: list[int] = field(default_factory=list)
    drawn_apart: bool = False  # the last hand tile stands apart (just drawn)
    # face-up boxes left out of the row as second boxes of a row tile where the row leaves
    # room for two tiles (geometry._spare_rows), surest first: a short hand's missing tile
    spare_rows: list[int] = field(default_factory=list)

    @property
    def tile_count(self) -> int:
        """Standing tiles (seen or hidden) plus melds, each kong counted as 3."""
        return len(self.hand) + self.hidden + 3 * len(self.melds)

    @property
    def face_up_count(self) -> int:
        """Face-up tiles of the hand and its melds (kongs count 3), backs left out: a hand laid
        down shows 14 however many stray back boxes (the detector's least sure) lie beside."""
        return len(self.hand) + 3 * len(self.melds)

    def face_up(self, is_tile: np.ndarray) -> list[tuple[int, str, int]]:
        """Each face-up tile the seat shows as ``(detection row, part, index)``: ``part`` is
        ``hand`` (index: its place in the hand), ``meld`` (index: the meld's) or ``flowers``
        (index: its place among them); a concealed kong's backs (``is_tile`` false) are left
        out. The one walk over a seat's tiles that repair, the unsure list and the
        dashboard's corrections share."""
        return [*((r, "hand", i) for i, r in enumerate(self.hand_rows)),
                *((r, "meld", m) for m, meld in enumerate(self.melds) for r in meld.rows
                  if is_tile[r]),
                *((r, "flowers", i) for i, r in enumerate(self.flower_rows))]


@dataclass
class TableReading:
    detections: TileDetections  # with seat, role, group and sideways filled in
    seats: list[SeatReading]
    wall_stacks: int  # face-down boxes in the wall (a stack two high shows as one)
    indicator: Tile | None
    tile_width: float  # table units
    corrected: dict[int, Tile] = field(default_factory=dict)  # row -> kind changed by a rule
    # a spare box (SeatReading.spare_rows) -> it and its partner, each at its own tile's place
    # (image pixels): where to name them again when the spare is kept (read_table's name_at)
    spare_places: dict[int, list[tuple[int, np.ndarray]]] = field(default_factory=dict)


def _sideways(calib: TableCalibration, dets: TileDetections, pos: np.ndarray,
              seats: np.ndarray, tile_w: np.ndarray, aspect: float
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(N,) bool: the box's shape matches a tile lying across its seat's direction better than
    one lying along it, both projected into the picture at the tile's place (so perspective
    does not matter); with each box's log width/height, how much lying across would add to it
    (for :func:`_row_sideways`), and where the box's shape lies from lying along (0) to lying
    across (1), beyond 1 flatter than a tile lying down (a standing tile seen edge-on)."""
    n = len(dets)
    if not n:
        return np.zeros(0, bool), np.zeros(0), np.zeros(0), np.zeros(0)
    bw = np.maximum(dets.xyxy[:, 2] - dets.xyxy[:, 0], 1e-6)
    bh = np.maximum(dets.xyxy[:, 3] - dets.xyxy[:, 1], 1e-6)
    seen = np.log(bw / bh)
    axes = np.array([np.stack(seat_axes(k)) for k in range(4)])[seats.astype(int)]  # (N, 2, 2)
    right, toward = axes[:, 0], axes[:, 1]
    signs = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], np.float64)
    logs = []
    for du, dv in ((1.0, aspect), (aspect, 1.0)):  # along, then across the seat's direction
        half_u = (tile_w * du / 2)[:, None, None] * right[:, None, :]
        half_v = (tile_w * dv / 2)[:, None, None] * toward[:, None, :]
        quads = pos[:, None, :] + signs[None, :, :1] * half_u + signs[None, :, 1:] * half_v
        img = calib.to_image(quads.reshape(-1, 2)).reshape(n, 4, 2)
        ext = np.ptp(img, axis=1).clip(1e-6)
        logs.append(np.log(ext[:, 0] / ext[:, 1]))
    across = logs[1] - logs[0]
    flat = (seen - logs[0]) / np.where(np.abs(across) < 1e-6, 1e-6, across)
    return np.abs(seen - logs[1]) < np.abs(seen - logs[0]), seen, across, flat


def _row_sideways(rows: np.ndarray, sideways: np.ndarray, seen: np.ndarray,
                  across: np.ndarray, a: np.ndarray) -> np.ndarray:
    """A row's sideways tiles, checked against the row's own shape: a hand row holds at most
    one claimed tile a meld, so most of its tiles lie along it, and a sideways tile's box is
    wider than the row's usual one by more than half of what lying across adds. Where the
    table's geometry calls most of the row sideways (a calibration off by a turn: a table
    turned under a tilted camera) the row's shape alone decides; where it calls two or more
    neighbours sideways (no meld shows two claimed tiles side by side) those must also look
    it; elsewhere the geometry stands."""
    flags = sideways[rows].copy()
    if len(rows) < 3:
        return flags
    usual = float(np.median(seen[rows]))
    shape = (seen[rows] - usual) * np.sign(across[rows]) > np.abs(across[rows]) / 2
    if flags.sum() * 2 > len(rows):
        return shape
    order = np.argsort(a[rows])
    run = flags[order]
    paired = run & (np.r_[False, run[:-1]] | np.r_[run[1:], False])  # a sideways neighbour
    flags[order[paired]] &= shape[order[paired]]
    return flags


def _boxed_short(row: np.ndarray, a: np.ndarray, sideways: np.ndarray, face_up: np.ndarray,
                 aspect: float) -> np.ndarray:
    """Of a seat's row, the face-up tiles lying along it between two such neighbours,
    ``SHORT_BOXED`` widths or more from each (a tile lying sideways is ``aspect`` widths long):
    claimed tiles lying sideways whose box covers only part of them. A meld shows one claimed
    tile, so a tile beside one lying sideways is none (a sideways box tells its gaps badly:
    fresh real-face table_s31_000067, a chow's 5s 0.27 and 0.35 widths from two)."""
    order = row[np.argsort(a[row])]
    if len(order) < 3:
        return order[:0]
    along = np.where(sideways[order], aspect, 1.0)
    gaps = (a[order[1:]] - along[1:] / 2) - (a[order[:-1]] + along[:-1] / 2)
    upright = face_up & ~sideways
    inner = order[1:-1]
    return inner[upright[inner] & upright[order[:-2]] & upright[order[2:]]
                 & (gaps[:-1] >= SHORT_BOXED) & (gaps[1:] >= SHORT_BOXED)]


def _outer_row(rows: np.ndarray, d: np.ndarray, layout: TableLayout, a: np.ndarray,
               face_up: np.ndarray, sideways: np.ndarray, conf: np.ndarray,
               kept: frozenset[int] = frozenset()) -> np.ndarray:
    """The seat's outermost row (hand and melds): from the farthest tile inward, until a gap
    of more than ``layout.outer_gap`` tile widths (the space before the wall or the pond).
    A row of backs only (a standing hand) takes the face-up run just inside it, up to
    ``layout.standing_gap`` away, when that run holds a sideways tile: a claimed meld, which
    no pond or wall shows. Face-up tiles of a row lie side by side: of two at much the same
    place along it (under 0.6 widths apart), the one farther from the row's line lies in front
    of it (a flower) or beyond it, not in it, or, lying in line (``CLOSE_ACROSS``), the less
    sure (``conf``) is a second box of the other's tile. (Backs may: a wall's stacks are two
    high.) Rows in ``kept`` stay (a hand one tile short, :func:`_short_by_one`)."""
    if not len(rows):
        return rows
    order = rows[np.argsort(-d[rows])]

    def run(start: int) -> int:
        end = start
        while end < len(order) and d[order[end - 1]] - d[order[end]] <= layout.outer_gap:
            end += 1
        return end

    keep = run(1)
    if keep < len(order) and not face_up[order[:keep]].any() \
            and d[order[keep - 1]] - d[order[keep]] <= layout.standing_gap:
        end = run(keep + 1)
        backs = np.flatnonzero(~face_up[order[keep:end]])
        if len(backs):  # the run goes on into the wall's stacks: the melds end before them
            end = keep + int(backs[0])
        if sideways[order[keep:end]].any():
            keep = end
    row = order[:keep]
    if len(row) >= 3:
        along = row[np.argsort(a[row])]
        along = along[face_up[along]]
        # neighbours lie a width apart or more (more beside a sideways tile)
        close = [(p, q) for p, q in itertools.pairwise(along.tolist()) if a[q] - a[p] < 0.6]
        inline = [(p, q) for p, q in close if abs(d[p] - d[q]) < CLOSE_ACROSS]
        # a box close in line to both its neighbours lies astride their tiles, or, where they
        # lie close too, all three box one tile and the middle box is its box
        drop: set[int] = set()
        for (p, q), (q2, r) in itertools.pairwise(inline):
            if q == q2:
                drop |= {q} if a[r] - a[p] >= 0.6 else {p, r}
        if close:  # apart across the row, the one farther from the line its other face-up
            # tiles make (fitted along it: a row seen at a slant) lies in front of or beyond it
            paired = {r for pair in close for r in pair}
            rest = [r for r in along.tolist() if r not in paired]
            line = np.polyfit(a[rest], d[rest], 1) if len(rest) >= 2 \
                else np.array([0.0, np.median(d[along])])
            off = np.abs(d - np.polyval(line, a))
        for p, q in close:
            if p not in drop and q not in drop:
                apart = abs(d[p] - d[q]) >= CLOSE_ACROSS
                drop.add(p if (off[p] > off[q] if apart else conf[p] < conf[q]) else q)
        drop |= _in_front_at_ends(along[~np.isin(along, list(drop))], d, a)
        row = np.array([r for r in row if int(r) not in drop - kept], dtype=rows.dtype)
    return np.sort(row)


def _spare_rows(row: np.ndarray, loose: np.ndarray, d: np.ndarray, a: np.ndarray,
                face_up: np.ndarray, conf: np.ndarray) -> list[tuple[int, int, float, float]]:
    """Of a seat's loose face-up boxes (``loose``, its discards), those lying in line with its
    row (``row``) at much the same place as one of its tiles but out of step with it
    (``SPARE_STEP`` to 0.6 widths along it, under ``CLOSE_ACROSS`` across) where the row
    leaves room for two tiles there (``ROOM``): a box the row's rules took for a second box of
    its neighbour's tile, most likely a tile of its own when the hand comes out a tile short.
    Surest first, each as ``(box, its partner, shift of box, shift of partner)``: the shifts
    (in widths along the row) bring the two out of step to a tile's step each from the next
    box beyond them, where the tiles they stand for lie."""
    up = row[face_up[row]]
    if len(up) < 3:
        return []
    line = np.polyfit(a[up], d[up], 1)
    out: list[tuple[int, int, float, float]] = []
    for r in loose[face_up[loose]].tolist():
        if abs(d[r] - np.polyval(line, a[r])) >= CLOSE_ACROSS:
            continue
        along = sorted([*up.tolist(), r], key=lambda x: a[x])
        i = along.index(r)
        for p, q in ((i - 1, i), (i, i + 1)):
            if p < 0 or q >= len(along) or not SPARE_STEP <= a[along[q]] - a[along[p]] < 0.6:
                continue
            left = a[along[p - 1]] if p > 0 else None
            right = a[along[q + 1]] if q + 1 < len(along) else None
            if left is not None and right is not None:
                room = right - left >= 1 + ROOM
            elif left is not None:
                room = a[along[q]] - left >= ROOM
            else:
                room = right is not None and right - a[along[p]] >= ROOM
            if room:
                mate = along[q] if along[p] == r else along[p]
                # the tile steps from the box beyond the pair: the mate at its nearest step,
                # the spare at the next one on its side
                base, sign = (left, 1.0) if left is not None else (right, -1.0)
                step = max(round(sign * (a[mate] - base)), 1)
                own = step + (1 if sign * (a[r] - a[mate]) > 0 else -1)
                if own < 1:
                    own, step = step, step + 1
                out.append((r, int(mate), base + sign * own - a[r], base + sign * step - a[mate]))
                break
    return sorted(out, key=lambda t: -conf[t[0]])


def _may_lack_a_tile(s: SeatReading) -> bool:
    """A hand laid down face up, none standing, of 13 tiles or fewer (a meld counting 3): one
    that a spare box may complete, the only seats whose spares are looked for."""
    return bool(s.hand) and not s.hidden and s.face_up_count <= 13


def _short_by_one(readings: list[SeatReading]) -> dict[int, int]:
    """Seat to its surest spare box, for each seat whose face-up hand is a tile short of what
    a hand holds (13 or 14, a meld counting 3: a count of 12, 9, ... lacks one; spares are
    found only where :func:`_may_lack_a_tile`)."""
    return {s.seat: s.spare_rows[0] for s in readings
            if s.spare_rows and s.face_up_count % 3 == 0}


def _side_by_side(rows: np.ndarray, a: np.ndarray) -> bool:
    """Most of the boxes ``rows`` lie within ``SCATTERED_STEP`` widths of the next along their
    row (``a``), as a row's tiles do; a box alone does not."""
    steps = np.diff(np.sort(a[rows]))
    return 2 * int((steps <= SCATTERED_STEP).sum()) > len(steps)


def _in_front_at_ends(along: np.ndarray, d: np.ndarray, a: np.ndarray) -> set[int]:
    """Of a row's face-up tiles (``along``, in order along it), those at either end lying more
    than ``OFF_LINE`` widths in front of the line the others make (fitted along the row, so a
    row seen at a slant keeps its ends): a flower or a discard beside the row's end."""
    out: set[int] = set()
    if len(along) < 5:
        return out
    for end, rest in ((along[0], along[1:]), (along[-1], along[:-1])):
        slope, level = np.polyfit(a[rest], d[rest], 1)
        if slope * a[end] + level - d[end] > OFF_LINE:
            out.add(int(end))
    return out


def _tile_width(pos: np.ndarray, xyxy: np.ndarray) -> float:
    """The tile width in table units: the usual distance between neighbouring tiles (rows of
    tiles touch), which perspective does not distort once positions are on the table plane.
    Two boxes over much the same place (a wall's stack boxed twice, half a tile apart) are
    not neighbours: where a wall is so boxed, their distances made the median flip between
    half a width and a whole one with a box or two more or fewer."""
    if len(pos) < 2:
        return 0.06
    dist = _distances(pos)
    dist[box_iou(xyxy, xyxy) > SAME_PLACE] = np.inf
    nearest = dist.min(axis=1)
    nearest = nearest[np.isfinite(nearest)]
    return float(np.median(nearest)) if len(nearest) else 0.06


def _join_halves(dets: TileDetections, pos: np.ndarray, backs: np.ndarray
                 ) -> tuple[TileDetections, np.ndarray]:
    """One box for a tile boxed as two halves, and which rows were the dropped halves.

    A tile lying sideways (a claimed tile, a flower set aside) is sometimes boxed as two
    squarish boxes overlapping by half their width: two tiles where one lies (a flower read
    twice, a sideways 4p as 4p and 2p). On the table plane two tiles lie at least a width
    apart, centre to centre (touching); two halves of one lie about half a width apart. The
    width, measured over the whole table, is too coarse alone for a far seat's smaller tiles,
    whose turned boxes can overlap as much, so two halves must also overlap by a third or
    more of the smaller box, line up across the split and make together a tile's shape,
    longer along the split. The larger box, which sees more of the tile, grows to cover both
    and keeps its kind; the other is role ``half``.
    """
    halved = np.zeros(len(dets), bool)
    rows = np.flatnonzero(dets.is_tile)
    if len(rows) < 2:
        return dets, halved
    box = dets.xyxy[rows]
    lt = np.maximum(box[:, None, :2], box[None, :, :2])
    rb = np.minimum(box[:, None, 2:], box[None, :, 2:])
    inter = np.prod(np.clip(rb - lt, 0, None), axis=2)
    area = np.prod(box[:, 2:] - box[:, :2], axis=1)
    share = inter / np.maximum(np.minimum(area[:, None], area[None, :]), 1e-9)
    np.fill_diagonal(share, 0.0)
    if not (share >= HALF_OVERLAP).any():  # the usual picture: no two boxes overlap so much
        return dets, halved
    both = dets.is_tile | backs
    width = _tile_width(pos[both], dets.xyxy[both])
    dist = _distances(pos[rows])
    # split along one axis, the two halves share the other: their edges across it line up
    centre = (box[:, :2] + box[:, 2:]) / 2
    axis = np.argmax(np.abs(centre[:, None] - centre[None, :]), axis=2)  # (N, N) 0: x, 1: y
    across = np.stack([box[:, [1, 3]], box[:, [0, 2]]])  # per axis: the other axis's edges
    size = np.stack([box[:, 3] - box[:, 1], box[:, 2] - box[:, 0]])
    one, other = np.arange(len(rows))[:, None], np.arange(len(rows))[None, :]
    misfit = np.abs(across[axis, one] - across[axis, other]).max(axis=2)
    lined_up = misfit <= HALF_ALIGN * np.minimum(size[axis, one], size[axis, other])
    # and together they make one tile's shape, longer along the split than across it
    union = np.maximum(box[:, None, 2:], box[None, :, 2:]) \
        - np.minimum(box[:, None, :2], box[None, :, :2])  # (N, N, 2)
    along = np.take_along_axis(union, axis[..., None], axis=2)[..., 0]
    long = along >= HALF_LONG * np.take_along_axis(union, 1 - axis[..., None], axis=2)[..., 0]
    flowers = np.array([_runner_up(dets, int(r), flower=True) is not None for r in rows])
    apart = np.where(flowers[:, None] | flowers[None, :], FLOWER_HALVES_APART, HALF_APART)
    close = (dist < apart * width) & (share >= HALF_OVERLAP) & lined_up & long
    if not close.any():
        return dets, halved
    for i, j in zip(*np.nonzero(np.triu(close)), strict=True):
        # and together they cover one tile, not two (a box over two touching tiles holding
        # the box of one of them): their union's area against the tiles' around them
        if covers_two_tiles(float(np.prod(union[i, j])), area, dist[i],
                            np.delete(np.arange(len(rows)), [i, j])):
            close[i, j] = close[j, i] = False
    xyxy, class_id, names = dets.xyxy.copy(), dets.class_id.copy(), {}
    for i, j in sorted(zip(*np.nonzero(np.triu(close)), strict=True), key=lambda p: dist[p]):
        a, b = int(rows[i]), int(rows[j])
        if halved[a] or halved[b]:
            continue
        keep, drop = (a, b) if area[i] >= area[j] else (b, a)
        xyxy[keep, :2] = np.minimum(xyxy[keep, :2], xyxy[drop, :2])
        xyxy[keep, 2:] = np.maximum(xyxy[keep, 2:], xyxy[drop, 2:])
        halved[drop] = True
        # both boxes saw the one tile, but half a suit tile shows a suit tile of its own (a 4p
        # half 2p), so the larger's kind stands; half a flower shows no other flower, so the
        # flower the half reads is the tile's kind where it is likeliest by both boxes too (a
        # flower set down crosswise, boxed whole read 1s at 0.61 with f2 next, its half f2
        # at 0.87)
        kinds, odds = _joint_kinds(dets, keep, drop)
        if len(kinds) and kinds[0] != class_id[keep] and kinds[0] == class_id[drop] \
                and is_flower(int(kinds[0])):
            class_id[keep], names[keep] = kinds[0], (kinds, odds)
    return dets.with_(xyxy=xyxy).renamed(names), halved


def _joint_kinds(dets: TileDetections, a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
    """The tile kinds in both boxes' top-k, likeliest first, with their odds by both boxes
    together (each box's odds multiplied, then made to sum to 1): two views of one tile."""
    odds_b = {int(t): float(p) for t, p in zip(dets.topk_ids[b], dets.topk_probs[b],
                                                strict=True) if 0 <= t < NUM_TILES and p > 0}
    joint = {int(t): float(p) * odds_b[int(t)]
             for t, p in zip(dets.topk_ids[a], dets.topk_probs[a], strict=True)
             if int(t) in odds_b and p > 0}
    if not joint:
        return np.zeros(0, np.int16), np.zeros(0, np.float32)
    kinds = sorted(joint, key=lambda t: -joint[t])
    total = sum(joint.values())
    return (np.array(kinds, np.int16),
            np.array([joint[t] / total for t in kinds], np.float32))


def _distances(pts: np.ndarray) -> np.ndarray:
    """(N, N) distances between the points ``pts`` (N, 2), infinite from a point to itself."""
    diff = pts[:, None, :] - pts[None, :, :]
    dist = np.sqrt(np.einsum("ijk,ijk->ij", diff, diff))
    np.fill_diagonal(dist, np.inf)
    return dist


def read_table(dets: TileDetections, calib: TableCalibration,
               layout: TableLayout | None = None, keep: frozenset[int] = frozenset(),
               name_at: NameAt | None = None,
               places: dict[int, list[tuple[int, np.ndarray]]] | None = None,
               still: bool = False, drop: frozenset[int] = frozenset()) -> TableReading:
    """Assign every detection a seat and a role, group melds, order hands.

    Roles: ``hand``, ``meld``, ``flower``, ``discard``, ``wall``, ``dice`` and ``indicator`` (a
    face-up tile lying alone in a seat's wall row, as Liaoyang turns one over). The face-up
    boxes in ``keep`` stay in their seat's row, wherever they lie beside its other boxes; a
    seat's hand one tile short takes back its spare box (:func:`_short_by_one`). With
    ``name_at`` (boxes to their top-k kinds and odds, the crop classifier's), a spare box kept
    and its partner are named again each at its own tile's place (``places``, a reading's
    ``spare_places``, or this reading's own): a box astride two tiles reads the one it overlaps
    most. ``still``: the detections are a photo's (or a frame read as one), where a lone flat
    box beside melds is a standing tile, not one in motion. The boxes in ``drop`` are left
    outside every seat (strays the caller set aside: :func:`vision.reading.stray_winner`).
    """
    if name_at is not None and places:
        dets = _named_at(dets, [e for r in sorted(keep) for e in places.get(r, [])], name_at)
    first = _read_table(dets, calib, layout, keep, still, drop)
    short = {k: r for k, r in _short_by_one(first.seats).items() if r not in keep}
    if not short:
        return first
    # read again with each short hand's spare box kept in its row, where it then holds one
    # tile more (the box taken into its hand or a meld, not beside them)
    again = dets if name_at is None else _named_at(
        dets, [e for r in short.values() for e in first.spare_places.get(r, [])], name_at)
    second = _read_table(again, calib, layout, keep | frozenset(short.values()), still, drop)
    grew = all(second.seats[k].face_up_count == first.seats[k].face_up_count + 1
               for k in short)
    return second if grew else first


def _named_at(dets: TileDetections, places: list[tuple[int, np.ndarray]],
              name_at: NameAt) -> TileDetections:
    """``dets`` with each ``(row, box)`` of ``places`` moved to its box and named there, where
    the classifier names a tile surely enough (``RENAME_SURE``); left as it was otherwise."""
    if not places:
        return dets
    ids, probs = name_at(np.array([b for _, b in places], np.float32))
    xyxy, names = dets.xyxy.copy(), {}
    for (r, box), kinds, odds in zip(places, ids, probs, strict=True):
        if odds[0] < RENAME_SURE or not 0 <= kinds[0] < NUM_TILES:
            continue
        xyxy[r], names[r] = box, (kinds, odds)
    return dets.with_(xyxy=xyxy).renamed(names)


def _read_table(dets: TileDetections, calib: TableCalibration, layout: TableLayout | None,
                keep: frozenset[int], still: bool = False,
                drop: frozenset[int] = frozenset()) -> TableReading:
    """:func:`read_table` once, with the boxes ``keep`` kept in their rows and those of
    ``drop`` left outside."""
    layout = layout or TableLayout()
    n = len(dets)
    pos = calib.to_table(dets.center) if n else np.zeros((0, 2))
    backs = dets.is_back
    dets, halved = _join_halves(dets, pos, backs)
    if halved.any():
        pos = calib.to_table(dets.center)
    face_up = dets.is_tile & ~halved
    tiles = face_up | backs
    conf = dets.confidence
    cut = at_edge(dets.xyxy, calib.frame) if calib.frame[0] and n else np.zeros(n, bool)
    centre = np.zeros(2)
    away = np.zeros(n, bool)
    if calib.guessed and tiles.sum() >= 20:  # hands and walls frame the centre all round
        rows = np.flatnonzero(tiles)
        away[rows[~on_table(pos[rows], cut[rows], face_up[rows])]] = True
        lo, hi = np.percentile(pos[tiles & ~away], [2, 98], axis=0)
        centre = (lo + hi) / 2
    rel = pos - centre
    towards = np.stack([seat_axes(k)[1] for k in range(4)])  # (4, 2)
    seat = np.argmax(rel @ towards.T, axis=1).astype(np.int8) if n else np.zeros(0, np.int8)
    # tile widths per seat: a tilted camera makes the near side larger than the far side
    # (the next table's tiles, ``away``, have their own)
    here = tiles & ~away
    global_w = max(_tile_width(pos[here], dets.xyxy[here]), 1e-6)
    width = np.full(4, global_w)
    for k in range(4):
        sel = here & (seat == k)
        if sel.sum() >= 6:
            width[k] = max(_tile_width(pos[sel], dets.xyxy[sel]), 1e-6)
    rights = np.array([seat_axes(k)[0] for k in range(4)])

    def measured(seat: np.ndarray) -> tuple[np.ndarray, ...]:
        """Each box measured from its seat: its seat's tile width, its place towards the seat
        (``d``) and along its row (``a``) in those widths, and its shape (:func:`_sideways`,
        face-up boxes alone lying sideways)."""
        w_of = width[seat] if n else np.zeros(0)
        d = np.einsum("ij,ij->i", rel, towards[seat]) / w_of if n else np.zeros(0)
        a = np.einsum("ij,ij->i", rel, rights[seat]) / np.maximum(w_of, 1e-9) if n \
            else np.zeros(0)
        sideways, seen, across, flat = _sideways(calib, dets, pos, seat, w_of,
                                                 layout.tile_aspect)
        return w_of, d, a, sideways & face_up, seen, across, flat

    w_of, d, a, sideways, seen, across, flat = measured(seat)
    standing: list[int] = []  # faces of standing hands seen edge-on: backs of the hand
    role = np.full(n, "", dtype="<U9")

    def outer_of(rows: np.ndarray) -> np.ndarray:
        return _outer_row(rows, d, layout, a, face_up, sideways, conf, keep)

    role[away] = "outside"
    role[halved] = "half"
    role[dets.is_die] = "dice"
    flower = np.array([0 <= c < 42 and is_flower(int(c)) for c in dets.class_id], bool)
    role[face_up & flower & ~away] = "flower"
    role[sorted(drop)] = "outside"
    group = np.full(n, -1, np.int16)
    readings = [SeatReading(seat=k) for k in range(4)]
    rows_of = [np.flatnonzero((role == "") & (seat == k)) for k in range(4)]
    outers = [outer_of(rows_of[k]) for k in range(4)]
    past = _past_the_diagonal(rel, towards, rights, width, seat, outers, face_up & (role == ""))
    if (past != seat).any():  # each tile measured again from its own seat
        seat = past
        w_of, d, a, sideways, seen, across, flat = measured(seat)
        rows_of = [np.flatnonzero((role == "") & (seat == k)) for k in range(4)]
        outers = [outer_of(rows_of[k]) for k in range(4)]
    # a "flower" lying in a hand's row, in line with it, is a suit tile read as a flower
    # (flowers lie in front of the hand): read it as its likeliest runner-up that is no flower
    suit_reads: dict[int, Tile] = {}
    for k in range(4):
        o = outers[k]
        if face_up[o].sum() < 3:
            continue
        row_d, lo_a, hi_a = float(np.median(d[o])), float(a[o].min()), float(a[o].max())
        read = False
        for r in np.flatnonzero((role == "flower") & (seat == k)).tolist():
            if abs(d[r] - row_d) < 0.45 and lo_a - 1.5 < a[r] < hi_a + 1.5:
                kind = _runner_up(dets, r, flower=False)
                if kind is not None:
                    role[r] = ""
                    suit_reads[r] = kind
                    read = True
        if read:
            rows_of[k] = np.flatnonzero((role == "") & (seat == k))
            outers[k] = outer_of(rows_of[k])
    if suit_reads:
        kinds = dets.class_id.copy()
        kinds[list(suit_reads)] = list(suit_reads.values())
        dets = dets.with_(class_id=kinds)

    def beyond_the_row(k: int, inner: np.ndarray | None = None) -> None:
        """Seat ``k``'s outermost run is no row of it: left outside, and the run inside it
        (``inner``, where already found) is its row."""
        role[outers[k]] = "outside"
        rows_of[k] = np.setdiff1d(rows_of[k], outers[k])
        outers[k] = inner if inner is not None \
            else outer_of(rows_of[k])

    for k in range(4):
        # boxes on the cloth or the rim beyond the hand: a run of unsure faces, sure faces
        # inside it (UNSURE_RUN), or unsure boxes not lying side by side, a row inside them
        # (SCATTERED_STEP, SCATTERED_SURE)
        o = outers[k]
        up = o[face_up[o]]
        rest = np.setdiff1d(rows_of[k], o)
        if len(up) and not backs[o].any() and (dets.confidence[up] < UNSURE_RUN).all() \
                and (face_up[rest] & (dets.confidence[rest] >= UNSURE_RUN)).sum() >= 3:
            beyond_the_row(k)
        o = outers[k]
        if len(o) and (dets.confidence[o] < SCATTERED_SURE).all() and not _side_by_side(o, a):
            inner = outer_of(np.setdiff1d(rows_of[k], o))
            if face_up[inner].sum() >= 3 and _side_by_side(inner, a):
                beyond_the_row(k, inner)
        o = outers[k]
        mine_fl = np.flatnonzero((role == "flower") & (seat == k))
        if len(o) and len(mine_fl) and not face_up[o].any():
            # backs beyond a face-up row whose flowers lie just inside it, too far from the
            # backs to be theirs: a hand's flowers lie just inside the hand, so the face-up
            # row is the seat's and the backs are the rim or a sliver at the frame's edge
            # (REALVAL9D table_s24_000095: six boxes 3-6 px tall at the frame's foot took
            # the place of 888s FFF SSS, read as the pond)
            inner = outer_of(np.setdiff1d(rows_of[k], o))
            if face_up[inner].sum() >= 3 and not backs[inner].any():
                row_d = float(np.median(d[inner]))
                front_d = _flowers_along(mine_fl, inner, d, a)
                if row_d - FLOWER_BAND <= front_d < row_d \
                        and float(np.median(d[o])) - front_d > FLOWER_BAND:
                    beyond_the_row(k, inner)
    full = {k: float(np.median(d[o])) for k, o in enumerate(outers) if len(o) >= 3}
    for k in range(4):
        # a box or two alone beyond where the other seats' hands lie (a stray box, the rim of
        # the table) is no row of this seat: nothing lies beyond a hand, and the run inside
        # is looked at again (REALVAL34D table_s49_000071: two boxes on the next table, one
        # inside the other, took the place of a hand laid down). Boxes lying in line beside
        # the seat's flowers are flowers read as suit tiles, named below by their runner-ups
        # (REALVAL34D table_s49_000003: an f4 read 1s at the end of a flower row lying
        # beyond the other hands)
        others = [v for j, v in full.items() if j != k]
        mine_fl = np.flatnonzero((role == "flower") & (seat == k))
        while 1 <= len(o := outers[k]) <= 2 and others \
                and float(d[o].min()) > max(others) + 0.5 and len(rows_of[k]) - len(o) >= 3 \
                and not (len(mine_fl) and _beside_flowers(o, mine_fl, d, a).all()):
            beyond_the_row(k)
        if len(outers[k]) >= 3:
            full[k] = float(np.median(d[outers[k]]))
    for k in range(4):
        # a seat without a hand in view: its outermost tiles are the wall or the pond. A wall
        # (backs) still lying inside the row says the row is the hand; more backs than a hand
        # holds, or a row well inside where the other seats' hands lie, say it is not.
        o = outers[k]
        if not len(o):
            continue
        inner = np.setdiff1d(rows_of[k], o)
        if backs[inner].any():
            continue  # a wall lies inside the row: the row is the hand
        if backs[o].sum() > 14:  # more backs than a hand holds: a wall. Face-up tiles lying
            # beyond all of its backs with a claimed tile sideways among them are the seat's
            # melds, its standing hand unboxed, close enough to the wall to run on into it
            # (fresh real-face table_s21_000165: 345m 456p a half width beyond the wall)
            mine = rows_of[k][face_up[rows_of[k]]]
            front = outer_of(mine[d[mine] > float(d[o[backs[o]]].max())])
            outers[k] = front if len(front) >= 3 and sideways[front].any() else o[:0]
            continue
        row_d = float(np.median(d[o]))
        # the pond lies well inside the row: face-up tiles in the row's band left out of it (a
        # meld tile boxed twice, fresh real-face table_s22_000081) are no pond
        pond = inner[face_up[inner] & (d[inner] < row_d - 0.5)]
        mine_fl = np.flatnonzero((role == "flower") & (seat == k))
        others = [v for j, v in full.items() if j != k]
        if len(pond) and len(mine_fl):  # a "pond" tile in line beside the seat's flowers is
            # a flower read as a suit tile: the pond lies farther in
            inline = _beside_flowers(pond, mine_fl, d, a)
            if not inline.all():
                pond = pond[~inline]
        # flowers lie in front of the hand, behind the wall (a wall's seat's flowers lie
        # beyond it): a row of backs with the seat's flowers lying just inside it is a
        # standing hand, not the wall, however near the pond lies
        flowers_d = float(np.median(d[mine_fl])) if len(mine_fl) else np.inf
        flowers_in = bool(backs[o].any()) and row_d - FLOWER_BAND <= flowers_d < row_d
        # so is a face-up row with flowers just inside it, along its length, and the pond
        # well inside them (the seat's melds, its standing hand unboxed: REALVAL13D
        # table_s28_000133's 789m 444p, a stray box between them and the flowers, were read
        # as its pond; a flower off the row's end is no sign, 10D table_s25_000007)
        front_d = _flowers_along(mine_fl, o, d, a)
        flowers_in |= len(pond) > 0 and row_d - FLOWER_BAND <= front_d < row_d \
            and float(np.median(d[pond])) < front_d - FLOWERS_CLEAR
        if len(pond):  # the pond ends about 2.4 widths inside the wall, 5.4 inside the hand;
            # a tile nearer is a flower read as a suit tile (flowers lie 1.3 widths in front
            # of the hand) when the row is longer than a pond's and as far out as other hands
            is_hand = flowers_in or row_d - float(d[pond].max()) > 3.9 or (
                int(face_up[o].sum()) > POND_ROW and bool(others)
                and row_d >= float(np.median(others)) - 1.0)
        elif len(mine_fl):
            is_hand = flowers_d < row_d
        else:
            is_hand = not (full and row_d < max(full.values()) - 2.0)
        if not is_hand:
            outers[k] = o[:0]
    _flowers_to_their_row(role, seat, d, a, rel, towards, rights, width, outers)
    for k in range(4):
        up = outers[k][face_up[outers[k]]]
        sideways[up] = _row_sideways(up, sideways, seen, across, a)
        sideways[_boxed_short(outers[k], a, sideways, face_up, layout.tile_aspect)] = True
    along = np.where(sideways, layout.tile_aspect, 1.0)  # in tile widths
    flower_reads: dict[int, Tile] = {}  # row -> a flower read from a suit tile's runner-ups
    for k in range(4):
        rows = rows_of[k]
        outer = outers[k]
        inner = np.setdiff1d(rows, outer)
        _read_row(dets, outer, d, a, along, sideways, flat, k, layout, readings[k], role,
                  group)
        hand = np.array(readings[k].hand_rows, int)
        shown = hand[~cut[hand]]  # a box cut by the frame has no tile's shape
        if (len(shown) >= 2 and float(np.median(flat[shown])) >= STANDING_FLAT) or (
                still and 0 < len(shown) == len(hand) <= STRAY_FACES and readings[k].melds
                and bool(((flat[shown] >= STANDING_FLAT)
                          | (sideways[shown] & (conf[shown] < STANDING_UNSURE))).all())):
            # boxes flatter than a tile lying down: a standing hand seen from above shows its
            # faces edge-on (fresh real-face table_s21_000020, table_s22_000052: a seat's
            # standing hand read as a laid-down hand S S N S P). One such box alone is left
            # to the rules on strays (a tile being drawn or turned over shows so too, for a
            # frame or two, and a video's passes must not part on it: the bundled video)
            # unless a still shows it beside melds: the end of a standing hand whose other
            # tiles went unboxed (REALVAL10D table_s25_000056: one flat box read 白 beside a
            # pung; a hand laid down lies flat, and beside melds holds 13 less 3 a meld). A
            # box across the seat shows that end too when unsure, its top and face boxed
            # together (table_s33_000048, 0.25); a sure one is a claimed tile whose meld's
            # other tiles went unboxed (table_s25_000063)
            standing += hand.tolist()
            readings[k].hidden += len(hand)
            readings[k].hand_rows, readings[k].hand = [], []
        wall = inner[backs[inner]]
        role[wall] = "wall"
        up = inner[face_up[inner]]
        role[up] = "discard"
        if len(wall) >= 3:  # a face-up tile lying in the wall row is a turned-over indicator
            # the row is where most of the wall's backs lie (their middle half): one back
            # beside it (the next wall's corner stack falling to this seat, a stray box) must
            # not stretch it over the pond
            lo_w, hi_w = np.percentile(d[wall], [25, 75]) + np.array([-0.3, 0.3])
            turned = up[(d[up] >= lo_w) & (d[up] <= hi_w)]
            if len(turned) == 1:  # one tile is turned over: more there are the pond lying
                # along the wall (fresh real-face table_s45_000198: six discards beside a
                # wall the camera's tilt drew across their depth, all taken off the seat)
                role[turned] = "indicator"
        # flowers lie in a row of their own in front of the hand: a suit tile in that band,
        # or in line beside one of the seat's flowers, is a flower read as a suit tile
        loose = up[np.isin(role[up], ["discard", "indicator"])]
        if len(readings[k].hand_rows) <= 2 and not readings[k].melds:  # no hand: a tile or
            # two of the flower row taken for one
            loose = np.union1d(loose, np.array(readings[k].hand_rows, int))
        near = np.zeros(len(loose), bool)
        if face_up[outer].sum() >= 3:
            row_d = float(np.median(d[outer]))
            near |= (d[loose] <= row_d - 0.6) & (d[loose] >= row_d - FLOWER_BAND)
        mine = np.flatnonzero((role == "flower") & (seat == k))
        if len(mine):
            near |= _beside_flowers(loose, mine, d, a)
        if near.any():
            # the row runs on: a tile in line beside one just named a flower is looked at too
            looked = np.zeros(len(loose), bool)
            while near.any():
                named = []
                for r in loose[near].tolist():
                    kind = _runner_up(dets, r, flower=True)
                    if kind is not None:
                        role[r] = "flower"
                        flower_reads[r] = kind
                        named.append(r)
                looked |= near
                near = ~looked & _beside_flowers(loose, np.array(named, int), d, a)
            if flower_reads.keys() & set(readings[k].hand_rows):
                readings[k].hand_rows = [r for r in readings[k].hand_rows
                                         if r not in flower_reads]
                readings[k].hand = [int(dets.class_id[r]) for r in readings[k].hand_rows]
        stray = readings[k].hand_rows
        if readings[k].hidden and len(stray) <= STRAY_FACES:
            # a standing hand shows backs only: a face or two among them that is no flower is
            # a stray box (half of a sideways meld tile boxed twice, a back read as a face)
            role[stray] = "outside"
            readings[k].hand_rows, readings[k].hand = [], []
        elif readings[k].hidden >= 2 * len(stray) > 0:
            # more faces, no meld, a standing hand twice their number: the pond's first
            # discards lying close in front of it (fresh REALVAL4 table_s18_000077)
            role[stray] = "discard"
            readings[k].hand_rows, readings[k].hand = [], []
        elif not readings[k].hidden and not readings[k].melds \
                and 0 < len(stray) <= LONE_FACES:
            # no backs, no melds, a tile or three: no hand shows so few, holding 13 or 14
            # less three a meld; the hand is out of view or unboxed and these are the pond's
            # (fresh real-face table_s22_000072: the first three discards read as a hand)
            role[stray] = "discard"
            readings[k].hand_rows, readings[k].hand = [], []
        fl = np.flatnonzero((role == "flower") & (seat == k))
        readings[k].flower_rows = [int(i) for i in fl[np.argsort(a[fl])]]
        readings[k].flowers = [flower_reads.get(int(i), int(dets.class_id[i]))
                               for i in readings[k].flower_rows]
        disc = np.flatnonzero((role == "discard") & (seat == k))
        if len(disc):
            row_no = np.round((d[disc].max() - d[disc]) / layout.tile_aspect)
            readings[k].discard_rows = [int(i) for i in disc[np.lexsort((a[disc], row_no))]]
            readings[k].discards = [int(dets.class_id[i]) for i in readings[k].discard_rows]
    spare_places: dict[int, list[tuple[int, np.ndarray]]] = {}
    for k in range(4):
        if not _may_lack_a_tile(readings[k]):  # no spare could complete it (most seats of a
            # live frame: hands standing): none looked for
            continue
        spares = _spare_rows(outers[k], np.flatnonzero((role == "discard") & (seat == k)), d,
                             a, face_up, conf)
        readings[k].spare_rows = [r for r, *_ in spares]
        for r, mate, own, other in spares:  # each box moved along the row to its tile's step
            spare_places[r] = [(x, _shifted(dets.xyxy[x], pos[x], shift * w_of[x] * rights[k],
                                             calib)) for x, shift in ((r, own), (mate, other))]
    ind = np.flatnonzero(role == "indicator")
    indicator = int(dets.class_id[ind[np.argmax(dets.confidence[ind])]]) if len(ind) else None
    seat_out = np.where(np.isin(role, ["dice", "wall", "indicator", "outside", "half"]), -1,
                        seat).astype(np.int8)
    # a meld read from its tiles' runner-up classes (a 5p among 4p 6p): write the kinds back
    corrected: dict[int, Tile] = {**suit_reads, **flower_reads}
    class_id = dets.class_id.copy()
    class_id[standing] = BACK_CLASS
    for row, t in flower_reads.items():
        class_id[row] = t
    for r in readings:
        for m in r.melds:
            for row, t in zip(m.rows, m.tiles, strict=False):  # a kong may show 3 rows
                if dets.is_tile[row] and class_id[row] != t:
                    corrected[row] = t
                    class_id[row] = t
    out = dets.with_(seat=seat_out, role=role, group=group, sideways=sideways, class_id=class_id)
    return TableReading(detections=out, seats=readings, wall_stacks=int((role == "wall").sum()),
                        indicator=indicator, tile_width=global_w, corrected=corrected,
                        spare_places=spare_places)


def _shifted(box: np.ndarray, at: np.ndarray, move: np.ndarray,
             calib: TableCalibration) -> np.ndarray:
    """``box`` (image pixels) moved as its centre moves from ``at`` by ``move`` on the table."""
    ends = calib.to_image(np.stack([at, at + move]))
    step = ends[1] - ends[0]
    return box + np.r_[step, step]


def _flowers_along(flowers: np.ndarray, row: np.ndarray, d: np.ndarray, a: np.ndarray
                   ) -> float:
    """The median place towards the seat (``d``) of a seat's flowers lying along ``row``'s
    length, a width past its ends at most (a flower off the row's end is no sign of it,
    REALVAL10D table_s25_000007); inf where none does."""
    front = flowers[(a[flowers] >= a[row].min() - 1.0) & (a[flowers] <= a[row].max() + 1.0)]
    return float(np.median(d[front])) if len(front) else np.inf


def _past_the_diagonal(rel: np.ndarray, towards: np.ndarray, rights: np.ndarray,
                       width: np.ndarray, seat: np.ndarray, outers: list[np.ndarray],
                       loose: np.ndarray) -> np.ndarray:
    """(N,) each box's seat, a seat's row run on past the diagonal that splits the seats: the
    face-up tiles (``loose``: those in no role yet) the diagonal gave the next seat that lie in
    line with a row of three faces or more (``OFF_LINE``) and run on from its end, a step apart
    (``PAST_STEP``), are the row's, unless they lie in line with their own seat's row of three
    others or more (REALVAL33D table_s48_000048: a hand's last two tiles, 2m 3m, past the
    corner, read as the next seat's discards)."""
    out = seat.copy()
    for k in range(4):
        o = outers[k][loose[outers[k]]]
        if len(o) < 3:
            continue
        dk = rel @ towards[k] / width[k]
        ak = rel @ rights[k] / width[k]
        slope, level = np.polyfit(ak[o], dk[o], 1) if len(o) >= 5 else (0.0, np.median(dk[o]))
        free = np.flatnonzero(loose & (seat != k))
        free = free[np.abs(dk[free] - (slope * ak[free] + level)) <= OFF_LINE]
        # a tile in line with its own seat's row of three others or more stays there
        for j in set(seat[free].tolist()):
            row = outers[j][loose[outers[j]] & ~np.isin(outers[j], free)]
            if len(row) >= 3:
                dj = rel @ towards[j] / width[j]
                mine = free[seat[free] == j]
                free = np.setdiff1d(free, mine[np.abs(dj[mine] - np.median(dj[row])) <= OFF_LINE])
        for sign, end in ((1.0, float(ak[o].max())), (-1.0, float(ak[o].min()))):
            while len(free):
                step = sign * (ak[free] - end)
                on = np.flatnonzero((step >= PAST_STEP[0]) & (step <= PAST_STEP[1]))
                if not len(on):
                    break
                r = int(free[on[np.argmin(step[on])]])
                out[r] = k
                end = float(ak[r])
                free = free[free != r]
    return out


def _flowers_to_their_row(role: np.ndarray, seat: np.ndarray, d: np.ndarray, a: np.ndarray,
                          rel: np.ndarray, towards: np.ndarray, rights: np.ndarray,
                          width: np.ndarray, outers: list[np.ndarray]) -> None:
    """A flower near a table corner lies past the diagonal that splits the seats: it belongs
    to the one seat whose row it lies in front of (within ``FLOWER_BAND``, along the row's
    length), when it lies in front of no row of the seat the diagonal gave it; or, in front
    of no row of that seat and apart from its flowers, to the one seat whose flowers it lies
    in line beside (fresh REALVAL4 table_s18_000053: ``f3 f4 f8`` in a row, the ``f8`` past
    the diagonal, their seat's standing hand unboxed, so it showed no row)."""
    rows = {k: (float(np.median(d[o])), float(a[o].min()), float(a[o].max()))
            for k, o in enumerate(outers) if len(o) >= 3}
    flowers = np.flatnonzero(role == "flower")

    def place(r: int, k: int) -> tuple[int, float, float]:
        """Seat ``k``, and where box ``r`` lies in its frame: in, along (tile widths)."""
        return k, float(rel[r] @ towards[k]) / width[k], float(rel[r] @ rights[k]) / width[k]

    for r in flowers.tolist():
        fits = []
        for k, (row_d, lo, hi) in rows.items():
            _, dk, ak = place(r, k)
            if row_d - FLOWER_BAND <= dk <= row_d - 0.3 and lo - 1.0 <= ak <= hi + 1.0:
                fits.append((k, dk, ak))
        # (where the diagonal's seat shows no row to judge by, the flower keeps it)
        if len(fits) == 1 and fits[0][0] != seat[r] and int(seat[r]) in rows:
            seat[r], d[r], a[r] = fits[0]
        elif not any(k == seat[r] for k, _, _ in fits) and not _beside_flowers(
                np.array([r]), flowers[(seat[flowers] == seat[r]) & (flowers != r)], d, a).any():
            beside = []
            for k in set(seat[flowers].tolist()) - {int(seat[r]), -1}:
                _, dk, ak = there = place(r, k)
                theirs = flowers[seat[flowers] == k]
                if _in_line(np.array([dk]), np.array([ak]), d[theirs], a[theirs]).any():
                    beside.append(there)
            if len(beside) == 1:
                seat[r], d[r], a[r] = beside[0]


def _beside_flowers(rows: np.ndarray, flowers: np.ndarray, d: np.ndarray, a: np.ndarray
                    ) -> np.ndarray:
    """(len(rows),) bool: the tile lies in line beside one of the seat's ``flowers``, where a
    flower read as a suit tile lies."""
    return _in_line(d[rows], a[rows], d[flowers], a[flowers])


def _in_line(d: np.ndarray, a: np.ndarray, fd: np.ndarray, fa: np.ndarray) -> np.ndarray:
    """(len(d),) bool: each place (``d`` in, ``a`` along a seat's row, in tile widths) lies in
    line beside one of the places ``fd``, ``fa``: under half a width off their line, 1.6
    widths along it."""
    return ((np.abs(d[:, None] - fd[None, :]) < 0.5)
            & (np.abs(a[:, None] - fa[None, :]) < 1.6)).any(axis=1)


def _read_row(dets: TileDetections, rows: np.ndarray, d: np.ndarray, a: np.ndarray,
              along: np.ndarray, sideways: np.ndarray, flat: np.ndarray, seat: int,
              layout: TableLayout, out: SeatReading, role: np.ndarray, group: np.ndarray
              ) -> None:
    """Split a seat's outer row into its hand (left) and melds (right, :func:`_melds_at_end`).
    Backs lying beyond the line of the row's face-up tiles (more than ``layout.outer_gap``)
    are a standing hand, boxed at a slant: they come first, whatever their place along it.
    Where the melds leave a claimed tile in the hand, boxes that may be claimed tiles boxed
    short (:data:`SHORT_FLAT`) are taken for claimed ones when the melds then leave none."""
    if not len(rows):
        return
    rows = rows[np.argsort(a[rows])]
    twice = _backs_boxed_twice(rows, dets, a)
    role[twice] = "outside"
    rows = rows[~np.isin(rows, twice)]
    up = rows[dets.is_tile[rows]]
    standing = 0
    if len(up):
        beyond = dets.is_back[rows] & (d[rows] - float(np.median(d[up])) > layout.outer_gap)
        rows = np.concatenate([rows[beyond], rows[~beyond]])
        standing = int(beyond.sum())
    order = [int(r) for r in rows]
    left = a[order] - along[order] / 2  # both in tile widths
    right = a[order] + along[order] / 2
    gaps = [np.inf] + [float(left[j] - right[j - 1]) for j in range(1, len(order))]
    _shifted_boxes_evened(gaps, order, dets.is_tile & ~sideways, layout.split_gap)
    if 0 < standing < len(order):
        gaps[standing] = np.inf  # the standing hand ends where the row's line begins
    edge_on = flat >= STANDING_FLAT
    start, melds = _melds_at_end(dets, order, gaps, sideways, seat, layout, edge_on)
    if _claimed_in(dets, order[:start], sideways):
        short = _short_at_ends(dets, order, gaps, sideways, flat)
        if short:
            side = sideways.copy()
            side[short] = True
            again, found = _melds_at_end(dets, order, gaps, side, seat, layout, edge_on)
            if again < start and not _claimed_in(dets, order[:again], sideways):
                start, melds = again, found
    if sum(1 for r in order[:start] if dets.is_back[r]) >= STANDING_BESIDE \
            and sum(1 for r in order if dets.is_tile[r]) < HAND_FACES:
        # a standing hand shows backs only: the faces beside it are melds (and a stray or
        # two, which read_table drops), whatever their gaps and claimed tiles show; not where
        # the row shows a hand's faces laid down, more than melds beside a standing tile or
        # two show but for a kong (REALVAL14D table_s29_000069: 14 faces, two unsure back
        # boxes beyond them cut the winner's 45688m789p789s into runs)
        faces = [r for r in order[:start] if dets.is_tile[r]]
        cut = _sets_beside_standing(dets, faces, sideways, seat)
        if cut:
            laid = {r for m in cut for r in m.rows}
            order = [r for r in order[:start] if r not in laid] + order[start:]
            start -= len(laid)
            melds = cut + melds
    for g, meld in enumerate(melds):
        for r in meld.rows:
            role[r] = "meld"
            group[r] = g
    hand_rows = order[:start]
    for r in hand_rows:
        role[r] = "hand"
    out.melds = melds
    out.hidden = sum(1 for r in hand_rows if dets.is_back[r])
    seen = [r for r in hand_rows if dets.is_tile[r]]
    out.hand = [int(dets.class_id[r]) for r in seen]
    out.hand_rows = seen
    out.drawn_apart = start > 1 and gaps[start - 1] > layout.split_gap


def _claimed_in(dets: TileDetections, rows: list[int], sideways: np.ndarray) -> bool:
    """A face among ``rows`` lies sideways: a claimed tile, which no hand holds."""
    return any(sideways[r] and dets.is_tile[r] for r in rows)


def _short_at_ends(dets: TileDetections, order: list[int], gaps: list[float],
                   sideways: np.ndarray, flat: np.ndarray) -> list[int]:
    """Faces of a row (``order``, ``gaps[j]`` before ``order[j]``) that may be claimed tiles
    boxed short: upright as read, their box partly across (:data:`SHORT_FLAT`) or as short
    across the row as a tile lying across it (:data:`SHORT_ACROSS`), the gaps beside them
    wide together."""
    across = _across_share(dets, order, dets.is_tile & ~sideways)
    out = []
    for j, r in enumerate(order):
        if not dets.is_tile[r] or sideways[r] or (
                flat[r] < SHORT_FLAT and across[j] > SHORT_ACROSS):
            continue
        beside = [g for g in (gaps[j], gaps[j + 1] if j + 1 < len(order) else np.inf)
                  if np.isfinite(g)]
        if len(beside) == 2 and sum(beside) >= SHORT_BOXED_ENDS:
            out.append(r)
    return out


def _across_share(dets: TileDetections, order: list[int], upright: np.ndarray) -> np.ndarray:
    """Each box's extent across its row in the picture (perpendicular to the line through the
    boxes' centres) as a share of the median of the ``upright`` ones' (a tile lying along the
    row shows its length across it, one lying across it its width); ones where the row has
    fewer than three upright boxes to judge by."""
    xyxy = dets.xyxy[order]
    ups = [j for j, r in enumerate(order) if upright[r]]
    if len(ups) < 3:
        return np.ones(len(order))
    centres = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    _, _, vt = np.linalg.svd(centres - centres.mean(axis=0))
    normal = np.abs(vt[1])  # the row's line runs along vt[0]
    extent = (xyxy[:, 2:] - xyxy[:, :2]) @ normal
    return extent / max(float(np.median(extent[ups])), 1e-6)


def _shifted_boxes_evened(gaps: list[float], order: list[int], upright: np.ndarray,
                          split: float) -> None:
    """Even out, in place, the gaps around a face box boxed off its tile along the row. Tiles
    lying flat in a row never overlap, so an overlap deeper than ``split`` between two upright
    faces is the box's error; the box moved by that much opens the gap on its other side by
    as much (held-back ``tiles-real`` 4s boxed 0.3-0.4 widths toward its neighbour: the gap
    it left opened the winner's ``456s 789s 999s`` into three melds, fresh REALVAL23D
    table_s38_000093). The overlap is taken for no gap and given back to the wider of the
    gaps beside it, where that one is wider than ``split`` (the box moved from there).
    ``gaps[j]``: the gap before ``order[j]``; ``upright``: face-up, not sideways."""
    n = len(order)
    for k in range(1, n):
        if gaps[k] >= -split or not (upright[order[k - 1]] and upright[order[k]]):
            continue
        # the box before the overlap moved forward (the gap before it opened) or the box
        # after it moved back (the gap after it opened); the opened gap is the partner
        sides = [j for j in (k - 1, k + 1) if 0 < j < n and gaps[j] > split
                 and upright[order[j - 1]] and upright[order[j]]]
        if not sides:
            continue
        j = min(sides, key=lambda i: abs(gaps[i] + gaps[k]))
        gaps[j] += gaps[k]
        gaps[k] = 0.0


def _sets_beside_standing(dets: TileDetections, faces: list[int], sideways: np.ndarray,
                          seat: int) -> list[MeldReading]:
    """The melds ``faces`` (in order along the row) make, beside a standing hand: the run cut
    whole into melds (pungs, kongs, chows: a hand standing, no face shown is the hand's),
    but for up to ``STRAY_FACES`` boxes at its ends (a standing tile's top, a discard close
    by); the cut with the fewest strays, none when no cut makes melds of them all."""
    best: list[MeldReading] = []
    fewest = STRAY_FACES + 1

    def cuts(rows: list[int]) -> list[MeldReading] | None:
        if not rows:
            return []
        for k in (3, 4):
            if len(rows) >= k:
                meld = _as_meld(dets, rows[:k], sideways, seat)
                rest = cuts(rows[k:]) if meld is not None else None
                if rest is not None:
                    return [meld, *rest]
        return None

    for lo in range(STRAY_FACES + 1):
        for hi in range(STRAY_FACES + 1 - lo):
            run = faces[lo:len(faces) - hi]
            if lo + hi >= fewest or len(run) < 3:
                continue
            found = cuts(run)
            if found:
                best, fewest = found, lo + hi
    return best


def _backs_boxed_twice(rows: np.ndarray, dets: TileDetections, a: np.ndarray) -> np.ndarray:
    """The less sure of two back boxes in a seat's row whose centres lie under half a width
    apart along it: one back boxed twice, whole and by its top half (IoU about 0.5, so NMS
    kept both; drawn-art table_s17_000023, where the extra box split a concealed kong
    ``back 9p 9p back`` so it stayed in the hand). Tiles in a row lie a width apart. (A
    wall's stacks, two tiles each, are boxed twice by nature; they lie in no seat's row.)
    ``rows`` are in order along the row."""
    backs = rows[dets.is_back[rows]]
    twice: list[int] = []
    last = -1
    for r in backs.tolist():
        if last >= 0 and a[r] - a[last] < 0.5:
            drop, last = (r, last) if dets.confidence[r] <= dets.confidence[last] else (last, r)
            twice.append(drop)
        else:
            last = r
    return np.array(twice, int)


def _melds_at_end(dets: TileDetections, order: list[int], gaps: list[float],
                  sideways: np.ndarray, seat: int, layout: TableLayout,
                  edge_on: np.ndarray) -> tuple[int, list[MeldReading]]:
    """Where the hand ends and the melds after it, left to right.

    Melds lie at the row's right end, 3 or 4 tiles each, the hand a wider gap before them
    (14 mm) than they lie apart (8 mm). A camera's boxes blur both: a box grown or shifted by
    a few pixels opens a gap inside a meld as wide as the one between two melds. So the row's
    end is split into melds by what their tiles make, not by each gap: the melds start after
    the leftmost gap from which the rest of the row cuts into sets that each stand apart (a
    gap before each wider than any inside it), or lie after a hand gap wider than
    ``split_gap`` and than every gap inside them, or each show a sideways claimed tile or a
    concealed kong's backs (melds laid tight against each other).
    ``gaps[j]``: the gap before ``order[j]`` in tile widths (``gaps[0]`` infinite). Boxes
    ``edge_on`` (flatter than a tile lying down: a standing hand's tiles seen edge-on) make
    no hand a gap must part from the melds (fresh real-face table_s24_000057: a kong laid
    0.05 widths from an unsure box on the standing hand's edge, read into the hand).
    """
    n = len(order)
    memo: dict[tuple[int, int], MeldReading | None] = {}

    def meld(i: int, k: int) -> MeldReading | None:
        """The meld ``order[i:i + k]`` makes; none where a gap inside it is as wide as the
        hand's from the wall (its tiles lie side by side; fresh real-face table_s21_000027:
        three 白 read on a standing hand's tops, six widths apart, made a pung)."""
        if (i, k) not in memo:
            inside = gaps[i + 1:i + k]
            rows, at_end = order[i:i + k], i + k == n
            found = None
            if max(inside) <= layout.outer_gap:
                found = _as_meld(dets, rows, sideways, seat, at_end=at_end, by_gaps=True)
                # a kong, whether or not it names its tiles past MELD_ANEW, may be a pung and
                # a stray box (REALVAL11D table_s26_000220: 888m, a 3s half over its claimed 8m)
                kong = found if found is not None or k == 3 else _as_meld(
                    dets, rows, sideways, seat, at_end=at_end, by_gaps=True, bound=np.inf)
                if kong is not None and kong.type == "exposed_kong":
                    pung = _stray_in_kong(dets, rows, inside, sideways, seat, kong,
                                          at_end=at_end)
                    found = pung if pung is not kong else found
                elif found is None and k == 4:
                    # four boxes that make no meld: three that make one and a box lying over
                    # a neighbour's, the least sure first (REALVAL34D table_s49_000046: 7p 7p
                    # 7p, a 1s at 0.24 astride the second and the third, stopped the melds
                    # 3s12s 4p56p; table_s49_000181: a sideways 9p boxed also as 8p)
                    least_sure_first = sorted(range(k),
                                              key=lambda j: float(dets.confidence[rows[j]]))
                    found = _three_and_a_stray(dets, rows, inside, sideways, seat, at_end,
                                               least_sure_first, ("pung", "chow"))
            memo[i, k] = found
        return memo[i, k]

    def parts(i: int, end: int = n) -> list[tuple[int, ...]]:
        """Every way to cut ``order[i:end]`` into melds: their start indices."""
        if i == end:
            return [()]
        out = []
        for k in (3, 4):
            if i + k <= end and meld(i, k) is not None:
                out += [(i, *rest) for rest in parts(i + k, end)]
        return out

    half = layout.meld_gap / 2

    def cut_from(start: int) -> tuple[int, ...] | None:
        gap = gaps[start]
        if start and gap <= layout.meld_gap and not all(edge_on[r] for r in order[:start]):
            return None
        best: tuple[float, tuple[int, ...]] | None = None
        for cut in parts(start):
            ends = [*cut[1:], n]
            insides = [max((gaps[j] for j in range(i + 1, e)), default=-np.inf)
                       for i, e in zip(cut, ends, strict=True)]
            # each meld stands apart by a gap wider than any inside it (the first, with no
            # hand before it, needs none) ...
            apart = all(gaps[i] > layout.meld_gap and gaps[i] > inside + half
                        for i, inside in zip(cut, insides, strict=True) if i)
            # ... or a boxed-wide gap inside the melds is still narrower than the hand's
            wide = start > 0 and gap > layout.split_gap and max(insides) < gap - half
            # ... or each shows what only a meld shows, whatever the boxes make of the gaps: a
            # claimed tile lying sideways, or a concealed kong's backs; unless the row plainly
            # splits inside one, between two upright tiles (a sideways tile's box tells its
            # gaps badly), wider than a group's gap and than the one before the meld (a hand's
            # last tile read as the meld's kind made a pung a kong)
            shown = all(_shown_meld(meld(i, e - i)) for i, e in zip(cut, ends, strict=True)) \
                and not any(gaps[j] > layout.split_gap and gaps[j] > gaps[i] + half
                            and not sideways[order[j]] and not sideways[order[j - 1]]
                            for i, e in zip(cut, ends, strict=True) for j in range(i + 1, e))
            if not (apart or wide or shown):
                continue
            # a first "meld" with no claimed tile seen is the hand's end when the gap before it
            # is not the hand's (14 mm, wider than the 8 mm between melds): when it is no wider
            # than ``split_gap`` after a run of the hand's tiles, whose own gaps are boxed up to
            # 0.15 widths (fresh real-face table_s25_000036: a hand's last EEE 0.15 apart read
            # as a pung; on REALVAL9D and 10D, of the 62 melds rightly read from their gaps
            # alone, those first after a hand lay 0.23 widths or more from it), or narrower by
            # a split than a gap after it (fresh real-face table_s21_000040: 123 345s / 123p)
            split = layout.split_gap
            if start and not _shown_meld(meld(start, ends[0] - start)) and (
                    (start > 1 and gap <= split and gaps[start - 1] <= split)
                    or any(gaps[i] > gap + split for i in cut[1:])):
                continue
            margin = min(gaps[i] for i in cut) - max(insides)
            if best is None or margin > best[0]:
                best = (margin, cut)
        return None if best is None else best[1]

    def melds_of(cut: tuple[int, ...], end: int = n) -> list[MeldReading]:
        ends = [*cut[1:], end]
        return [m for m in (meld(i, e - i) for i, e in zip(cut, ends, strict=True))
                if m is not None]

    def without_hand(end: int) -> list[MeldReading]:
        """The melds that ``order[:end]`` is when no hand can be: face-up tiles only that cut
        whole into pungs or kongs, their tiles, each kong taken as three, a multiple of three
        (a hand holds 13 or 14 less three a meld; runs are left to the hand, whose tiles may
        make them). The seat's standing hand is out of view or unboxed (fresh real-face
        table_s21_000161: ``NNN 555p`` read as a hand of six; table_s22_000062: ``7777m 999p``
        before two melds shown by their claimed tiles). Of the cuts, the one whose melds
        stand apart most; none: ``[]``."""
        if end < 3 or not all(dets.is_tile[r] for r in order[:end]):
            return []
        best: tuple[float, tuple[int, ...]] | None = None
        for cut in parts(0, end):
            found = melds_of(cut, end)
            kongs = sum(len(m.rows) == 4 for m in found)
            if any(len(set(m.tiles)) > 1 for m in found) or (end - kongs) % 3:
                continue
            ends = [*cut[1:], end]
            inside = max(gaps[j] for i, e in zip(cut, ends, strict=True)
                         for j in range(i + 1, e))
            margin = min((gaps[i] for i in cut[1:]), default=np.inf) - inside
            if best is None or margin > best[0]:
                best = (margin, cut)
        return [] if best is None else melds_of(best[1], end)

    for start in range(n):
        cut = cut_from(start)
        if cut is None:
            continue
        found = melds_of(cut)
        # the melds' first tile read anew as their kind (a hand tile beside a pung made it a
        # kong) while the row from the next tile on cuts into melds read as seen: the tile is
        # the hand's (fresh real-face table_s21_000103: C 8m 8m/ 8m read as 8888m)
        if start + 1 < n and _reread(dets, found[0], 0):
            later = cut_from(start + 1)
            as_seen = [] if later is None else melds_of(later)
            if as_seen and not any(_reread(dets, m) for m in as_seen):
                return start + 1, as_seen
        before = without_hand(start)
        return (0, before + found) if before else (start, found)
    whole = without_hand(n)
    return (0, whole) if len(whole) >= 2 else (n, [])


def _stray_in_kong(dets: TileDetections, rows: list[int], inside: list[float],
                   sideways: np.ndarray, seat: int, kong: MeldReading, at_end: bool
                   ) -> MeldReading:
    """A kong read with a tile named anew whose box lies over a neighbour's by
    ``STRAY_OVERLAP`` widths or more is a pung and a stray box (a claimed tile boxed whole and
    by half, a box astride two melds), when the other three make the pung: fresh real-face
    table_s30_000200, ``333s`` with its sideways 3s also boxed by half as 2s, 0.58 widths
    over it, read ``3333s``. The stray is no meld's. ``inside``: the gaps between ``rows``."""
    strays = [j for j, r in enumerate(rows) if int(dets.class_id[r]) != kong.tiles[0]]
    pung = _three_and_a_stray(dets, rows, inside, sideways, seat, at_end, strays, ("pung",))
    return kong if pung is None else pung


def _three_and_a_stray(dets: TileDetections, rows: list[int], inside: list[float],
                       sideways: np.ndarray, seat: int, at_end: bool, strays: list[int],
                       types: tuple[str, ...]) -> MeldReading | None:
    """The meld of one of ``types`` that ``rows`` make without one of them (at an index of
    ``strays``, in order of preference) whose box lies ``STRAY_OVERLAP`` widths or more over
    a neighbour's: tiles lying flat in a row never overlap. Of those found, the one that
    names the fewest tiles anew. ``inside``: the gaps between ``rows``."""
    best: tuple[int, MeldReading] | None = None
    for j in strays:
        beside = [inside[j - 1] if j else np.inf, inside[j] if j < len(inside) else np.inf]
        if min(beside) > -STRAY_OVERLAP:
            continue
        three = rows[:j] + rows[j + 1:]
        found = _as_meld(dets, three, sideways, seat, at_end=at_end, by_gaps=True)
        if found is None or found.type not in types:
            continue
        anew = _read_anew(found.tiles, tuple(int(dets.class_id[r]) for r in three))
        if best is None or anew < best[0]:
            best = (anew, found)
    return None if best is None else best[1]


def _reread(dets: TileDetections, meld: MeldReading, at: int | None = None) -> bool:
    """The meld names a tile (the one at ``at``, or any) as another kind than it was read."""
    pairs = list(zip(meld.rows, meld.tiles, strict=False))
    if at is not None:
        pairs = pairs[at:at + 1]
    return any(dets.is_tile[r] and int(dets.class_id[r]) != t for r, t in pairs)


def _shown_meld(meld: MeldReading | None) -> bool:
    """The meld shows itself: a claimed tile lying sideways, or a concealed kong's backs (no
    tile of a standing hand lies so)."""
    return meld is not None and (meld.sideways_index is not None
                                 or meld.type == "concealed_kong")


def _as_meld(dets: TileDetections, rows: list[int], sideways: np.ndarray,
             seat: int, at_end: bool = False, by_gaps: bool = False,
             bound: float = MELD_ANEW) -> MeldReading | None:
    """The group as a meld, or ``None`` when it is not one (then it is part of the hand).

    Three readings allow for one unseen, misread or misboxed tile: a kong whose 4th tile the
    classifier read as another kind, when that tile is the sideways (claimed) one and the other
    three agree; at the row's very end, a concealed kong whose last back was not found (its two
    faces upright and read alike); and three or four of one kind, or a run of three, with a
    straight tile boxed as wide as the claimed one (two tiles called sideways), its claimed
    tile unsure, one of them read as another kind with the meld's among its likely ones.
    ``by_gaps``: the group is cut from a row's end by its gaps (:func:`_melds_at_end`), where
    every box as wide as a claimed tile's is read as if none were (not beside a standing hand,
    whose melds no gap shows: unsure strays boxed wide there, fresh real-face
    table_s45_000214's 7p 6s 7s, would make a chow)."""
    if len(rows) not in (3, 4):
        return None
    back = [bool(dets.is_back[r]) for r in rows]
    side = [i for i, r in enumerate(rows) if sideways[r] and dets.is_tile[r]]
    partial = at_end and back == [True, False, False] and not side \
        and dets.class_id[rows[1]] == dets.class_id[rows[2]]
    if back == [True, False, False, True] or partial:
        faces = _best_identical(dets, rows[1:3])
        if faces is None:
            return None
        return MeldReading("concealed_kong", (faces,) * 4, None, None, tuple(rows),
                           len(rows) == 4)
    if not any(back) and len(side) == 2:
        # the claimed tile is taken to be the first of the two, and the meld flagged; one
        # tile may be read as another kind (a sideways tile cut by the frame's edge)
        kind = _best_identical(dets, rows)
        if kind is not None and sum(int(dets.class_id[r]) == kind for r in rows) >= len(rows) - 1:
            mtype = "exposed_kong" if len(rows) == 4 else "pung"
            return MeldReading(mtype, (kind,) * len(rows),
                               _claimed_from(seat, side[0], len(rows)), side[0], tuple(rows),
                               False)
        run = _best_meld_tiles(dets, rows, bound=bound) if len(rows) == 3 else None
        if run is not None and len(set(run)) == 3:  # a chow, claimed from the 上家
            return MeldReading("chow", run, (seat + 3) % 4, side[0], tuple(rows), False)
    if by_gaps and len(side) == len(rows):
        # every box as wide as a claimed tile's: boxes grown alike (a tilted camera, a blurred
        # row) say nothing of which tile was claimed; the group is a meld only as read, and
        # only by its gaps (fresh real-face table_s45_000037: 345p boxed wide, overlapping
        # 0.37 widths, after the hand's 0.53-wide gap, read into the hand)
        side = []
    if any(back) or len(side) > 1:
        return None
    tiles = _best_meld_tiles(dets, rows, bound=bound)
    seen = tuple(int(dets.class_id[r]) for r in rows)
    if tiles is not None and len(set(tiles)) == 3 and side and side[0] > 0:
        # a run is claimed only from the 上家, its tile laid sideways at the left: a claimed
        # tile in the middle or at the right end is a pung's, when the pung needs no more of
        # the tiles read anew than the run (REALVAL29D table_s44_000234: 666m with a 6m read
        # 5m, its right tile sideways, taken for 456m)
        pung = _best_meld_tiles(dets, rows, runs=False, bound=bound)
        if pung is not None and _read_anew(pung, seen) <= _read_anew(tiles, seen):
            tiles = pung
    if tiles is None and len(rows) == 4 and side:
        others = {int(dets.class_id[r]) for i, r in enumerate(rows) if i != side[0]}
        if len(others) == 1:
            kind = others.pop()
            return MeldReading("exposed_kong", (kind,) * 4, _claimed_from(seat, side[0], 4),
                               side[0], tuple(rows), False)
    if tiles is None:
        return None
    alike = len(set(tiles)) == 1
    as_read = len(set(seen)) == 1 if alike \
        else _read_anew(tiles, seen) <= 1
    if not side and not as_read:
        # no claimed tile: a pung or kong only as read, a run as read but for one tile (not
        # one naming two tiles as other kinds: fresh real-face table_s22_000096, a winner's
        # 2m 7m 7m taken for 678m); else a loose part of the hand
        return None
    certain = bool(side) and seen == tiles
    if len(rows) == 4:
        mtype = "exposed_kong"
    elif alike:
        mtype = "pung"
    else:
        mtype = "chow"
    if mtype == "chow":
        from_seat = (seat + 3) % 4  # a chow is only claimed from the 上家
        idx = side[0] if side else None
    elif side:
        idx = side[0]
        from_seat = _claimed_from(seat, idx, len(rows))
    else:
        idx, from_seat, certain = None, None, False
    return MeldReading(mtype, tiles, from_seat, idx, tuple(rows), certain)


def _claimed_from(seat: int, idx: int, size: int) -> int:
    """The seat a pung or kong was claimed from, told by where its sideways tile lies: left
    from the 上家, right from the 下家, in between from the seat across."""
    return (seat + 3) % 4 if idx == 0 else (seat + 1) % 4 if idx == size - 1 else (seat + 2) % 4


def _runner_up(dets: TileDetections, row: int, flower: bool) -> Tile | None:
    """The likeliest flower (``flower``) or suit or honour tile among a tile's classes, when it
    is likely enough (:data:`FLOWER_RUNNER_UP`, :data:`SUIT_RUNNER_UP`): a tile of an unseen
    look is most often read as the wrong sort with its own kind behind."""
    bar = FLOWER_RUNNER_UP if flower else SUIT_RUNNER_UP
    for t, p in zip(dets.topk_ids[row], dets.topk_probs[row], strict=True):
        if 0 <= t < NUM_TILES and is_flower(int(t)) == flower:
            return int(t) if p >= bar else None
    return None


def _best_identical(dets: TileDetections, rows: list[int]) -> Tile | None:
    scores: dict[int, float] = {}
    for r in rows:
        for t, p in zip(dets.topk_ids[r], dets.topk_probs[r], strict=True):
            if 0 <= t < NUM_KINDS:
                scores[int(t)] = scores.get(int(t), 0.0) + float(np.log(max(p, 1e-6)))
    full = {t: s for t, s in scores.items()
            if all(t in dets.topk_ids[r].tolist() for r in rows)}
    return max(full, key=lambda t: full[t]) if full else None


def _best_meld_tiles(dets: TileDetections, rows: list[int], runs: bool = True,
                     bound: float = MELD_ANEW) -> tuple[Tile, ...] | None:
    """The most probable reading of these tiles (among each one's top-k) that forms a set
    (``runs``: a run may be one), none where it is less likely than each tile's likeliest
    kind by more than ``bound`` (log odds; :data:`MELD_ANEW`)."""
    options = []
    for r in rows:
        opts = [(int(t), float(np.log(max(p, 1e-6))))
                for t, p in zip(dets.topk_ids[r], dets.topk_probs[r], strict=True)
                if 0 <= t < NUM_KINDS and p > 0]
        if not opts:
            return None
        options.append(opts)
    best: tuple[float, tuple[Tile, ...]] | None = None
    floor = sum(max(s for _, s in opts) for opts in options) - bound
    for combo in itertools.product(*options):
        tiles = tuple(t for t, _ in combo)
        if not _is_set(tiles) or (not runs and len(set(tiles)) > 1):
            continue
        score = sum(s for _, s in combo)
        if score < floor:
            continue
        if best is None or score > best[0]:
            best = (score, tiles)
    return best[1] if best else None


def _read_anew(tiles: tuple[Tile, ...], seen: tuple[Tile, ...]) -> int:
    """How many of a group's tiles a meld's reading names as other kinds than seen."""
    return sum((Counter(tiles) - Counter(seen)).values())


def _is_set(tiles: tuple[Tile, ...]) -> bool:
    if len(set(tiles)) == 1:
        return True
    if len(tiles) != 3:
        return False
    lo = min(tiles)
    return suit_of(lo) < 3 and sorted(tiles) == [lo, lo + 1, lo + 2] \
        and suit_of(lo + 2) == suit_of(lo)
