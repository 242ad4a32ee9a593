"""Tile faces drawn from a CJK font: text-only sets (characters, winds, dragons, flowers as
words) with dots and bamboo drawn as shapes, the way many real sets are made.

Used by ``mjtable dataset setup-art`` with the Debian font packages the art README lists.
"""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont

W, H = 300, 400
NO_CHARACTER = "\U0010fffd"  # a private-use code point: no font draws it
NUMERALS = "一二三四五六七八九"
INK = {"black": (25, 25, 30), "blue": (25, 45, 130), "red": (190, 30, 30),
       "green": (20, 120, 55)}
# the inks real sets write each part in, one chosen per style: a numeral above 萬 in blue or
# black, winds in black or blue, 發 in a lighter or darker green, 中 and 萬 in red
INKS = {"numeral": (INK["blue"], INK["black"], (20, 30, 90)),
        "wind": (INK["black"], INK["blue"], (35, 35, 60)),
        "green": (INK["green"], (15, 85, 40), (30, 140, 90)),
        "red": (INK["red"], (160, 25, 35), (210, 60, 40))}
DOTS = {1: [(0.5, 0.5)], 2: [(0.5, 0.28), (0.5, 0.72)],
        3: [(0.27, 0.22), (0.5, 0.5), (0.73, 0.78)],
        4: [(0.3, 0.3), (0.7, 0.3), (0.3, 0.7), (0.7, 0.7)],
        5: [(0.28, 0.25), (0.72, 0.25), (0.5, 0.5), (0.28, 0.75), (0.72, 0.75)],
        6: [(x, y) for y in (0.22, 0.5, 0.78) for x in (0.32, 0.68)],
        7: [(0.22, 0.15), (0.5, 0.27), (0.78, 0.39)] + [(x, y) for y in (0.6, 0.84)
                                                         for x in (0.32, 0.68)],
        8: [(x, y) for y in (0.16, 0.39, 0.61, 0.84) for x in (0.32, 0.68)],
        9: [(x, y) for y in (0.2, 0.5, 0.8) for x in (0.22, 0.5, 0.78)]}
STICKS = {2: [(0.5, 0.28), (0.5, 0.72)], 3: [(0.5, 0.28), (0.3, 0.72), (0.7, 0.72)],
          4: [(0.32, 0.28), (0.68, 0.28), (0.32, 0.72), (0.68, 0.72)],
          5: [(0.25, 0.28), (0.75, 0.28), (0.5, 0.5), (0.25, 0.72), (0.75, 0.72)],
          6: [(x, y) for y in (0.28, 0.72) for x in (0.22, 0.5, 0.78)],
          7: [(0.5, 0.17)] + [(x, y) for y in (0.5, 0.83) for x in (0.22, 0.5, 0.78)],
          8: [(x, y) for y in (0.28, 0.72) for x in (0.16, 0.39, 0.61, 0.84)],
          9: [(x, y) for y in (0.17, 0.5, 0.83) for x in (0.22, 0.5, 0.78)]}


def inks(style: str) -> dict[str, tuple[int, int, int]]:
    """One ink per part for ``style`` (the same every run: chosen by the name's checksum)."""
    rng = np.random.default_rng(zlib.crc32(style.encode()))
    return {part: choices[int(rng.integers(len(choices)))] if style else choices[0]
            for part, choices in INKS.items()}


def _has_glyph(font: FreeTypeFont, ch: str) -> bool:
    """Whether ``font`` draws ``ch`` itself: a missing character is drawn as the font's
    fallback glyph (a box, or nothing), the same as a code point no font has."""
    if ch.isspace() or ch.isascii():
        return True
    return bytes(font.getmask(ch)) != bytes(font.getmask(NO_CHARACTER))


def _text(img: np.ndarray, text: str, font_path: Path, box: tuple[float, float, float, float],
          color: tuple[int, int, int]) -> None:
    """Draw ``text`` as large as fits in ``box`` (fractions x0, y0, x1, y1) onto RGBA ``img``."""
    from PIL import Image, ImageDraw, ImageFont

    x0, y0, x1, y1 = box[0] * W, box[1] * H, box[2] * W, box[3] * H
    size = int(y1 - y0)
    font = ImageFont.truetype(str(font_path), size)
    missing = [ch for ch in text if not _has_glyph(font, ch)]
    if missing:
        raise ValueError(f"{font_path.name} has no glyph for {''.join(missing)!r}")
    layer = Image.new("L", (W, H), 0)
    d = ImageDraw.Draw(layer)
    bb = d.textbbox((0, 0), text, font=font)
    tw, th = bb[2] - bb[0], bb[3] - bb[1]
    scale = min((x1 - x0) / max(tw, 1), (y1 - y0) / max(th, 1))
    font = ImageFont.truetype(str(font_path), max(8, int(size * scale)))
    bb = d.textbbox((0, 0), text, font=font)
    tw, th = bb[2] - bb[0], bb[3] - bb[1]
    d.text(((x0 + x1) / 2 - tw / 2 - bb[0], (y0 + y1) / 2 - th / 2 - bb[1]), text, fill=255,
           font=font)
    a = np.asarray(layer, np.float32)[..., None] / 255
    img[..., :3] = img[..., :3] * (1 - a) + np.array(color) * a
    img[..., 3:] = np.maximum(img[..., 3:], a * 255)


