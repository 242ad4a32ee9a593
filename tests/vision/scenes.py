"""Crafted table scenes: the detections a perfect detector would give for a known table state.

The layout follows the synthetic generator (``datasets/layout.py``): millimetres, seat 0 at the
bottom, hand row 372 mm from the centre with melds on its right (claimed tile sideways on the
side of the seat it came from), flowers in front of the hand, the wall at 292 mm, the pond inside.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from scoring.tiles import DIE_CLASS, parse_tiles
from vision.detections import TileDetections
from vision.geometry import seat_axes
from vision.labels import BACK_CLASS

W, H = 27.0, 37.0
HALF = 450.0  # half the table side, mm


@dataclass
class SeatSpec:
    hand: str = ""
    melds: list[tuple[str, str, int | None]] = field(default_factory=list)  # type, tiles, side
    flowers: str = ""
    discards: str = ""
    hidden: int = 0  # standing tiles seen from behind
    drawn_apart: bool = False


@dataclass
class Scene:
    seats: list[SeatSpec]
    wall: int = 0
    dice: tuple[int, ...] = ()
    indicator: str = ""
    meld_gap: float = 8.0  # mm between melds (the hand lies 14 mm from the first)


def top_down(size: int = 1080) -> np.ndarray:
    """A homography from table mm to pixels for a camera straight above the centre."""
    s = size / (2 * HALF)
    return np.array([[s, 0, size / 2], [0, -s, size / 2], [0, 0, 1]], float)


def tilted(size: tuple[int, int] = (1920, 1080)) -> np.ndarray:
    """A camera in front of seat 0, looking down at the table at an angle (keystone)."""
    w, h = size
    src = np.array([[-HALF, -HALF], [HALF, -HALF], [HALF, HALF], [-HALF, HALF]], np.float32)
    dst = np.array([[w * 0.18, h * 0.98], [w * 0.82, h * 0.98], [w * 0.70, h * 0.03],
                    [w * 0.30, h * 0.03]], np.float32)

    return cv2.getPerspectiveTransform(src, dst)


def table_corners(hom: np.ndarray) -> np.ndarray:
    pts = np.array([[-HALF, -HALF, 1], [HALF, -HALF, 1], [HALF, HALF, 1], [-HALF, HALF, 1]])
    img = pts @ hom.T
    return img[:, :2] / img[:, 2:]


def _place(bodies: list, kind: int, a: float, b: float, seat: int, sideways: bool,
           right: np.ndarray, toward: np.ndarray) -> None:
    du, dv = (H, W) if sideways else (W, H)
    centre = a * right + b * toward
    bodies.append((kind, centre, du * right, dv * toward))


def build(scene: Scene) -> list[tuple[int, np.ndarray, np.ndarray, np.ndarray]]:
    """Every object as (class, centre mm, half-size vector along right, along toward)."""
    bodies: list = []
    g = 0.6
    for k, spec in enumerate(scene.seats):
        right, toward = seat_axes(k)
        hand = parse_tiles(spec.hand)
        kinds = hand + [BACK_CLASS] * spec.hidden
        total = len(kinds) * (W + g) + 14 + sum(
            len(parse_tiles(t)) * (W + g) + (H - W if s is not None else 0) + scene.meld_gap
            for _, t, s in spec.melds)
        a = -total / 2
        for i, t in enumerate(kinds):
            if spec.drawn_apart and i == len(kinds) - 1:
                a += 10
            _place(bodies, t, a + W / 2, 372, k, False, right, toward)
            a += W + g
        a += 14
        for mtype, text, side in spec.melds:
            tiles = parse_tiles(text)
            for j, t in enumerate(tiles):
                kind = BACK_CLASS if mtype == "concealed_kong" and j in (0, 3) else t
                if j == side:
                    _place(bodies, kind, a + H / 2, 381 + (H - W) / 2, k, True, right, toward)
                    a += H + g
                else:
                    _place(bodies, kind, a + W / 2, 381, k, False, right, toward)
                    a += W + g
            a += scene.meld_gap
        fa = total / 2 - len(parse_tiles(spec.flowers)) * (W + g)
        for t in parse_tiles(spec.flowers):
            _place(bodies, t, fa + W / 2, 338, k, False, right, toward)
            fa += W + g
        for i, t in enumerate(parse_tiles(spec.discards)):
            row, col = divmod(i, 6)
            _place(bodies, t, (col - 2.5) * (W + 1.5), 227 - row * (H + 1.5), k, False, right,
                   toward)
    left = scene.wall
    for ring in range(72):
        s, i = divmod(ring, 18)
        right, toward = seat_axes(s)
        if left <= 0:
            break
        take = min(2, left)
        left -= take
        for _ in range(take):  # two high: the camera sees the top one; both boxes overlap
            _place(bodies, BACK_CLASS, (i - 8.5) * (W + 0.3), 292, s, False, right, toward)
            break
    if scene.indicator:
        right, toward = seat_axes(1)
        _place(bodies, parse_tiles(scene.indicator)[0], 3 * (W + 0.3), 292, 1, False, right,
               toward)
    for j, _ in enumerate(scene.dice):
        bodies.append((DIE_CLASS, np.array([-20.0 + 40 * j, 10.0]), np.array([16.0, 0]),
                       np.array([0, 16.0])))
    return bodies


def detections(scene: Scene, hom: np.ndarray, misread: dict[int, int] | None = None,
               seed: int = 0) -> tuple[TileDetections, list[int]]:
    """What a perfect detector would report; ``misread`` maps a body index to the class it is
    wrongly read as (the true class is then the runner-up). Returns the detections and the
    true class of each row."""
    bodies = build(scene)
    rng = np.random.default_rng(seed)
    xyxy, cls, conf, topk, probs, face, truth = [], [], [], [], [], [], []
    dice_faces = list(scene.dice)
    for idx, (kind, c, du, dv) in enumerate(bodies):
        pts = np.array([c - du / 2 - dv / 2, c + du / 2 - dv / 2, c + du / 2 + dv / 2,
                        c - du / 2 + dv / 2])
        img = np.c_[pts, np.ones(4)] @ hom.T
        img = img[:, :2] / img[:, 2:]
        xyxy.append([*img.min(axis=0), *img.max(axis=0)])
        wrong = (misread or {}).get(idx)
        shown = kind if wrong is None else wrong
        cls.append(shown)
        truth.append(kind)
        conf.append(0.9 - 0.1 * rng.random())
        if kind < 34:
            other = kind if wrong is not None else (kind + 1) % 34
            topk.append([shown, other, (kind + 2) % 34])
            probs.append([0.6, 0.3, 0.1] if wrong is not None else [0.9, 0.07, 0.03])
        else:
            topk.append([shown, -1, -1])
            probs.append([1.0, 0.0, 0.0])
        face.append(dice_faces.pop(0) if kind == DIE_CLASS else 0)
    dets = TileDetections(xyxy=np.array(xyxy), confidence=conf, class_id=cls,
                          topk_ids=np.array(topk), topk_probs=np.array(probs), face=face)
    return dets, truth


# colours (BGR) of a painted frame: felt, a back, a face's ground, its ink, a table's rim
FELT, BACK, FACE, INK, RIM = (60, 110, 40), (170, 95, 40), (215, 232, 238), (40, 40, 150), \
    (90, 140, 190)


def paint(dets: TileDetections, truth: list[int], size: int = 1080) -> np.ndarray:
    """A frame where every body is drawn as what it truly is: a back one colour, a face
    near-white with strokes of ink across its middle."""
    img = np.full((size, size, 3), FELT, np.uint8)
    for box, kind in zip(dets.xyxy.astype(int), truth, strict=True):
        x0, y0, x1, y1 = box.tolist()
        cv2.rectangle(img, (x0, y0), (x1, y1), BACK if kind == BACK_CLASS else FACE, -1)
        if kind != BACK_CLASS:
            for t in (0.35, 0.5, 0.65):
                y = round(y0 + t * (y1 - y0))
                cv2.line(img, (x0 + 3, y), (x1 - 3, y), INK, 2)
    return img


# seat 0 with a pung and a concealed kong (back, 7p, 7p, back) at its row's end, a wall
KONG = Scene(seats=[SeatSpec(hand="333m12355p", melds=[("pung", "444m", 1),
                                                       ("concealed_kong", "7777p", None)]),
                    SeatSpec(hand="1234567s1234p5m"), SeatSpec(hand="9876543m9876p5s"),
                    SeatSpec(hand="1234567m1234p5s")], wall=40)
