"""One synthetic scene, start to finish: game state, layout, camera, light, render, camera effects.

``make_scene(kind, seed, index, size)`` is a pure function of its arguments: the same call gives
the same image, labels and manifest on any machine with the same art styles (and, for photo
faces, the same shared datasets).

Tile faces come from drawn art (``faces="art"``), from photographed faces of one fold
(``faces="real"``, :mod:`datasets.photo_faces`) or from either, scene by scene (``"mix"``). A
photo scene draws the same geometry, light and camera as its art twin; only the faces differ.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from datasets import art, photo_faces, textures
from datasets.camera import Camera
from datasets.classes import TILE_BACK
from datasets.game import GameState, sample_game
from datasets.layout import (
    Body,
    TileSize,
    dice_pair,
    lying,
    rail,
    seat_axes,
    standing,
    table_layout,
)
from datasets.render import Label, Light, Occluder, Surfaces, render
from scoring.tiles import DIE_CLASS, FLOWERS, NUM_KINDS, NUM_TILES, TILE_NAMES

KINDS = ("table", "hand", "dice")
FACE_SOURCES = ("art", "real", "mix")
FOLDS = ("train", "val")
PHOTO_SHARE = 0.5  # faces="mix": the share of scenes dressed with photos
DEFAULT_SIZES = {"table": (1920, 1080), "hand": (1024, 768), "dice": (640, 640)}


@dataclass
class Scene:
    encoded: bytes  # the image as a file (JPEG, or PNG for flat renders)
    labels: list[Label]
    bodies: list[Body]
    manifest: dict[str, Any]

    @property
    def image(self) -> np.ndarray:
        """The picture, HxWx3 uint8 BGR (decoded on demand: writers need only the bytes)."""
        img = cv2.imdecode(np.frombuffer(self.encoded, np.uint8), cv2.IMREAD_COLOR)
        if img is None:
            raise ValueError("scene image bytes do not decode")
        return np.asarray(img)


def scene_rngs(seed: int, index: int, kind: str) -> tuple[np.random.Generator, random.Random]:
    ss = np.random.SeedSequence([seed, index, KINDS.index(kind)])
    rng = np.random.default_rng(ss)
    return rng, random.Random(int(rng.integers(2 ** 62)))


def flat_class_color(cls: int) -> tuple[float, float, float]:
    """Exact colour of a class in flat renders: R encodes the class, G is full, B empty."""
    return ((10 + 5 * cls) / 255.0, 1.0, 0.0)


FLAT_BACK = (0.0, 0.0, 1.0)
FLAT_SIDE = (0.5, 0.5, 0.5)
FLAT_SLIVER = (1.0, 0.0, 1.0)  # a face seen too edge-on to be labeled


def build_surfaces(look: textures.TileLook, rng: np.random.Generator, tex_w: int,
                   flat: bool) -> Surfaces:
    tex_h = round(tex_w * 37 / 27)
    if flat:
        tops = {k: textures.tile_top(None, look, (tex_w, tex_h), rng, flat_class_color(k))
                for k in range(NUM_TILES)}
        back = textures.tile_top(None, look, (tex_w, tex_h), rng, FLAT_BACK)
        dice = {v: np.dstack([np.full((32, 32, 3), flat_class_color(DIE_CLASS), np.float32),
                              np.ones((32, 32), np.float32)]) for v in range(1, 7)}
        side = np.array(FLAT_SIDE, np.float32)
        sliver = textures.tile_top(None, look, (tex_w, tex_h), rng, FLAT_SLIVER)
        return Surfaces(tops, back, side, side, look.face_layer, dice, side, flat=True,
                        sliver=sliver)
    faces = art.load_style(look.style)
    tops = {k: textures.tile_top(faces.get(k), look, (tex_w, tex_h), rng)
            for k in range(NUM_TILES)}
    back_look = textures.TileLook(look.style, look.back, look.back, 1.0, False, 1.0, look.corner)
    back = textures.tile_top(None, back_look, (tex_w, tex_h), rng)
    chinese_body = rng.random() < 0.8
    die_rgb = np.array((0.96, 0.95, 0.92) if chinese_body else
                       textures.BACK_COLORS["red"] if rng.random() < 0.3 else (0.95, 0.95, 0.95),
                       np.float32)
    dice = {v: textures.die_face(v, 48, tuple(die_rgb), True, rng) for v in range(1, 7)}
    return Surfaces(tops, back, np.array(look.face, np.float32), np.array(look.back, np.float32),
                    look.face_layer, dice, die_rgb)


def _western_dice(s: Surfaces, rng: np.random.Generator) -> dict[int, np.ndarray]:
    return {v: textures.die_face(v, 48, tuple(s.die_rgb), False, rng) for v in range(1, 7)}


def sample_light(rng: np.random.Generator) -> Light:
    elev = rng.uniform(np.radians(35), np.radians(85))
    az = rng.uniform(0, 2 * np.pi)
    d = np.array([np.cos(elev) * np.cos(az), np.cos(elev) * np.sin(az), np.sin(elev)])
    warm = rng.uniform(-0.08, 0.1)
    color = np.array([1 + warm, 1.0, 1 - warm]) * rng.uniform(0.85, 1.1)
    return Light(direction=d, color=color, ambient=float(rng.uniform(0.55, 0.75)),
                 diffuse=float(rng.uniform(0.25, 0.45)), specular=float(rng.uniform(0.0, 0.35)),
                 shininess=float(rng.uniform(20, 80)), shadow=float(rng.uniform(0.25, 0.55)),
                 shadow_blur=float(rng.uniform(2, 9)))


def plane_background(camera: Camera, rng: np.random.Generator, extent: tuple[float, ...],
                     res: float, table_half: float | None, flat: bool) -> tuple[np.ndarray, str]:
    """The table top (its frame and the floor beyond, for a full table) warped into the image.

    The plane texture is kept small (at most 768 px a side) and fine grain is added in image
    space, which is what makes the surface cheap at 1080p.
    """
    w, h = camera.size
    if flat:
        return np.zeros((h, w, 3), np.float32), "flat"
    x0, x1, y0, y1 = extent
    res = min(res, 560 / (x1 - x0), 560 / (y1 - y0))
    tw, th = int((x1 - x0) * res), int((y1 - y0) * res)
    tex, name = textures.table_surface((th, tw), rng, period=float(rng.uniform(3, 9)) * res)
    if table_half is not None:
        frame, _ = textures.table_surface((th // 2, tw // 2), rng, name=str(rng.choice(
            ["wood_dark", "wood_light", "felt_black", "laminate_white"])), period=5.0 * res)
        frame = cv2.resize(frame, (tw, th), interpolation=cv2.INTER_LINEAR)
        xs = np.abs(x0 + (np.arange(tw) + 0.5) / res)[None, :]
        ys = np.abs(y1 - (np.arange(th) + 0.5) / res)[:, None]
        ring = np.maximum(xs, ys)
        tex[np.broadcast_to(ring > table_half, tex.shape[:2])] = frame[
            np.broadcast_to(ring > table_half, tex.shape[:2])]
        floor = np.broadcast_to(ring > table_half + rng.uniform(50, 90), tex.shape[:2])
        tex[floor] *= rng.uniform(0.15, 0.4)
    a = np.array([[1 / res, 0, x0], [0, -1 / res, y1], [0, 0, 1]])
    m = camera.plane_homography() @ a
    tex8 = (np.clip(tex, 0, 1) * 255).astype(np.uint8)  # 8-bit warps are several times faster
    img8 = cv2.warpPerspective(tex8, m, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)
    img = img8.astype(np.float32)
    img *= np.float32(1 / 255)
    return img, name


def _poly_f(pts: Any) -> np.ndarray:
    return np.asarray(pts, np.float64)


def _hand_occluders(camera: Camera, rng: np.random.Generator, n: int) -> list[Occluder]:
    """Hands reaching in from the image border: a palm and a few fingers, skin-coloured."""
    w, h = camera.size
    out = []
    for _ in range(n):
        skin = np.array(textures.SKIN_TONES[rng.integers(len(textures.SKIN_TONES))])
        skin = np.clip(skin * rng.uniform(0.85, 1.1), 0, 1)
        side = rng.integers(4)
        t = rng.uniform(0.15, 0.85)
        edge = np.array([(t * w, -10), (w + 10, t * h), (t * w, h + 10), (-10, t * h)][side])
        inward = np.array([(0, 1), (-1, 0), (0, -1), (1, 0)][side], float)
        ang = rng.normal(0, 0.4)
        c, s = np.cos(ang), np.sin(ang)
        inward = np.array([c * inward[0] - s * inward[1], s * inward[0] + c * inward[1]])
        across = np.array([-inward[1], inward[0]])
        scale = min(w, h) * rng.uniform(0.12, 0.22)
        reach = scale * rng.uniform(0.6, 1.6)
        base = edge + inward * reach
        polys = []
        rot = np.column_stack([across, inward])
        axes = (int(scale * 0.5), int(reach / 2 + scale * 0.35))
        palm = _poly_f(cv2.ellipse2Poly((0, 0), axes, 0, 0, 360, 8))
        polys.append(palm @ rot.T + (edge + base) / 2)
        spread = rng.uniform(0.0, 0.25)
        for k in range(int(rng.integers(3, 5))):
            off = (k - 1.5) * scale * 0.23
            length = scale * rng.uniform(0.45, 0.8) * (0.8 if k in (0, 3) else 1.0)
            fdir = inward + across * (k - 1.5) * spread + rng.normal(0, 0.05, 2)
            fdir /= np.linalg.norm(fdir)
            p0 = base + across * off - inward * scale * 0.15
            p1 = p0 + fdir * length
            width = scale * rng.uniform(0.085, 0.11)
            axes = (int(width), int(length / 2 + width))
            cap = _poly_f(cv2.ellipse2Poly((0, 0), axes, 0, 0, 360, 12))
            r2 = np.column_stack([np.array([-fdir[1], fdir[0]]), fdir])
            polys.append(cap @ r2.T + (p0 + p1) / 2)
        if rng.random() < 0.7:  # the thumb, to one side
            sgn = rng.choice([-1, 1])
            p0 = base - inward * scale * 0.45 + across * sgn * scale * 0.4
            tdir = inward * 0.6 + across * sgn * 0.8
            tdir /= np.linalg.norm(tdir)
            length = scale * 0.55
            width = scale * 0.12
            axes = (int(width), int(length / 2 + width))
            cap = _poly_f(cv2.ellipse2Poly((0, 0), axes, 0, 0, 360, 12))
            r2 = np.column_stack([np.array([-tdir[1], tdir[0]]), tdir])
            polys.append(cap @ r2.T + p0 + tdir * length / 2)
        out.append(Occluder(polys, skin.astype(np.float32), float(scale)))
    return out


def finish(img: np.ndarray, camera: Camera, rng: np.random.Generator, flat: bool
           ) -> bytes:
    """Camera effects on the ideal image: vignetting, distortion, blur, noise, JPEG.

    Returns the file bytes (the JPEG the camera would have written; PNG for flat renders).
    Most steps run on 8-bit images with OpenCV, which is what keeps 1080p fast.
    """
    if flat:
        out = camera.distort_image(img, nearest=True)
        out = np.round(np.clip(out, 0, 1) * 255).astype(np.uint8)[..., ::-1]
        return cv2.imencode(".png", np.ascontiguousarray(out))[1].tobytes()
    h, w = img.shape[:2]
    # light falloff across the frame and vignetting (a small grid, upsampled), then 8 bits
    yy, xx = np.mgrid[0:9, 0:16].astype(np.float32)
    gx, gy = rng.normal(0, 0.12, 2)
    r2 = ((xx - 7.5) / 7.5) ** 2 + ((yy - 4) / 4) ** 2
    gain = 1 + gx * (xx / 15 - 0.5) + gy * (yy / 8 - 0.5) - rng.uniform(0.05, 0.25) * r2 / 2
    gain = cv2.resize((gain * 255).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    out = cv2.multiply(img, cv2.merge([gain, gain, gain]), dtype=cv2.CV_8U)
    out = cv2.cvtColor(out, cv2.COLOR_RGB2BGR)
    out = camera.distort_image(out)
    u = rng.random()
    if u < 0.25:  # motion blur
        n = int(rng.integers(3, 9))
        k = np.zeros((n, n), np.float32)
        k[n // 2] = 1 / n
        rot = cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), float(rng.uniform(0, 180)), 1)
        k = np.asarray(cv2.warpAffine(k, rot, (n, n)), np.float32)
        k /= max(float(k.sum()), 1e-6)
        out = cv2.filter2D(out, -1, k)
    elif u < 0.6:  # focus blur
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.5, 1.6)))
    # sensor noise (grain at half resolution, as phone pipelines leave it) and JPEG
    sigma = float(rng.uniform(1.5, 7.0))
    small = rng.standard_normal((h // 2 + 1, w // 2 + 1), np.float32) * np.float32(sigma)
    noise = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    out = cv2.add(out, cv2.merge([noise, noise, noise]), dtype=cv2.CV_8U)
    q = int(rng.integers(55, 96))
    ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
    if not ok:
        raise OSError("JPEG encoding failed")
    return enc.tobytes()


def _look(rng: np.random.Generator, styles: list[str] | None) -> textures.TileLook:
    styles = styles or art.available_styles()
    if not styles:
        raise ValueError(f"no tile art found under {art.ART_ROOT} (set MJTABLE_ART)")
    return textures.sample_look(rng, styles)


def photo_rng(seed: int, index: int, kind: str) -> np.random.Generator:
    """The stream that picks a scene's photo faces, apart from the one that builds the scene."""
    return np.random.default_rng([seed, index, KINDS.index(kind), 23])


