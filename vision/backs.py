"""Face-up boxes that show a tile's back: a concealed kong's backs lying flat in a row.

The detector learned backs mostly from walls and standing hands; a back lying flat among face-up
tiles (a concealed kong shown back, face, face, back) often comes back as a face box, and the
crop classifier, which has no back class, names it (``P`` or ``8p``): the kong is then read as a
pair in the hand. The frame itself shows what its backs and faces look like. Every face is printed
on a near-white ground that shows between its ink, even on the densest faces; a back is one
colour. So a face box whose middle is, almost pixel for pixel, nearer the colour of the frame's
sure backs than that of its sure faces, and near the backs' colour itself (a face inked in the
backs' hue is not), is a back.
"""

from __future__ import annotations

import cv2
import numpy as np

from scoring.tiles import tile_from_name
from vision.detections import TileDetections
from vision.labels import BACK_CLASS

MARGIN = 0.2  # of the box on each side left out: the tile's middle, clear of rim and neighbours
SURE = 0.5  # detection score of the boxes whose colours stand for the frame's backs and faces
MIN_SURE = 4  # sure backs and sure faces each needed (a close-up without backs: no rule)
MAX_SURE = 16  # of each, the surest: their colours are the frame's
GROUND_SHARE = 20  # per cent of a face's middle, its brightest, taken for the ground between ink
MIN_APART = 15.0  # Lab distance of the two colours under which colour tells them apart no more
# the shares below as measured on the held-back tables REALVAL4, REALVAL3, ARTVAL, ARTVAL2 and
# the bundled photos (python bench/back_shares.py; MODELS.md, eighteenth session)
# a face box is a back at this share of its middle nearer the backs' colour: the 16,774 boxes on
# labeled faces show 0.957 at most (dense dark 8p), the 8 face boxes on labeled backs 0.98 or more
BACK_SHARE = 0.97
# and lies near the backs' colour: its middle's median pixel within this share of the way from
# the backs' colour to the faces'. A face inked in the backs' hue (a blue 8p among blue backs)
# shows its ink and the pale rings between it nearer the backs than the faces' colour, yet lies
# far from the backs themselves: over REALVAL9D-20D the 85 face boxes at BACK_SHARE on labeled
# backs lay within 0.52, the 8 on labeled faces (blue 8p) 0.74 or more (forty-fourth session)
BACK_NEAR = 0.6
# under this share a back box is none: the 9,983 back boxes on labeled backs show 0.81 or more,
# while boxes on a table's rim or felt read as backs mostly show 0 (681 of 2,579 on nothing)
LEAST_BACK = 0.5
# a box read 白 at this share or more is a standing tile's top and side: the 406 boxes read 白
# on 白 faces show 0.15 at most; 17 of the 33 read 白 on nothing show 0.2 or more
BLANK_BACK = 0.2
BLANK_CLASS = tile_from_name("P")
# a face box named with a score under UNSURE_FACE (detector x classifier) showing the backs'
# colour over UNSURE_BACK of its middle is a standing tile's top and side, whatever it is read
# as: over REALVAL6, REALVAL4, REALVAL3, ARTVAL, ARTVAL2 and the bundled photos 14 such boxes
# lay on no face or on a back and 1 on a face (0.414; the 39 unsure boxes on faces show 0.303
# at their 99th per cent), while faces dense with ink, named surely, show up to 0.998
# (python bench/back_shares.py; MODELS.md, nineteenth session)
UNSURE_FACE = 0.2
UNSURE_BACK = 0.4


def middle_lab(image: np.ndarray, box: np.ndarray) -> np.ndarray:
    """(K, 3) Lab pixels of the box's middle (none when it lies outside the image)."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = (float(v) for v in box)
    dx, dy = (x1 - x0) * MARGIN, (y1 - y0) * MARGIN
    xa, ya = max(0, round(x0 + dx)), max(0, round(y0 + dy))
    xb, yb = min(w, round(x1 - dx)), min(h, round(y1 - dy))
    if xb <= xa or yb <= ya:
        return np.zeros((0, 3), np.float32)
    patch = image[ya:yb, xa:xb].astype(np.float32) / 255.0
    return cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).reshape(-1, 3)


def _colour(middles: list[np.ndarray], rows: np.ndarray) -> np.ndarray | None:
    """The median over ``rows`` of each box's median middle colour (Lab)."""
    colours = [np.median(middles[r], axis=0) for r in rows if len(middles[r])]
    return np.median(np.array(colours), axis=0) if len(colours) >= MIN_SURE else None


