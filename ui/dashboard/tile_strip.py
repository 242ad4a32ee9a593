"""A row of tile images that wraps to its width; clicking a tile reports which one."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from ui.dashboard.tileart import TILE_ASPECT, flagged_overlay, tile_pixmap


@dataclass(frozen=True)
class StripTile:
    tile: int  # a tile kind, or tileart.UNKNOWN for a back
    sideways: bool = False
    flagged: bool = False  # low confidence or corrected
    gap_before: bool = False  # starts a new group (a meld)
    key: object = None  # handed back on click (e.g. a TileRef)


class TileStrip(QWidget):
    """Paints tiles left to right, wrapping; ``tileClicked`` carries the tile's ``key``."""

    tileClicked = Signal(object)

    def __init__(self, tile_height: int = 34, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tiles: list[StripTile] = []
        self._rects: list[QRect] = []
        self.tile_height = tile_height
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def set_tiles(self, tiles: list[StripTile]) -> None:
        self._tiles = list(tiles)
        self._layout(self.width() or 400)
        self.updateGeometry()
        self.update()

    def tiles(self) -> list[StripTile]:
        return list(self._tiles)

    # ------------------------------------------------------------ geometry

    def _geometry(self, width: int) -> tuple[list[QRect], int]:
        """Where each tile goes at ``width``, and the height that needs (no side effects: Qt
        asks heightForWidth for widths the strip never gets)."""
        h = self.tile_height
        w = round(h * TILE_ASPECT)
        gap = max(4, h // 5)
        x = y = 0
        rects: list[QRect] = []
        for t in self._tiles:
            tw, th = (h, w) if t.sideways else (w, h)
            if t.gap_before and x:
                x += gap
            if x + tw > width and x:
                x = 0
                y += h + 2
            rects.append(QRect(x, y + (h - th), tw, th))
            x += tw + 1
        return rects, (y + h if self._tiles else h)

    def _layout(self, width: int) -> int:
        self._rects, height = self._geometry(width)
        return height

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._geometry(width)[1]

    def sizeHint(self) -> QSize:
        w = round(self.tile_height * TILE_ASPECT) + 1
        return QSize(w * min(len(self._tiles), 14) + 8, self.heightForWidth(w * 14 + 8))

    def minimumSizeHint(self) -> QSize:
        return QSize(round(self.tile_height * TILE_ASPECT) * 4, self.tile_height)

    def resizeEvent(self, event: object) -> None:
        self._layout(self.width())

    # ------------------------------------------------------------ painting and clicks

    def paintEvent(self, event: QPaintEvent) -> None:
        self._layout(self.width())
        p = QPainter(self)
        for t, r in zip(self._tiles, self._rects, strict=True):
            upright_h = r.width() if t.sideways else r.height()
            p.drawPixmap(r.topLeft(), tile_pixmap(t.tile, upright_h, t.sideways))
            if t.flagged:
                p.drawPixmap(r.topLeft(), flagged_overlay(r.width(), r.height()))
        p.end()

    def index_at(self, pos: QPoint) -> int:
        self._layout(self.width())
        return next((i for i, r in enumerate(self._rects) if r.contains(pos)), -1)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        i = self.index_at(event.position().toPoint())
        if i >= 0 and event.button() == Qt.MouseButton.LeftButton:
            self.tileClicked.emit(self._tiles[i].key)
        super().mousePressEvent(event)