def uses_photos(faces: str, seed: int, index: int, kind: str) -> bool:
    """Whether one scene is dressed with photo faces under a face source."""
    if faces not in FACE_SOURCES:
        raise ValueError(f"unknown face source {faces!r}; choose one of {', '.join(FACE_SOURCES)}")
    if faces == "mix":
        return bool(np.random.default_rng([seed, index, KINDS.index(kind), 17]).random()
                    < PHOTO_SHARE)
    return faces == "real"


def make_scene(kind: str, seed: int, index: int, size: tuple[int, int] | None = None, *,
               flat: bool = False, styles: list[str] | None = None, faces: str = "art",
               fold: str = "train", showdowns: float | None = None,
               ruleset: str | None = None, turn: float | None = None) -> Scene:
    """One scene; ``faces`` and ``fold`` say where its tile faces come from (module doc).

    ``showdowns`` is the chance that a table is at a showdown (every hand laid face up); by
    default the game's own (rare, as in play), for validation sets that score winners' hands.
    ``ruleset`` makes a showdown winner's hand a win under those rules (named in the manifest).
    ``turn``: a table's camera turned about it by up to this many degrees either way, evenly
    (default: set square to the table, within a few degrees).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown scene kind {kind!r}; choose one of {', '.join(KINDS)}")
    if fold not in FOLDS:
        raise ValueError(f"unknown fold {fold!r}; choose one of {', '.join(FOLDS)}")
    size = size or DEFAULT_SIZES[kind]
    rng, prng = scene_rngs(seed, index, kind)
    look = _look(rng, ["flat"] if flat else styles)
    tsize = TileSize(*(np.array([27.0, 37.0, 19.0]) * rng.uniform(0.9, 1.12)))
    photos = PhotoFaces(fold, photo_faces.face_bank(fold), photo_rng(seed, index, kind)) \
        if not flat and uses_photos(faces, seed, index, kind) else None
    if kind == "table":
        showdown = None if showdowns is None else bool(np.random.default_rng(
            [seed, index, KINDS.index(kind), 29]).random() < showdowns)
        return _table(seed, index, size, rng, prng, look, tsize, flat, photos, showdown,
                      ruleset, turn)
    builder = {"hand": _hand, "dice": _dice}[kind]
    return builder(seed, index, size, rng, prng, look, tsize, flat, photos)


@dataclass
class PhotoFaces:
    """The photo faces one scene may use: one fold's bank and the stream that picks from it."""

    fold: str
    bank: dict[int, tuple[photo_faces.PhotoFace, ...]]
    rng: np.random.Generator


