"""Face art: normalization, the Debian element renderer, and the built-in styles when present."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from datasets import art
from datasets.debian_art import GNOME_INDEX, KDE_SETS, render_svg_element
from scoring.tiles import NUM_TILES, TILE_NAMES
from tests.datasets.conftest import needs_art

SVG = b"""<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
 width="200" height="100">
 <defs><rect id="dot" width="10" height="10" fill="#ff0000"/></defs>
 <g id="layer" transform="translate(100,0)">
  <g id="A"><use xlink:href="#dot" x="5" y="5"/><use xlink:href="#dot" x="25" y="5"/></g>
  <g id="B" style="display:none"><rect x="5" y="50" width="40" height="20" fill="#00ff00"/></g>
 </g>
 <rect id="C" x="0" y="0" width="50" height="50" fill="#0000ff"/>
</svg>"""


def test_svg_element_renders_alone_with_its_ancestors_transform_and_uses() -> None:
    pytest.importorskip("cairosvg")
    a = render_svg_element(SVG, "A", scale=1)
    assert a.shape == (100, 200, 4)
    ys, xs = np.nonzero(a[..., 3] > 128)
    assert (xs.min(), xs.max(), ys.min(), ys.max()) == (105, 134, 5, 14)  # both dots, shifted
    assert (a[ys, xs, :3] == [255, 0, 0]).all()  # nothing of C or B
    b = render_svg_element(SVG, "B", scale=1)  # hidden layers still render when asked for
    ys, xs = np.nonzero(b[..., 3] > 128)
    assert (xs.min(), ys.min()) == (105, 50) and (b[ys, xs, 1] == 255).all()
    with pytest.raises(ValueError, match="no element 'Z'"):
        render_svg_element(SVG, "Z")


def test_debian_maps_cover_every_tile_once() -> None:
    for ids in KDE_SETS.values():
        assert sorted(ids) == sorted(TILE_NAMES)
        assert len(set(ids.values())) == NUM_TILES
    assert sorted(GNOME_INDEX) == sorted(TILE_NAMES)
    assert len(set(GNOME_INDEX.values())) == NUM_TILES


def test_normalize_face_centres_art_with_a_margin() -> None:
    rgba = np.zeros((50, 80, 4), np.uint8)
    rgba[10:20, 30:40] = 255
    face = art.normalize_face(rgba, margin=0.1)
    w, h = art.FACE_SIZE
    ys, xs = np.nonzero(face[..., 3])
    assert face.shape == (h, w, 4)
    assert abs((xs.min() + xs.max()) / 2 - w / 2) <= 1
    assert abs((ys.min() + ys.max()) / 2 - h / 2) <= 1
    assert xs.min() >= int(w * 0.1) - 1 and xs.max() <= w - int(w * 0.1)
    assert not art.normalize_face(np.zeros((5, 5, 4), np.uint8)).any()  # blank stays blank


@needs_art
def test_builtin_styles_have_all_faces_and_are_cached() -> None:
    faces = art.load_style("gleitz")
    assert sorted(faces) == list(range(NUM_TILES))
    assert all(f.shape == (art.FACE_SIZE[1], art.FACE_SIZE[0], 4) for f in faces.values())
    assert (art.cache_dir() / "gleitz" / "1m.png").exists()
    with pytest.raises(ValueError, match="not available"):
        art.check_style("no-such-style")


def test_a_style_rendered_into_the_cache_needs_no_art_folder(tmp_path, monkeypatch) -> None:
    """A machine given the cache alone (a lent GPU box) still generates scenes with the style."""
    import cv2

    face = np.zeros((art.FACE_SIZE[1], art.FACE_SIZE[0], 4), np.uint8)
    face[20:-20, 20:-20] = (30, 60, 200, 255)
    (tmp_path / "cache" / "art" / "uni").mkdir(parents=True)
    for name in TILE_NAMES[:-1]:
        cv2.imwrite(str(tmp_path / "cache" / "art" / "uni" / f"{name}.png"), face)
    monkeypatch.setenv("MJTABLE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(art, "ART_ROOT", tmp_path / "no-art")
    art.load_style.cache_clear()
    try:
        assert art.available_styles() == []  # one face short: not a whole style
        cv2.imwrite(str(tmp_path / "cache" / "art" / "uni" / f"{TILE_NAMES[-1]}.png"), face)
        art.load_style.cache_clear()
        assert art.available_styles() == ["uni"]
        assert len(art.load_style("uni")) == NUM_TILES
    finally:
        art.load_style.cache_clear()


@functools.cache
def _font(draws_han: bool) -> str | None:
    """The first font here that draws (or, ``draws_han`` false, lacks) the character 萬."""
    from pathlib import Path

    from PIL import ImageFont

    from datasets.font_art import _has_glyph

    for root in ("/usr/share/fonts", "/usr/local/share/fonts"):
        paths = sorted(Path(root).rglob("*.tt[fc]")) if Path(root).is_dir() else []
        for p in paths:
            if _has_glyph(ImageFont.truetype(str(p), 40), "萬") == draws_han:
                return str(p)
    return None


@pytest.mark.skipif(_font(True) is None, reason="no CJK font on this machine")
def test_font_faces_cover_every_tile_and_differ() -> None:
    from pathlib import Path

    from datasets.font_art import draw_faces

    faces = draw_faces(Path(str(_font(True))))
    assert sorted(faces) == sorted(TILE_NAMES)
    inked = {n: int((f[..., 3] > 128).sum()) for n, f in faces.items()}
    assert min(inked.values()) > 500  # nothing blank
    # ranks differ in their drawing: dots and bamboo counts grow with the rank
    assert len({faces[f"{r}p"].tobytes() for r in range(1, 10)}) == 9
    assert len({faces[f"{r}s"].tobytes() for r in range(1, 10)}) == 9


@pytest.mark.skipif(_font(True) is None, reason="no CJK font on this machine")
def test_each_font_style_writes_in_its_own_inks() -> None:
    from pathlib import Path

    from datasets.font_art import INKS, draw_faces, inks

    chosen = {s: inks(s) for s in (f"font-{i}" for i in range(12))}
    assert chosen["font-3"] == inks("font-3")  # the same every run
    assert len({tuple(c.values()) for c in chosen.values()}) > 1  # styles differ
    style = next(s for s, c in chosen.items() if c["green"] != INKS["green"][0])
    faces = draw_faces(Path(str(_font(True))), style)
    solid = faces["F"][faces["F"][..., 3] == 255][:, :3]
    assert len(solid) and (solid == chosen[style]["green"]).all(axis=1).mean() > 0.9


@pytest.mark.skipif(_font(False) is None, reason="every font here draws Chinese")
def test_a_font_without_the_characters_is_refused_by_name() -> None:
    from pathlib import Path

    from datasets.font_art import draw_faces

    font = Path(str(_font(False)))
    with pytest.raises(ValueError, match=f"{font.name} has no glyph for"):
        draw_faces(font)
