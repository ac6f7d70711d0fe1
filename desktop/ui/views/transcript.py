"""The scrolling list of messages: a `VirtualList` of message widgets, wired to the chat.

Only messages near the viewport have widgets, so `message_widget(id)` returns None for a
message far from it. While an answer streams the view sticks to the bottom, unless the
person scrolled up: then it stays put and a "Jump to latest" button offers the way back.
What a person asks of a message (edit, regenerate, versions, continue, retry, pin,
delete) goes to the view-model; deleting asks first. The rolling summary shows as a
divider above the first message sent in full (see `summary_divider`).
"""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton, QWidget

from desktop.ui.icons import set_icon
from desktop.ui.viewmodels.chat import ChatViewModel
from desktop.ui.viewmodels.message_item import MessageItem
from desktop.ui.views.confirm import confirm_delete
from desktop.ui.views.message_widget import AssistantMessage, MessageWidget
from desktop.ui.views.summary_divider import SummaryDivider
from desktop.ui.views.user_message import UserMessage
from desktop.ui.views.virtual_list import MAX_TEXT_WIDTH, VirtualList

__all__ = ["MAX_TEXT_WIDTH", "Transcript"]


class Transcript(VirtualList):
    widgetCreated = Signal(object)  # MessageWidget: a message was laid out (find highlights it)

    def __init__(self, chat: ChatViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._chat = chat
        self.setObjectName("Transcript")
        self.viewport().setObjectName("TranscriptViewport")
        self.jump_button = QPushButton(self.tr("Jump to latest"), self)
        set_icon(self.jump_button, "arrow-down", tone="text")
        self.jump_button.setObjectName("JumpButton")
        self.jump_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.jump_button.setToolTip(self.tr("Scroll to the newest message (End)"))
        self.jump_button.clicked.connect(self.scroll_to_bottom)
        self.jump_button.hide()

        chat.transcript.messagesReset.connect(self.reset)
        chat.transcript.messagesPrepended.connect(self.prepend)
        chat.transcript.messageAdded.connect(self.add)
        chat.transcript.messageUpdated.connect(self.update_message)
        chat.transcript.focusMessage.connect(self.scroll_to_message)
        chat.context.changed.connect(self._on_context_changed)
        chat.context.busyChanged.connect(self._on_context_changed)
        app = cast(QApplication, QApplication.instance())
        app.focusChanged.connect(self._on_focus_changed)

    def _follows(self, item: MessageItem) -> bool:
        return item.is_user  # the person just sent: follow the answer

    def start_edit(self, message_id: str) -> None:
        """Open a user message's inline editor, scrolling it into view first."""
        self.scroll_to_message(message_id)
        widget = self._widgets.get(message_id)
        if widget is not None:
            widget.begin_edit()

    def confirm_delete(self, message_id: str) -> QMessageBox:
        return confirm_delete(
            self,
            self.tr("Delete message?"),
            self.tr("Delete this message and everything after it in this branch of the chat?"),
            lambda: self._chat.delete_message(message_id),
        )

    def _create(self, item: MessageItem) -> MessageWidget:
        kind = UserMessage if item.is_user else AssistantMessage
        widget = kind(item, self._chat, self.viewport(), self._column())
        widget.editSubmitted.connect(self._chat.edit_message)
        widget.regenerateRequested.connect(self._chat.regenerate)
        widget.versionRequested.connect(self._chat.show_version)
        widget.continueRequested.connect(self._chat.continue_message)
        widget.retryRequested.connect(self._chat.retry)
        widget.deleteRequested.connect(self.confirm_delete)
        widget.pinRequested.connect(self._chat.context.toggle_pin)
        self._show_context(widget)
        self.widgetCreated.emit(widget)
        return widget  # shown by `_place` once it has its size: no layout at a wrong width

    def summary_divider(self) -> SummaryDivider | None:
        """The divider's widget, when its message has one now."""
        widget = self._widgets.get(self._chat.context.divider_before)
        header = widget.header if widget is not None else None
        return header if isinstance(header, SummaryDivider) else None

    def _show_context(self, widget: MessageWidget) -> None:
        context = self._chat.context
        widget.set_pinned(context.is_pinned(widget.item.id))
        if widget.item.id != context.divider_before:
            widget.set_header(None)
        elif isinstance(widget.header, SummaryDivider):
            widget.header.refresh()
        else:
            widget.set_header(SummaryDivider(context, widget))

    def _on_context_changed(self, *_args: object) -> None:
        """The divider moved, opened or closed, or pins changed: heights change too."""
        anchor = self._anchor()
        for widget in self._widgets.values():
            self._show_context(widget)
        self._refresh(anchor)

    def _placed(self) -> None:
        """The "Jump to latest" button floats over the view whenever it is not at the end."""
        show = bool(self._rows) and not self.at_bottom
        if show:
            self.jump_button.adjustSize()
            area = self.viewport().geometry()
            x = area.x() + (area.width() - self.jump_button.width()) // 2
            y = area.bottom() - self.jump_button.height() - 12
            self.jump_button.move(x, y)
            self.jump_button.raise_()
        self.jump_button.setVisible(show)

    def _on_focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        for widget in (old, new):
            message = self._message_of(widget)
            if message is not None:
                message.refresh_actions()

    def _message_of(self, widget: QObject | None) -> MessageWidget | None:
        while widget is not None and widget is not self:
            if isinstance(widget, MessageWidget):
                return widget
            widget = widget.parent()
        return None
