"""Optional tile styles from Debian packages, fetched by an explicit ``mjtable dataset setup-art``.

``setup_art()`` runs ``apt-get download`` and ``dpkg -x`` into a temporary folder, renders every
face once into the art cache and keeps only those PNGs (GPL-2+ artwork; it is never committed).
At generation time only the cached PNGs are read; without the setup step the generator simply
has fewer styles.
"""

from __future__ import annotations

import gzip
import io
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from scoring.tiles import NUM_TILES, TILE_NAMES

PREFIX = "debian-"
# fonts for text-drawn faces (datasets.font_art): style name -> (package, path inside it). Kai
# (楷, brush) and Ming (明, print) faces of many foundries: the characters, winds and dragons of
# real sets are written in one of these hands, and the tile designs held back from training
# differ from the trained ones most there.
_TTF = "usr/share/fonts/truetype"
FONTS = {
    "font-lxgw-wenkai": ("fonts-lxgw-wenkai", f"{_TTF}/lxgw-wenkai/LXGWWenKai-Regular.ttf"),
    "font-lxgw-wenkai-bold": ("fonts-lxgw-wenkai", f"{_TTF}/lxgw-wenkai/LXGWWenKai-Bold.ttf"),
    "font-kouzan-mouhitsu": ("fonts-kouzan-mouhitsu",
                             f"{_TTF}/kouzan-mouhitsu/kouzan-mouhitsu.ttf"),
    "font-arphic-ukai": ("fonts-arphic-ukai", f"{_TTF}/arphic/ukai.ttc"),
    "font-arphic-uming": ("fonts-arphic-uming", f"{_TTF}/arphic/uming.ttc"),
    "font-arphic-bkai": ("fonts-arphic-bkai00mp", f"{_TTF}/arphic-bkai00mp/bkai00mp.ttf"),
    "font-cwtex-kai": ("fonts-cwtex-kai", f"{_TTF}/cwtex/cwkai.ttf"),
    "font-cwtex-ming": ("fonts-cwtex-ming", f"{_TTF}/cwtex/cwming.ttf"),
    "font-cwtex-heib": ("fonts-cwtex-heib", f"{_TTF}/cwtex/cwheib.ttf"),
    "font-cwtex-yen": ("fonts-cwtex-yen", f"{_TTF}/cwtex/cwyen.ttf"),
    "font-cwtex-fs": ("fonts-cwtex-fs", f"{_TTF}/cwtex/cwfs.ttf"),
    "font-cns11643-kai": ("fonts-cns11643-kai", f"{_TTF}/cns11643/TW-Kai-98_1.ttf"),
    "font-hanazono": ("fonts-hanazono", f"{_TTF}/hanazono/HanaMinA.ttf"),
    "font-noto-serif-bold": ("fonts-noto-cjk",
                             "usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"),
}
PACKAGES = ("kdegames-mahjongg-data-kf5", "gnome-mahjongg",
            *dict.fromkeys(pkg for pkg, _ in FONTS.values()))

# KMahjongg element ids per project tile name. Winds: WIND_1..4 = N S E W; dragons: DRAGON_1..3
# = white green red; flower order differs by set (checked by eye on the rendered faces).
_KDE_COMMON = {
    **{f"{r}m": f"CHARACTER_{r}" for r in range(1, 10)},
    **{f"{r}p": f"ROD_{r}" for r in range(1, 10)},
    **{f"{r}s": f"BAMBOO_{r}" for r in range(1, 10)},
    "N": "WIND_1", "S": "WIND_2", "E": "WIND_3", "W": "WIND_4",
    "P": "DRAGON_1", "F": "DRAGON_2", "C": "DRAGON_3",
    "f5": "SEASON_1", "f6": "SEASON_2", "f7": "SEASON_3", "f8": "SEASON_4",
}
KDE_SETS = {
    "traditional": {**_KDE_COMMON, "f1": "FLOWER_1", "f2": "FLOWER_2", "f3": "FLOWER_3",
                    "f4": "FLOWER_4"},
    "classic": {**_KDE_COMMON, "f1": "FLOWER_2", "f2": "FLOWER_1", "f3": "FLOWER_3",
                "f4": "FLOWER_4"},
}
# gnome-mahjongg smooth.png: 43 tiles of 96x132 in a strip
GNOME_INDEX = {
    **{f"{r}p": r - 1 for r in range(1, 10)}, "N": 9, "W": 10, "S": 11, "E": 12, "C": 13,
    "F": 14, **{f"{r}m": 14 + r for r in range(1, 10)}, **{f"{r}s": 23 + r for r in range(1, 10)},
    "f2": 33, "f3": 34, "f1": 35, "f4": 36, "P": 37, "f5": 38, "f6": 39, "f7": 40, "f8": 41,
}


def _root() -> Path:
    from datasets.art import cache_dir

    return cache_dir()


def installed_styles() -> list[str]:
    """Debian styles whose 42 faces are in the cache."""
    root = _root()
    if not root.is_dir():
        return []
    return sorted(d.name for d in root.iterdir()
                  if d.name.startswith(PREFIX) and len(list(d.glob("*.png"))) >= NUM_TILES)


def load_style(style: str) -> dict[int, np.ndarray]:
    folder = _root() / style
    if not style.startswith(PREFIX) or not folder.is_dir():
        raise ValueError(f"unknown art style {style!r}; run 'mjtable dataset setup-art' for the "
                         "Debian styles")
    faces: dict[int, np.ndarray] = {}
    for kind, name in enumerate(TILE_NAMES):
        img = cv2.imread(str(folder / f"{name}.png"), cv2.IMREAD_UNCHANGED)
        if img is not None and img.ndim == 3 and img.shape[2] == 4:
            faces[kind] = img[..., [2, 1, 0, 3]]
    return faces


