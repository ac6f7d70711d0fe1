"""A read-only plain-text view for text that may be too long to lay out as it came.

It shows what `message_item.laid_out_pieces` makes of the text (at most the shown limit,
soft breaks in long runs) and copies a selection without the soft breaks, as it came.
"""

from __future__ import annotations

from itertools import accumulate

from PySide6.QtCore import QMimeData
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from desktop.ui.viewmodels.message_item import SOFT_BREAK, laid_out_pieces
from desktop.ui.views.soft_breaks import mark_soft_breaks, utf16_length, without_soft_breaks


class PlainTextView(QPlainTextEdit):
    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.show_text(text)

    def show_text(self, text: str) -> None:
        pieces = laid_out_pieces(text)
        self.setPlainText(SOFT_BREAK.join(pieces))
        # Each break follows its piece and the breaks before it (in Qt's UTF-16 positions).
        ends = accumulate(utf16_length(piece) for piece in pieces[:-1])
        mark_soft_breaks(self.document(), [end + number for number, end in enumerate(ends)])

    def createMimeDataFromSelection(self) -> QMimeData:
        return without_soft_breaks(super().createMimeDataFromSelection(), self.textCursor())
