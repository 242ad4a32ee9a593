"""Rasterize a scene of boxes (tiles, dice) through a camera, with light, shadows and labels.

Bodies are painted far to near; each face that can carry a label (a tile's face or back, a
die) is also painted with its own id into an id buffer, so what is left visible of it after
everything in front is drawn is counted exactly. A face is labeled when at least half of it is
visible and it is not seen too edge-on (``MIN_FACING``); its box is the box of its visible part.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from datasets.camera import Camera
from datasets.classes import TILE_BACK
from datasets.layout import Body, all_corners
from scoring.tiles import DIE_CLASS

MIN_VISIBLE = 0.5  # a face more than half hidden is not labeled
MIN_FACING = 0.3  # |cos| between the face normal and the view ray; below it a face is a sliver
MIN_BOX_PX = 4.0

# corner indices (bits iu, iv, in) of each face, in texture order TL, TR, BR, BL seen from outside
FACES: dict[str, tuple[tuple[int, int, int, int], str, int]] = {
    "+n": ((6, 7, 5, 4), "n", 1), "-n": ((2, 3, 1, 0), "n", -1),
    "+u": ((7, 3, 1, 5), "u", 1), "-u": ((2, 6, 4, 0), "u", -1),
    "+v": ((2, 3, 7, 6), "v", 1), "-v": ((4, 5, 1, 0), "v", -1),
}
SHIFT = 4  # sub-pixel bits for cv2 polygon drawing
_SCALE = float(1 << SHIFT)


@dataclass
class Light:
    direction: np.ndarray  # unit, from the surface toward the light
    color: np.ndarray  # (3,) RGB gain
    ambient: float
    diffuse: float
    specular: float
    shininess: float
    shadow: float  # 0..1 darkness of cast shadows
    shadow_blur: float  # px at full resolution

    def shade(self, normal: np.ndarray) -> float:
        return self.ambient + self.diffuse * max(0.0, float(normal @ self.direction))


@dataclass
class Label:
    body: int  # index into the scene's bodies
    cls: int  # tile kind, TILE_BACK or DIE_CLASS
    face: int  # pips on top for a die, else 0
    xyxy: tuple[float, float, float, float]  # pixels in the final (distorted) image
    visible: float


@dataclass
class Occluder:
    """Something between the camera and the table (a player's hand): image-space polygons."""

    polys: list[np.ndarray]
    color: np.ndarray  # RGB
    scale: float  # px, for the softness of its shading and shadow


@dataclass
class Surfaces:
    """What the bodies are painted with (built once per scene)."""

    tops: dict[int, np.ndarray]  # tile kind -> RGBA float32 texture
    back: np.ndarray  # RGBA float32 texture of a tile back
    face_rgb: np.ndarray
    back_rgb: np.ndarray
    face_layer: float
    dice: dict[int, np.ndarray]  # pips -> RGBA texture
    die_rgb: np.ndarray
    flat: bool = False
    sliver: np.ndarray | None = None  # flat renders: faces too edge-on to label, in one colour
    by_body: dict[int, np.ndarray] = field(default_factory=dict)  # body index -> its own top

    def top(self, body: int, kind: int) -> np.ndarray | None:
        """The face texture of one body: its own (a photo) when it has one, else its kind's."""
        own = self.by_body.get(body)
        return own if own is not None else self.tops.get(kind)


def _poly(pts: np.ndarray) -> np.ndarray:
    return np.round(pts * _SCALE).astype(np.int32).reshape(-1, 1, 2)


def _fill(img: np.ndarray, pts: np.ndarray, color: tuple[float, ...] | int, aa: bool) -> None:
    cv2.fillConvexPoly(img, _poly(pts), color, cv2.LINE_AA if aa else cv2.LINE_8, SHIFT)


def _warp_onto(canvas: np.ndarray, tex: np.ndarray, quad: np.ndarray, gain: np.ndarray,
               spec: float, nearest: bool) -> None:
    """Map an RGBA texture onto the image quad (TL, TR, BR, BL) and blend it in."""
    h, w = canvas.shape[:2]
    x0, y0 = np.floor(quad.min(0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    th, tw = tex.shape[:2]
    src = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
    m = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
    warped = cv2.warpPerspective(tex, m, (x1 - x0, y1 - y0),
                                 flags=cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    a = warped[..., 3:4]
    rgb = warped[..., :3] * gain
    if spec > 0:
        rgb = rgb + spec * (1 - rgb)
    roi = canvas[y0:y1, x0:x1]
    roi *= 1 - a
    roi += rgb * a


def render(bodies: list[Body], camera: Camera, surfaces: Surfaces, light: Light,
           background: np.ndarray, rng: np.random.Generator,
           occluders: list[Occluder] | None = None
           ) -> tuple[np.ndarray, list[Label], np.ndarray]:
    """Paint the bodies over ``background`` (HxWx3 float32 RGB, modified in place).

    ``occluders`` (players' hands) are painted last, over everything. Returns the canvas
    (ideal, undistorted), the labels in undistorted pixels, and the id buffer.
    """
    flat = surfaces.flat
    aa = not flat
    canvas = background
    h, w = canvas.shape[:2]
    ids = np.zeros((h, w), np.int32)
    if not bodies:
        return canvas, [], ids
    corners = all_corners(bodies)  # (N, 8, 3)
    uv, depth = camera.project(corners)
    centers = corners.mean(1)
    dist = np.linalg.norm(centers - camera.position, axis=1)
    if not flat and light.shadow > 0:
        _shadows(canvas, corners, camera, light)
    cam = camera.position
    candidates: list[tuple[int, int, int, np.ndarray, float]] = []  # id, body, cls, quad, facing
    next_id = 1
    for bi in np.argsort(-dist):
        body = bodies[bi]
        if (depth[bi] <= 1.0).any():
            continue  # behind or at the camera: not in the picture
        pts = uv[bi]
        if body.color is not None:  # a prop: plain shaded faces, never labeled
            _prop(canvas, ids, body, corners[bi], pts, cam, light, aa)
            continue
        is_die = body.kind == DIE_CLASS
        die_id = 0
        if is_die:
            die_id = next_id
            next_id += 1
            candidates.append((die_id, int(bi), DIE_CLASS, cv2.convexHull(
                pts.astype(np.float32)).reshape(-1, 2).astype(np.float64), 1.0))
        for name, (idx, axis, sign) in FACES.items():
            normal = sign * getattr(body, axis)
            fc = corners[bi, list(idx)].mean(0)
            to_cam = cam - fc
            cosv = float(normal @ to_cam) / float(np.linalg.norm(to_cam))
            if cosv <= 1e-3:
                continue
            quad = pts[list(idx)]
            gain = (np.ones(3, np.float32) if flat
                    else (light.shade(normal) * light.color).astype(np.float32))
            if is_die:
                tex = surfaces.dice[body.die_faces[name]]
                _warp_onto(canvas, tex, quad, gain, 0.0, flat)
                _fill(ids, quad, die_id, False)
                continue
            if axis == "n":
                face = sign > 0
                found = surfaces.top(int(bi), body.kind) if face else surfaces.back
                if found is None:
                    raise ValueError(f"no texture for tile kind {body.kind}")
                tex = found
                if flat and cosv < MIN_FACING and surfaces.sliver is not None:
                    tex = surfaces.sliver
                spec = 0.0 if flat else _specular(normal, fc, cam, light)
                if face or flat:
                    _warp_onto(canvas, tex, quad, gain, spec, flat)
                else:  # a back is plain colour: a polygon is much cheaper than a warp
                    c = surfaces.back_rgb * gain
                    _fill(canvas, quad, tuple(float(v + spec * (1 - v)) for v in c), aa)
                cls = body.kind if face else TILE_BACK
                _fill(ids, quad, next_id, False)
                candidates.append((next_id, int(bi), cls, quad, cosv))
                next_id += 1
                continue
            # a side: face-colour layer toward +n, back colour toward -n
            _side(canvas, ids, quad, idx, surfaces, gain, aa)
    for occ in occluders or []:
        _paint_occluder(canvas, ids, occ, light, flat)
    labels = _labels(ids, candidates, bodies, camera)
    return canvas, labels, ids


def _paint_occluder(canvas: np.ndarray, ids: np.ndarray, occ: Occluder, light: Light,
                    flat: bool) -> None:
    """A rounded, shaded skin shape with a soft shadow; it hides whatever is under it."""
    h, w = canvas.shape[:2]
    pts = np.concatenate(occ.polys)
    pad = int(occ.scale * 0.3) + 4
    x0, y0 = np.maximum(np.floor(pts.min(0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(pts.max(0)).astype(int) + pad, [w, h])
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    for p in occ.polys:
        cv2.fillPoly(mask, [_poly(p - [x0, y0])], 1.0, cv2.LINE_AA, SHIFT)
    hard = mask > 0.5
    ids[y0:y1, x0:x1][hard] = 0
    roi = canvas[y0:y1, x0:x1]
    if flat:
        roi[hard] = occ.color
        return
    # shadow: the silhouette pushed away from the light, blurred
    d = light.direction
    off = np.array([-d[0], d[1]]) * occ.scale * 0.25 / max(d[2], 0.3)
    m = np.array([[1, 0, off[0]], [0, 1, off[1]]], np.float32)
    shadow = cv2.warpAffine(mask, m, (x1 - x0, y1 - y0))
    shadow = cv2.GaussianBlur(shadow, (0, 0), occ.scale * 0.08 + 1)
    roi *= (1 - light.shadow * 0.8 * shadow)[..., None]
    # a rounded look: brighter toward the middle of each finger and the palm
    bulge = cv2.GaussianBlur(mask, (0, 0), occ.scale * 0.05 + 0.5)
    shade = (0.55 + 0.5 * np.sqrt(np.clip(bulge, 0, 1))) * light.shade(np.array([0, 0, 1.0]))
    rgb = occ.color[None, None, :] * shade[..., None] * light.color.astype(np.float32)
    a = cv2.GaussianBlur(mask, (0, 0), 0.8)[..., None]
    roi *= 1 - a
    roi += np.clip(rgb, 0, 1) * a


def _prop(canvas: np.ndarray, ids: np.ndarray, body: Body, corners: np.ndarray,
          pts: np.ndarray, cam: np.ndarray, light: Light, aa: bool) -> None:
    base = np.array(body.color, np.float32)
    for idx, axis, sign in FACES.values():
        normal = sign * getattr(body, axis)
        if float(normal @ (cam - corners[list(idx)].mean(0))) <= 0:
            continue
        quad = pts[list(idx)]
        c = base * light.shade(normal) * light.color
        _fill(canvas, quad, tuple(float(v) for v in c), aa)
        _fill(ids, quad, 0, False)


def _side(canvas: np.ndarray, ids: np.ndarray, quad: np.ndarray, idx: tuple[int, ...],
          s: Surfaces, gain: np.ndarray, aa: bool) -> None:
    """Split a side quad at the layer line; corners with the n bit set are on the face side."""
    on_face = np.array([(i >> 2) & 1 for i in idx], bool)
    # the quad's edges along n join a corner without the n bit to one with it
    pairs = []
    for k in range(4):
        a, b = k, (k + 1) % 4
        if on_face[a] != on_face[b]:
            lo, hi = (a, b) if not on_face[a] else (b, a)
            pairs.append((lo, hi))
    t = 1.0 - s.face_layer
    (l0, h0), (l1, h1) = pairs
    m0 = quad[l0] + t * (quad[h0] - quad[l0])
    m1 = quad[l1] + t * (quad[h1] - quad[l1])
    back_poly = np.array([quad[l0], m0, m1, quad[l1]])
    face_poly = np.array([m0, quad[h0], quad[h1], m1])
    back_c = tuple(float(c) for c in s.back_rgb * gain)
    face_c = tuple(float(c) for c in s.face_rgb * gain)
    _fill(canvas, back_poly, back_c, aa)
    _fill(canvas, face_poly, face_c, aa)
    _fill(ids, quad, 0, False)


def _specular(normal: np.ndarray, point: np.ndarray, cam: np.ndarray, light: Light) -> float:
    if light.specular <= 0:
        return 0.0
    view = cam - point
    view = view / np.linalg.norm(view)
    half = light.direction + view
    half /= np.linalg.norm(half)
    return light.specular * max(0.0, float(normal @ half)) ** light.shininess


def _shadows(canvas: np.ndarray, corners: np.ndarray, camera: Camera, light: Light) -> None:
    """Soft cast shadows: each body's outline projected along the light onto the table."""
    h, w = canvas.shape[:2]
    f = 4
    mask = np.zeros((h // f + 1, w // f + 1), np.float32)
    d = light.direction
    if d[2] <= 0.05:
        return
    flat = corners.reshape(-1, 3)
    shadow_pts = flat - flat[:, 2:3] / d[2] * d  # along the light down to z = 0
    both = np.concatenate([corners, shadow_pts.reshape(corners.shape)], axis=1)
    uv, z = camera.project(both)
    for pts, zz in zip(uv, z, strict=True):
        if (zz <= 1).any():
            continue
        hull = cv2.convexHull((pts / f).astype(np.float32))
        cv2.fillConvexPoly(mask, _poly(hull.reshape(-1, 2)), 1.0, cv2.LINE_AA, SHIFT)
    sigma = max(light.shadow_blur / f, 0.5)
    mask = cv2.GaussianBlur(mask, (0, 0), sigma)
    mask = cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)
    canvas *= (1 - light.shadow * np.minimum(mask, 1.0))[..., None]


def _labels(ids: np.ndarray, candidates: list[tuple[int, int, int, np.ndarray, float]],
            bodies: list[Body], camera: Camera) -> list[Label]:
    h, w = ids.shape
    out: list[Label] = []
    for lid, bi, cls, quad, cosv in candidates:
        if cosv < MIN_FACING:
            continue
        area = abs(cv2.contourArea(quad.astype(np.float32)))
        if area < 4:
            continue
        x0, y0 = np.floor(quad.min(0)).astype(int)
        x1, y1 = np.ceil(quad.max(0)).astype(int) + 1
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            continue
        sub = ids[y0:y1, x0:x1] == lid
        visible = float(sub.sum()) / area
        if visible < MIN_VISIBLE:
            continue
        if visible > 0.97 and quad[:, 0].min() >= 0 and quad[:, 1].min() >= 0 \
                and quad[:, 0].max() <= w and quad[:, 1].max() <= h:
            ring = _edge_points(quad)
        else:
            cols = np.flatnonzero(sub.any(0))
            rows = np.flatnonzero(sub.any(1))
            bx0, bx1 = x0 + cols[0], x0 + cols[-1] + 1
            by0, by1 = y0 + rows[0], y0 + rows[-1] + 1
            ring = _edge_points(np.array([[bx0, by0], [bx1, by0], [bx1, by1], [bx0, by1]],
                                         float))
        d = camera.distort_points(ring)
        bx0, by0 = np.clip(d.min(0), 0, [w, h])
        bx1, by1 = np.clip(d.max(0), 0, [w, h])
        if bx1 - bx0 < MIN_BOX_PX or by1 - by0 < MIN_BOX_PX:
            continue
        body = bodies[bi]
        face = body.die_faces.get("+n", 0) if cls == DIE_CLASS else 0
        out.append(Label(bi, cls, face, (float(bx0), float(by0), float(bx1), float(by1)),
                         min(visible, 1.0)))
    return out


def _edge_points(quad: np.ndarray, per_edge: int = 4) -> np.ndarray:
    t = np.linspace(0, 1, per_edge, endpoint=False)[:, None]
    return np.concatenate([quad[k] + t * (quad[(k + 1) % len(quad)] - quad[k])
                           for k in range(len(quad))])
