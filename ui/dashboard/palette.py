"""Pick the right tile: the recognizer's suggestions first, then all 42 kinds."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from scoring.tiles import CHINESE_NAMES, TILE_NAMES
from ui.dashboard.i18n import tr
from ui.dashboard.tileart import tile_pixmap


class TilePalette(QDialog):
    """Returns the chosen tile in ``chosen`` (None when cancelled) with who and why."""

    def __init__(self, suggestions: list[tuple[int, float]] | None = None, who: str = "",
                 kinds: range = range(42), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("pick_tile"))
        self.chosen: int | None = None
        self.suggested = list(suggestions or [])  # (tile, probability), best first
        self.buttons: dict[int, QToolButton] = {}
        layout = QVBoxLayout(self)
        if suggestions:
            box = QGroupBox(tr("suggestions"))
            line = QHBoxLayout(box)
            for tile, prob in suggestions:
                b = self._button(tile, f"{CHINESE_NAMES[tile]} ({TILE_NAMES[tile]}) {prob:.0%}",
                                 44)
                b.setText(f"{CHINESE_NAMES[tile]} {prob:.0%}")
                b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextUnderIcon)
                line.addWidget(b)
            line.addStretch(1)
            layout.addWidget(box)
        grid = QGridLayout()
        grid.setSpacing(2)
        for i, tile in enumerate(kinds):
            button = self._button(tile, f"{CHINESE_NAMES[tile]} ({TILE_NAMES[tile]})", 36)
            self.buttons[tile] = button
            r, c = divmod(i, 9) if tile < 27 else (3 + (tile - 27) // 9, (tile - 27) % 9)
            grid.addWidget(button, r, c)
        layout.addLayout(grid)
        form = QFormLayout()
        self.who = QLineEdit(who or "operator")
        self.why = QLineEdit(tr("misread"))
        form.addRow(tr("who"), self.who)
        form.addRow(tr("why"), self.why)
        layout.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _button(self, tile: int, tip: str, height: int) -> QToolButton:
        b = QToolButton()
        b.setIcon(QIcon(tile_pixmap(tile, height)))
        b.setIconSize(QSize(round(height * 0.75), height))
        b.setToolTip(tip)
        b.setAutoRaise(True)
        b.clicked.connect(lambda: self.pick(tile))
        return b

    def pick(self, tile: int) -> None:
        self.chosen = tile
        self.accept()
