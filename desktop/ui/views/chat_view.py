"""The right-hand side of the main window: header, transcript, composer (or onboarding)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QFontInfo,
    QFontMetricsF,
    QGuiApplication,
    QKeySequence,
    QPalette,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QSizePolicy,
    QStackedWidget,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.math_images import MathStyle
from desktop.ui.plain_text import tooltip
from desktop.ui.viewmodels.chat import ChatViewModel
from desktop.ui.viewmodels.local_servers import LocalServersModel
from desktop.ui.views.approval_dialog import ApprovalDialogs
from desktop.ui.views.assistant_picker import AssistantPicker
from desktop.ui.views.composer import Composer
from desktop.ui.views.elided import ElidedLabel
from desktop.ui.views.empty_chat import EmptyChat
from desktop.ui.views.file_drop import FileDrop
from desktop.ui.views.find_bar import FindBar
from desktop.ui.views.find_highlights import FindHighlights
from desktop.ui.views.labels import PlainLabel
from desktop.ui.views.onboarding import Onboarding
from desktop.ui.views.source_dialog import SourceDialogs
from desktop.ui.views.suggestion_chips import SuggestionChips
from desktop.ui.views.transcript import MAX_TEXT_WIDTH, Transcript
from desktop.ui.views.workspace_button import WorkspaceButton


class ChatView(QWidget):
    setupRequested = Signal()

    def __init__(
        self,
        chat: ChatViewModel,
        parent: QWidget | None = None,
        *,
        local_servers: LocalServersModel | None = None,
    ) -> None:
        super().__init__(parent)
        self._chat = chat

        header = self.header = QFrame(self)
        header.setObjectName("ChatHeader")
        self.title = ElidedLabel("", header)  # a long title elides; it never widens the column
        self.title.setObjectName("ChatTitle")
        # The room the header's controls leave: a long title shortens before they do.
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        header_row = QHBoxLayout(header)
        header_row.setContentsMargins(20, 10, 20, 10)
        header_row.addWidget(self.title, 1)
        self.usage = ElidedLabel("", header, shortest="000 tokens")
        self.usage.setObjectName("UsageLabel")
        header_row.addWidget(self.usage)
        # "Knowledge: Docs (indexing 40%)": library names shorten in the middle, so
        # whether one is still indexed stays readable.
        self.knowledge = ElidedLabel(
            "", header, shortest="Knowledge: …", mode=Qt.TextElideMode.ElideMiddle
        )
        self.knowledge.setObjectName("KnowledgeLabel")
        header_row.addWidget(self.knowledge)
        self.assistant = AssistantPicker(chat.assistants, header)
        header_row.addWidget(self.assistant)
        self.workspace = WorkspaceButton(chat.workspace, header)
        header_row.addWidget(self.workspace)

        self.banner = PlainLabel("", self)
        self.banner.setObjectName("Banner")
        self.banner.setWordWrap(True)
        self.banner.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.banner.hide()

        self.transcript = Transcript(chat, self)
        self.transcript.setAccessibleName(self.tr("Conversation"))
        self.transcript.setAccessibleDescription(
            self.tr("The messages of this chat; arrow and page keys scroll")
        )
        self.empty = EmptyChat(chat.starters, chat.assistants, self)
        self.composer = Composer(chat, self)

        chat_page = QWidget(self)
        page = QVBoxLayout(chat_page)
        page.setContentsMargins(0, 0, 0, 0)
        page.setSpacing(0)
        self.find_bar = FindBar(chat.find, self.transcript.top_message_id, chat_page)
        self.find_bar.hide()
        self.find_bar.closed.connect(self.focus_composer)
        self.find_highlights = FindHighlights(chat.find, self.transcript, chat.transcript)
        self.find_bar.stepped.connect(self.find_highlights.show_current)
        page.addWidget(self.find_bar)
        page.addWidget(self.transcript, 1)
        page.addWidget(self.empty, 1)
        self.suggestions = SuggestionChips(chat.suggestions, chat_page)
        suggestion_row = QHBoxLayout()
        suggestion_row.setContentsMargins(24, 4, 24, 0)
        suggestion_row.addStretch(1)
        suggestion_row.addWidget(self.suggestions, 100)
        suggestion_row.addStretch(1)
        self.suggestions.setMaximumWidth(MAX_TEXT_WIDTH + 24)
        page.addLayout(suggestion_row)
        composer_row = QHBoxLayout()
        composer_row.setContentsMargins(24, 8, 24, 16)
        composer_row.addStretch(1)
        composer_row.addWidget(self.composer, 100)
        composer_row.addStretch(1)
        self.composer.setMaximumWidth(MAX_TEXT_WIDTH + 24)
        page.addLayout(composer_row)
        self.chat_page = chat_page
        if chat.tray.available:  # files dropped anywhere on the chat join the message
            self.drop = FileDrop(chat_page)
            self.drop.filesDropped.connect(chat.tray.add_paths)

        self.onboarding = Onboarding(local_servers, self)
        self.onboarding.setupRequested.connect(self.setupRequested)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self.onboarding)
        self.pages.addWidget(chat_page)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(header)
        layout.addWidget(self.banner)
        layout.addWidget(self.pages, 1)

        self.approval_dialogs = ApprovalDialogs(chat.approvals, self)
        self.source_dialogs = SourceDialogs(chat.sources, self)
        chat.titleChanged.connect(self._on_title_changed)
        chat.usage.changed.connect(self._update_usage)
        self._update_usage()
        chat.knowledge.changed.connect(self._update_knowledge)
        self._update_knowledge()
        chat.models.needsSetupChanged.connect(self._update_page)
        chat.transcript.messagesReset.connect(self._update_empty)
        chat.transcript.messageAdded.connect(self._update_empty)
        self._on_title_changed(chat.title)
        self._update_page()
        self._update_empty()
        self._screen_followed = False
        self._update_math_style()
        self._add_find_actions()

    # --- how formulas look: as the text does, on this screen -----------------------

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.FontChange):
            self._update_math_style()
        super().changeEvent(event)

    def event(self, event: QEvent) -> bool:
        if event.type() in (
            QEvent.Type.ApplicationPaletteChange,
            QEvent.Type.ApplicationFontChange,
        ):
            self._update_math_style()
        return super().event(event)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        handle = self.window().windowHandle()
        if handle is not None and not self._screen_followed:
            self._screen_followed = True
            handle.screenChanged.connect(lambda _screen: self._update_math_style())
        self._update_math_style()

    def _update_math_style(self) -> None:
        font = self.transcript.font()
        metrics = QFontMetricsF(font)
        self._chat.transcript.set_math_style(
            MathStyle(
                colour=QGuiApplication.palette().color(QPalette.ColorRole.Text).name(),
                pixel_size=float(QFontInfo(font).pixelSize() or round(metrics.height())),
                middle=metrics.height() / 2 - metrics.descent(),
                scale=self.devicePixelRatioF(),
            )
        )

    def show_banner(self, text: str) -> None:
        self.banner.setText(text)
        self.banner.setVisible(bool(text))

    def focus_composer(self) -> None:
        self.composer.focus()

    # --- in-chat find ----------------------------------------------------------------

    def _add_find_actions(self) -> None:
        """Ctrl+F, F3 and Shift+F3 anywhere in the window. The Edit menu can show the
        same actions (`find_action`...): one action per key, so no shortcut is ambiguous."""
        self.find_action = QAction(self.tr("&Find in Chat…"), self)
        self.find_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Find))
        self.find_action.triggered.connect(self.show_find)
        self.find_next_action = QAction(self.tr("Find &Next"), self)
        self.find_next_action.setShortcut(QKeySequence(QKeySequence.StandardKey.FindNext))
        self.find_next_action.triggered.connect(lambda: self._find_step(self._chat.find.next))
        self.find_previous_action = QAction(self.tr("Find &Previous"), self)
        self.find_previous_action.setShortcut(QKeySequence(QKeySequence.StandardKey.FindPrevious))
        self.find_previous_action.triggered.connect(
            lambda: self._find_step(self._chat.find.previous)
        )
        for action in (self.find_action, self.find_next_action, self.find_previous_action):
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            self.addAction(action)

    def show_find(self) -> None:
        """Open the find bar (the selected text, if any, as its query) and focus it."""
        if self.pages.currentWidget() is self.chat_page:
            self.find_bar.open(self._selected_text())

    def _find_step(self, step: Callable[[], None]) -> None:
        """F3 / Shift+F3: the next or previous match; a closed bar opens first."""
        if self.find_bar.isHidden():
            self.show_find()
        if self.find_bar.isVisible():
            step()
            self.find_highlights.show_current()

    @staticmethod
    def _selected_text() -> str:
        widget = QApplication.focusWidget()
        if isinstance(widget, QTextEdit | QPlainTextEdit):
            return widget.textCursor().selectedText()
        if isinstance(widget, QLineEdit) and widget.objectName() != "FindField":
            return widget.selectedText()
        return ""

    def _on_title_changed(self, title: str) -> None:
        self.title.setText(title or self.tr("New chat"))

    def _update_usage(self) -> None:
        self.usage.setText(self._chat.usage.label())
        self.usage.setToolTip(tooltip(self._chat.usage.tooltip()))  # model names

    def _update_knowledge(self) -> None:
        text = self._chat.knowledge.text()
        self.knowledge.setText(text)
        self.knowledge.setToolTip(tooltip(self._chat.knowledge.tooltip()))
        self.knowledge.setVisible(bool(text))

    def _update_page(self, *_: object) -> None:
        self.pages.setCurrentIndex(0 if self._chat.models.needsSetup else 1)
        self.header.setVisible(not self._chat.models.needsSetup)
        if not self._chat.models.needsSetup:
            self.focus_composer()

    def _update_empty(self, *_: object) -> None:
        has_messages = bool(self.transcript.message_ids())
        self.transcript.setVisible(has_messages)
        self.empty.setVisible(not has_messages)