def render_svg_element(svg: bytes, element_id: str, scale: float = 2.0) -> np.ndarray:
    """One element of an SVG drawing (RGBA), everything else but ``<defs>`` removed.

    cairosvg cannot render by id, so the tree is pruned to the element and its ancestors.
    """
    import cairosvg
    from PIL import Image

    root = ET.fromstring(svg)
    parent = {c: p for p in root.iter() for c in p}
    target = next((e for e in root.iter() if e.get("id") == element_id), None)
    if target is None:
        raise ValueError(f"no element {element_id!r} in the drawing")
    chain = []  # ancestors' transforms, outermost first
    e = parent.get(target)
    while e is not None and e is not root:
        chain.append(e.get("transform"))
        e = parent.get(e)
    chain.reverse()
    # everything moves into <defs> (so nothing draws by itself and every <use> still resolves),
    # then one <use> draws the element under its ancestors' transforms
    ns = "{http://www.w3.org/2000/svg}"
    defs = ET.Element(f"{ns}defs")
    for c in list(root):
        root.remove(c)
        defs.append(c)
    root.append(defs)
    target.set("style", (target.get("style") or "") + ";display:inline")
    holder = root
    for tr in chain:
        g = ET.SubElement(holder, f"{ns}g")
        if tr:
            g.set("transform", tr)
        holder = g
    use = ET.SubElement(holder, f"{ns}use")
    use.set("{http://www.w3.org/1999/xlink}href", f"#{element_id}")
    png = cairosvg.svg2png(bytestring=ET.tostring(root), scale=scale)
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def _write_style(style: str, faces: dict[str, np.ndarray], plates: bool = False) -> None:
    """Save normalized faces; ``plates``: the drawings bring a face plate to key out."""
    from datasets.art import _key_background, normalize_face

    folder = _root() / style
    folder.mkdir(parents=True, exist_ok=True)
    for name, rgba in faces.items():
        ys, xs = np.nonzero(rgba[..., 3] > 8)
        if plates and len(xs) and rgba[ys.min() + 2, xs.min() + 2, 3] > 200:
            # the element brings its own face plate: keep only the engraving
            crop = np.ascontiguousarray(rgba[ys.min():ys.max() + 1, xs.min():xs.max() + 1, :3])
            rgba = _key_background(crop, threshold=30.0)
            rgba[:4, :, 3] = rgba[-4:, :, 3] = rgba[:, :4, 3] = rgba[:, -4:, 3] = 0
        face = normalize_face(rgba)
        cv2.imwrite(str(folder / f"{name}.png"), face[..., [2, 1, 0, 3]])


def _gnome_faces(strip: np.ndarray) -> dict[str, np.ndarray]:
    from datasets.art import _key_background

    faces = {}
    for name, i in GNOME_INDEX.items():
        tile = strip[:132, i * 96:(i + 1) * 96, :3][..., ::-1]  # RGB, the plain (top) row
        inner = np.ascontiguousarray(tile[8:108, 8:86])  # the face, without the 3-D body
        faces[name] = _key_background(inner, threshold=40.0)
    return faces


def setup_art(log: Callable[[str], None] = print) -> list[str]:
    """Fetch the Debian packages, render their faces into the cache; returns the new styles."""
    made = []
    with tempfile.TemporaryDirectory(prefix="mjtable-art-") as tmp:
        t = Path(tmp)
        errors = []
        for pkg in PACKAGES:  # one at a time: a missing package must not cost the others
            log(f"apt-get download {pkg}")
            res = subprocess.run(["apt-get", "download", pkg], cwd=t, capture_output=True,
                                 text=True)
            if res.returncode != 0:
                errors.append(f"{pkg}: {res.stderr.strip().splitlines()[-1:] or res.returncode}")
                log(f"  failed: {errors[-1]}")
        debs = sorted(t.glob("*.deb"))
        if not debs:
            raise OSError(f"apt-get download failed ({'; '.join(errors)}); try "
                          "'apt-get update' first")
        for deb in debs:
            subprocess.run(["dpkg", "-x", str(deb), str(t / "x")], check=True)
        tiles = t / "x" / "usr" / "share" / "kmahjongglib" / "tilesets"
        for name, ids in KDE_SETS.items():
            path = tiles / f"{name}.svgz"
            if not path.exists():
                log(f"  {path.name} not in the package, skipped")
                continue
            svg = gzip.decompress(path.read_bytes())
            _write_style(f"{PREFIX}kmahjongg-{name}",
                         {tile: render_svg_element(svg, eid) for tile, eid in ids.items()},
                         plates=True)
            made.append(f"{PREFIX}kmahjongg-{name}")
            log(f"  {made[-1]}: {len(ids)} faces")
        strip_path = t / "x" / "usr" / "share" / "gnome-mahjongg" / "themes" / "smooth.png"
        strip = cv2.imread(str(strip_path))
        if strip is not None:
            _write_style(f"{PREFIX}gnome-smooth", _gnome_faces(strip))
            made.append(f"{PREFIX}gnome-smooth")
            log(f"  {made[-1]}: {len(GNOME_INDEX)} faces")
        from datasets.font_art import draw_faces

        for style, (_, rel) in FONTS.items():
            font = t / "x" / rel
            if not font.exists():
                continue
            try:
                faces = draw_faces(font, style)
            except ValueError as e:  # a font of simplified characters only lacks 萬 or 發
                log(f"  {PREFIX + style} skipped: {e}")
                continue
            _write_style(PREFIX + style, faces)
            made.append(PREFIX + style)
            log(f"  {made[-1]}: 42 faces")
    return made
