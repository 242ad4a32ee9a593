"""Procedural surfaces: tile tops from face art, tile backs, dice faces, felt and wood tables.

Everything is RGB float32 in ``[0, 1]`` (tile and die textures RGBA) and drawn from a
``numpy.random.Generator`` so a scene is reproducible from its seed.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

# colours are RGB in [0, 1]
FACE_COLORS = {"white": (0.95, 0.95, 0.93), "cream": (0.95, 0.92, 0.80),
               "ivory": (0.93, 0.90, 0.84), "bone": (0.90, 0.89, 0.86)}
BACK_COLORS = {"green": (0.10, 0.50, 0.28), "blue": (0.20, 0.45, 0.80),
               "yellow": (0.92, 0.72, 0.18), "red": (0.70, 0.15, 0.15),
               "sky": (0.42, 0.68, 0.90), "orange": (0.92, 0.52, 0.15),
               "dark_green": (0.05, 0.30, 0.20), "pink": (0.92, 0.55, 0.65)}
SKIN_TONES = ((0.93, 0.76, 0.64), (0.85, 0.65, 0.50), (0.72, 0.52, 0.38),
              (0.55, 0.37, 0.25), (0.96, 0.82, 0.72))


@dataclass(frozen=True)
class TileLook:
    """One physical set: the colours and finish every tile of a scene shares."""

    style: str
    face: tuple[float, float, float]
    back: tuple[float, float, float]
    face_layer: float  # fraction of the thickness in the face colour
    carved: bool
    ink_gain: float  # <1 fades the ink, >1 saturates it
    corner: float  # corner radius, fraction of the tile width


def sample_look(rng: np.random.Generator, styles: list[str]) -> TileLook:
    face = np.array(list(FACE_COLORS.values())[rng.integers(len(FACE_COLORS))])
    back = np.array(list(BACK_COLORS.values())[rng.integers(len(BACK_COLORS))])
    face = np.clip(face + rng.normal(0, 0.015, 3), 0, 1)
    back = np.clip(back + rng.normal(0, 0.04, 3), 0, 1)
    return TileLook(style=styles[rng.integers(len(styles))], face=tuple(face), back=tuple(back),
                    face_layer=float(rng.uniform(0.4, 0.7)), carved=bool(rng.random() < 0.5),
                    ink_gain=float(rng.uniform(0.8, 1.15)), corner=float(rng.uniform(0.08, 0.18)))


@functools.lru_cache(maxsize=64)
def _rounded_alpha(w: int, h: int, radius: float, soft: float = 1.0) -> np.ndarray:
    """Alpha of a rounded rectangle, anti-aliased by a distance falloff."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r = max(radius, 1.0)
    dx = np.maximum(np.maximum(r - xx - 0.5, xx + 0.5 - (w - r)), 0)
    dy = np.maximum(np.maximum(r - yy - 0.5, yy + 0.5 - (h - r)), 0)
    d = np.sqrt(dx * dx + dy * dy) - r
    return np.clip(0.5 - d / soft, 0, 1)


