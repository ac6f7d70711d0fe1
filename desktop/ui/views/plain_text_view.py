"""A read-only plain-text view for text that may be too long to lay out as it came.

It lays out at most `MAX_SHOWN_CHARS` with marked soft breaks in long runs (see
``render/plain`` and ``views/soft_breaks``): a longer text shows its start and its end,
and a line between them says how many characters are not shown. A selection copies the
text as it came: without the soft breaks (a zero-width space of the text itself is
kept), and a selection that reaches that line copies the characters it stands for
instead of it, so select all and copy gives the whole text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from desktop.ui.viewmodels.long_text import ends, gap_note
from desktop.ui.views.soft_breaks import insert_with_soft_breaks, plain_text_between


@dataclass(frozen=True, slots=True)
class _Gap:
    """Where the line standing for the hidden characters is in the document."""

    start: int  # the end of the start's text (the break before the line)
    end: int  # where the end's text begins
    hidden: str  # the characters the line stands for


class PlainTextView(QPlainTextEdit):
    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setUndoRedoEnabled(False)
        self._gap: _Gap | None = None
        self.show_text(text)

    def show_text(self, text: str) -> None:
        shown = ends(text)
        self.clear()
        self._gap = None
        cursor = QTextCursor(self.document())
        insert_with_soft_breaks(cursor, shown.head)
        if shown.hidden:
            start = cursor.position()
            cursor.insertBlock()
            marker = QTextCharFormat()
            marker.setFontItalic(True)
            marker.setForeground(self.palette().color(QPalette.ColorRole.PlaceholderText))
            cursor.insertText(gap_note(shown.hidden), marker)
            cursor.insertBlock()
            cursor.setCharFormat(QTextCharFormat())
            end = cursor.position()
            insert_with_soft_breaks(cursor, shown.tail)
            self._gap = _Gap(start, end, text[len(shown.head) : len(text) - len(shown.tail)])
        self.moveCursor(QTextCursor.MoveOperation.Start)

    def show_pieces(self, pieces: Sequence[str]) -> list[int]:
        """Show the text `pieces` make together (at most `MAX_SHOWN_CHARS` in all: the
        caller cuts it); where each piece ends in the document, soft breaks counted, so
        a piece can be selected or highlighted as the text it is."""
        self.clear()
        self._gap = None
        cursor = QTextCursor(self.document())
        ends = []
        for piece in pieces:
            if piece:
                insert_with_soft_breaks(cursor, piece)
            ends.append(cursor.position())
        self.moveCursor(QTextCursor.MoveOperation.Start)
        return ends

    def createMimeDataFromSelection(self) -> QMimeData:
        cursor = self.textCursor()
        first, last = cursor.selectionStart(), cursor.selectionEnd()
        document = self.document()
        gap = self._gap
        if gap is None or last <= gap.start or first >= gap.end:
            text = plain_text_between(document, first, last)
        else:  # the selection reaches the line: the characters it stands for instead
            before = plain_text_between(document, first, min(last, gap.start))
            text = before + gap.hidden + plain_text_between(document, max(first, gap.end), last)
        # Changed in place, not replaced: Qt owns the QMimeData it made and hands on (one
        # made here would be deleted by both Qt and Python, a crash at exit). Qt fills it
        # on its first read, so it is read before it is emptied; it keeps plain text only.
        mime = super().createMimeDataFromSelection()
        mime.text()
        for kind in mime.formats():
            mime.removeFormat(kind)
        mime.setText(text)
        return mime