def frame_colours(image: np.ndarray, dets: TileDetections
                  ) -> tuple[np.ndarray, np.ndarray] | None:
    """(back, face): the Lab colours of the frame's sure backs and sure faces (the median of
    the surest few's middles); ``None`` where the frame shows too few of either or the two
    colours alike (then colour tells nothing)."""
    sure = dets.confidence >= SURE
    backs = np.flatnonzero(sure & dets.is_back)
    faces = np.flatnonzero(sure & dets.is_tile)
    if len(backs) < MIN_SURE or len(faces) < MIN_SURE:
        return None
    # the surest few stand for all (a median of medians: a live frame's time matters)
    backs = backs[np.argsort(-dets.confidence[backs])[:MAX_SURE]]
    faces = faces[np.argsort(-dets.confidence[faces])[:MAX_SURE]]
    middles = [np.zeros((0, 3), np.float32)] * len(dets)
    for r in (*backs, *faces):
        middles[r] = middle_lab(image, dets.xyxy[r])  # only theirs: a live frame's time
    back, face = _colour(middles, backs), _colour(middles, faces)
    if back is None or face is None or float(np.linalg.norm(back - face)) < MIN_APART:
        return None
    return back, face


def nearer_back(px: np.ndarray, back: np.ndarray, face: np.ndarray) -> float:
    """The share of the Lab pixels ``px`` nearer the back's colour than the face's (a plane
    between the two colours)."""
    normal, level = 2.0 * (face - back), float(face @ face - back @ back)
    return float(np.mean(px @ normal < level))


def ground_colour(image: np.ndarray, dets: TileDetections) -> np.ndarray | None:
    """(3,) Lab colour of the faces' ground: the median over the surest faces (those whose
    colour :func:`frame_colours` takes for the faces') of the mean of each middle's
    brightest pixels (ink is darker than its ground); None without sure faces."""
    sure = np.flatnonzero((dets.confidence >= SURE) & dets.is_tile)
    sure = sure[np.argsort(-dets.confidence[sure])[:MAX_SURE]]
    grounds = [g for g in (face_ground(image, dets.xyxy[row]) for row in sure) if g is not None]
    return np.median(np.array(grounds), axis=0) if grounds else None


def face_ground(image: np.ndarray, box: np.ndarray) -> np.ndarray | None:
    """(3,) Lab colour of one face's ground: the mean of its middle's brightest pixels (ink is
    darker than its ground); None where the box shows no middle."""
    px = middle_lab(image, box)
    if not len(px):
        return None
    return px[px[:, 0] >= np.percentile(px[:, 0], 100 - GROUND_SHARE)].mean(0)


def back_shares(image: np.ndarray, dets: TileDetections,
                rows: np.ndarray | None = None,
                context: TileDetections | None = None) -> np.ndarray | None:
    """(N,) the share of each box's middle (of ``rows`` alone, bool mask, where given; 0
    elsewhere) nearer the colour of the frame's sure backs than that of its sure faces;
    ``None`` where colour tells nothing (:func:`frame_colours`). ``context``: more boxes of
    the frame whose sure backs and faces tell those colours too."""
    colours = _colours_with(image, dets, context)
    return None if colours is None else _shares(image, dets, colours, rows)[0]


def _colours_with(image: np.ndarray, dets: TileDetections, context: TileDetections | None
                  ) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`frame_colours` of ``dets`` and, where given, the frame's ``context`` boxes."""
    return frame_colours(image, dets if context is None
                         else TileDetections.merge([context, dets]))


def _shares(image: np.ndarray, dets: TileDetections, colours: tuple[np.ndarray, np.ndarray],
            rows: np.ndarray | None = None) -> tuple[np.ndarray, list[np.ndarray]]:
    """:func:`back_shares` for the frame's (back, face) ``colours``, and the middles' pixels."""
    empty = np.zeros((0, 3), np.float32)
    wanted = ~dets.is_die if rows is None else rows
    middles = [middle_lab(image, box) if want else empty
               for box, want in zip(dets.xyxy, wanted, strict=True)]
    out = np.zeros(len(dets), np.float32)
    for r, px in enumerate(middles):
        if len(px):
            out[r] = nearer_back(px, *colours)
    return out, middles


