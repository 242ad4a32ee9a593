"""One player's panel: name, wind, dealer mark, standing tiles, melds, flowers, waits."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QBoxLayout, QFrame, QLabel, QMenu, QVBoxLayout, QWidget

from scoring.record import Meld, Seat
from scoring.tiles import CHINESE_NAMES, format_tiles
from ui.dashboard.core import TileRef
from ui.dashboard.i18n import tr, wind
from ui.dashboard.tile_strip import StripTile, TileStrip
from ui.dashboard.tileart import UNKNOWN, tile_path


@dataclass
class SeatView:
    """What a seat panel shows; built from a hand record or a live reading."""

    seat: int
    name: str
    dealer: int
    seat_data: Seat = field(default_factory=Seat)
    total: float | None = None
    waits: list[tuple[int, int]] = field(default_factory=list)  # (tile, left)
    flagged: set[TileRef] = field(default_factory=set)
    winner: bool = False
    hidden: int = 0  # standing tiles the camera sees only from behind
    live: bool = False  # what the camera shows now, not a hand record


def sideways_index(meld: Meld, seat: int) -> int:
    """Which tile of a laid-down meld lies sideways: it points at the player it was claimed from.

    From the 上家 the left tile, from the 对家 the middle, from the 下家 the right; a 暗杠 has none.
    """
    if meld.from_seat is None:
        return -1
    offset = (meld.from_seat - seat) % 4  # 1 下家, 2 对家, 3 上家
    last = len(meld.tiles) - 1
    return {3: 0, 2: 1, 1: last}.get(offset, -1)


def meld_strip(seat_no: int, melds: tuple[Meld, ...], flagged: set[TileRef]) -> list[StripTile]:
    out: list[StripTile] = []
    for m_i, meld in enumerate(melds):
        side = sideways_index(meld, seat_no)
        for i, tile in enumerate(meld.tiles):
            ref = TileRef(seat_no, "melds", i, m_i)
            shown = -1 if meld.type == "concealed_kong" and i in (0, 3) else tile
            out.append(StripTile(shown, sideways=i == side, flagged=ref in flagged,
                                 gap_before=i == 0, key=ref))
    return out


class SeatPanel(QFrame):
    """Clicking a tile asks for a correction; the context menu adds or removes melds/flowers.

    ``wide`` panels (top and bottom of the table) put the standing tiles and the melds side by
    side on one row; narrow ones (left and right) stack them and let them wrap.
    """

    tileClicked = Signal(object)  # TileRef
    menuRequested = Signal(int, str, int)  # seat, action, index

    def __init__(self, seat: int, tile_height: int = 30, wide: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.seat = seat
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setObjectName(f"seat{seat}")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(3)
        self.header = QLabel()
        self.header.setObjectName("seatHeader")
        self.header.setWordWrap(True)
        self.concealed = TileStrip(tile_height)
        self.melds = TileStrip(round(tile_height * 0.85) if not wide else tile_height)
        self.footer = QLabel()
        self.footer.setWordWrap(True)
        self.note = QLabel()
        self.note.setStyleSheet("color: #777")
        layout.addWidget(self.header)
        tiles = QBoxLayout(QBoxLayout.Direction.LeftToRight if wide
                           else QBoxLayout.Direction.TopToBottom)
        tiles.setSpacing(12 if wide else 3)
        tiles.addWidget(self.concealed, 3 if wide else 0)
        tiles.addWidget(self.note)
        tiles.addWidget(self.melds, 2 if wide else 0)
        layout.addLayout(tiles)
        layout.addWidget(self.footer)
        layout.addStretch(1)
        self.concealed.tileClicked.connect(self.tileClicked.emit)
        self.melds.tileClicked.connect(self.tileClicked.emit)
        self.view = SeatView(seat, f"{tr('seat')} {seat}", 0)

    def show_view(self, view: SeatView) -> None:
        self.view = view
        s = view.seat_data
        dealer = f" · <span style='color:#b3261e'>{tr('dealer')}</span>" \
            if view.seat == view.dealer else ""
        total = "" if view.total is None else f" · {view.total:+g}"
        crown = f" · <b style='color:#2e7d32'>{tr('winner')}</b>" if view.winner else ""
        self.header.setText(f"<b>{wind(view.seat, view.dealer)}</b> {view.name}"
                            f"{dealer}{total}{crown}")
        standing = [
            StripTile(t, flagged=TileRef(view.seat, "concealed", i) in view.flagged,
                      key=TileRef(view.seat, "concealed", i))
            for i, t in enumerate(s.concealed)]
        standing += [StripTile(UNKNOWN) for _ in range(view.hidden)]
        self.concealed.set_tiles(standing)
        self.concealed.setVisible(bool(standing))
        self.note.setText("" if standing else tr("not_seen" if view.live else "not_shown"))
        self.note.setVisible(not standing)
        flowers = [StripTile(t, gap_before=i == 0, key=TileRef(view.seat, "flowers", i))
                   for i, t in enumerate(s.flowers)]
        self.melds.set_tiles(meld_strip(view.seat, s.melds, view.flagged) + flowers)
        self.melds.setVisible(bool(s.melds or s.flowers))
        if view.waits:
            # each wait as its tile image with the copies left
            waits = " ".join(
                f"<img src='{tile_path(t)}' height='22' title='{CHINESE_NAMES[t]}'>"
                f"<span style='color:{'#b3261e' if left == 0 else '#000'}'>×{left}</span>"
                for t, left in view.waits)
            self.footer.setText(f"<b>{tr('waits')}</b> {waits}")
            self.footer.setToolTip("  ".join(f"{CHINESE_NAMES[t]} {tr('left')} {left}"
                                             for t, left in view.waits))
        else:
            self.footer.setText("")
        self.footer.setVisible(bool(view.waits))

    def _emitter(self, action: str, index: int) -> Callable[[], None]:
        return lambda: self.menuRequested.emit(self.seat, action, index)

    def contextMenuEvent(self, event: object) -> None:
        self.build_menu().exec(event.globalPos())  # type: ignore[attr-defined]

    def build_menu(self) -> QMenu:
        """Add a meld or a flower; remove any of this seat's melds and flowers."""
        menu = QMenu(self)
        menu.addAction(tr("add_meld"), lambda: self.menuRequested.emit(self.seat, "add_meld", -1))
        for i, meld in enumerate(self.view.seat_data.melds):
            menu.addAction(f"{tr('remove_meld')} {format_tiles(meld.tiles)}",
                           self._emitter("remove_meld", i))
        menu.addAction(tr("add_flower"),
                       lambda: self.menuRequested.emit(self.seat, "add_flower", -1))
        for i, f in enumerate(self.view.seat_data.flowers):
            menu.addAction(f"{tr('remove_flower')} {CHINESE_NAMES[f]}",
                           self._emitter("remove_flower", i))
        return menu