def dress_with_photos(surfaces: Surfaces, bodies: list[Body], photos: PhotoFaces,
                      look: textures.TileLook, tex_w: int) -> dict[int, str]:
    """Give every tile body a photographed face: two to four photos per kind in one scene,
    shuffled among its tiles. Returns ``{body index: photo source}``."""
    tex_size = (tex_w, round(tex_w * 37 / 27))
    rng = photos.rng
    chosen: dict[int, list[tuple[np.ndarray, str]]] = {}
    sources: dict[int, str] = {}
    for bi, body in enumerate(bodies):
        if not 0 <= body.kind < NUM_TILES or body.color is not None:
            continue
        options = chosen.get(body.kind)
        if options is None:
            pool = photos.bank[body.kind]
            picks = rng.choice(len(pool), min(len(pool), int(rng.integers(2, 5))), replace=False)
            options = [(textures.photo_top(pool[i].rgb, look, tex_size, rng), pool[i].source)
                       for i in picks]
            chosen[body.kind] = options
        tex, source = options[int(rng.integers(len(options)))]
        surfaces.by_body[bi] = tex
        sources[bi] = source
    return sources


def _camera_over(target: np.ndarray, dist: float, tilt: float, yaw: float, focal: float,
                 size: tuple[int, int], k1: float, roll: float = 0.0) -> Camera:
    """A camera ``dist`` from ``target``, ``tilt`` from vertical, displaced toward ``yaw``."""
    horiz = np.array([np.cos(yaw), np.sin(yaw), 0.0])
    pos = target + dist * (np.sin(tilt) * horiz + np.array([0, 0, np.cos(tilt)]))
    up = -horiz * np.cos(roll) + np.cross([0, 0, 1.0], horiz) * np.sin(roll)
    if tilt < 1e-3:
        up = -horiz
    return Camera.looking_at(pos, target, up, focal, size, k1)