def told_by_colour(image: np.ndarray, dets: TileDetections,
                   context: TileDetections | None = None) -> TileDetections:
    """``dets`` with face boxes of a back's colour made backs, and back boxes mostly of
    another colour (a table's rim, felt, a shadow) dropped. ``context``: the boxes kept from
    the frame's earlier pass, when ``dets`` are a window's few fresh ones (:mod:`vision.changes`):
    their colours count, they are left as they are."""
    colours = _colours_with(image, dets, context)
    if colours is None:
        return dets
    share, middles = _shares(image, dets, colours)
    back, face = colours
    near = float(np.linalg.norm(back - face)) * BACK_NEAR
    backs = dets.is_tile & (share >= BACK_SHARE)
    for r in np.flatnonzero(backs):
        backs[r] = float(np.median(np.linalg.norm(middles[r] - back, axis=1))) <= near
    dets = as_backs(dets, backs)
    return dets[~(dets.is_back & (share < LEAST_BACK))]


def as_backs(dets: TileDetections, rows: np.ndarray) -> TileDetections:
    """``dets`` with the boxes at ``rows`` (bool mask) turned into backs, left unclassified."""
    if not rows.any():
        return dets
    topk_ids, topk_probs = dets.topk_ids.copy(), dets.topk_probs.copy()
    topk_ids[rows], topk_probs[rows] = -1, 0.0
    topk_ids[rows, 0], topk_probs[rows, 0] = BACK_CLASS, 1.0
    data = dict(dets.data)
    if "coarse" in data:
        data["coarse"] = np.asarray(data["coarse"]) & ~rows
    return dets.with_(class_id=np.where(rows, BACK_CLASS, dets.class_id).astype(
        dets.class_id.dtype), topk_ids=topk_ids, topk_probs=topk_probs, data=data)


def tops_told_by_colour(image: np.ndarray, dets: TileDetections) -> TileDetections:
    """``dets`` without the face boxes on a standing tile seen from above, its back's top and
    its ivory side: those read as the blank 白 (``P``; the classifier sees no ink) showing the
    backs' colour at ``BLANK_BACK`` or more, and those read as anything with a score under
    ``UNSURE_FACE`` showing it at ``UNSURE_BACK`` or more (a hand tile where none shows, or a
    stray beside a seat's melds). A 白 face shows its ground alone (a share under
    ``BLANK_BACK``). The standing tile is mostly boxed as a back already; made a back too,
    such a box counted it twice more often than it counted it."""
    blank = dets.is_tile & (dets.class_id == BLANK_CLASS)
    unsure = dets.is_tile & (dets.confidence < UNSURE_FACE)
    if not (blank | unsure).any():
        return dets
    colours = frame_colours(image, dets)
    if colours is None:
        return dets
    back, face = colours
    middles = {int(r): middle_lab(image, dets.xyxy[r]) for r in np.flatnonzero(blank | unsure)}
    shares = {r: nearer_back(px, back, face) for r, px in middles.items() if len(px)}
    drop = np.zeros(len(dets), bool)
    for r, share in shares.items():
        drop[r] = bool(unsure[r]) and share >= UNSURE_BACK
    # a 白 shows the faces' ground, which the faces' own colour (their ink) stands for badly:
    # on a set with light backs a 白 lies nearer the backs than inked faces do (fresh
    # real-face table_s21_000003: 0.54). Its share nearer the backs than the ground decides
    # too; where the two are alike, colour cannot tell and the 白 stays.
    tops = [r for r, share in shares.items() if blank[r] and share >= BLANK_BACK]
    ground = ground_colour(image, dets) if tops else None
    if ground is not None and float(np.linalg.norm(back - ground)) >= MIN_APART:
        for r in tops:
            drop[r] |= nearer_back(middles[r], back, ground) >= BLANK_BACK
    return dets[~drop] if drop.any() else dets
