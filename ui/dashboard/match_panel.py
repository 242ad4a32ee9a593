"""The match: scoreboard with every hand and running totals, dealer, counters, levels, dice and
where to break the wall; new / reopen / export through the match log (scoring.match)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from scoring.rulesets.registry import describe, known_rulesets, ruleset_options
from ui.dashboard.i18n import default_players, seat_name, tr, word
from ui.dashboard.match_session import MatchSession


class NewMatchDialog(QDialog):
    """Ruleset, its options with their defaults shown, the four players and the first dealer."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("new_match"))
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.ruleset = QComboBox()
        for name in known_rulesets():  # names and help text from the registry
            self.ruleset.addItem(word(name), name)
            self.ruleset.setItemData(self.ruleset.count() - 1, describe(name),
                                     Qt.ItemDataRole.ToolTipRole)
        form.addRow(tr("ruleset"), self.ruleset)
        self.names = [QLineEdit(name) for name in default_players()]
        for k, edit in enumerate(self.names):
            form.addRow(f"{tr('seat')} {k}", edit)
        self.dealer = QComboBox()
        self.dealer.addItems([tr("random"), *(f"{tr('seat')} {k}" for k in range(4))])
        form.addRow(tr("first_dealer"), self.dealer)
        layout.addLayout(form)
        self.options_box = QGroupBox(tr("options"))
        self.options_form = QFormLayout(self.options_box)
        layout.addWidget(self.options_box)
        self.option_widgets: dict[str, QWidget] = {}
        self.ruleset.currentIndexChanged.connect(lambda _i: self._show_options(self.rules()))
        self._show_options(self.rules())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def rules(self) -> str:
        return str(self.ruleset.currentData())

    def _show_options(self, name: str) -> None:
        while self.options_form.rowCount():
            self.options_form.removeRow(0)
        self.option_widgets = {}
        for spec in ruleset_options(name):
            widget: QWidget
            if spec.choices:
                widget = QComboBox()
                widget.addItems([str(c) for c in spec.choices])
                widget.setCurrentText(str(spec.default))
            elif isinstance(spec.default, bool):
                widget = QCheckBox()
                widget.setChecked(spec.default)
            elif isinstance(spec.default, int) or spec.kind is int:
                widget = QSpinBox()
                # a derived default (None, e.g. Liaoyang 宝 = 底/10) sits just below the range
                low = -1 if spec.default is None else 0
                widget.setRange(low, 1_000_000)
                if spec.default is None:
                    widget.setSpecialValueText(tr("option_derived"))
                widget.setValue(low if spec.default is None else spec.default)
            else:
                widget = QLineEdit(str(spec.default))
            widget.setToolTip(f"{spec.doc} (default {spec.default!r})")
            self.option_widgets[spec.name] = widget
            label = QLabel(f"{spec.name} <span style='color:#777'>[{spec.default}]</span>")
            label.setToolTip(spec.doc)
            self.options_form.addRow(label, widget)

    def values(self) -> dict[str, Any]:
        """Only the options changed from their defaults, so the log records house rules."""
        options: dict[str, Any] = {}
        for spec in ruleset_options(self.rules()):
            w = self.option_widgets[spec.name]
            if isinstance(w, QComboBox) and spec.choices:
                value: Any = spec.choices[w.currentIndex()]  # keeps the choice's type (5, not "5")
            elif isinstance(w, QCheckBox):
                value = w.isChecked()
            elif isinstance(w, QSpinBox):
                value = None if w.value() < 0 else w.value()
            else:
                value = w.text()  # type: ignore[attr-defined]
            if value != spec.default:
                options[spec.name] = value
        dealer = self.dealer.currentIndex() - 1
        return {"ruleset": self.rules(), "options": options,
                "players": [e.text().strip() or f"{tr('seat')} {k}"
                            for k, e in enumerate(self.names)],
                "first_dealer": dealer if dealer >= 0 else random.randrange(4)}