def _finish_scene(kind: str, seed: int, index: int, bodies: list[Body], camera: Camera,
                  look: textures.TileLook, rng: np.random.Generator, flat: bool,
                  extent: tuple[float, ...], res: float, table_half: float | None,
                  game: GameState | None, occluders: int, tex_w: int,
                  photos: PhotoFaces | None = None) -> Scene:
    surfaces = build_surfaces(look, rng, tex_w, flat)
    sources = dress_with_photos(surfaces, bodies, photos, look, tex_w) if photos else {}
    western_dice = any(b.kind == DIE_CLASS and not b.chinese for b in bodies)
    if western_dice and not flat:
        surfaces.dice = _western_dice(surfaces, rng)
    light = sample_light(rng)
    bg, table = plane_background(camera, rng, extent, res, table_half, flat)
    if not flat:
        bg *= (light.ambient + light.diffuse * light.direction[2]) * light.color.astype(np.float32)
    occ = _hand_occluders(camera, rng, occluders) if occluders else None
    canvas, labels, _ = render(bodies, camera, surfaces, light, bg, rng, occ)
    encoded = finish(canvas, camera, rng, flat)
    manifest = _manifest(kind, seed, index, camera, look, table, game, bodies, labels)
    manifest["faces"] = "art" if photos is None else "real"
    if photos is not None:
        manifest["style"] = None  # no drawn face is shown
    manifest["fold"] = None if photos is None else photos.fold
    for obj, lab in zip(manifest["objects"], labels, strict=True):
        if 0 <= lab.cls < NUM_TILES and lab.body in sources:
            obj["photo"] = sources[lab.body]
    return Scene(encoded, labels, bodies, manifest)


