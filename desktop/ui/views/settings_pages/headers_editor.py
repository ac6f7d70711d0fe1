"""Custom HTTP headers as a two-column table (name, value), sent with every request.

`changed` says a cell was edited or a row removed, for the form to save; a row added
blank changes nothing until something is typed into it."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

ROW_LIMIT_VISIBLE = 4  # rows shown before the table scrolls


class HeadersEditor(QWidget):
    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._filling = False  # rows put in by the form, not typed
        self.table = QTableWidget(0, 2, self)
        self.table.setObjectName("HeadersTable")
        self.table.setHorizontalHeaderLabels([self.tr("Name"), self.tr("Value")])
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.resizeSection(0, 180)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        triggers = QAbstractItemView.EditTrigger
        self.table.setEditTriggers(
            triggers.DoubleClicked
            | triggers.SelectedClicked
            | triggers.EditKeyPressed
            | triggers.AnyKeyPressed
        )
        self.table.itemChanged.connect(self._on_item_changed)
        self.add_button = QPushButton(self.tr("Add header"), self)
        self.add_button.clicked.connect(self.add_row)
        self.remove_button = QPushButton(self.tr("Remove header"), self)
        self.remove_button.clicked.connect(self._remove_row)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        self._fit()

    def set_headers(self, headers: tuple[tuple[str, str], ...]) -> None:
        self.table.setRowCount(0)
        for name, value in headers:
            self._append(name, value)
        self._fit()

    def headers(self) -> tuple[tuple[str, str], ...]:
        rows = []
        for row in range(self.table.rowCount()):
            name, value = self.table.item(row, 0), self.table.item(row, 1)
            rows.append((name.text() if name else "", value.text() if value else ""))
        return tuple(rows)

    def add_row(self) -> None:
        self._append("", "")
        self._fit()
        row = self.table.rowCount() - 1
        self.table.setCurrentCell(row, 0)
        name = self.table.item(row, 0)
        if name is not None:
            self.table.editItem(name)

    def _append(self, name: str, value: str) -> None:
        self._filling = True
        try:
            row = self.table.rowCount()
            self.table.insertRow(row)
            self.table.setItem(row, 0, QTableWidgetItem(name))
            self.table.setItem(row, 1, QTableWidgetItem(value))
        finally:
            self._filling = False

    def _on_item_changed(self, _item: QTableWidgetItem) -> None:
        if not self._filling:
            self.changed.emit()

    def _remove_row(self) -> None:
        row = self.table.currentRow()
        if row >= 0:
            self.table.removeRow(row)
            self._fit()
            self.changed.emit()

    def _fit(self) -> None:
        """As tall as its rows (up to a few), so an empty table takes little room."""
        rows = min(max(self.table.rowCount(), 1), ROW_LIMIT_VISIBLE)
        height = self.table.horizontalHeader().sizeHint().height()
        height += rows * self.table.verticalHeader().defaultSectionSize()
        self.table.setFixedHeight(height + 2 * self.table.frameWidth())
        self.remove_button.setEnabled(self.table.rowCount() > 0)
