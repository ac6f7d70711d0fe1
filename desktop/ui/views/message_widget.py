"""One message in the transcript: a bubble for the person, a full-width answer for the model."""

from __future__ import annotations

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.viewmodels.chat import ChatViewModel
from desktop.ui.viewmodels.message_item import MessageItem
from desktop.ui.views.rich_text import RichText


def _label(name: str, parent: QWidget) -> QLabel:
    label = QLabel(parent)
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class MessageWidget(QFrame):
    def __init__(self, item: MessageItem, chat: ChatViewModel, parent: QWidget | None = None):
        super().__init__(parent)
        self._chat = chat
        self._item = item
        self._reasoning_touched = False  # the person opened/closed it: stop auto-toggling
        self.setObjectName("UserBubble" if item.is_user else "AssistantMessage")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 10, 14, 10) if item.is_user else layout.setContentsMargins(
            2, 4, 2, 4
        )
        layout.setSpacing(6)

        self.reasoning_toggle = QToolButton(self)
        self.reasoning_toggle.setObjectName("ReasoningToggle")
        self.reasoning_toggle.setCheckable(True)
        self.reasoning_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.reasoning_toggle.clicked.connect(self._on_reasoning_clicked)
        self.reasoning_body = RichText(self)
        self.reasoning_body.setObjectName("ReasoningBody")
        layout.addWidget(self.reasoning_toggle)
        layout.addWidget(self.reasoning_body)

        self.body = RichText(self)
        self.body.setObjectName("MessageBody")
        self.body.document().setDefaultStyleSheet(chat.document_css)
        self.body.linkActivated.connect(self._on_link)
        layout.addWidget(self.body)

        self.notices = _label("MetaLabel", self)
        self.error_box = _label("ErrorBox", self)
        layout.addWidget(self.notices)
        layout.addWidget(self.error_box)

        footer = QHBoxLayout()
        footer.setSpacing(8)
        self.status = _label("StatusLabel", self)
        self.meta = _label("MetaLabel", self)
        self.copy_button = QToolButton(self)
        self.copy_button.setText(self.tr("Copy"))
        self.copy_button.setToolTip(self.tr("Copy this message as Markdown"))
        self.copy_button.setAutoRaise(True)
        self.copy_button.clicked.connect(self._copy_message)
        footer.addWidget(self.status)
        footer.addWidget(self.meta, 1)
        footer.addWidget(self.copy_button)
        layout.addLayout(footer)
        self.update_item(item)

    def fit_bubble(self, column_width: int) -> None:
        """Size a person's bubble to its text, at most 80% of the column."""
        document = self.body.document().clone(self)
        document.setTextWidth(-1)
        margins = self.layout().contentsMargins()
        natural = int(document.idealWidth() + 0.999) + margins.left() + margins.right() + 4
        document.deleteLater()
        width = max(120, min(natural, int(column_width * 0.8)))
        self.setFixedWidth(width)

    @property
    def item(self) -> MessageItem:
        return self._item

    def update_item(self, item: MessageItem) -> None:
        self._item = item
        has_reasoning = bool(item.reasoning_html)
        self.reasoning_toggle.setVisible(has_reasoning)
        self.reasoning_toggle.setText(item.reasoning_label)
        if has_reasoning and not self._reasoning_touched:
            # Live reasoning streams open; it folds away once the answer starts.
            self.reasoning_toggle.setChecked(item.reasoning_live)
        expanded = has_reasoning and self.reasoning_toggle.isChecked()
        self.reasoning_toggle.setArrowType(
            Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow
        )
        self.reasoning_body.setVisible(expanded)
        if expanded:
            self.reasoning_body.set_html(item.reasoning_html)

        self.body.setVisible(bool(item.html) or (item.streaming and not has_reasoning))
        self.body.set_html(item.html or (self.tr("…") if item.streaming else ""))
        self.notices.setVisible(bool(item.notices))
        self.notices.setText("\n".join(item.notices))
        self.error_box.setVisible(bool(item.error))
        self.error_box.setText(item.error)
        self.status.setVisible(bool(item.status_label))
        self.status.setText(item.status_label)
        self.meta.setVisible(bool(item.meta) and not item.streaming)
        self.meta.setText(item.meta)
        self.copy_button.setVisible(bool(item.markdown) and not item.streaming and not item.is_user)

    def _on_reasoning_clicked(self) -> None:
        self._reasoning_touched = True
        self.update_item(self._item)

    def _on_link(self, url: QUrl) -> None:
        self._chat.activate_link(url.toString(), self._item.markdown)

    def _copy_message(self) -> None:
        QGuiApplication.clipboard().setText(self._item.markdown)
