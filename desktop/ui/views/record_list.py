"""The list of records on the left of a Settings page (providers, assistants, libraries,
memories): rows kept by id, and a placeholder drawn inside the list when it has nothing
(or nothing beyond its fixed rows) to show.

Rows are updated in place when the same records come back in the same order, so a save
(which redraws the list) never moves the selection nor disturbs a click under way; only
a different set of records rebuilds the rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QIcon, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget

from desktop.ui.plain_text import tooltip

ID_ROLE = Qt.ItemDataRole.UserRole
PLACEHOLDER_MARGIN = 12  # pixels around the placeholder text


@dataclass(frozen=True, slots=True)
class Record:
    """One row: its record's id, the text shown (plain), its tool tip, its icon."""

    record_id: str
    text: str
    tip: str = ""
    icon: QIcon | None = None


class RecordList(QListWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._placeholder = ""
        self._fixed_rows = 0

    # --- placeholder ----------------------------------------------------------------

    def set_placeholder(self, text: str, *, fixed_rows: int = 0) -> None:
        """Say `text` while the list holds no more than `fixed_rows` rows (the built-in
        assistant is one such row), under them."""
        self._placeholder = text
        self._fixed_rows = fixed_rows
        self.viewport().update()

    def placeholder(self) -> str:
        """The text the list shows now ("" when it shows none)."""
        return self._placeholder if self.count() <= self._fixed_rows else ""

    def placeholder_rect(self) -> QRect:
        """Where the placeholder is drawn: below the last row, inside the margins."""
        area = (
            self.viewport()
            .rect()
            .adjusted(
                PLACEHOLDER_MARGIN, PLACEHOLDER_MARGIN, -PLACEHOLDER_MARGIN, -PLACEHOLDER_MARGIN
            )
        )
        if self.count():
            last = self.visualItemRect(self.item(self.count() - 1))
            area.setTop(max(area.top(), last.bottom() + PLACEHOLDER_MARGIN))
        return area

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        text = self.placeholder()
        if not text:
            return
        painter = QPainter(self.viewport())
        painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
        flags = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop
        painter.drawText(self.placeholder_rect(), int(flags) | Qt.TextFlag.TextWordWrap, text)
        painter.end()

    # --- rows -----------------------------------------------------------------------

    def ids(self) -> list[str]:
        return [str(self.item(row).data(ID_ROLE)) for row in range(self.count())]

    def current_id(self) -> str:
        item = self.currentItem()
        return str(item.data(ID_ROLE)) if item is not None else ""

    def row_of(self, record_id: str) -> int:
        return next((row for row, i in enumerate(self.ids()) if i == record_id), -1)

    def set_records(self, records: Sequence[Record], current: str = "") -> bool:
        """Show `records`, `current` selected when it is among them (no signal). Returns
        whether the rows were made again (other records, or another order)."""
        rebuild = self.ids() != [r.record_id for r in records]
        self.blockSignals(True)
        try:
            if rebuild:
                self.clear()
                for record in records:
                    item = QListWidgetItem(self)
                    item.setData(ID_ROLE, record.record_id)
                    self._fill(item, record)
            else:
                for row, record in enumerate(records):
                    self._fill(self.item(row), record)
            if rebuild or current != self.current_id():
                row = self.row_of(current) if current else -1
                self.setCurrentRow(row)
        finally:
            self.blockSignals(False)
        self.viewport().update()
        return rebuild

    @staticmethod
    def _fill(item: QListWidgetItem, record: Record) -> None:
        if item.text() != record.text:
            item.setText(record.text)
        tip = tooltip(record.tip) if record.tip else ""
        if item.toolTip() != tip:
            item.setToolTip(tip)
        if record.icon is not None:
            item.setIcon(record.icon)