def _table(seed: int, index: int, size: tuple[int, int], rng: np.random.Generator,
           prng: random.Random, look: textures.TileLook, tsize: TileSize, flat: bool,
           photos: PhotoFaces | None, showdown: bool | None = None,
           ruleset: str | None = None, turn: float | None = None) -> Scene:
    game = sample_game(prng, showdown=showdown, ruleset=ruleset)
    bodies = table_layout(game, tsize, rng)
    centre = np.array([rng.normal(0, 30), rng.normal(0, 30), 0.0])
    bodies += dice_pair(game.dice, centre, rng)
    w, h = size
    tilt = float(np.radians(rng.uniform(0, 28)))
    quarter = rng.integers(4) * np.pi / 2 - np.pi / 2
    off = rng.normal(0, 0.12) if turn is None else rng.uniform(-1, 1) * np.radians(turn)
    yaw = float(quarter + off)
    dist = float(rng.uniform(850, 1300))
    half_view = 470 * rng.uniform(0.95, 1.15)  # table half-size that fits the short side
    focal = min(w, h) / 2 * dist / half_view
    k1 = float(rng.uniform(-0.08, 0.05)) if rng.random() < 0.6 else 0.0
    camera = _camera_over(centre * 0.5, dist, tilt, yaw, focal, size, k1,
                          roll=float(rng.normal(0, 0.03)))
    occl = int(rng.integers(0, 3)) if rng.random() < 0.4 else 0
    tex_w = 48 if w <= 2000 else 72
    return _finish_scene("table", seed, index, bodies, camera, look, rng, flat,
                         (-650, 650, -650, 650), 1.2, 480.0 * rng.uniform(0.97, 1.05), game,
                         occl, tex_w, photos)


