"""Importing another client's export (File → Import from Another App…): read it into a
preview, let the person look, then import it with progress and Cancel.

Both steps run in worker threads (a 10,000-message export takes seconds to parse and to
write); this object only starts them, carries their results back to the GUI thread as
signals, and words the outcome. The preview's lists are table models, so a view shows
thousands of rows without making a widget for each.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from enum import Enum
from pathlib import Path
from types import ModuleType
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QLocale,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
    Slot,
)

from desktop.core import i18n
from desktop.core.errors import ParleyError
from desktop.engine.importers.files import ExportError
from desktop.engine.importers.model import ImportedConversation
from desktop.engine.importers.run import (
    ExportPreview,
    ImportCancelled,
    ImportOutcome,
    read_export,
)
from desktop.engine.library import Library
from desktop.ui.formatting import local_time
from desktop.ui.viewmodels.tasks import TaskGroup

log = logging.getLogger(__name__)

AnyIndex = QModelIndex | QPersistentModelIndex


class ImportStage(Enum):
    IDLE = "idle"
    READING = "reading"
    PREVIEW = "preview"
    IMPORTING = "importing"
    DONE = "done"
    FAILED = "failed"


class TextTable(QAbstractTableModel):
    """Rows of plain text, each cell computed when a view asks for it."""

    def __init__(self, headers: Sequence[str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._headers = list(headers)
        self._count = 0
        self._cell: Callable[[int, int], str] = lambda _row, _column: ""

    def reset(self, count: int, cell: Callable[[int, int], str]) -> None:
        self.beginResetModel()
        self._count, self._cell = count, cell
        self.endResetModel()

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._count

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._headers)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or role not in (
            Qt.ItemDataRole.DisplayRole,
            Qt.ItemDataRole.ToolTipRole,
        ):
            return None
        try:
            return self._cell(index.row(), index.column())
        except Exception:  # an exception escaping to Qt here ends the process
            log.exception("import preview: no text for row %d", index.row())
            return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._headers[section]
        return None


class ImportExportViewModel(QObject):
    stageChanged = Signal()
    previewReady = Signal()
    failed = Signal(str)
    progress = Signal(int, int)  # conversations done, of
    finished = Signal(str, str)  # the summary, the conversation to open ("" if none)

    def __init__(self, library: Library, tasks: TaskGroup, parent: QObject | None = None):
        super().__init__(parent)
        self._library = library
        self._tasks = tasks
        # The importers asked, in order; None: Parley's own (tests give their own).
        self.readers: Sequence[ModuleType] | None = None
        self.stage = ImportStage.IDLE
        self.path: Path | None = None
        self.preview: ExportPreview | None = None
        self.outcome: ImportOutcome | None = None
        self.summary = ""
        self._stop = False  # read by the worker thread between conversations
        self._run = 0  # a newer choose() makes the results of an older one stale
        self.conversations = TextTable(
            [self.tr("Title"), self.tr("Messages"), self.tr("Date")], self
        )
        self.left_out = TextTable([self.tr("Item"), self.tr("Why")], self)
        # After the import: the images and files that could not be attached, and why.
        self.skipped_files = TextTable([self.tr("File"), self.tr("Why")], self)

    @property
    def busy(self) -> bool:
        return self.stage in (ImportStage.READING, ImportStage.IMPORTING)

    def _set_stage(self, stage: ImportStage) -> None:
        self.stage = stage
        self.stageChanged.emit()

    # --- reading ----------------------------------------------------------------------

    @Slot(str)
    def choose(self, path: str) -> None:
        """Read the export at `path` into a preview (previewReady or failed follows)."""
        self._run += 1
        self._stop = False
        self.path, self.preview, self.outcome, self.summary = Path(path), None, None, ""
        self.conversations.reset(0, lambda _r, _c: "")
        self.left_out.reset(0, lambda _r, _c: "")
        self.skipped_files.reset(0, lambda _r, _c: "")
        self._set_stage(ImportStage.READING)
        self._tasks.start(self._read(self._run, Path(path)), "import-read")

    async def _read(self, run: int, path: Path) -> None:
        try:
            preview = await asyncio.to_thread(
                read_export, path, readers=self.readers, cancelled=lambda: self._stop
            )
        except ImportCancelled:
            return
        except asyncio.CancelledError:
            self._stop = True
            raise
        except (ExportError, ParleyError, OSError) as error:
            if run == self._run and not self._stop:
                self._fail(
                    self.tr("Could not read %1: %2")
                    .replace("%1", path.name)
                    .replace("%2", str(error))
                )
            return
        if run != self._run or self._stop:
            return
        self.preview = preview
        self._fill_tables(preview)
        self._set_stage(ImportStage.PREVIEW)
        self.previewReady.emit()

    def _fill_tables(self, preview: ExportPreview) -> None:
        items = preview.conversations
        untitled = self.tr("Untitled chat")

        def conversation_cell(row: int, column: int) -> str:
            item: ImportedConversation = items[row]
            if column == 0:
                return item.conversation.title or untitled
            if column == 1:
                return QLocale().toString(len(item.messages))
            return local_time(item.conversation.created_at)

        left_out = preview.not_imported
        self.conversations.reset(len(items), conversation_cell)
        self.left_out.reset(
            len(left_out),
            lambda row, column: left_out[row].where if column == 0 else left_out[row].reason,
        )

    def headline(self) -> str:
        """The preview's first line, e.g. "ChatGPT export: 214 conversations, 3,512
        messages, 18 branches, 40 images"."""
        if self.preview is None:
            return ""
        totals = self.preview.totals
        # The separators are words too: Chinese joins with "、" and ends with "。".
        counts = self.tr(", ").join(
            (
                self.tr("%Ln conversation(s)", "", totals.conversations),
                self.tr("%Ln message(s)", "", totals.messages),
                self.tr("%Ln branch(es)", "", totals.branches),
                self.tr("%Ln image(s)", "", totals.images),
            )
        )
        return self.tr("%1 export: %2").replace("%1", self.preview.label).replace("%2", counts)

    def files_line(self) -> str:
        """What becomes of the export's images and files, e.g. "12 images or files will
        be attached to their messages. 3 images or files will be left out; a note marks
        each place."; "" when it showed none. Said apart from the headline because not
        every image the headline counts is in the export."""
        if self.preview is None:
            return ""
        totals = self.preview.totals
        sentences: list[str] = []
        if totals.files:
            sentences.append(
                self.tr(
                    "%Ln image(s) or file(s) will be attached to their messages.", "", totals.files
                )
            )
        if totals.files_left_out:
            sentences.append(
                self.tr(
                    "%Ln image(s) or file(s) will be left out; a note marks each place.",
                    "",
                    totals.files_left_out,
                )
            )
        return i18n.sentences(sentences)

    # --- importing --------------------------------------------------------------------

    @Slot()
    def start(self) -> None:
        """Import the previewed export (progress, then finished)."""
        if self.preview is None or self.stage is not ImportStage.PREVIEW:
            return
        self._stop = False
        self._set_stage(ImportStage.IMPORTING)
        self.progress.emit(0, len(self.preview.conversations))
        self._tasks.start(self._import(self._run, self.preview), "import-write")

    async def _import(self, run: int, preview: ExportPreview) -> None:
        loop = asyncio.get_running_loop()

        def report(done: int, total: int) -> None:  # called in the worker thread
            loop.call_soon_threadsafe(self._report, run, done, total)

        try:
            outcome = await self._library.import_export(
                preview, progress=report, cancelled=lambda: self._stop
            )
        except asyncio.CancelledError:
            self._stop = True
            raise
        except (ParleyError, OSError) as error:
            if run == self._run:
                self._fail(self.tr("Could not import: %1").replace("%1", str(error)))
            return
        if run != self._run:
            return
        self.outcome = outcome
        skipped = outcome.skipped
        self.skipped_files.reset(
            len(skipped),
            lambda row, column: skipped[row].where if column == 0 else skipped[row].reason,
        )
        self.summary = self.describe(outcome)
        self._set_stage(ImportStage.DONE)
        self.finished.emit(self.summary, outcome.first_conversation_id or "")

    def _report(self, run: int, done: int, total: int) -> None:
        if run == self._run and self.stage is ImportStage.IMPORTING:
            self.progress.emit(done, total)

    def describe(self, outcome: ImportOutcome) -> str:
        """The summary: what was added, what was already here, what failed and why. The
        images and files that could not be attached are only counted here: there may be
        hundreds, so `skipped_files` lists them with their reasons."""
        sentences: list[str] = []
        if outcome.cancelled:
            sentences.append(
                self.tr("Import cancelled after %1 of %2 conversations.")
                .replace("%1", QLocale().toString(outcome.done))
                .replace("%2", QLocale().toString(outcome.total))
            )
        clauses: list[str] = []
        if outcome.added:
            clauses.append(
                self.tr("Imported %Ln conversation(s)", "", outcome.added)
                + " "
                + self.tr("(%Ln message(s))", "", outcome.messages_added)
            )
        elif outcome.messages_added:
            clauses.append(self.tr("Imported %Ln message(s)", "", outcome.messages_added))
        if outcome.files_added:
            clauses.append(self.tr("%Ln image(s) or file(s) attached", "", outcome.files_added))
        if outcome.updated:
            clauses.append(
                self.tr(
                    "%Ln conversation(s) already here received new messages", "", outcome.updated
                )
            )
        if outcome.unchanged:
            clauses.append(self.tr("%Ln were already here", "", outcome.unchanged))
        if outcome.failed:
            reasons = self.tr("; ").join(
                self.tr("%1: %2").replace("%1", item.where).replace("%2", item.reason)
                for item in outcome.failed
            )
            clauses.append(
                self.tr("%Ln could not be imported: %1", "", len(outcome.failed)).replace(
                    "%1", reasons
                )
            )
        if not clauses:
            clauses.append(self.tr("Nothing was imported"))
        if outcome.skipped:
            clauses.append(
                self.tr(
                    "%Ln image(s) or file(s) could not be attached (listed below)",
                    "",
                    len(outcome.skipped),
                )
            )
        sentences.append(self.tr("%1.").replace("%1", self.tr("; ").join(clauses)))
        return i18n.sentences(sentences)

    # --- either step ------------------------------------------------------------------

    @Slot()
    def cancel(self) -> None:
        """Stop reading (nothing is kept) or importing (what was imported stays)."""
        self._stop = True
        if self.stage is ImportStage.READING:
            self._run += 1  # whatever the read still returns is dropped
            self._set_stage(ImportStage.IDLE)

    def _fail(self, text: str) -> None:
        self.summary = text
        self._set_stage(ImportStage.FAILED)
        self.failed.emit(text)
