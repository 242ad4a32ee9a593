"""Render the dashboard tile images from the licensed art in ../shared/art (run once, commit PNGs).

Faces: FluffyStuff riichi-mahjong-tiles (CC0) on its own `_front` body; flowers and seasons from
xhokir/riichi-mahjong-tiles (CC BY 4.0, attribution in ui/assets/tiles/ATTRIBUTION.md).
Usage: python scripts/build_tile_art.py [--art ../shared/art] [--height 96]
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import cairosvg
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring.tiles import TILE_NAMES  # noqa: E402


def render(svg: Path, width: int, height: int) -> Image.Image:
    png = cairosvg.svg2png(url=str(svg), output_width=width, output_height=height)
    return Image.open(io.BytesIO(png)).convert("RGBA")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--art", type=Path, default=ROOT.parent / "shared" / "art")
    parser.add_argument("--height", type=int, default=96)
    parser.add_argument("--out", type=Path, default=ROOT / "ui" / "assets" / "tiles")
    args = parser.parse_args()
    h = args.height
    w = h * 3 // 4
    args.out.mkdir(parents=True, exist_ok=True)
    body = render(args.art / "fluffy" / "_front.svg", w, h)
    for name in TILE_NAMES:
        src = args.art / ("xhokir-flowers" if name.startswith("f") else "fluffy") / f"{name}.svg"
        tile = Image.alpha_composite(body, render(src, w, h))
        tile.save(args.out / f"{name}.png", optimize=True)
    render(args.art / "fluffy" / "_back.svg", w, h).save(args.out / "back.png", optimize=True)
    print(f"wrote {len(TILE_NAMES) + 1} tiles of {w}x{h} to {args.out}")


if __name__ == "__main__":
    main()
