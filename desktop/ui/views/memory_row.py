"""The line under a `memory_save` card: what was kept, with Edit and Undo.

The text is the model's (quoted from the conversation), so it is shown as plain text;
Edit opens it in a small editor in place, Undo asks for the memory to be removed. What
happened comes back as a status line, and Undo is not offered again once done.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from desktop.ui.views.labels import PlainLabel

EDITOR_LINES = 3


class MemorySaveRow(QWidget):
    undoRequested = Signal(str)  # the text saved
    editRequested = Signal(str, str)  # the text saved, the new text

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("MemorySaveRow")
        self._text = text
        self.label = PlainLabel("", self)
        self.label.setWordWrap(True)
        self.edit_button = QPushButton(self.tr("Edit"), self)
        self.undo_button = QPushButton(self.tr("Undo"), self)
        for button in (self.edit_button, self.undo_button):
            button.setFlat(True)
        self.editor = QPlainTextEdit(self)
        self.editor.setTabChangesFocus(True)
        line = self.editor.fontMetrics().lineSpacing()
        self.editor.setFixedHeight(line * EDITOR_LINES + 12)
        self.save_button = QPushButton(self.tr("Save"), self)
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.status = PlainLabel("", self)
        self.status.setObjectName("MetaLabel")
        self.status.setWordWrap(True)

        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.label, 1)
        top.addWidget(self.edit_button)
        top.addWidget(self.undo_button)
        editing = QHBoxLayout()
        editing.setContentsMargins(0, 0, 0, 0)
        editing.addStretch(1)
        editing.addWidget(self.cancel_button)
        editing.addWidget(self.save_button)
        self._editing = QWidget(self)
        editing_box = QVBoxLayout(self._editing)
        editing_box.setContentsMargins(0, 0, 0, 0)
        editing_box.addWidget(self.editor)
        editing_box.addLayout(editing)
        self._editing.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self._editing)
        layout.addWidget(self.status)
        self.status.hide()

        self.edit_button.clicked.connect(self._start_edit)
        self.cancel_button.clicked.connect(self._editing.hide)
        self.save_button.clicked.connect(self._save)
        self.undo_button.clicked.connect(self._undo)
        self.show_text(text)

    def show_text(self, text: str) -> None:
        self._text = text
        self.label.setText(self.tr("Saved to memory: %1").replace("%1", text))

    def show_status(self, status: str, undone: bool) -> None:
        self.status.setText(status)
        self.status.setVisible(bool(status))
        self.undo_button.setVisible(not undone)
        self.edit_button.setVisible(not undone)
        if undone:
            self._editing.hide()

    def _start_edit(self) -> None:
        self.editor.setPlainText(self._text)
        self._editing.show()
        self.editor.setFocus()

    def _save(self) -> None:
        new_text = self.editor.toPlainText().strip()
        self._editing.hide()
        if new_text and new_text != self._text:
            self.editRequested.emit(self._text, new_text)

    def _undo(self) -> None:
        self.undo_button.setEnabled(False)
        self.undoRequested.emit(self._text)