def _hand(seed: int, index: int, size: tuple[int, int], rng: np.random.Generator,
          prng: random.Random, look: textures.TileLook, tsize: TileSize, flat: bool,
          photos: PhotoFaces | None) -> Scene:
    """A close-up like the real photos: tiles face up in a row, a grid or scattered."""
    from datasets.game import _Pool  # the same balancing pool as full tables

    pool = _Pool(prng)
    mode = rng.choice(["row", "rows", "grid", "scatter", "standing"], p=[.3, .2, .2, .15, .15])
    n = {"row": 14, "rows": int(rng.integers(14, 29)), "grid": int(rng.integers(6, 21)),
         "scatter": int(rng.integers(3, 13)), "standing": 14}[mode]
    tiles: list[int] = []
    for _ in range(n):
        # flowers at the rate that keeps them as frequent as each playing kind
        if prng.random() < len(FLOWERS) / (NUM_KINDS + len(FLOWERS)):
            t = pool.pick(list(FLOWERS), 1.0)
        else:
            t = pool.pick(range(NUM_KINDS), 1.0)
        if t is not None:
            tiles.append(pool.take(t))
    if mode in ("row", "standing"):
        tiles.sort()
    bodies: list[Body] = []
    up = np.array([0.0, 1.0, 0.0])
    gap = 0.6
    if mode in ("row", "rows", "grid"):
        per_row = {"row": n, "rows": int(rng.integers(7, 15)),
                   "grid": int(rng.integers(3, 7))}[mode]
        rows = (len(tiles) + per_row - 1) // per_row
        row_gap = rng.uniform(1, 4) if mode == "grid" else rng.uniform(6, 40)
        for i, t in enumerate(tiles):
            r, c = divmod(i, per_row)
            x = (c - (per_row - 1) / 2) * (tsize.w + gap) + rng.normal(0, 0.3)
            y = ((rows - 1) / 2 - r) * (tsize.h + row_gap) + rng.normal(0, 0.3)
            bodies.append(lying(t, np.array([x, y]), up, tsize, None, "loose",
                                yaw=float(rng.normal(0, 0.01))))
        span = max(per_row * (tsize.w + gap), rows * (tsize.h + row_gap))
    elif mode == "scatter":
        placed: list[np.ndarray] = []
        for t in tiles:
            for _ in range(40):
                p = rng.uniform(-90, 90, 2)
                if all(np.linalg.norm(p - q) > tsize.h * 1.2 for q in placed):
                    break
            placed.append(p)
            bodies.append(lying(t, p, up, tsize, None, "loose",
                                yaw=float(rng.uniform(0, 2 * np.pi))))
        span = 200.0
    else:
        _right, toward = seat_axes(0)
        for i, t in enumerate(tiles):
            pos = np.array([(i - (n - 1) / 2) * (tsize.w + gap), 0.0, 0.0])
            bodies.append(standing(t, pos, toward, tsize, 0, lean=abs(rng.normal(0.1, 0.05))))
        span = n * (tsize.w + gap)
    if rng.random() < 0.35:  # part of a wall behind, face down
        off = span / 2 + tsize.h
        for i in range(int(rng.integers(4, 12))):
            x = (i - 4) * (tsize.w + 0.3)
            for level in range(2):
                bodies.append(lying(TILE_BACK, np.array([x, off]), up, tsize, None, "wall",
                                    face_up=False, level=level))
    if rng.random() < 0.35:  # the table's raised rim or a tile rack beside the tiles
        off = -(span / 2 + tsize.h * rng.uniform(1.0, 2.5))
        ang = rng.normal(0, 0.1)
        d = np.array([np.cos(ang), np.sin(ang)]) * 600
        mid = np.array([0.0, off])
        rgb = (np.array((0.9, 0.9, 0.88)) if rng.random() < 0.5 else
               np.array(textures.TABLE_COLORS["wood_light"][0]) * rng.uniform(0.7, 1.1))
        bodies.append(rail(mid - d, mid + d, float(rng.uniform(25, 60)),
                           float(rng.uniform(12, 35)),
                           (float(rgb[0]), float(rgb[1]), float(rgb[2]))))
    w, h = size
    focal = w / 2 / np.tan(np.radians(rng.uniform(30, 38)))
    fill = rng.uniform(0.75, 1.5) if mode != "scatter" else rng.uniform(0.6, 1.1)
    dist = float(focal * span / (min(w, h) * fill) + tsize.h)
    standing_mode = mode == "standing"
    tilt = float(np.radians(rng.uniform(45, 70) if standing_mode else rng.uniform(0, 40)))
    yaw = float(-np.pi / 2 + rng.normal(0, 0.2)) if standing_mode else float(
        rng.uniform(0, 2 * np.pi))
    roll = float(rng.normal(0, 0.1)) if standing_mode else float(rng.choice(
        [0, np.pi / 2, np.pi, -np.pi / 2]) + rng.normal(0, 0.3))
    k1 = float(rng.uniform(-0.06, 0.04)) if rng.random() < 0.5 else 0.0
    camera = _camera_over(np.zeros(3), dist, tilt, yaw, float(focal), size, k1, roll=roll)
    occl = 1 if rng.random() < 0.25 else 0
    res = float(np.clip(focal / dist * 1.2, 1.0, 8.0))
    ext = span * 0.8 + dist * 0.9
    tex_w = int(np.clip(focal / dist * tsize.w * 1.2, 32, 160))
    return _finish_scene("hand", seed, index, bodies, camera, look, rng, flat,
                         (-ext, ext, -ext, ext), min(res, 4000 / (2 * ext)), None, None, occl,
                         tex_w, photos)


