"""A read-only plain-text view for text that may be too long to lay out as it came.

It lays out at most `MAX_SHOWN_CHARS` with soft breaks in long runs (see
``render/plain``): a longer text shows its start and its end, and a line between them
says how many characters are not shown. A selection copies the text as it came: without
the soft breaks, and a selection that reaches that line copies the characters it stands
for instead of it, so select all and copy gives the whole text.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from desktop.ui.viewmodels.long_text import SOFT_BREAK, break_runs, ends, gap_note


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
        self.setPlainText(break_runs(shown.head))
        self._gap = None
        if not shown.hidden:
            return
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        start = cursor.position()
        cursor.insertBlock()
        marker = QTextCharFormat()
        marker.setFontItalic(True)
        marker.setForeground(self.palette().color(QPalette.ColorRole.PlaceholderText))
        cursor.insertText(gap_note(shown.hidden), marker)
        cursor.insertBlock()
        cursor.setCharFormat(QTextCharFormat())
        end = cursor.position()
        cursor.insertText(break_runs(shown.tail), QTextCharFormat())
        self._gap = _Gap(start, end, text[len(shown.head) : len(text) - len(shown.tail)])
        self.moveCursor(QTextCursor.MoveOperation.Start)

    def createMimeDataFromSelection(self) -> QMimeData:
        cursor = self.textCursor()
        first, last = cursor.selectionStart(), cursor.selectionEnd()
        gap = self._gap
        if gap is None or last <= gap.start or first >= gap.end:
            text = self._text_between(first, last)
        else:  # the selection reaches the line: the characters it stands for instead
            before = self._text_between(first, min(last, gap.start))
            text = before + gap.hidden + self._text_between(max(first, gap.end), last)
        mime = QMimeData()
        mime.setText(text)
        return mime

    def _text_between(self, first: int, last: int) -> str:
        if first >= last:
            return ""
        cursor = QTextCursor(self.document())
        cursor.setPosition(first)
        cursor.setPosition(last, QTextCursor.MoveMode.KeepAnchor)
        return cursor.selection().toPlainText().replace(SOFT_BREAK, "")