@functools.lru_cache(maxsize=64)
def _bevel(w: int, h: int, width: float) -> np.ndarray:
    """A brightness profile: lighter rim toward the top-left, darker toward bottom-right."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    edge = np.minimum.reduce([xx, yy, w - 1 - xx, h - 1 - yy])
    t = np.clip(edge / max(width, 1.0), 0, 1)
    tilt = ((xx / w - 0.5) + (yy / h - 0.5)) * -0.5  # light from the top-left
    return 1.0 + (1 - t) ** 2 * (tilt * 0.6 - 0.12)


_RESIZED: dict[tuple[int, int, int], np.ndarray] = {}


def _resized(art: np.ndarray, w: int, h: int) -> np.ndarray:
    """Art scaled to a texture size, as float; kept per process (styles are few, sizes too)."""
    key = (id(art), w, h)
    got = _RESIZED.get(key)
    if got is None:
        if len(_RESIZED) > 4000:
            _RESIZED.clear()
        got = cv2.resize(art, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
        _RESIZED[key] = got
    return got


def tile_top(art: np.ndarray | None, look: TileLook, size: tuple[int, int],
             rng: np.random.Generator, flat_color: tuple[float, float, float] | None = None
             ) -> np.ndarray:
    """The face of one tile (RGBA float32, ``size`` = (w, h)), art engraved or printed on it."""
    w, h = size
    alpha = _rounded_alpha(w, h, round(look.corner * w))
    if flat_color is not None:
        rgb = np.empty((h, w, 3), np.float32)
        rgb[:] = flat_color
        return np.dstack([rgb, (alpha > 0.5).astype(np.float32)])
    rgb = np.empty((h, w, 3), np.float32)
    rgb[:] = look.face
    if art is not None:
        # the art fills ~80% of the face; FACE_SIZE art already has its own margin
        mw, mh = int(w * 0.92), int(h * 0.92)
        a = _resized(art, mw, mh)
        ink, ia = a[..., :3], a[..., 3:4]
        ink = np.clip(0.5 + (ink - 0.5) * look.ink_gain, 0, 1)
        x0, y0 = (w - mw) // 2, (h - mh) // 2
        region = rgb[y0:y0 + mh, x0:x0 + mw]
        if look.carved:
            # an engraving: a dark lip on the lit side, a light one on the shaded side
            k = max(1, w // 60)
            shift_d = np.roll(np.roll(ia, k, 0), k, 1)
            shift_l = np.roll(np.roll(ia, -k, 0), -k, 1)
            region *= 1 - 0.35 * np.clip(shift_l - ia, 0, 1)
            region[:] = region + 0.25 * np.clip(shift_d - ia, 0, 1) * (1 - region)
            ink = ink * 0.85
        region[:] = region * (1 - ia) + ink * ia
    rgb *= _bevel(w, h, round(w * 0.07, 1))[..., None]
    grain = rng.normal(0, 0.012, (h // 4 + 1, w // 4 + 1)).astype(np.float32)
    rgb += cv2.resize(grain, (w, h))[..., None]
    return np.dstack([np.clip(rgb, 0, 1), alpha])


def photo_top(photo: np.ndarray, look: TileLook, size: tuple[int, int],
              rng: np.random.Generator) -> np.ndarray:
    """A photographed face (RGB uint8) as a tile top (RGBA float32, ``size`` = (w, h)).

    Its colours are balanced so that its light border matches the set's face colour: faces
    from many photos then sit on one set of tiles, as on a real table.
    """
    w, h = size
    rgb = cv2.resize(photo, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    ring = np.concatenate([rgb[:max(1, h // 8)].reshape(-1, 3), rgb[-max(1, h // 8):].reshape(
        -1, 3), rgb[:, :max(1, w // 8)].reshape(-1, 3), rgb[:, -max(1, w // 8):].reshape(-1, 3)])
    light = ring[ring.sum(1) >= np.percentile(ring.sum(1), 40)]
    gain = np.clip(np.array(look.face, np.float32) / np.maximum(np.median(light, 0), 0.05),
                   0.7, 1.5)
    rgb *= gain
    rgb *= _bevel(w, h, round(w * 0.07, 1))[..., None]
    grain = rng.normal(0, 0.01, (h // 4 + 1, w // 4 + 1)).astype(np.float32)
    rgb += cv2.resize(grain, (w, h))[..., None]
    alpha = _rounded_alpha(w, h, round(look.corner * w))
    return np.dstack([np.clip(rgb, 0, 1), alpha])


def die_face(value: int, size: int, body: tuple[float, float, float], chinese: bool,
             rng: np.random.Generator) -> np.ndarray:
    """One face of a die with its pips (Chinese dice: red 1 and 4, a big 1)."""
    img = np.empty((size, size, 3), np.float32)
    img[:] = body
    img *= _bevel(size, size, round(size * 0.12, 1))[..., None]
    light = float(np.mean(body)) > 0.5
    pip = (0.08, 0.08, 0.1) if light else (0.95, 0.95, 0.95)
    red = (0.78, 0.08, 0.1)
    layout = {1: [(0.5, 0.5)], 2: [(0.27, 0.27), (0.73, 0.73)],
              3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
              4: [(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)],
              5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
              6: [(0.28, 0.22), (0.72, 0.22), (0.28, 0.5), (0.72, 0.5), (0.28, 0.78),
                  (0.72, 0.78)]}[value]
    radius = size * (0.2 if value == 1 and chinese else 0.14 if value == 1 else 0.085)
    color = red if chinese and value in (1, 4) else pip
    if value == 1 and not chinese and rng.random() < 0.3:
        color = red  # many western dice have a red ace too
    scale = 4
    for x, y in layout:
        cv2.circle(img, (int(x * size * scale), int(y * size * scale)), int(radius * scale),
                   color, -1, cv2.LINE_AA, shift=2)
    alpha = _rounded_alpha(size, size, round(size * 0.15))
    return np.dstack([img, alpha])


def felt(shape: tuple[int, int], color: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Felt/cloth: fine fibers and slow mottling over a base colour."""
    h, w = shape
    fine = rng.standard_normal((h, w), np.float32) * np.float32(0.04)
    low = cv2.resize(rng.standard_normal((h // 64 + 2, w // 64 + 2), np.float32), (w, h),
                     interpolation=cv2.INTER_CUBIC) * np.float32(0.06)
    shade = 1 + fine + low
    return np.clip(color.astype(np.float32)[None, None, :] * shade[..., None], 0, 1)


def wood(shape: tuple[int, int], color: np.ndarray, rng: np.random.Generator,
         period: float = 18.0) -> np.ndarray:
    """Wood or wood-grain laminate: wavy rings along x with fiber noise."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    warp = cv2.resize(rng.standard_normal((4, 3), np.float32), (w, h),
                      interpolation=cv2.INTER_CUBIC) * period * 2.5
    rings = np.sin((yy + warp + 0.02 * xx) / period * 2 * np.pi)
    rings = np.sign(rings) * np.abs(rings) ** 0.5
    fibers = cv2.GaussianBlur(rng.standard_normal((h, w), np.float32), (0, 0), sigmaX=8,
                              sigmaY=0.6)
    shade = 1 + 0.04 * rings + 0.12 * fibers
    return np.clip(color.astype(np.float32)[None, None, :] * shade[..., None], 0, 1)


# (colour, weight): green felt and grey or light wood grain are what real tables mostly are
TABLE_COLORS = {"felt_green": ((0.16, 0.45, 0.26), 5), "felt_blue": ((0.18, 0.32, 0.50), 2),
                "felt_red": ((0.45, 0.16, 0.15), 1), "felt_gray": ((0.40, 0.41, 0.42), 1),
                "felt_black": ((0.10, 0.10, 0.11), 1), "felt_teal": ((0.16, 0.42, 0.40), 1),
                "wood_light": ((0.74, 0.62, 0.48), 2), "wood_dark": ((0.42, 0.29, 0.19), 1),
                "wood_gray": ((0.62, 0.61, 0.60), 3), "laminate_white": ((0.86, 0.85, 0.83), 2)}


def table_surface(shape: tuple[int, int], rng: np.random.Generator, name: str | None = None,
                  period: float = 18.0) -> tuple[np.ndarray, str]:
    names = list(TABLE_COLORS)
    weights = np.array([TABLE_COLORS[n][1] for n in names], float)
    name = name or names[rng.choice(len(names), p=weights / weights.sum())]
    color = np.clip(np.array(TABLE_COLORS[name][0]) * rng.uniform(0.97, 1.03, 3)
                    * rng.uniform(0.85, 1.12), 0, 1)
    if name.startswith("felt"):
        return felt(shape, color, rng), name
    return wood(shape, color, rng, period), name
