"""Keep a QTextDocument equal to `setHtml(html)` while `html` grows, re-importing only its end.

While an answer streams, each update's HTML is the previous one with its last block
changed and perhaps a few blocks added. `setHtml` would parse and lay out the whole
message on every update (about 25 ms for a 20 KB answer, more than half a frame budget);
`TailWriter` keeps every top-level *unit* that did not change and replaces only the
document after the last unchanged one.

Why the document stays equal to a full `setHtml` (tests/ui/views/test_document_tail.py streams
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
from PySide6.QtGui import QTextBlock, QTextCursor, QTextDocument, QTextDocumentFragment

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
        # Where the last write began to change the document (nothing before it changed).
        self.changed_from = 0
        self.reimported_units = 0

    @property
    def built(self) -> bool:
        """True while the document is this writer's (since its last `reset`)."""
        return bool(self._units)

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
        units = self._units[:kept] + tail
        runs, kept = self._changed_runs(kept, units)
        old_ends = self._ends
        self._html, self._units, self._offsets = html, units, offsets
        self._write(kept, runs, old_ends)

    def _stable_units(self, html: str) -> int:
        """How many leading units are unchanged (never the old last one: see module doc)."""
        kept = 0
        limit = min(len(self._ends), len(self._units) - 1)
        while kept < limit and html.startswith(self._units[kept], self._offsets[kept]):
            kept += 1
        return kept

    def _changed_runs(self, kept: int, units: list[str]) -> tuple[list[range], int]:
        """Units after the `kept` ones that came back unchanged at the same place stay too
        (a formula typeset in an early paragraph changes that unit only): the runs of
        changed units before the last such one, to be replaced where they stand, and how
        many units then stay. Neither version's last unit anchors (see module doc)."""
        old = self._units
        if not kept:
            return [], kept
        anchor = next(
            (i for i in range(min(len(old), len(units)) - 2, kept - 1, -1) if old[i] == units[i]),
            -1,
        )
        if anchor < 0:
            return [], kept
        runs: list[range] = []
        index = kept
        while index < anchor:
            if old[index] == units[index]:
                index += 1
                continue
            start = index
            while old[index] != units[index]:
                index += 1
            block = self._document.findBlock(self._ends[start - 1])
            if block.textList() is not None and block.length() == 1:
                return [], kept  # an empty list item cannot be restored (see `_truncate`)
            runs.append(range(start, index))
        return runs, anchor + 1

    def _write(self, kept: int, runs: list[range], old_ends: list[int]) -> None:
        document = self._document
        self.changed_from = 0
        if not self._units:
            document.setHtml("")
            self._ends = []
            return
        replaced_all = kept == 0
        if replaced_all:
            document.setHtml(self._units[0])
            old_ends, runs = [document.characterCount() - 1], []
            self.reimported_units += 1
            kept = 1
        cursor = QTextCursor(document)
        ends = old_ends[:kept]
        shift = 0  # how far the units after the last replaced run have moved
        done = 0
        # One edit block per run and one for the end: Qt lays out again everything between
        # the first and the last change of an edit block (a formula typeset far above the
        # end would cost the layout of all the answer below it).
        for run in runs:
            ends[done : run.start] = [end + shift for end in old_ends[done : run.start]]
            cursor.beginEditBlock()
            self._replace(cursor, run, ends, shift)
            cursor.endEditBlock()
            shift = ends[run[-1]] - old_ends[run[-1]]
            done = run.stop
        ends[done:kept] = [end + shift for end in old_ends[done:kept]]
        cursor.beginEditBlock()
        kept = self._truncate(cursor, kept, ends)
        del ends[kept:]
        if not replaced_all:  # nothing before the first run, or the last kept unit's end
            self.changed_from = old_ends[runs[0].start - 1] if runs else ends[kept - 1]
        for unit in self._units[kept:]:
            cursor.movePosition(_END)
            cursor.insertFragment(self._fragment(unit))
            ends.append(document.characterCount() - 1)
            self.reimported_units += 1
        cursor.endEditBlock()
        self._ends = ends

    def _replace(self, cursor: QTextCursor, run: range, ends: list[int], shift: int) -> None:
        """Import the units of `run` again in place of their old versions. `ends` holds
        the current end of each unit before the run and the old end of each in it; the
        run has moved by `shift` since."""
        start = ends[run.start - 1]
        block = self._document.findBlock(start)
        cursor.setPosition(start)
        cursor.setPosition(ends[run[-1]] + shift, _KEEP)
        self._remove_after(cursor, block)
        for index in run:
            cursor.insertFragment(self._fragment(self._units[index]))
            ends[index] = cursor.position()
            self.reimported_units += 1

    def _truncate(self, cursor: QTextCursor, kept: int, ends: list[int]) -> int:
        """Remove everything after unit `kept - 1`; returns the units actually kept."""
        document = self._document
        block = document.findBlock(ends[kept - 1])
        while kept > 1 and block.textList() is not None and block.length() == 1:
            kept -= 1  # an empty list item cannot be restored: re-import its unit too
            block = document.findBlock(ends[kept - 1])
        end = ends[kept - 1]
        if end >= document.characterCount() - 1:
            return kept
        cursor.setPosition(end)
        cursor.movePosition(_END, _KEEP)
        self._remove_after(cursor, block)
        return kept

    def _remove_after(self, cursor: QTextCursor, block: QTextBlock) -> None:
        """Remove the selection, which starts at the end of `block`. Removing merges
        `block` with the separator after it; when `block` is empty (an ``<hr>``, the
        block after a table) Qt gives it the removed block's format, and it may join a
        list: its own formats are restored and it leaves the list."""
        block_format, char_format = block.blockFormat(), block.charFormat()
        in_list = block.textList() is not None
        cursor.removeSelectedText()
        merged = cursor.block()
        if merged.textList() is not None and not in_list:
            merged.textList().remove(merged)
        if merged.blockFormat() != block_format:
            cursor.setBlockFormat(block_format)
        if merged.charFormat() != char_format:
            cursor.setBlockCharFormat(char_format)

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
