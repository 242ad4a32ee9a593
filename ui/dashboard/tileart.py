"""Tile images for the dashboard, from the project's own rendered art (ui/assets/tiles)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPainter, QPixmap, QTransform

from scoring.tiles import TILE_NAMES

ASSETS = Path(__file__).resolve().parent.parent / "assets" / "tiles"
TILE_ASPECT = 0.75  # width / height of an upright tile
UNKNOWN = -1  # a face-down or unread tile: drawn as a back


def tile_path(tile: int) -> Path:
    """The tile's image file (for rich text, e.g. the waits line)."""
    return ASSETS / f"{'back' if tile == UNKNOWN else TILE_NAMES[tile]}.png"


@lru_cache(maxsize=512)
def tile_pixmap(tile: int, height: int, sideways: bool = False) -> QPixmap:
    """The tile scaled to ``height`` (upright) — sideways tiles are turned a quarter right."""
    path = tile_path(tile)
    source = QPixmap(str(path))
    if source.isNull():
        raise FileNotFoundError(f"tile image {path.name} is missing from {ASSETS}")
    pix = source.scaledToHeight(height, Qt.TransformationMode.SmoothTransformation)
    if tile == UNKNOWN:
        pix = _calm_back(pix)
    if sideways:
        pix = pix.transformed(QTransform().rotate(90), Qt.TransformationMode.SmoothTransformation)
    return pix


def _calm_back(pix: QPixmap) -> QPixmap:
    """The art's back is bright red, which on a dashboard reads as an error: tint it slate
    (alpha kept) and outline it so a row of hidden tiles still counts tile by tile."""
    out = QPixmap(pix)
    p = QPainter(out)
    p.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceAtop)
    p.fillRect(out.rect(), QColor(74, 107, 138, 235))
    p.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
    pen = p.pen()
    pen.setColor(QColor(220, 228, 236))
    pen.setWidth(1)
    p.setPen(pen)
    p.drawRoundedRect(out.rect().adjusted(0, 0, -1, -1), 3, 3)
    p.end()
    return out


@lru_cache(maxsize=64)
def flagged_overlay(width: int, height: int) -> QPixmap:
    """A translucent orange wash with a border, laid over a low-confidence or corrected tile."""
    pix = QPixmap(width, height)
    pix.fill(QColor(0, 0, 0, 0))
    p = QPainter(pix)
    p.fillRect(0, 0, width, height, QColor(255, 140, 0, 60))
    pen = p.pen()
    pen.setColor(QColor(230, 110, 0))
    pen.setWidth(2)
    p.setPen(pen)
    p.drawRect(1, 1, width - 2, height - 2)
    p.end()
    return pix
