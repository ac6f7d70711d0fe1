"""The scrolling list of messages; sticks to the bottom while an answer streams."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QScrollArea, QVBoxLayout, QWidget

from desktop.ui.viewmodels.chat import ChatViewModel
from desktop.ui.viewmodels.message_item import MessageItem
from desktop.ui.views.message_widget import MessageWidget

MAX_TEXT_WIDTH = 820  # comfortable line length for reading
STICK_MARGIN = 48  # px from the bottom that still counts as "at the bottom"


class Transcript(QScrollArea):
    def __init__(self, chat: ChatViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._chat = chat
        self._widgets: dict[str, MessageWidget] = {}
        self._rows: dict[str, QWidget] = {}
        self._stick = True
        self.setObjectName("Transcript")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        inner = QWidget()
        inner.setObjectName("TranscriptInner")
        self._column = QVBoxLayout(inner)
        self._column.setContentsMargins(24, 16, 24, 16)
        self._column.setSpacing(14)
        self._column.addStretch(1)  # messages start at the top
        self.setWidget(inner)

        bar = self.verticalScrollBar()
        bar.valueChanged.connect(self._on_scrolled)
        bar.rangeChanged.connect(self._on_range_changed)
        chat.messagesReset.connect(self.reset)
        chat.messageAdded.connect(self.add)
        chat.messageUpdated.connect(self.update_message)

    def message_widget(self, message_id: str) -> MessageWidget | None:
        return self._widgets.get(message_id)

    def message_ids(self) -> list[str]:
        return list(self._widgets)

    def reset(self, items: list[MessageItem]) -> None:
        for row in self._rows.values():
            row.deleteLater()
        self._widgets.clear()
        self._rows.clear()
        for item in items:
            self.add(item)
        self._stick = True
        self.scroll_to_bottom()

    def add(self, item: MessageItem) -> None:
        widget = MessageWidget(item, self._chat)
        row = QWidget()
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        if item.is_user:  # a bubble on the right, as wide as its text up to 80%
            line.addWidget(widget, 0, Qt.AlignmentFlag.AlignRight)
            widget.fit_bubble(self._column_width())
        else:
            line.addWidget(widget)
        self._column.insertWidget(self._column.count() - 1, row)
        self._widgets[item.id] = widget
        self._rows[item.id] = row
        if item.is_user:
            self._stick = True  # the person just sent: follow the answer

    def update_message(self, item: MessageItem) -> None:
        widget = self._widgets.get(item.id)
        if widget is not None:
            widget.update_item(item)

    def _column_width(self) -> int:
        margins = self._column.contentsMargins()
        return max(200, self.viewport().width() - margins.left() - margins.right())

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Keep the text column centred and no wider than is comfortable to read."""
        side = max(24, (self.viewport().width() - MAX_TEXT_WIDTH) // 2)
        self._column.setContentsMargins(side, 16, side, 16)
        super().resizeEvent(event)
        width = self._column_width()
        for widget in self._widgets.values():
            if widget.item.is_user:
                widget.fit_bubble(width)

    def scroll_to_bottom(self) -> None:
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _on_scrolled(self, value: int) -> None:
        bar = self.verticalScrollBar()
        self._stick = value >= bar.maximum() - STICK_MARGIN

    def _on_range_changed(self, _minimum: int, maximum: int) -> None:
        if self._stick:
            self.verticalScrollBar().setValue(maximum)
