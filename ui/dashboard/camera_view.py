"""The live camera view: the frame with each detection drawn on it; zoom with the wheel, pan by
dragging; clicking a box asks for a correction of that tile."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QRect, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPen, QPixmap, QWheelEvent
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPixmapItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QWidget,
)

SEAT_COLORS = ("#e53935", "#1e88e5", "#43a047", "#fdd835")  # seat 0..3
OTHER_COLOR = "#bdbdbd"


@dataclass(frozen=True)
class Overlay:
    """One box to draw, in frame pixels."""

    box: tuple[float, float, float, float]
    label: str
    confidence: float
    seat: int | None = None
    low_confidence: bool = False
    key: object = None  # handed back on click (a TileRef when the tile sits in a hand)
    topk: tuple[tuple[int, float], ...] = ()  # the detector's best readings, best first


def frame_to_qimage(frame: np.ndarray) -> QImage:
    """A BGR (OpenCV) or grey uint8 frame as a QImage that owns a copy of the pixels."""
    if frame.ndim == 2:
        h, w = frame.shape
        return QImage(frame.data, w, h, w, QImage.Format.Format_Grayscale8).copy()
    h, w, _ = frame.shape
    rgb = np.ascontiguousarray(frame[..., ::-1])
    return QImage(rgb.data, w, h, 3 * w, QImage.Format.Format_RGB888).copy()


def display_image(frame: np.ndarray, max_width: int = 960) -> QImage:
    """The frame shrunk to at most ``max_width`` pixels wide, as a QImage: done on the camera
    thread, so the GUI thread only turns it into a pixmap (a 1080p frame costs it ~100 ms)."""
    import cv2

    h, w = frame.shape[:2]
    if w > max_width:
        frame = cv2.resize(frame, (max_width, round(h * max_width / w)),
                           interpolation=cv2.INTER_AREA)
    return frame_to_qimage(frame)


class _BoxItem(QGraphicsRectItem):
    def __init__(self, overlay: Overlay) -> None:
        x1, y1, x2, y2 = overlay.box
        super().__init__(QRectF(x1, y1, x2 - x1, y2 - y1))
        self.overlay = overlay
        color = QColor(SEAT_COLORS[overlay.seat] if overlay.seat is not None else OTHER_COLOR)
        pen = QPen(color, 2)
        if overlay.low_confidence:
            pen.setStyle(Qt.PenStyle.DashLine)
            self.setBrush(QBrush(QColor(255, 140, 0, 70)))
        pen.setCosmetic(True)
        self.setPen(pen)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        text = QGraphicsSimpleTextItem(f"{overlay.label} {overlay.confidence:.0%}", self)
        text.setBrush(QBrush(color))
        font = QFont()
        font.setPixelSize(max(10, int((y2 - y1) * 0.28)))
        font.setBold(True)
        text.setFont(font)
        text.setPos(x1, y1 - font.pixelSize() - 2)


class CameraView(QGraphicsView):
    boxClicked = Signal(object)  # the Overlay

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(QPainter.RenderHint.Antialiasing
                            | QPainter.RenderHint.SmoothPixmapTransform)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setBackgroundBrush(QColor("#202020"))
        self._pixmap = QGraphicsPixmapItem()
        self.scene().addItem(self._pixmap)
        self._boxes: list[_BoxItem] = []
        self._user_zoom = False
        self.placeholder = ""
        self.status = QGraphicsSimpleTextItem("")
        self.status.setBrush(QBrush(QColor("#ffffff")))
        self.scene().addItem(self.status)

    def show_frame(self, frame: np.ndarray | QImage, overlays: list[Overlay],
                   frame_size: tuple[int, int] | None = None) -> None:
        """Show a frame (BGR array, or a QImage already shrunk from ``frame_size`` = the
        original width and height) with boxes in original-frame pixels."""
        first = self._pixmap.pixmap().isNull()
        if isinstance(frame, np.ndarray):
            image = frame_to_qimage(frame)
            size = (frame.shape[1], frame.shape[0])
        else:
            image = frame
            size = frame_size or (image.width(), image.height())
        self._pixmap.setPixmap(QPixmap.fromImage(image))
        self._pixmap.setScale(size[0] / max(image.width(), 1))
        self.scene().setSceneRect(QRectF(0, 0, size[0], size[1]))
        if overlays != self.overlays():  # a still table keeps its boxes (cheaper to paint)
            for item in self._boxes:
                self.scene().removeItem(item)
            self._boxes = [_BoxItem(o) for o in overlays]
            for item in self._boxes:
                self.scene().addItem(item)
        if first or not self._user_zoom:
            self.fit()

    def overlays(self) -> list[Overlay]:
        return [b.overlay for b in self._boxes]

    def show_status(self, text: str) -> None:
        self.status.setText(text)

    def fit(self) -> None:
        self._user_zoom = False
        self.fitInView(self.scene().sceneRect(), Qt.AspectRatioMode.KeepAspectRatio)

    def drawForeground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        """Say so when there is no picture yet, instead of a silent black box."""
        super().drawForeground(painter, rect)
        if self._pixmap.pixmap().isNull() and self.placeholder:
            painter.save()
            painter.resetTransform()
            painter.setPen(QColor("#bbbbbb"))
            painter.drawText(self.viewport().rect(), Qt.AlignmentFlag.AlignCenter,
                             self.placeholder)
            painter.restore()

    def set_placeholder(self, text: str) -> None:
        self.placeholder = text
        self.viewport().update()

    def wheelEvent(self, event: QWheelEvent) -> None:
        factor = 1.25 if event.angleDelta().y() > 0 else 0.8
        self._user_zoom = True
        self.scale(factor, factor)

    def resizeEvent(self, event: object) -> None:
        super().resizeEvent(event)  # type: ignore[arg-type]
        if not self._user_zoom:
            self.fit()

    def mouseDoubleClickEvent(self, event: object) -> None:
        self.fit()

    def mousePressEvent(self, event: object) -> None:
        pos = event.position().toPoint()  # type: ignore[attr-defined]
        item = self.itemAt(pos)
        while item is not None and not isinstance(item, _BoxItem):
            item = item.parentItem()
        if isinstance(item, _BoxItem) and event.button() == Qt.MouseButton.LeftButton:  # type: ignore[attr-defined]
            self.boxClicked.emit(item.overlay)
            return
        super().mousePressEvent(event)  # type: ignore[arg-type]
