"""Editing a sent message in place: Enter saves and answers again, Esc cancels.

Saving is only offered when the text changed and is not empty; what happens next (a new
version of the message and a new answer) is the view-model's business.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from desktop.ui.views.composer import ComposerEdit


class _EditorText(ComposerEdit):
    """The composer's text box (Enter submits, Shift+Enter breaks the line) plus Esc."""

    cancelled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("InlineEditorText")
        self.setTabChangesFocus(True)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.cancelled.emit()
            return
        super().keyPressEvent(event)


class MessageEditor(QWidget):
    saved = Signal(str)
    cancelled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("InlineEditor")
        self._original = ""
        self.text = _EditorText(self)
        self.text.submitted.connect(self.save)
        self.text.cancelled.connect(self.cancelled)
        self.text.textChanged.connect(self._update_save)
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setToolTip(self.tr("Keep the message as it was (Esc)"))
        self.cancel_button.clicked.connect(self.cancelled)
        self.save_button = QPushButton(self.tr("Save && regenerate"), self)
        self.save_button.setObjectName("SaveEditButton")
        self.save_button.setToolTip(self.tr("Send the edited message as a new version (Enter)"))
        self.save_button.clicked.connect(self.save)

        buttons = QHBoxLayout()
        buttons.setSpacing(6)
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.text)
        layout.addLayout(buttons)

    def start(self, text: str) -> None:
        self._original = text
        self.text.setPlainText(text)
        self.text.moveCursor(QTextCursor.MoveOperation.End)
        self.text.setFocus(Qt.FocusReason.OtherFocusReason)
        self._update_save()

    def save(self) -> None:
        """Unchanged text has nothing to save: that ends editing like Cancel."""
        text = self.text.toPlainText()
        if self._can_save():
            self.saved.emit(text)
        elif text == self._original:
            self.cancelled.emit()

    def _can_save(self) -> bool:
        text = self.text.toPlainText()
        return bool(text.strip()) and text != self._original

    def _update_save(self) -> None:
        self.save_button.setEnabled(self._can_save())
