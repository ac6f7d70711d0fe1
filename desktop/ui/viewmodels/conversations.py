"""The sidebar's list of conversations as a Qt item model.

Pinned first, then newest first, in date sections (Today, Yesterday, ...). Section
headers are rows of their own that cannot be selected, so the list view stays a plain
QListView and scrolls 10,000 conversations without any custom layout.
"""

from __future__ import annotations

from datetime import datetime
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
from desktop.engine.library import Library
from desktop.ui.viewmodels.date_groups import DateGroup, date_group
from desktop.ui.viewmodels.tasks import TaskGroup

Row = Conversation | DateGroup


def sectioned(conversations: list[Conversation], now: datetime) -> list[Row]:
    """The rows to show: a header before the first conversation of each section."""
    rows: list[Row] = []
    current: DateGroup | None = None
    for conversation in conversations:
        group = date_group(conversation, now)
        if group != current:
            rows.append(group)
            current = group
        rows.append(conversation)
    return rows


Index = QModelIndex | QPersistentModelIndex


class ConversationListModel(QAbstractListModel):
    IdRole = Qt.ItemDataRole.UserRole + 1
    PinnedRole = Qt.ItemDataRole.UserRole + 2
    UpdatedRole = Qt.ItemDataRole.UserRole + 3
    HeaderRole = Qt.ItemDataRole.UserRole + 4

    refreshed = Signal()
    errorOccurred = Signal(str)

    def __init__(
        self,
        chat: ChatService,
        library: Library,
        tasks: TaskGroup,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self._chat = chat
        self._library = library
        self._tasks = tasks
        self._rows: list[Row] = []
        self._load()
        chat.events.subscribe(self._on_engine_event)

    def _load(self) -> None:
        self._rows = sectioned(self._chat.conversations(), datetime.now().astimezone())

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        item = self._rows[index.row()]
        if isinstance(item, DateGroup):
            if role == Qt.ItemDataRole.DisplayRole:
                return item.label
            return True if role == self.HeaderRole else None
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
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return Qt.ItemFlag.NoItemFlags
        if isinstance(self._rows[index.row()], DateGroup):
            return Qt.ItemFlag.ItemIsEnabled  # a section header: shown, never selected
        return super().flags(index) | Qt.ItemFlag.ItemIsEditable

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        """Inline rename from the sidebar's editor."""
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        title = str(value).strip()
        conversation_id = self.id_at(index.row())
        if not title or not conversation_id:
            return False
        self.rename(conversation_id, title)
        return True

    def _conversation_at(self, row: int) -> Conversation | None:
        item = self._rows[row] if 0 <= row < len(self._rows) else None
        return item if isinstance(item, Conversation) else None

    def row_of(self, conversation_id: str) -> int:
        return next(
            (
                i
                for i, item in enumerate(self._rows)
                if isinstance(item, Conversation) and item.id == conversation_id
            ),
            -1,
        )

    def id_at(self, row: int) -> str:
        conversation = self._conversation_at(row)
        return conversation.id if conversation else ""

    def title_of(self, conversation_id: str) -> str:
        conversation = self._conversation_at(self.row_of(conversation_id))
        return conversation.title if conversation else ""

    def is_pinned(self, conversation_id: str) -> bool:
        conversation = self._conversation_at(self.row_of(conversation_id))
        return bool(conversation and conversation.pinned)

    def conversation_count(self) -> int:
        return sum(isinstance(item, Conversation) for item in self._rows)

    @Slot(str, bool)
    def set_pinned(self, conversation_id: str, pinned: bool) -> None:
        self._library.set_pinned(conversation_id, pinned)

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
        self._load()
        self.endResetModel()
        self.refreshed.emit()

    def _on_engine_event(self, event: EngineEvent) -> None:
        if isinstance(event, ConversationsChanged):
            self.refresh()
