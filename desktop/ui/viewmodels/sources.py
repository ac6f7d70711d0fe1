"""Opening the source behind a citation: the passage inside its document's text.

The file is read again when it is opened (`read_document`, in a worker thread: parsing
a PDF takes a while), so the passage shows where it is in the document as it is now.
When the file's bytes no longer match what the answer quoted (`source_sha256`), or it
is gone or unreadable, the passage is shown as it was quoted, and a note says why.

Only a file Parley could read as a document can be opened with the system's opener:
the path comes from a stored (perhaps imported) message, and the system would run an
executable as readily as it opens a PDF.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, QUrl, Signal
from PySide6.QtGui import QDesktopServices

from desktop.core.attachments import AttachmentError
from desktop.core.models import CitationPart
from desktop.engine.knowledge.documents import DocumentText, read_document
from desktop.ui.viewmodels.citation_card import CitationCard
from desktop.ui.viewmodels.tasks import TaskGroup

# Document text shown before and after the passage: enough to read it in context, never
# so much that laying it out keeps the window busy (the whole file is one click away).
CONTEXT_CHARS = 20_000


@dataclass(frozen=True, slots=True)
class SourcePassage:
    """What the source panel shows: the passage between the text around it."""

    number: int
    file_name: str
    location: str
    path: str  # the file, absolute
    before: str
    passage: str
    after: str
    note: str = ""  # why the passage is shown as it was quoted, or that the file is read
    loading: bool = False
    can_open: bool = False  # the file is there and is a document Parley reads


@dataclass(frozen=True, slots=True)
class _Missing:
    pass


@dataclass(frozen=True, slots=True)
class _Unreadable:
    reason: str


_Outcome = DocumentText | _Missing | _Unreadable


def _read(path: Path) -> _Outcome:
    """In a worker thread: the file's text, or why there is none."""
    try:
        return read_document(path)
    except AttachmentError as error:
        return _Missing() if not path.exists() else _Unreadable(error.problem)


def _around(text: str, start: int, end: int) -> tuple[str, str]:
    """The text before `start` and after `end`, each at most `CONTEXT_CHARS`, cut at a
    line break where there is one (the beginning and end of the document are kept)."""
    before = text[max(0, start - CONTEXT_CHARS) : start]
    if start > CONTEXT_CHARS and "\n" in before:
        before = before[before.index("\n") + 1 :]
    after = text[end : end + CONTEXT_CHARS]
    if len(text) - end > CONTEXT_CHARS and "\n" in after:
        after = after[: after.rindex("\n")]
    return before, after


def _passage_range(part: CitationPart, text: str) -> tuple[int, int] | None:
    """Where the quoted passage is in `text` (read from a file whose digest matched, or
    that has none stored): at its offsets, else where the quote is found; None when the
    text no longer has it."""
    start, end = part.char_start, part.char_end
    # With a digest that matched, the file is the one quoted: its offsets are right.
    if 0 <= start < end <= len(text) and (part.source_sha256 or text[start:end] == part.excerpt):
        return start, end
    found = text.find(part.excerpt) if part.excerpt else -1
    return (found, found + len(part.excerpt)) if found >= 0 else None


def passage_view(card: CitationCard, outcome: _Outcome) -> SourcePassage:
    """What to show for `card`'s source, the file having been read as `outcome`."""
    part = card.part
    quoted = SourcePassage(
        card.number, card.file_name, card.location, part.path, "", part.excerpt, ""
    )
    if isinstance(outcome, _Missing):
        return replace(
            quoted, note=QCoreApplication.translate("SourcePanel", "The file is no longer there.")
        )
    if isinstance(outcome, _Unreadable):
        note = QCoreApplication.translate(
            "SourcePanel", "The file cannot be read now (%1); showing the passage as it was quoted."
        )
        return replace(quoted, note=note.replace("%1", outcome.reason))
    changed = QCoreApplication.translate(
        "SourcePanel",
        "This file has changed since this answer; showing the passage as it was quoted.",
    )
    if part.source_sha256 and outcome.sha256 != part.source_sha256:
        return replace(quoted, note=changed, can_open=True)
    found = _passage_range(part, outcome.text)
    if found is None:
        return replace(quoted, note=changed, can_open=True)
    start, end = found
    before, after = _around(outcome.text, start, end)
    return replace(
        quoted, before=before, passage=outcome.text[start:end], after=after, can_open=True
    )


class SourcesViewModel(QObject):
    """The source panel's state: `shown` carries each `SourcePassage` to show (first
    the quote while the file is read, then the passage in its document)."""

    shown = Signal(object)  # SourcePassage

    def __init__(self, tasks: TaskGroup, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self._opened = 0  # counts opens: a read that a later open overtook is dropped
        self._current: SourcePassage | None = None

    @property
    def current(self) -> SourcePassage | None:
        return self._current

    def open(self, card: CitationCard) -> None:
        """Show `card`'s source: its quote at once, its document once read."""
        self._opened += 1
        part = card.part
        reading = SourcePassage(
            card.number,
            card.file_name,
            card.location,
            part.path,
            "",
            part.excerpt,
            "",
            note=QCoreApplication.translate("SourcePanel", "Reading the file…"),
            loading=True,
        )
        self._show(reading)
        self._tasks.start(self._load(card, self._opened), "read-source")

    async def _load(self, card: CitationCard, opened: int) -> None:
        outcome = await asyncio.to_thread(_read, Path(card.part.path))
        if opened == self._opened:
            self._show(passage_view(card, outcome))

    def _show(self, passage: SourcePassage) -> None:
        self._current = passage
        self.shown.emit(passage)

    def open_file(self) -> bool:
        """Open the shown source's file with the system's opener, if it may be opened."""
        current = self._current
        if current is None or not current.can_open:
            return False
        return QDesktopServices.openUrl(QUrl.fromLocalFile(current.path))
