"""A read-only plain-text view for text that may be too long to lay out as it came.

It shows what `message_item.laid_out_text` makes of the text (at most the shown limit,
soft breaks in long runs) and copies a selection without the soft breaks, as it came.
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from desktop.ui.viewmodels.message_item import SOFT_BREAK, laid_out_text


class PlainTextView(QPlainTextEdit):
    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.show_text(text)

    def show_text(self, text: str) -> None:
        self.setPlainText(laid_out_text(text))

    def createMimeDataFromSelection(self) -> QMimeData:
        mime = super().createMimeDataFromSelection()
        if SOFT_BREAK in mime.text():
            mime.setText(mime.text().replace(SOFT_BREAK, ""))
        return mime