class MatchPanel(QWidget):
    """Shows the match of a Qt-free :class:`MatchSession` (which holds the match and its dice);
    ``matchChanged`` carries the match after every change."""

    matchChanged = Signal(object)
    message = Signal(str)  # a line for the status bar

    def __init__(self, store: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.session = MatchSession(store)
        layout = QVBoxLayout(self)
        self.header = QLabel()
        self.header.setWordWrap(True)
        layout.addWidget(self.header)
        self.table = QTableWidget(0, 6)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.table.setToolTip(tr("reopen_hint"))
        layout.addWidget(self.table, 1)
        self.wall = QLabel()
        self.wall.setWordWrap(True)
        layout.addWidget(self.wall)
        row = QHBoxLayout()
        for key, slot in (("new_match", self.new_match_dialog), ("open_match", self.open_dialog),
                          ("export", self.export_dialog)):
            b = QPushButton(tr(key))
            b.clicked.connect(slot)
            row.addWidget(b)
        layout.addLayout(row)
        self.session.changed.connect(self._show)
        self.session.rolled.connect(lambda _roll: self.show_wall())
        self.refresh()

    # the session holds the state; these read it for the main window and the tests
    match_id = property(lambda self: self.session.match_id)
    match = property(lambda self: self.session.match)
    rolls = property(lambda self: self.session.rolls)

    # ------------------------------------------------------------ match lifecycle

    def new_match(self, ruleset: str, options: dict[str, Any], players: list[str],
                  first_dealer: int) -> int:
        return self.session.new_match(ruleset, options, players, first_dealer)

    def open_match(self, match_id: int) -> None:
        self.session.open(match_id)

    def new_match_dialog(self) -> None:
        dialog = NewMatchDialog(self)
        if dialog.exec():
            v = dialog.values()
            self.new_match(v["ruleset"], v["options"], v["players"], v["first_dealer"])

    def open_dialog(self) -> None:
        dialog = QDialog(self)
        dialog.setWindowTitle(tr("open_match"))
        layout = QVBoxLayout(dialog)
        dialog.resize(560, 320)
        listing = QListWidget()
        summaries = self.store.list_matches()
        for s in reversed(summaries):  # the latest first
            listing.addItem(f"#{s.id}  {s.created_at[:16].replace('T', ' ')}  {word(s.ruleset)}"
                            f" · {' / '.join(s.players)} · {s.events} {tr('events')}")
        summaries = list(reversed(summaries))
        if summaries:
            listing.setCurrentRow(0)
        listing.itemDoubleClicked.connect(lambda _item: dialog.accept())
        layout.addWidget(listing)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        layout.addWidget(buttons)
        if dialog.exec() and listing.currentRow() >= 0:
            self.open_match(summaries[listing.currentRow()].id)

    def export_dialog(self) -> None:
        if self.match_id is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, tr("export"), f"match-{self.match_id}.json",
                                              "JSON (*.json);;CSV (*.csv)")
        if path:
            try:
                self.export(Path(path))
            except OSError as exc:
                self.message.emit(f"{tr('export')} {path}: {exc}")
            else:
                self.message.emit(f"{tr('exported')} {path}")

    def export(self, path: Path) -> None:
        """The match as JSON (the whole log, replayable) or CSV (one row per hand)."""
        import json

        if self.match_id is None:
            raise ValueError("no match is open")
        if path.suffix.lower() == ".csv":
            path.write_text(self.store.export_csv(self.match_id), encoding="utf-8")
        else:
            path.write_text(json.dumps(self.store.export_json(self.match_id), ensure_ascii=False,
                                       indent=2), encoding="utf-8")

    def add_roll(self, a: int, b: int) -> None:
        self.session.add_roll(a, b)

    # ------------------------------------------------------------ showing

    def refresh(self) -> None:
        """Reload the match from the store (the session then shows it here)."""
        self.session.refresh()

    def _show(self, m: Any) -> None:
        if m is None:
            self.header.setText(f"{tr('match')}: —")
            self.table.setRowCount(0)
            self.wall.setText("")
            return
        counters = ", ".join(f"{word(k)} {v}" for k, v in m.counters.items()) or "—"
        levels = ""
        if m.levels:
            levels = f"<br>{tr('level')}: " + " · ".join(
                f"{m.players[k]} {lv}" for k, lv in enumerate(m.levels))
        problem = f"<br><span style='color:#b3261e'>{m.problem}</span>" if m.problem else ""
        self.header.setText(
            f"<b>#{m.id} {word(m.ruleset)}</b> · {tr('hands')}: {len(m.hands)}<br>"
            f"{tr('dealer')}: <b>{m.players[m.dealer]}</b> · {tr('counters')}: {counters}"
            f"{levels}{problem}")
        hands = m.hands
        self.table.setColumnCount(6)
        self.table.setHorizontalHeaderLabels([tr("hand"), tr("pattern"),
                                              *(p[:8] for p in m.players)])
        self.table.setRowCount(len(hands) + 1)
        for r, h in enumerate(hands):
            st = h.settlement
            what = "荒庄" if st.outcome == "draw" else " ".join(
                f"{seat_name(w.seat, h.record.dealer, m.players)} {w.pattern}" for w in st.wins)
            # each player's payment, then the running total after the hand
            cells = [str(h.number), what,
                     *(f"{p:+g} → {t:g}" for p, t in zip(st.payments, h.totals_after, strict=True))]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c >= 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        totals = [tr("total"), "", *(f"{t:g}" for t in m.totals)]
        for c, text in enumerate(totals):
            item = QTableWidgetItem(text)
            font = item.font()
            font.setBold(True)
            item.setFont(font)
            self.table.setItem(len(hands), c, item)
        self.table.resizeColumnsToContents()
        self.show_wall()
        self.matchChanged.emit(m)

    def show_wall(self) -> None:
        if self.match is None or not self.rolls:
            self.wall.setText("")
            return
        dice = " ".join(f"{a}+{b}" for a, b in self.rolls)
        wb, why = self.session.wall_break()
        if wb is not None:
            where = tr("wall_of").format(self.match.players[wb.wall_seat], wb.stacks_skipped)
            if wb.explanation:
                self.wall.setToolTip(wb.explanation)
        else:  # e.g. a second roll still to come
            where = tr("wall_wait").format(len(self.rolls))
            self.wall.setToolTip(why)
        self.wall.setText(f"{tr('dice')}: {dice} → {tr('break_wall')}: {where}")
