"""The conversation list: new chat, open, rename in place, delete with confirmation."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPoint, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QListView,
    QMenu,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.viewmodels.conversations import ConversationListModel
from desktop.ui.viewmodels.search import SearchModel
from desktop.ui.views.confirm import confirm_delete
from desktop.ui.views.labels import PlainLabel
from desktop.ui.views.scroll_anchor import ScrollAnchor
from desktop.ui.views.sidebar_delegates import ConversationDelegate, SearchHitDelegate


class Sidebar(QFrame):
    conversationChosen = Signal(str)
    searchHitChosen = Signal(str, str)  # conversation id, message id ("" for a title hit)
    newChatRequested = Signal()
    exportRequested = Signal(str)  # conversation id

    def __init__(
        self,
        model: ConversationListModel,
        search: SearchModel,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._model = model
        self._search = search
        self._current = ""
        self.setObjectName("Sidebar")
        self.setMinimumWidth(200)

        title = PlainLabel(self.tr("Chats"), self)
        title.setObjectName("SidebarTitle")
        self.new_button = QPushButton(self.tr("New chat"), self)
        self.new_button.setObjectName("NewChatButton")
        self.new_button.setToolTip(self.tr("Start a new chat (Ctrl+N)"))
        self.new_button.setAccessibleName(self.tr("New chat"))
        self.new_button.setAccessibleDescription(self.tr("Starts a new, empty chat"))
        self.new_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.new_button.clicked.connect(self.newChatRequested)

        self.search_field = QLineEdit(self)
        self.search_field.setObjectName("SearchField")
        self.search_field.setPlaceholderText(self.tr("Search chats (Ctrl+K)"))
        self.search_field.setClearButtonEnabled(True)
        self.search_field.setAccessibleName(self.tr("Search chats"))
        self.search_field.setAccessibleDescription(
            self.tr("Finds chats by title and message text; Down moves into the results")
        )
        self.search_field.textChanged.connect(search.set_query)
        self.search_field.returnPressed.connect(self._on_search_return)
        self.search_field.installEventFilter(self)

        self.results = QListView(self)
        self.results.setObjectName("ConversationList")
        self.results.setAccessibleName(self.tr("Search results"))
        self.results.setModel(search)
        self.results.setItemDelegate(SearchHitDelegate(self.results))
        self.results.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.results.setWordWrap(True)
        self.results.clicked.connect(self._on_hit_clicked)
        self.results.activated.connect(self._on_hit_clicked)
        self.no_results = PlainLabel(self.tr("No chats match."), self)
        self.no_results.setObjectName("MetaLabel")
        self.no_results.setAlignment(Qt.AlignmentFlag.AlignHCenter)

        self.list = QListView(self)
        self.list.setObjectName("ConversationList")
        self.list.setAccessibleName(self.tr("Chats"))
        self.list.setAccessibleDescription(
            self.tr("Your chats, pinned first, then by date; F2 renames, Delete removes one")
        )
        self.scroll_anchor = ScrollAnchor(self.list, model)  # also sets the model
        self.list.setItemDelegate(ConversationDelegate(self.list))
        # Headers and chats are the same height, so laying out 10,000 rows after a
        # change asks the delegate for one size instead of 10,000.
        self.list.setUniformItemSizes(True)
        self.list.setEditTriggers(
            QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.DoubleClicked
        )
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._show_menu)
        self.list.clicked.connect(self._on_clicked)
        self.list.activated.connect(self._on_clicked)

        delete_action = QAction(self.tr("Delete"), self.list)
        delete_action.setShortcut(QKeySequence.StandardKey.Delete)
        delete_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        delete_action.triggered.connect(self._delete_selected)
        self.list.addAction(delete_action)

        top = QHBoxLayout()
        top.addWidget(title, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 12, 10, 10)
        layout.setSpacing(10)
        layout.addLayout(top)
        layout.addWidget(self.new_button)
        layout.addWidget(self.search_field)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.results, 1)
        layout.addWidget(self.no_results)
        layout.addStretch(0)

        model.modelReset.connect(self._restore_selection)
        search.queryChanged.connect(self._update_mode)
        search.resultsChanged.connect(self._update_mode)
        self._update_mode()

    def set_current(self, conversation_id: str) -> None:
        """Highlight the open conversation (none for a new, unsaved chat)."""
        self._current = conversation_id
        self._restore_selection()

    def rename(self, conversation_id: str) -> None:
        row = self._model.row_of(conversation_id)
        if row >= 0:
            self.list.edit(self._model.index(row))

    def confirm_delete(self, conversation_id: str) -> QMessageBox:
        return confirm_delete(
            self,
            self.tr("Delete chat?"),
            self.tr("Delete “%1”? Its messages will be removed from this computer.").replace(
                "%1", self._model.title_of(conversation_id)
            ),
            lambda: self._model.delete(conversation_id),
        )

    def title_of(self, conversation_id: str) -> str:
        return self._model.title_of(conversation_id)

    def focus_search(self) -> None:
        self.search_field.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_field.selectAll()

    def _update_mode(self, *_: object) -> None:
        searching = self._search.active
        self.list.setVisible(not searching)
        self.results.setVisible(searching)
        self.no_results.setVisible(searching and self._search.rowCount() == 0)

    def _on_search_return(self) -> None:
        self._search.run()
        if self._search.rowCount():
            self._on_hit_clicked(self._search.index(0))

    def _on_hit_clicked(self, index: QModelIndex) -> None:
        hit = self._search.hit(index.row())
        if hit is not None:
            self.searchHitChosen.emit(hit.conversation_id, hit.message_id or "")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Esc in the search field clears it; Down moves into the results."""
        if watched is self.search_field and event.type() == QEvent.Type.KeyPress:
            key = event.key()  # type: ignore[attr-defined]
            if key == Qt.Key.Key_Escape and self.search_field.text():
                self.search_field.clear()
                return True
            if key == Qt.Key.Key_Down and self._search.rowCount():
                self.results.setFocus()
                self.results.setCurrentIndex(self._search.index(0))
                return True
        return super().eventFilter(watched, event)

    def _on_clicked(self, index: QModelIndex) -> None:
        conversation_id = self._model.id_at(index.row())
        if conversation_id and conversation_id != self._current:
            self.conversationChosen.emit(conversation_id)

    def _restore_selection(self) -> None:
        row = self._model.row_of(self._current) if self._current else -1
        selection = self.list.selectionModel()
        if row < 0:
            selection.clearSelection()
            return
        index = self._model.index(row)
        self.list.setCurrentIndex(index)

    def _delete_selected(self) -> None:
        conversation_id = self._model.id_at(self.list.currentIndex().row())
        if conversation_id:
            self.confirm_delete(conversation_id)

    def _show_menu(self, pos: QPoint) -> None:
        index = self.list.indexAt(pos)
        conversation_id = self._model.id_at(index.row()) if index.isValid() else ""
        if not conversation_id:
            return
        menu = QMenu(self)
        pinned = self._model.is_pinned(conversation_id)
        menu.addAction(
            self.tr("Unpin") if pinned else self.tr("Pin"),
            lambda: self._model.set_pinned(conversation_id, not pinned),
        )
        menu.addAction(self.tr("Rename"), lambda: self.rename(conversation_id))
        menu.addAction(self.tr("Export…"), lambda: self.exportRequested.emit(conversation_id))
        menu.addSeparator()
        menu.addAction(self.tr("Delete…"), lambda: self.confirm_delete(conversation_id))
        menu.exec(self.list.viewport().mapToGlobal(pos))
