"""The settlement as a referee reads it: pattern, every item, share, who pays whom; confirm it."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ui.dashboard.core import HandSession
from ui.dashboard.i18n import tr, wind


class ScoringPanel(QWidget):
    confirmRequested = Signal()
    loadRequested = Signal()

    def __init__(self, session: HandSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        layout = QVBoxLayout(self)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(3)
        self.tree.setHeaderLabels([tr("item"), tr("value"), tr("note")])
        self.tree.setRootIsDecorated(True)
        self.payments = QLabel()
        self.payments.setWordWrap(True)
        self.payments.setObjectName("payments")
        self.corrections = QLabel()
        self.corrections.setWordWrap(True)
        row = QHBoxLayout()
        self.load_button = QPushButton(tr("load_hand"))
        self.confirm_button = QPushButton(tr("confirm_hand"))
        self.load_button.clicked.connect(self.loadRequested.emit)
        self.confirm_button.clicked.connect(self.confirmRequested.emit)
        row.addWidget(self.load_button)
        row.addStretch(1)
        row.addWidget(self.confirm_button)
        for w in (self.title, self.tree, self.payments, self.corrections):
            layout.addWidget(w)
        layout.addLayout(row)
        session.changed.connect(self.refresh)
        self.destroyed.connect(lambda: session.changed.disconnect(self.refresh))
        self.refresh()

    def refresh(self) -> None:
        s = self.session
        self.tree.clear()
        record = s.record
        if record is None:
            self.title.setText(tr("no_hand"))
            self.payments.setText("")
            self.corrections.setText("")
            self.confirm_button.setEnabled(False)
            return
        dealer = record.dealer

        def seat(k: int) -> str:
            return f"{wind(k, dealer)}{k}"

        if s.settlement is None:
            self.title.setText(f"<b>{tr('cannot_score')}</b>: {s.error}")
            self.payments.setText("")
            self.confirm_button.setEnabled(False)
        else:
            st = s.settlement
            outcome = "荒庄 draw" if st.outcome == "draw" else ", ".join(
                f"{seat(w.seat)} {w.pattern}" for w in st.wins)
            self.title.setText(f"<b>{st.ruleset}</b> · {outcome}")
            for w in st.wins:
                top = QTreeWidgetItem([f"{seat(w.seat)} {w.pattern}", f"{tr('share')} {w.share}",
                                       ""])
                for item in w.items:
                    QTreeWidgetItem(top, [item.name, f"{item.value} {item.unit}", item.note])
                for key, value in w.details.items():
                    QTreeWidgetItem(top, [key, str(value), ""])
                self.tree.addTopLevelItem(top)
                top.setExpanded(True)
            if st.items:
                top = QTreeWidgetItem(["—", "", ""])
                for item in st.items:
                    QTreeWidgetItem(top, [item.name, f"{item.value} {item.unit}", item.note])
                self.tree.addTopLevelItem(top)
                top.setExpanded(True)
            if st.transfers:
                top = QTreeWidgetItem([tr("transfers"), "", ""])
                for t in st.transfers:
                    QTreeWidgetItem(top, [f"{seat(t.payer)} → {seat(t.payee)}", f"{t.amount}",
                                          t.reason])
                self.tree.addTopLevelItem(top)
                top.setExpanded(True)
            pays = "  ".join(f"{seat(k)} <b>{p:+g}</b>" for k, p in enumerate(st.payments))
            self.payments.setText(f"{tr('payments')}: {pays}<br>{tr('next_dealer')}: "
                                  f"{seat(st.next_dealer)}")
            self.confirm_button.setEnabled(True)
        for col in range(3):
            self.tree.resizeColumnToContents(col)
        if s.corrections:
            lines = "<br>".join(f"{c.who}: {seat(c.seat)} {c.what} ({c.why})"
                                for c in s.corrections[-4:])
            self.corrections.setText(f"<i>{tr('corrections')}</i><br>{lines}")
        else:
            self.corrections.setText("")
