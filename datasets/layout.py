"""Where every tile and die of a scene stands, in table millimetres, from a :class:`GameState`.

Seat 0 sits at the bottom (-y) and play goes counterclockwise seen from above (seat 1 at the
right). In front of each player: the standing hand, melds to its right with the claimed tile
turned sideways, flowers in front of the melds; toward the centre the wall of face-down stacks
two high, then the discard pond in rows of six.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from datasets.game import GameState
from scoring.tiles import DIE_CLASS

Z = np.array([0.0, 0.0, 1.0])


@dataclass
class Body:
    """A box: a tile (``kind`` 0..41, face on the +n side) or a die (``kind`` = DIE_CLASS).

    ``u, v, n`` are unit axes (face right, face up, face normal); ``dims`` the extents along them.
    """

    kind: int
    center: np.ndarray
    u: np.ndarray
    v: np.ndarray
    n: np.ndarray
    dims: tuple[float, float, float]
    seat: int | None
    role: str  # hand | meld | flower | discard | wall | dice | loose
    die_faces: dict[str, int] = field(default_factory=dict)  # die: value on +n, -n, +u, ...
    chinese: bool = False
    color: tuple[float, float, float] | None = None  # props: one plain colour

    def corners(self) -> np.ndarray:
        """(8, 3): index bits (iu, iv, in) -> center ± u/2 ± v/2 ± n/2."""
        return all_corners([self])[0]


# sign of each axis for corner index i = iu + 2 iv + 4 in
_SIGNS = np.array([[(1 if i & 1 else -1), (1 if i & 2 else -1), (1 if i & 4 else -1)]
                   for i in range(8)], float)


def all_corners(bodies: list[Body]) -> np.ndarray:
    """(N, 8, 3) corners of many bodies at once."""
    c = np.array([b.center for b in bodies])
    axes = np.array([[b.u * b.dims[0] / 2, b.v * b.dims[1] / 2, b.n * b.dims[2] / 2]
                     for b in bodies])  # (N, 3 axes, 3 coords)
    return c[:, None, :] + np.einsum("ka,nad->nkd", _SIGNS, axes)


@dataclass(frozen=True)
class TileSize:
    w: float = 27.0
    h: float = 37.0
    t: float = 19.0


def seat_axes(seat: int) -> tuple[np.ndarray, np.ndarray]:
    """(right, toward the player) unit vectors of a seat, in the table plane."""
    ang = seat * np.pi / 2
    c, s = np.cos(ang), np.sin(ang)
    toward = np.array([s, -c, 0.0])  # seat 0: (0, -1); seat 1: (1, 0)
    right = np.array([c, s, 0.0])  # seat 0: (1, 0); seat 1: (0, 1)
    return right, toward


def _rot_z(vec: np.ndarray, ang: float) -> np.ndarray:
    c, s = np.cos(ang), np.sin(ang)
    return np.array([c * vec[0] - s * vec[1], s * vec[0] + c * vec[1], vec[2]])


def lying(kind: int, pos: np.ndarray, up: np.ndarray, size: TileSize, seat: int | None,
          role: str, face_up: bool = True, level: int = 0, yaw: float = 0.0) -> Body:
    """A tile lying flat; ``up`` is where the top of its face points, in the plane."""
    v = _rot_z(up, yaw)
    n = Z.copy() if face_up else -Z
    u = np.cross(v, n)
    center = np.array([pos[0], pos[1], size.t * (level + 0.5)])
    return Body(kind, center, u, v, n, (size.w, size.h, size.t), seat, role)


def standing(kind: int, pos: np.ndarray, facing: np.ndarray, size: TileSize, seat: int,
             yaw: float = 0.0, lean: float = 0.0) -> Body:
    """A tile standing on its end, face toward ``facing`` (the owner), leaning back by ``lean``."""
    n0 = _rot_z(facing, yaw)
    n = n0 * np.cos(lean) + Z * np.sin(lean)
    v = Z * np.cos(lean) - n0 * np.sin(lean)
    u = np.cross(v, n)
    center = np.array([pos[0], pos[1], 0.0]) + v * size.h / 2 + n * 0.0
    center[2] = max(center[2], size.h / 2 * np.cos(lean))
    return Body(kind, center, u, v, n, (size.w, size.h, size.t), seat, "hand")


def table_layout(game: GameState, size: TileSize, rng: np.random.Generator,
                 messy: float = 1.0, ordered: bool = False) -> list[Body]:
    """Every body of a full-table scene for ``game``; ``ordered``: each hand stands in the
    order given (a scripted sequence), not sorted or shuffled as players do."""
    bodies: list[Body] = []
    g = 0.6  # gap between neighbouring tiles, mm
    hand_b = 372.0
    wall_b = 292.0
    pond_b = wall_b - size.h / 2 - 28.0 - size.h / 2
    for s, seat in enumerate(game.seats):
        right, toward = seat_axes(s)
        up = -toward

        def at(a: float, b: float, right: np.ndarray = right, toward: np.ndarray = toward
               ) -> np.ndarray:
            return a * right + b * toward

        conc = list(seat.concealed) if ordered else sorted(seat.concealed)
        if rng.random() < 0.3 and not ordered:  # some players do not sort
            rng.shuffle(conc)
        n_c = len(conc)
        melds_w = sum((len(m.tiles) - (1 if sw is not None else 0)) * (size.w + g)
                      + (size.h + g if sw is not None else 0) + 8
                      for m, sw in zip(seat.melds, seat.sideways, strict=True))
        total = n_c * (size.w + g) + 14 + melds_w
        a = -total / 2 + rng.normal(0, 6) * messy
        b_row = hand_b + rng.normal(0, 3) * messy
        hand_yaw = rng.normal(0, 0.015) * messy
        for i, t in enumerate(conc):
            if i == n_c - 1 and game.to_play == s and not seat.revealed:
                a += 10  # the drawn tile stands apart
            pos = at(a + size.w / 2, b_row + rng.normal(0, 0.5) * messy)
            if seat.revealed:
                bodies.append(lying(t, pos + toward * (size.h / 2 - size.t / 2), up, size, s,
                                    "hand", yaw=hand_yaw + rng.normal(0, 0.01)))
            else:
                bodies.append(standing(t, pos, toward, size, s,
                                       yaw=hand_yaw + rng.normal(0, 0.02) * messy,
                                       lean=abs(0.05 + rng.normal(0, 0.04) * messy)))
            a += size.w + g
        a += 14
        meld_b = b_row + size.h / 2 - size.t / 2
        for m, sw in zip(seat.melds, seat.sideways, strict=True):
            for j, t in enumerate(m.tiles):
                face_up = not (m.type == "concealed_kong" and j in (0, 3))
                if j == sw:
                    pos = at(a + size.h / 2, meld_b + (size.h - size.w) / 2)
                    bodies.append(lying(t, pos, -right, size, s, "meld", face_up,
                                        yaw=rng.normal(0, 0.02) * messy))
                    a += size.h + g
                else:
                    pos = at(a + size.w / 2, meld_b)
                    bodies.append(lying(t, pos, up, size, s, "meld", face_up,
                                        yaw=rng.normal(0, 0.015) * messy))
                    a += size.w + g
            a += 8
        # flowers: one row in front of the hand, starting at its right end
        fa = total / 2 - len(seat.flowers) * (size.w + g) + rng.normal(0, 10) * messy
        fb = b_row - size.t / 2 - size.h / 2 - 6
        for t in seat.flowers:
            bodies.append(lying(t, at(fa + size.w / 2, fb), up, size, s, "flower",
                                yaw=rng.normal(0, 0.04) * messy))
            fa += size.w + g + abs(rng.normal(0, 1.5)) * messy
        # discard pond: rows of six, a little untidy
        for i, t in enumerate(seat.discards):
            row, col = divmod(i, 6)
            pos = at((col - 2.5) * (size.w + 1.5) + rng.normal(0, 1.2) * messy,
                     pond_b - row * (size.h + 1.5) + rng.normal(0, 1.2) * messy)
            bodies.append(lying(t, pos, up, size, s, "discard",
                                yaw=rng.normal(0, 0.05) * messy))
    bodies += wall_layout(game, size, wall_b, rng, messy)
    return bodies


def wall_layout(game: GameState, size: TileSize, wall_b: float, rng: np.random.Generator,
                messy: float) -> list[Body]:
    """The four walls: 18 stacks each, ``game.wall_tiles`` tiles left, a gap at the break."""
    heights = np.zeros(72, int)
    left = game.wall_tiles
    # tiles are drawn clockwise from the break (ring index decreasing) and replacements from
    # the other end: what remains is a contiguous run counterclockwise of the break
    start = (game.break_stack + 1) % 72
    for k in range(72):
        if left <= 0:
            break
        take = min(2, left)
        heights[(start + k) % 72] = take
        left -= take
    bodies: list[Body] = []
    for ring in range(72):
        s, i = divmod(ring, 18)
        right, toward = seat_axes(s)
        # ring index runs counterclockwise seen from above: along the seat's right
        a = (i - 8.5) * (size.w + 0.3)
        if ring == game.break_stack:
            a += 0  # the break itself is the missing run next to it
        pos = a * right + (wall_b + rng.normal(0, 0.4) * messy) * toward
        for level in range(heights[ring]):
            bodies.append(lying(-1, pos + rng.normal(0, 0.3, 3) * np.array([1, 1, 0]) * messy,
                                -toward, size, s, "wall", face_up=False, level=level,
                                yaw=rng.normal(0, 0.01) * messy))
    return bodies


PROP = -2  # kind of an unlabeled object (a table rail, a tile rack)


def rail(start: np.ndarray, end: np.ndarray, width: float, height: float,
         color: tuple[float, float, float]) -> Body:
    """A plain box standing on the table from ``start`` to ``end`` (a table's rim, a rack)."""
    d = np.array([end[0] - start[0], end[1] - start[1], 0.0])
    length = float(np.linalg.norm(d))
    u = d / max(length, 1e-9)
    n = Z.copy()
    v = np.cross(n, u)
    center = np.array([(start[0] + end[0]) / 2, (start[1] + end[1]) / 2, height / 2])
    return Body(PROP, center, u, v, n, (length, width, height), None, "prop", color=color)


_DIE_AXES = ((1, 6), (2, 5), (3, 4))


def die(value: int, pos: np.ndarray, side: float, yaw: float, chinese: bool,
        rng: np.random.Generator) -> Body:
    """A die resting on the table with ``value`` on top; opposite faces sum to seven."""
    others = [p for p in _DIE_AXES if value not in p]
    rng.shuffle(others)
    a, b = others[0][rng.integers(2)], others[1][rng.integers(2)]
    n = Z.copy()
    v = _rot_z(np.array([0.0, 1.0, 0.0]), yaw)
    u = np.cross(v, n)
    center = np.array([pos[0], pos[1], side / 2])
    faces = {"+n": value, "-n": 7 - value, "+u": a, "-u": 7 - a, "+v": b, "-v": 7 - b}
    return Body(DIE_CLASS, center, u, v, n, (side, side, side), None, "dice", faces, chinese)


def dice_pair(values: tuple[int, ...], center: np.ndarray, rng: np.random.Generator,
              chinese: bool | None = None) -> list[Body]:
    chinese = bool(rng.random() < 0.6) if chinese is None else chinese
    side = float(rng.uniform(13, 18))
    out = []
    placed: list[np.ndarray] = []
    for val in values:
        for _ in range(30):
            p = center + np.r_[rng.normal(0, side * 1.5, 2), 0]
            if all(np.linalg.norm(p - q) > side * 1.6 for q in placed):
                break
        placed.append(p)
        out.append(die(val, p, side, float(rng.uniform(0, np.pi)), chinese, rng))
    return out