def _dot(img: np.ndarray, cx: float, cy: float, r: float, color: tuple[int, int, int]) -> None:
    c = (int(cx * 16), int(cy * 16))
    for frac, col, th in ((1.0, color, -1), (0.78, (255, 255, 255), -1), (0.62, color, -1),
                          (0.32, (255, 255, 255), -1), (0.18, color, -1)):
        cv2.circle(img, c, int(r * frac * 16), (*col, 255), th, cv2.LINE_AA, 4)


def _stick(img: np.ndarray, cx: float, cy: float, w: float, h: float,
           color: tuple[int, int, int]) -> None:
    x0, x1 = int((cx - w / 2) * 16), int((cx + w / 2) * 16)
    y0, y1 = int((cy - h / 2) * 16), int((cy + h / 2) * 16)
    cv2.rectangle(img, (x0, y0), (x1, y1), (*color, 255), -1, cv2.LINE_AA, 4)
    for t in (0.0, 0.5, 1.0):  # the nodes of the bamboo
        y = int((cy - h / 2 + t * h) * 16)
        cv2.ellipse(img, ((x0 + x1) // 2, y), ((x1 - x0) // 2 + 24, 40), 0, 0, 360,
                    (*color, 255), -1, cv2.LINE_AA, 4)
    cv2.line(img, ((x0 + x1) // 2, y0 + 60), ((x0 + x1) // 2, y1 - 60), (255, 255, 255, 255),
             max(1, int(w * 0.12)), cv2.LINE_AA, 4)


def draw_faces(font_path: Path, style: str = "") -> dict[str, np.ndarray]:
    """All 42 faces (RGBA 300x400) in one font, in the inks :func:`inks` picks for ``style``
    (the first of each, without one)."""
    faces: dict[str, np.ndarray] = {}
    ink = inks(style)

    def canvas() -> np.ndarray:
        return np.zeros((H, W, 4), np.uint8)

    for r in range(1, 10):
        img = canvas()
        _text(img, NUMERALS[r - 1], font_path, (0.15, 0.06, 0.85, 0.42), ink["numeral"])
        _text(img, "萬", font_path, (0.1, 0.46, 0.9, 0.94), ink["red"])
        faces[f"{r}m"] = img

        img = canvas()
        radius = W * (0.36 if r == 1 else 0.2 if r <= 4 else 0.15 if r <= 6 else 0.13)
        cols = [INK["blue"], INK["green"], INK["red"]]
        for i, (x, y) in enumerate(DOTS[r]):
            _dot(img, x * W, y * H, radius, cols[(i + r) % 3] if r > 1 else INK["red"])
        faces[f"{r}p"] = img

        img = canvas()
        if r == 1:
            _stick(img, 0.5 * W, 0.5 * H, W * 0.22, H * 0.72, INK["green"])
            cv2.circle(img, (int(0.5 * W * 16), int(0.5 * H * 16)), int(W * 0.14 * 16),
                       (*INK["red"], 255), -1, cv2.LINE_AA, 4)
        else:
            h = H * (0.36 if r < 7 else 0.27)
            for i, (x, y) in enumerate(STICKS[r]):
                red = (r in (5, 7, 9) and i == len(STICKS[r]) // 2) or (r == 7 and i == 0)
                _stick(img, x * W, y * H, W * (0.13 if r < 8 else 0.11), h,
                       INK["red"] if red else INK["green"])
        faces[f"{r}s"] = img
    for name, ch, part in (("E", "東", "wind"), ("S", "南", "wind"), ("W", "西", "wind"),
                           ("N", "北", "wind"), ("C", "中", "red"), ("F", "發", "green")):
        img = canvas()
        _text(img, ch, font_path, (0.08, 0.15, 0.92, 0.85), ink[part])
        faces[name] = img
    img = canvas()
    for inset, th in ((0.12, 10), (0.2, 5)):
        cv2.rectangle(img, (int(W * inset), int(H * inset)), (int(W * (1 - inset)),
                      int(H * (1 - inset))), (*INK["blue"], 255), th, cv2.LINE_AA)
    faces["P"] = img
    for i, ch in enumerate("梅蘭菊竹春夏秋冬"):
        img = canvas()
        _text(img, ch, font_path, (0.12, 0.2, 0.88, 0.85), INK["green" if i < 4 else "blue"])
        _text(img, str(i % 4 + 1), font_path, (0.72, 0.03, 0.95, 0.18), INK["red"])
        faces[f"f{i + 1}"] = img
    return faces
