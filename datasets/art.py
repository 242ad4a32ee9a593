"""Tile-face artwork: every style in ``shared/art`` (and the optional Debian sets), as RGBA arrays.

Each style maps the 42 tile kinds to a face picture on a transparent background, normalized to
:data:`FACE_SIZE` with the margin a real tile leaves around its engraving, so tile bodies can be
composed from any style. SVGs are rendered once with cairosvg into the user cache
(``platformdirs.user_cache_dir("mjtable")/art``); nothing here downloads anything.
"""

from __future__ import annotations

import functools
import io
import os
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from platformdirs import user_cache_dir

from scoring.tiles import NUM_TILES, TILE_NAMES

FACE_SIZE = (150, 200)  # (w, h) of a normalized face picture
ART_ROOT = Path(os.environ.get("MJTABLE_ART", Path(__file__).resolve().parents[2]
                               / "shared" / "art"))


def cache_dir() -> Path:
    """Where rendered art lives (``MJTABLE_CACHE`` overrides, for tests and CI)."""
    base = os.environ.get("MJTABLE_CACHE") or user_cache_dir("mjtable")
    return Path(base) / "art"


def _svg_to_rgba(path: Path, width: int, height: int) -> np.ndarray:
    import cairosvg  # dev dependency: only the generator needs it
    from PIL import Image

    png = cairosvg.svg2png(url=str(path), output_width=width, output_height=height)
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def _key_background(rgb: np.ndarray, threshold: float = 18.0) -> np.ndarray:
    """RGBA from a picture drawn on a light paper color: alpha grows with distance to it."""
    border = np.concatenate([rgb[:3].reshape(-1, 3), rgb[-3:].reshape(-1, 3)])
    bg = np.median(border, axis=0)
    dist = np.abs(rgb.astype(np.float32) - bg).max(axis=2)
    alpha = np.clip((dist - threshold) * 6.0, 0, 255).astype(np.uint8)
    return np.dstack([rgb, alpha])


def normalize_face(rgba: np.ndarray, margin: float = 0.1) -> np.ndarray:
    """Crop to the drawn part and center it in a :data:`FACE_SIZE` canvas with a margin."""
    w, h = FACE_SIZE
    out = np.zeros((h, w, 4), np.uint8)
    ys, xs = np.nonzero(rgba[..., 3] > 8)
    if len(xs) == 0:
        return out  # a blank face (white dragon of Japanese sets) stays blank
    crop = rgba[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    ch, cw = crop.shape[:2]
    scale = min(w * (1 - 2 * margin) / cw, h * (1 - 2 * margin) / ch)
    nw, nh = max(1, round(cw * scale)), max(1, round(ch * scale))
    crop = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA)
    x0, y0 = (w - nw) // 2, (h - nh) // 2
    out[y0:y0 + nh, x0:x0 + nw] = crop
    return out


def _load_cached(style: str, loader: Callable[[str], np.ndarray | None]) -> dict[int, np.ndarray]:
    folder = cache_dir() / style
    faces: dict[int, np.ndarray] = {}
    for kind, name in enumerate(TILE_NAMES):
        png = folder / f"{name}.png"
        if png.exists():
            img = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
            if img is not None and img.ndim == 3 and img.shape[2] == 4:
                faces[kind] = img[..., [2, 1, 0, 3]]
                continue
        rgba = loader(name)
        if rgba is None:
            continue
        face = normalize_face(rgba)
        folder.mkdir(parents=True, exist_ok=True)
        tmp = png.with_suffix(f".{os.getpid()}.tmp.png")
        cv2.imwrite(str(tmp), face[..., [2, 1, 0, 3]])
        os.replace(tmp, png)  # atomic: parallel workers may fill the cache at once
        faces[kind] = face
    return faces


def _svg_loader(*folders: str) -> Callable[[str], np.ndarray | None]:
    def load(name: str) -> np.ndarray | None:
        for folder in folders:
            path = ART_ROOT / folder / f"{name}.svg"
            if path.exists():
                return _svg_to_rgba(path, 300, 400)
        return None
    return load


def _gleitz(name: str) -> np.ndarray | None:
    path = ART_ROOT / "gleitz" / f"{name}.png"
    img = cv2.imread(str(path))
    if img is None:
        return None
    img = cv2.resize(img, (222, 300), interpolation=cv2.INTER_CUBIC)[..., ::-1]
    rgba = _key_background(np.ascontiguousarray(img))
    rgba[:6, :, 3] = rgba[-6:, :, 3] = rgba[:, :6, 3] = rgba[:, -6:, 3] = 0  # drop the frame
    return rgba


BUILTIN: dict[str, Callable[[str], np.ndarray | None]] = {
    "fluffy": _svg_loader("fluffy", "xhokir-flowers"),
    "uni": _svg_loader("uni"),
    "gleitz": _gleitz,
}


@functools.cache
def load_style(style: str) -> dict[int, np.ndarray]:
    """``{kind: RGBA face}`` for one style (every kind it has; cached in memory and on disk)."""
    if style in BUILTIN:
        return _load_cached(style, BUILTIN[style])
    from datasets import debian_art

    return debian_art.load_style(style)


def available_styles() -> list[str]:
    """Styles that have all 42 faces here: the built-in sets (from their art, or from their
    faces already rendered into the cache, which is all a machine without ``shared/art``
    needs: :func:`load_style` reads the cache first), plus Debian ones once set up."""
    from datasets import debian_art

    styles = [*BUILTIN, *debian_art.installed_styles()]
    return [s for s in styles if len(load_style(s)) == NUM_TILES]


def check_style(style: str) -> None:
    """Raise ``ValueError`` naming the choices unless ``style`` has all 42 faces here."""
    try:
        ok = len(load_style(style)) == NUM_TILES
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"art style {style!r} is not available; available: "
                         f"{', '.join(available_styles()) or 'none'}")