def _dice(seed: int, index: int, size: tuple[int, int], rng: np.random.Generator,
          prng: random.Random, look: textures.TileLook, tsize: TileSize, flat: bool,
          photos: PhotoFaces | None) -> Scene:
    """Dice on the table, often beside a wall, seen from close by."""
    n = int(rng.choice([2, 2, 2, 3, 1, 4, 6]))
    values = tuple(int(v) for v in rng.integers(1, 7, n))
    bodies = dice_pair(values, np.zeros(3), rng, chinese=bool(rng.random() < 0.6))
    if rng.random() < 0.6:
        off = rng.uniform(60, 90)
        for i in range(int(rng.integers(5, 12))):
            x = (i - 5) * (tsize.w + 0.3)
            for level in range(2):
                bodies.append(lying(TILE_BACK, np.array([x, off]), np.array([0.0, 1.0, 0.0]),
                                    tsize, None, "wall", face_up=False, level=level))
    w, _h = size
    focal = w / 2 / np.tan(np.radians(rng.uniform(28, 38)))
    dist = float(rng.uniform(180, 420))
    camera = _camera_over(np.zeros(3), dist, float(np.radians(rng.uniform(0, 40))),
                          float(rng.uniform(0, 2 * np.pi)), float(focal), size,
                          float(rng.uniform(-0.05, 0.03)) if rng.random() < 0.4 else 0.0,
                          roll=float(rng.uniform(-np.pi, np.pi)))
    ext = dist * 1.2
    return _finish_scene("dice", seed, index, bodies, camera, look, rng, flat,
                         (-ext, ext, -ext, ext), min(4.0, 3000 / (2 * ext)), None, None,
                         1 if rng.random() < 0.15 else 0, 64, photos)


def _manifest(kind: str, seed: int, index: int, camera: Camera, look: textures.TileLook,
              table: str, game: GameState | None, bodies: list[Body],
              labels: list[Label]) -> dict[str, Any]:
    dice = [b.die_faces["+n"] for b in bodies if b.kind == DIE_CLASS]
    out: dict[str, Any] = {
        "kind": kind, "seed": seed, "index": index,
        "size": list(camera.size), "style": look.style, "table": table,
        "tiles": {"face": [round(c, 3) for c in look.face],
                  "back": [round(c, 3) for c in look.back], "carved": look.carved},
        "camera": {"position_mm": [round(float(c), 1) for c in camera.position],
                   "focal_px": round(camera.focal, 1), "k1": round(camera.k1, 4)},
        "dice": dice,
        "objects": [],
    }
    if game is not None:
        out["game"] = game.to_json()
    else:  # close-ups: the face-up tiles in the scene, labeled or not
        out["tiles"] = [TILE_NAMES[b.kind] for b in bodies
                        if 0 <= b.kind < NUM_TILES and b.n[2] > -0.5]
    for lab in labels:
        body = bodies[lab.body]
        name = ("die" if lab.cls == DIE_CLASS else "back" if lab.cls == TILE_BACK
                else TILE_NAMES[lab.cls])
        obj: dict[str, Any] = {"tile": name, "seat": body.seat, "role": body.role,
                               "xyxy": [round(v, 1) for v in lab.xyxy],
                               "visible": round(lab.visible, 3)}
        if lab.cls == DIE_CLASS:
            obj["face"] = lab.face
            obj["chinese"] = body.chinese
        out["objects"].append(obj)
    return out
