"""The person's message: a bubble on the right, as wide as its text, editable in place."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QVBoxLayout, QWidget

from desktop.ui.viewmodels.chat import ChatViewModel
from desktop.ui.viewmodels.message_item import MessageItem
from desktop.ui.views.attachment_chips import SentChips
from desktop.ui.views.message_editor import MessageEditor
from desktop.ui.views.message_widget import MessageWidget

BUBBLE_SHARE = 0.8  # a bubble is at most this share of the column
MIN_BUBBLE_WIDTH = 120


class UserMessage(MessageWidget):
    def __init__(
        self,
        item: MessageItem,
        chat: ChatViewModel,
        parent: QWidget | None = None,
        width_hint: int = 0,
    ) -> None:
        super().__init__(item, chat, parent)
        self.setObjectName("UserMessage")
        self._natural: tuple[str, int] = ("", 0)  # (html, text width) cache
        self.bubble = QFrame(self)
        self.bubble.setObjectName("UserBubble")
        self.editor: MessageEditor | None = None  # built when editing starts

        inside = self._inside = QVBoxLayout(self.bubble)
        inside.setContentsMargins(14, 10, 14, 10)
        inside.setSpacing(6)
        attachments = chat.tray.files.of_message(item.id)
        self.chips = SentChips(chat.tray.files, attachments, self.bubble) if attachments else None
        for widget in (self.chips, self.body, self.notices, self.error_box):
            if widget is not None:
                inside.addWidget(widget)
        bubble_row = QHBoxLayout()
        bubble_row.setContentsMargins(0, 0, 0, 0)
        bubble_row.addStretch(1)
        bubble_row.addWidget(self.bubble)
        footer = QHBoxLayout()
        footer.setContentsMargins(0, 0, 0, 0)
        footer.setSpacing(8)
        footer.addStretch(1)
        footer.addWidget(self.status)
        footer.addWidget(self.action_slot)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(bubble_row)
        layout.addLayout(footer)
        margins = inside.contentsMargins()
        self.body.set_wrap_width(int(width_hint * BUBBLE_SHARE) - margins.left() - margins.right())
        self.update_item(item)

    def _cut_bar_place(self) -> tuple[QVBoxLayout, int]:
        return self._inside, self._inside.indexOf(self.body) + 1

    @property
    def is_editing(self) -> bool:
        return self.editor is not None and not self.editor.isHidden()

    def update_item(self, item: MessageItem) -> None:
        self.body.set_html(item.html)
        # Files sent without words: the bubble holds only their chips.
        self.body.setVisible(self.chips is None or bool(item.markdown.strip()) or self.is_editing)
        super().update_item(item)

    def fit_to(self, column_width: int) -> None:
        """As wide as the text (at most 80% of the column); the editor takes the column."""
        if self.is_editing:
            width = column_width
        else:
            margins = self._inside.contentsMargins()
            natural = self._natural_width()
            if self.chips is not None:
                natural = max(natural, self.chips.sizeHint().width())
            natural += margins.left() + margins.right() + 4
            width = max(MIN_BUBBLE_WIDTH, min(natural, int(column_width * BUBBLE_SHARE)))
        if self.bubble.width() != width or self.bubble.minimumWidth() != width:
            self.bubble.setFixedWidth(width)

    def _natural_width(self) -> int:
        html = self._item.html
        if self._natural[0] != html:
            document = self.body.document().clone(self)
            document.setTextWidth(-1)
            self._natural = (html, math.ceil(document.idealWidth()))
            document.deleteLater()
        return self._natural[1]

    def begin_edit(self) -> None:
        if self.editor is None:
            self.editor = MessageEditor(self.bubble)
            self.editor.saved.connect(self._on_saved)
            self.editor.cancelled.connect(self.end_edit)
            self._inside.insertWidget(1, self.editor)
        self.body.hide()
        self.editor.show()
        self.editor.start(self._item.markdown)
        self.refresh_actions()

    def end_edit(self) -> None:
        if self.editor is None or self.editor.isHidden():
            return
        self.editor.hide()
        self.body.setVisible(self.chips is None or bool(self._item.markdown.strip()))
        self.refresh_actions()
        self.body.setFocus(Qt.FocusReason.OtherFocusReason)  # keyboard users carry on here

    def _on_saved(self, text: str) -> None:
        self.end_edit()
        self.editSubmitted.emit(self._id, text)
