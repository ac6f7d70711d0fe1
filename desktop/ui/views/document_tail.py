"""Keep a QTextDocument equal to `setHtml(html)` while `html` grows, re-importing only its end.

While an answer streams, each update's HTML is the previous one with its last block
changed and perhaps a few blocks added. `setHtml` would parse and lay out the whole
message on every update (about 25 ms for a 20 KB answer, more than half a frame budget);
`TailWriter` keeps every top-level *unit* that did not change and replaces only the
document after the last unchanged one.

Why the document stays equal to a full `setHtml` (tests/ui/test_document_tail.py streams
hundreds of documents and compares `toHtml()` after every update):

- Units are cut after top-level elements. Whitespace between elements starts the next
  unit, so a unit followed by another never ends in whitespace (Qt turns whitespace at
  the very end of the HTML into a trailing space), and the last unit is always re-imported.
- Qt's importer treats *empty* elements specially (an empty paragraph, list item or
  heading, an ``<hr>``, a table whose last cell is empty): it merges them, or what follows
  them, into the block before. So a unit never starts with an element that is empty at
  its start, nor ends with one that is empty at its end: those are kept with a neighbour.
- A unit is imported after a one-paragraph context (``<p>x</p>`` + unit) and copied from
  the end of that paragraph on, so it brings the separator that starts its first block,
  with that block's own format (HTML inserted at the end of a block merges into it).
- Cutting the old tail off merges the last kept block with the separator after it. When
  that block is empty (an ``<hr>``, the block after a table) Qt gives it the removed
  block's format, so its block and character formats are restored and it leaves any list.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextCursor, QTextDocument, QTextDocumentFragment

_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)\b[^>]*?(/?)>")
_VOID = frozenset({"br", "hr", "img", "input", "meta", "col", "wbr"})
_OPENERS = r"(?:<(?:ul|ol|dl|li|blockquote|table|thead|tbody|tr|td|th)\b[^>]*>\s*)*"
_EMPTY_LEAF = r"<(p|li|h[1-6]|pre|dt|dd|td|th)\b[^>]*>\s*</\1>"
_CLOSERS = r"(?:\s*</(?:tr|tbody|thead|table|ul|ol|dl|li|td|th|blockquote)>)*"
_STARTS_EMPTY = re.compile(rf"\s*{_OPENERS}(?:{_EMPTY_LEAF}|<hr\b)")
_ENDS_EMPTY = re.compile(rf"{_EMPTY_LEAF}{_CLOSERS}\s*$")
_CONTEXT = "<p>x</p>"  # one block; the unit is copied from its end (position 1) on

_END = QTextCursor.MoveOperation.End
_KEEP = QTextCursor.MoveMode.KeepAnchor


def split_units(html: str) -> list[str]:
    """Cut `html` into top-level units that Qt imports the same whatever precedes them."""
    units: list[str] = []
    depth = start = 0
    for match in _TAG.finditer(html):
        closing, name, self_closing = match.groups()
        if name.lower() in _VOID or self_closing:
            if depth:
                continue
        elif closing:
            depth -= 1
            if depth:
                continue
        else:
            depth += 1
            continue
        piece, start = html[start : match.end()], match.end()
        if units and (_STARTS_EMPTY.match(piece) or _ENDS_EMPTY.search(units[-1])):
            units[-1] += piece
        else:
            units.append(piece)
    rest = html[start:]
    if rest and units:
        units[-1] += rest  # trailing whitespace (or stray text) stays with the last unit
    elif rest:
        units.append(rest)
    return units


class _ScratchDocument(QTextDocument):
    """Where a unit is parsed before it is copied; never loads anything it references."""

    def loadResource(self, type: int, name: QUrl | str) -> object:
        return None


class TailWriter:
    """Applies successive HTML versions to `document`, rewriting only what changed at the end.

    `reimported_units` counts units parsed and inserted (tests and benchmarks read it).
    Call `reset()` whenever something else replaces the document's content.
    """

    def __init__(self, document: QTextDocument) -> None:
        self._document = document
        # Owned by the document, so Qt deletes it on the GUI thread (a document deleted by
        # Python's garbage collector on another thread would stop its timers there).
        self._scratch = _ScratchDocument(document)
        self._scratch.setUndoRedoEnabled(False)
        self._html = ""
        self._units: list[str] = []
        self._offsets: list[int] = []  # where each unit starts in the HTML
        self._ends: list[int] = []  # document position of the end of each unit
        self.reimported_units = 0

    def reset(self) -> None:
        self._html = ""
        self._units, self._offsets, self._ends = [], [], []

    def set_html(self, html: str) -> None:
        if html == self._html and self._units:
            return
        kept = self._stable_units(html)
        offset = self._offsets[kept - 1] + len(self._units[kept - 1]) if kept else 0
        tail = split_units(html[offset:])
        while kept and tail and _STARTS_EMPTY.match(tail[0]):
            kept -= 1  # the new tail would join the last kept unit: re-import that too
            offset = self._offsets[kept]
            tail = split_units(html[offset:])
        offsets = self._offsets[:kept]
        for unit in tail:
            offsets.append(offset)
            offset += len(unit)
        self._html, self._units, self._offsets = html, self._units[:kept] + tail, offsets
        self._write(kept)

    def _stable_units(self, html: str) -> int:
        """How many leading units are unchanged (never the old last one: see module doc)."""
        kept = 0
        limit = min(len(self._ends), len(self._units) - 1)
        while kept < limit and html.startswith(self._units[kept], self._offsets[kept]):
            kept += 1
        return kept

    def _write(self, kept: int) -> None:
        document = self._document
        if not self._units:
            document.setHtml("")
            self._ends = []
            return
        if kept == 0:
            document.setHtml(self._units[0])
            self._ends = [document.characterCount() - 1]
            self.reimported_units += 1
            kept = 1
        cursor = QTextCursor(document)
        cursor.beginEditBlock()
        kept = self._truncate(cursor, kept)
        ends = self._ends[:kept]
        for unit in self._units[kept:]:
            cursor.movePosition(_END)
            cursor.insertFragment(self._fragment(unit))
            ends.append(document.characterCount() - 1)
            self.reimported_units += 1
        cursor.endEditBlock()
        self._ends = ends

    def _truncate(self, cursor: QTextCursor, kept: int) -> int:
        """Remove everything after unit `kept - 1`; returns the units actually kept."""
        document = self._document
        block = document.findBlock(self._ends[kept - 1])
        while kept > 1 and block.textList() is not None and block.length() == 1:
            kept -= 1  # an empty list item cannot be restored: re-import its unit too
            block = document.findBlock(self._ends[kept - 1])
        end = self._ends[kept - 1]
        if end >= document.characterCount() - 1:
            return kept
        block_format, char_format = block.blockFormat(), block.charFormat()
        cursor.setPosition(end)
        cursor.movePosition(_END, _KEEP)
        cursor.removeSelectedText()
        last = document.lastBlock()
        if last.textList() is not None and block.textList() is None:
            last.textList().remove(last)
        if last.blockFormat() != block_format:
            cursor.setBlockFormat(block_format)
        if last.charFormat() != char_format:
            cursor.setBlockCharFormat(char_format)
        return kept

    def _fragment(self, unit: str) -> QTextDocumentFragment:
        scratch = self._scratch
        if scratch.defaultStyleSheet() != self._document.defaultStyleSheet():
            scratch.setDefaultStyleSheet(self._document.defaultStyleSheet())
        if scratch.defaultFont() != self._document.defaultFont():
            scratch.setDefaultFont(self._document.defaultFont())
        scratch.setHtml(_CONTEXT + unit)
        selection = QTextCursor(scratch)
        selection.setPosition(1)
        selection.movePosition(_END, _KEEP)
        return QTextDocumentFragment(selection)
