"""The sidebar's list of conversations as a Qt item model (newest first, pinned on top)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
    Slot,
)

from desktop.core.events import ConversationsChanged, EngineEvent
from desktop.core.models import Conversation
from desktop.engine.chat_service import ChatService
from desktop.ui.viewmodels.tasks import TaskGroup

Index = QModelIndex | QPersistentModelIndex


class ConversationListModel(QAbstractListModel):
    IdRole = Qt.ItemDataRole.UserRole + 1
    PinnedRole = Qt.ItemDataRole.UserRole + 2
    UpdatedRole = Qt.ItemDataRole.UserRole + 3

    refreshed = Signal()
    errorOccurred = Signal(str)

    def __init__(self, chat: ChatService, tasks: TaskGroup, parent: QObject | None = None):
        super().__init__(parent)
        self._chat = chat
        self._tasks = tasks
        self._items: list[Conversation] = chat.conversations()
        chat.events.subscribe(self._on_engine_event)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._items)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        item = self._items[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return item.title
        if role == Qt.ItemDataRole.ToolTipRole:
            return item.title
        if role == self.IdRole:
            return item.id
        if role == self.PinnedRole:
            return item.pinned
        if role == self.UpdatedRole:
            return item.updated_at
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = super().flags(index)
        return base | Qt.ItemFlag.ItemIsEditable if index.isValid() else base

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        """Inline rename from the sidebar's editor."""
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        title = str(value).strip()
        if not title:
            return False
        self.rename(self._items[index.row()].id, title)
        return True

    def row_of(self, conversation_id: str) -> int:
        return next((i for i, c in enumerate(self._items) if c.id == conversation_id), -1)

    def id_at(self, row: int) -> str:
        return self._items[row].id if 0 <= row < len(self._items) else ""

    def title_of(self, conversation_id: str) -> str:
        row = self.row_of(conversation_id)
        return self._items[row].title if row >= 0 else ""

    @Slot(str, str)
    def rename(self, conversation_id: str, title: str) -> None:
        try:
            self._chat.rename_conversation(conversation_id, title)
        except ValueError as error:
            self.errorOccurred.emit(str(error))

    @Slot(str)
    def delete(self, conversation_id: str) -> None:
        self._tasks.start(self._chat.delete_conversation(conversation_id), "delete-conversation")

    @Slot()
    def refresh(self) -> None:
        self.beginResetModel()
        self._items = self._chat.conversations()
        self.endResetModel()
        self.refreshed.emit()

    def _on_engine_event(self, event: EngineEvent) -> None:
        if isinstance(event, ConversationsChanged):
            self.refresh()
