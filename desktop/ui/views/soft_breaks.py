"""What a selection copies: the text as it came, without the soft breaks added for layout.

The renderer puts zero-width spaces into long runs of text so that Qt's layout stays
linear (see ``render/plain.py``), each marked with the anchor name `SOFT_BREAK_NAME`. A
copy leaves out exactly those characters: a zero-width space that was in the text
itself is copied like any other character.
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QTextCharFormat, QTextCursor, QTextDocument

from desktop.ui.viewmodels.long_text import SOFT_BREAK, SOFT_BREAK_NAME, run_pieces

_KEEP = QTextCursor.MoveMode.KeepAnchor


def utf16_length(text: str) -> int:
    """How many positions `text` takes in a Qt document (UTF-16 code units: an emoji
    outside the Basic Multilingual Plane takes two)."""
    return len(text.encode("utf-16-le")) // 2


def mark_soft_breaks(document: QTextDocument, positions: list[int]) -> None:
    """Mark the characters at `positions` as soft breaks (for text set as plain text)."""
    marked = QTextCharFormat()
    marked.setAnchor(True)
    marked.setAnchorNames([SOFT_BREAK_NAME])
    cursor = QTextCursor(document)
    # One edit block: the document lays out once at the end, not once per mark (100,000
    # characters without a space took 2 s mark by mark, 0.1 s in one block).
    cursor.beginEditBlock()
    for position in positions:
        cursor.setPosition(position)
        cursor.setPosition(position + 1, _KEEP)
        cursor.mergeCharFormat(marked)
    cursor.endEditBlock()


def insert_with_soft_breaks(cursor: QTextCursor, text: str) -> None:
    """Insert `text` at `cursor` in plain format, with marked soft breaks in its long
    runs (at most about `SOFT_BREAK_RUN` characters between two)."""
    pieces = run_pieces(text)
    cursor.insertText(SOFT_BREAK.join(pieces), QTextCharFormat())
    end = cursor.position() - utf16_length(pieces[-1])
    positions = []
    for piece in reversed(pieces[:-1]):  # each break comes just before the piece after it
        end -= 1
        positions.append(end)
        end -= utf16_length(piece)
    mark_soft_breaks(cursor.document(), positions)


def plain_text_between(document: QTextDocument, first: int, last: int) -> str:
    """The document's text from `first` to `last` as it came: without the marked soft
    breaks, with any zero-width space of the text itself."""
    if first >= last:
        return ""
    cursor = QTextCursor(document)
    cursor.setPosition(first)
    cursor.setPosition(last, _KEEP)
    text = cursor.selection().toPlainText()
    positions = soft_break_positions(document, first, last)
    if not positions:
        return text
    # Plain text keeps Qt's positions one for one (a block break is one "\n"), so the
    # breaks are found by their UTF-16 offsets from `first`.
    units = memoryview(text.encode("utf-16-le"))
    kept = bytearray()
    start = 0
    for position in positions:
        offset = 2 * (position - first)
        kept += units[start:offset]
        start = offset + 2
    kept += units[start:]
    return kept.decode("utf-16-le")


def soft_break_positions(document: QTextDocument, start: int, end: int) -> list[int]:
    """Where the marked soft breaks between `start` and `end` are."""
    positions: list[int] = []
    block = document.findBlock(start)
    while block.isValid() and block.position() < end:
        fragments = block.begin()
        while not fragments.atEnd():
            fragment = fragments.fragment()
            if SOFT_BREAK_NAME in fragment.charFormat().anchorNames():
                position = fragment.position()
                for char in fragment.text():
                    if char == SOFT_BREAK and start <= position < end:
                        positions.append(position)
                    position += utf16_length(char)
            fragments += 1
        block = block.next()
    return positions


def without_soft_breaks(mime: QMimeData, cursor: QTextCursor) -> QMimeData:
    """`mime`, made from `cursor`'s selection by Qt, with the marked soft breaks left out
    of its text and HTML (unchanged when the selection has none)."""
    if not mime.hasText() or SOFT_BREAK not in mime.text():
        return mime
    start, end = cursor.selectionStart(), cursor.selectionEnd()
    positions = soft_break_positions(cursor.document(), start, end)
    if not positions:
        return mime  # only zero-width spaces of the text itself
    copy = cursor.document().clone()
    editor = QTextCursor(copy)
    for position in reversed(positions):
        editor.setPosition(position)
        editor.setPosition(position + 1, _KEEP)
        editor.removeSelectedText()
    editor.setPosition(cursor.anchor() - sum(p < cursor.anchor() for p in positions))
    editor.setPosition(cursor.position() - sum(p < cursor.position() for p in positions), _KEEP)
    selection = editor.selection()
    # Changed in place, not replaced: Qt owns the QMimeData it made and hands on (a new
    # one made here would be deleted by both Qt and Python, a crash at exit).
    mime.setText(selection.toPlainText())
    if mime.hasHtml():
        mime.setHtml(selection.toHtml())
    return mime
