"""The settlement as a referee reads it: pattern, every item, share, who pays whom; confirm it."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from scoring.settlement import Item, Transfer
from ui.dashboard.core import HandSession
from ui.dashboard.i18n import language, seat_name, tr, word


def _row(parent: QTreeWidgetItem | None, texts: list[str]) -> QTreeWidgetItem:
    """A tree row whose cells show their full text as a tooltip (long notes are elided)."""
    item = QTreeWidgetItem(texts) if parent is None else QTreeWidgetItem(parent, texts)
    for col, text in enumerate(texts):
        if text:
            item.setToolTip(col, text)
    return item


def _item_rows(parent: QTreeWidgetItem, item: Item) -> None:
    """An item in the chosen language, with the parts it totals as its children."""
    note = item.note_zh if language() == "zh" and item.note_zh else item.note
    row = _row(parent, [item.name, f"{item.value:g} {word(item.unit)}", note])
    for part in item.parts:
        _item_rows(row, part)
    row.setExpanded(True)


def _reason(t: Transfer) -> str:
    return t.reason_zh if language() == "zh" and t.reason_zh else t.reason


def _detail(parent: QTreeWidgetItem, key: str, value: object) -> None:
    """A detail (formula, reading, ...) as one line across all columns, so nothing is cut."""
    item = _row(parent, [f"{word(key)}:  {_value(value)}", "", ""])
    item.setFirstColumnSpanned(True)
    item.setForeground(0, Qt.GlobalColor.darkGray)


def _value(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{word(str(k))} {v}" for k, v in value.items())
    if isinstance(value, list | tuple):
        sep = "; " if any(isinstance(v, dict) for v in value) else " "
        return sep.join(_value(v) for v in value) if value else "—"
    return str(value)


class ScoringPanel(QWidget):
    confirmRequested = Signal()
    loadRequested = Signal()
    winSourceChosen = Signal(str, int)  # by ("self_draw" / "discard"), from seat (-1: none)

    def __init__(self, session: HandSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.players: list[str] | None = None  # the match's names (i18n.seat_name)
        layout = QVBoxLayout(self)
        self.title = QLabel()
        self.title.setWordWrap(True)
        how_row = QHBoxLayout()
        self.how_label = QLabel(tr("how_won"))
        self.how = QComboBox()
        self.how.setToolTip(tr("how_won_tip"))
        self.how.activated.connect(self._how_chosen)
        how_row.addWidget(self.how_label)
        how_row.addWidget(self.how, 1)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(3)
        self.tree.setHeaderLabels([tr("item"), tr("value"), tr("note")])
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        header = self.tree.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(1, 110)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.payments = QLabel()
        self.payments.setWordWrap(True)
        self.payments.setObjectName("payments")
        self.corrections = QLabel()
        self.corrections.setWordWrap(True)
        row = QHBoxLayout()
        self.load_button = QPushButton(tr("load_hand"))
        self.confirm_button = QPushButton(tr("confirm_hand"))
        self.confirm_button.setDefault(True)
        self.clear_button = QPushButton(tr("clear_hand"))
        self.load_button.clicked.connect(self.loadRequested.emit)
        self.confirm_button.clicked.connect(self.confirmRequested.emit)
        self.clear_button.clicked.connect(session.clear)
        row.addWidget(self.load_button)
        row.addWidget(self.clear_button)
        row.addStretch(1)
        row.addWidget(self.confirm_button)
        layout.addWidget(self.title)
        layout.addLayout(how_row)
        for w in (self.tree, self.payments, self.corrections):
            layout.addWidget(w, 1 if w is self.tree else 0)
        layout.addLayout(row)
        session.changed.connect(self.refresh)
        self.destroyed.connect(lambda: session.changed.disconnect(self.refresh))
        self.refresh()

    def _how_chosen(self, index: int) -> None:
        by, _, frm = str(self.how.itemData(index)).partition(":")
        self.winSourceChosen.emit(by, int(frm))

    def _show_how(self) -> None:
        """The first win's source: self-drawn, or on a discard from one of the other seats."""
        record = self.session.record
        wins = record.wins if record is not None else ()
        self.how.blockSignals(True)
        self.how.clear()
        if record is not None and wins:
            w = wins[0]
            self.how.addItem(word("self_draw"), "self_draw:-1")
            for k in range(4):
                if k != w.seat:
                    self.how.addItem(f"{word('discard')} · "
                                     f"{seat_name(k, record.dealer, self.players)}",
                                     f"discard:{k}")
            # data "by:from": a plain string survives the trip through Qt unchanged
            current = f"{w.by}:{-1 if w.from_seat is None else w.from_seat}"
            index = self.how.findData(current)
            if index < 0:  # 抢杠 and other ways keep their own entry
                self.how.addItem(f"{w.by} · {w.from_seat}", current)
                index = self.how.count() - 1
            self.how.setCurrentIndex(index)
        self.how.blockSignals(False)
        self.how.setVisible(bool(wins))
        self.how_label.setVisible(bool(wins))

    def _top(self, texts: list[str]) -> QTreeWidgetItem:
        """A section, in the tree before its rows (a spanned row needs its view)."""
        top = _row(None, texts)
        self.tree.addTopLevelItem(top)
        top.setExpanded(True)
        return top

    def _fit_columns(self) -> None:
        """Item and value columns as wide as their cells (details span all columns and do not
        count), the note column takes the rest."""
        fm = self.tree.fontMetrics()
        widths = [fm.horizontalAdvance(self.tree.headerItem().text(c)) + 16 for c in range(2)]
        indent = self.tree.indentation()
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            assert top is not None
            widths[0] = max(widths[0], fm.horizontalAdvance(top.text(0)) + indent + 8)
            widths[1] = max(widths[1], fm.horizontalAdvance(top.text(1)) + 12)
            for j in range(top.childCount()):
                child = top.child(j)
                if child is None or child.isFirstColumnSpanned():
                    continue
                widths[0] = max(widths[0], fm.horizontalAdvance(child.text(0)) + 2 * indent + 8)
                widths[1] = max(widths[1], fm.horizontalAdvance(child.text(1)) + 12)
        header = self.tree.header()
        header.resizeSection(0, min(widths[0], 180))
        header.resizeSection(1, min(widths[1], 120))

    def refresh(self) -> None:
        s = self.session
        self.tree.clear()
        self._show_how()
        record = s.record
        if record is None:
            self.title.setText(tr("no_hand"))
            self.payments.setText("")
            self.corrections.setText("")
            self.confirm_button.setEnabled(False)
            self.clear_button.setEnabled(False)
            return
        self.clear_button.setEnabled(True)
        dealer = record.dealer

        def seat(k: int) -> str:
            return seat_name(k, dealer, self.players)

        source = f" · <span style='color:#777'>{tr('source')} {word(s.source)}</span>" \
            if s.source else ""
        if s.settlement is None:
            self.title.setText(f"<b>{tr('cannot_score')}</b>: {s.error}{source}")
            self.payments.setText("")
            self.confirm_button.setEnabled(False)
        else:
            st = s.settlement
            outcome = tr("draw") if st.outcome == "draw" else ", ".join(
                f"{seat(w.seat)} {w.pattern}" for w in st.wins)
            self.title.setText(f"<b>{word(st.ruleset)}</b> · {outcome}{source}")
            for w in st.wins:
                top = self._top([f"{seat(w.seat)} {w.pattern}", f"{tr('share')} {w.share:g}", ""])
                for item in w.items:
                    _item_rows(top, item)
                for key, value in w.details.items():
                    _detail(top, key, value)
            if st.items or st.details:
                top = self._top([tr("table_section"), "", ""])
                for item in st.items:
                    _item_rows(top, item)
                for key, value in st.details.items():
                    _detail(top, key, value)
            if st.transfers:
                top = self._top([tr("transfers"), "", ""])
                for t in st.transfers:
                    _row(top, [f"{seat(t.payer)} → {seat(t.payee)}", f"{t.amount:g}", _reason(t)])
            pays = "  ".join(f"{seat(k)} <b>{p:+g}</b>" for k, p in enumerate(st.payments))
            self.payments.setText(f"{tr('payments')}: {pays}<br>{tr('next_dealer')}: "
                                  f"{seat(st.next_dealer)}")
            self.confirm_button.setEnabled(True)
        self._fit_columns()
        if s.corrections:
            lines = "<br>".join(f"{c.who}: {seat(c.seat)} {c.what} ({c.why})"
                                for c in s.corrections[-4:])
            self.corrections.setText(f"<i>{tr('corrections')}</i><br>{lines}")
        else:
            self.corrections.setText("")
