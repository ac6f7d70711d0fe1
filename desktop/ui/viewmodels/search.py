"""Search results for the sidebar: full-text hits with a highlighted snippet."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
    Slot,
)

from desktop.core.errors import ParleyError
from desktop.core.search import SearchHit
from desktop.engine.library import Library
from desktop.ui.plain_text import tooltip

Index = QModelIndex | QPersistentModelIndex
DEBOUNCE_MS = 150  # search once typing pauses, not on every key


class SearchModel(QAbstractListModel):
    ConversationIdRole = Qt.ItemDataRole.UserRole + 1
    MessageIdRole = Qt.ItemDataRole.UserRole + 2
    SnippetRole = Qt.ItemDataRole.UserRole + 3
    HighlightsRole = Qt.ItemDataRole.UserRole + 4

    queryChanged = Signal(str)
    resultsChanged = Signal(int)
    errorOccurred = Signal(str)

    def __init__(self, library: Library, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._library = library
        self._query = ""
        self._hits: list[SearchHit] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.run)

    @property
    def query(self) -> str:
        return self._query

    @property
    def active(self) -> bool:
        return bool(self._query.strip())

    @Slot(str)
    def set_query(self, text: str) -> None:
        if text != self._query:
            self._query = text
            self.queryChanged.emit(text)
            self._timer.start()

    @Slot()
    def run(self) -> None:
        """Search now (the debounce timer calls this; so may a press of Enter)."""
        self._timer.stop()
        try:
            hits = self._library.search(self._query) if self.active else []
        except ParleyError as error:
            hits = []
            self.errorOccurred.emit(str(error))
        self.beginResetModel()
        self._hits = hits
        self.endResetModel()
        self.resultsChanged.emit(len(hits))

    def hit(self, row: int) -> SearchHit | None:
        return self._hits[row] if 0 <= row < len(self._hits) else None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._hits)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        hit = self.hit(index.row()) if index.isValid() else None
        if hit is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return hit.conversation_title
        if role == Qt.ItemDataRole.ToolTipRole:
            return tooltip(hit.snippet)
        return {
            self.ConversationIdRole: hit.conversation_id,
            self.MessageIdRole: hit.message_id or "",
            self.SnippetRole: hit.snippet,
            self.HighlightsRole: list(hit.highlights),
        }.get(role)
