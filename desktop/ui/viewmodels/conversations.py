"""The sidebar's list of conversations as a Qt item model.

Pinned first, then newest first, in date sections (Today, Yesterday, ...). Section
headers are rows of their own that cannot be selected, so the list view stays a plain
QListView and scrolls 10,000 conversations without any custom layout.

A change to one conversation reads only that conversation back and inserts, moves,
updates or removes its row (and a header that comes or goes with it): a reset would
reload 10,000 rows and cost the view its selection, scroll position and open editor.
The whole list is reloaded only when the event names no conversation or the local
date has moved on (sections are calendar days).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, time, timedelta
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

from desktop.core.events import ConversationsChanged, EngineEvent
from desktop.core.models import ConversationSummary
from desktop.engine.library import Library
from desktop.engine.turn.chat_service import ChatService
from desktop.ui.plain_text import tooltip
from desktop.ui.viewmodels.conversation_rows import (
    Change,
    Inserted,
    Moved,
    Removed,
    SectionedRows,
    Updated,
)
from desktop.ui.viewmodels.date_groups import DateGroup
from desktop.ui.viewmodels.tasks import TaskGroup

Index = QModelIndex | QPersistentModelIndex
# Past midnight by this much before re-sectioning: a coarse timer may fire a bit early.
_AFTER_MIDNIGHT_MS = 2_000


def _local_now() -> datetime:
    return datetime.now().astimezone()


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
        *,
        clock: Callable[[], datetime] = _local_now,
    ):
        """`clock` gives timezone-aware local time; sections are its calendar days."""
        super().__init__(parent)
        self._clock = clock
        self._chat = chat
        self._library = library
        self._tasks = tasks
        self._midnight = QTimer(self)
        self._midnight.setSingleShot(True)
        self._midnight.setTimerType(Qt.TimerType.VeryCoarseTimer)
        self._midnight.timeout.connect(self.roll_over)
        self._rows = self._load()
        chat.events.subscribe(self._on_engine_event)

    def _load(self) -> SectionedRows:
        now = self._clock()
        self._arm_midnight(now)
        return SectionedRows(self._chat.conversation_summaries(), now)

    def _arm_midnight(self, now: datetime) -> None:
        midnight = datetime.combine(now.date() + timedelta(days=1), time(), now.tzinfo)
        self._midnight.start(int((midnight - now).total_seconds() * 1000) + _AFTER_MIDNIGHT_MS)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        # Kept lean: the list view asks once or twice per row whenever it lays out.
        return 0 if parent.isValid() else len(self._rows.rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        item = self._rows.rows[index.row()]
        if isinstance(item, DateGroup):
            if role == Qt.ItemDataRole.DisplayRole:
                return item.label
            return True if role == self.HeaderRole else None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return item.title
        if role == Qt.ItemDataRole.ToolTipRole:
            return tooltip(item.title)  # a model may have written it
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
        if isinstance(self._rows.rows[index.row()], DateGroup):
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

    def _conversation_at(self, row: int) -> ConversationSummary | None:
        item = self._rows.rows[row] if 0 <= row < len(self._rows) else None
        return item if isinstance(item, ConversationSummary) else None

    def row_of(self, conversation_id: str) -> int:
        return self._rows.row_of(conversation_id)

    def id_at(self, row: int) -> str:
        conversation = self._conversation_at(row)
        return conversation.id if conversation else ""

    def title_of(self, conversation_id: str) -> str:
        conversation = self._rows.get(conversation_id)
        return conversation.title if conversation else ""

    def is_pinned(self, conversation_id: str) -> bool:
        conversation = self._rows.get(conversation_id)
        return bool(conversation and conversation.pinned)

    def conversation_count(self) -> int:
        return self._rows.conversation_count()

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
        """Reload every row: for changes no single conversation explains."""
        self.beginResetModel()
        self._rows = self._load()
        self.endResetModel()
        self.refreshed.emit()

    def update_conversation(self, conversation_id: str) -> None:
        """Read one conversation back and bring its row (and its section) up to date."""
        if self._clock().date() != self._rows.now.date():
            self.refresh()  # every section boundary moved
            return
        summary = self._chat.conversation_summary(conversation_id)
        self._rows.update(conversation_id, summary, self._announce)

    @contextmanager
    def _announce(self, change: Change) -> Iterator[None]:
        """Tell the views about one change around the moment the rows take it."""
        root = QModelIndex()
        match change:
            case Inserted(row):
                self.beginInsertRows(root, row, row)
                yield
                self.endInsertRows()
            case Removed(row):
                self.beginRemoveRows(root, row, row)
                yield
                self.endRemoveRows()
            case Moved(source, destination):
                if not self.beginMoveRows(root, source, source, root, destination):
                    raise ValueError(f"not a move: row {source} before row {destination}")
                yield
                self.endMoveRows()
            case Updated(row):
                yield
                index = self.index(row)
                self.dataChanged.emit(index, index)

    @Slot()
    def roll_over(self) -> None:
        """Re-section once the local date has moved on (the midnight timer calls this)."""
        now = self._clock()
        if now.date() != self._rows.now.date():
            self.refresh()
        else:  # fired early (or the clock was set back): wait for the real midnight
            self._arm_midnight(now)

    def _on_engine_event(self, event: EngineEvent) -> None:
        if isinstance(event, ConversationsChanged):
            if event.conversation_id is None:
                self.refresh()
            else:
                self.update_conversation(event.conversation_id)
