"""File → Restore from Backup…: the backups at the target, newest first, and restoring
one: merged into this computer's data, or (asked first) replacing it.

Runs through the same `BackupJob` as backing up, so a backup and a restore never run
at once and Cancel works the same way. What a restore did is said in words, counted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from desktop.core import i18n
from desktop.core.errors import ParleyError
from desktop.core.remote_target import RemoteTarget
from desktop.engine.backup.service import BackupEntry, BackupService, Progress, RestoreDone
from desktop.ui.formatting import human_size, local_time
from desktop.ui.viewmodels.backup_form import same_target
from desktop.ui.viewmodels.backup_job import BackupJob
from desktop.ui.viewmodels.import_export import TextTable
from desktop.ui.viewmodels.tasks import TaskGroup

_DATE, _DEVICE, _SIZE = range(3)


class RestoreViewModel(QObject):
    listingChanged = Signal(bool)  # the list is being fetched
    listed = Signal()  # `entries` (and `table`) hold what the target has
    listFailed = Signal(str)
    finished = Signal(bool, str)  # a restore ended: it worked?, in words

    def __init__(
        self,
        service: BackupService,
        job: BackupJob,
        tasks: TaskGroup,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._job = job
        self._tasks = tasks
        self.entries: list[BackupEntry] = []
        self.listing = False
        self.listed_once = False
        self.stale = True  # the list is to be asked for again when next shown
        self.summary = ""
        self.summary_ok = True
        self.table = TextTable([self.tr("Made"), self.tr("Computer"), self.tr("Size")], self)

    # --- the list ---------------------------------------------------------------------

    def refresh(self) -> None:
        """Ask the target what backups it holds (listed or listFailed follows)."""
        target = self._service.config.target
        if self.listing or target is None:
            return
        self.stale = False
        self._set_listing(True)
        self._tasks.start(self._list(target), "backup-list")

    def target_changed(self) -> None:
        """Where backups go changed: the list shown was another place's."""
        self._set_entries([])
        self.listed_once = False
        self.stale = True

    def backed_up(self) -> None:
        """A new backup was written: the list is out of date."""
        self.stale = True

    async def _list(self, target: RemoteTarget) -> None:
        entries: list[BackupEntry] = []
        problem = ""
        try:
            entries = await self._service.list_backups(target)
        except (ParleyError, OSError) as error:
            problem = str(error)
        finally:
            self._set_listing(False)
        if not same_target(target, self._service.config.target):
            self.stale = True  # the target changed meanwhile: this list is not its
            return
        self._set_entries(entries)
        if problem:
            self.listFailed.emit(problem)
        else:
            self.listed.emit()

    def _set_listing(self, listing: bool) -> None:
        self.listing = listing
        self.listingChanged.emit(listing)

    def _set_entries(self, entries: list[BackupEntry]) -> None:
        self.entries = entries
        self.listed_once = True
        this_computer = self.tr("%1 (this computer)")

        def cell(row: int, column: int) -> str:
            entry = entries[row]
            if column == _DATE:
                return local_time(entry.created)
            if column == _DEVICE:
                return (
                    this_computer.replace("%1", entry.device) if entry.this_device else entry.device
                )
            return human_size(entry.size)

        self.table.reset(len(entries), cell)

    # --- restoring --------------------------------------------------------------------

    def restore(self, row: int, passphrase: str, *, replace_all: bool = False) -> bool:
        """Restore the backup in `row` with `passphrase` ("" for the saved one); False
        when nothing started (no such row, or a backup or restore runs)."""
        if not 0 <= row < len(self.entries) or self._service.busy:
            return False
        name = self.entries[row].name

        async def work(progress: Progress, cancelled: Callable[[], bool]) -> None:
            await self._restore(name, passphrase, replace_all, progress, cancelled)

        return self._job.run(work, "backup-restore", replacing=replace_all)

    async def _restore(
        self,
        name: str,
        passphrase: str,
        replace_all: bool,
        progress: Progress,
        cancelled: Callable[[], bool],
    ) -> None:
        secret = passphrase or await self._service.stored_passphrase()
        if not secret:
            self._finish(False, self.tr("Enter the passphrase the backup was made with."))
            return
        try:
            done = await self._service.restore(
                name, secret, replace_all=replace_all, progress=progress, cancelled=cancelled
            )
        except asyncio.CancelledError:
            self._finish(False, self.tr("The restore was cancelled; nothing changed."))
            if not self._job.cancelling:
                raise  # Parley is quitting
            return
        except (ParleyError, OSError) as error:
            self._finish(False, str(error))
            return
        self._finish(True, self.describe(done))

    def _finish(self, ok: bool, text: str) -> None:
        self.summary, self.summary_ok = text, ok
        self.finished.emit(ok, text)

    def describe(self, done: RestoreDone) -> str:
        """What a restore did, in sentences."""
        sentences: list[str] = []
        if done.merged is None:
            sentences.append(self.tr("This computer's data is now the backup's."))
            if done.kept_copy is not None:
                sentences.append(
                    self.tr("The database as it was is kept at %1.").replace(
                        "%1", str(done.kept_copy)
                    )
                )
            return i18n.sentences(sentences)
        merged = done.merged
        counted = (
            (
                merged.conversations_added,
                self.tr("%Ln conversation(s) added", "", merged.conversations_added),
            ),
            (merged.messages_added, self.tr("%Ln message(s) added", "", merged.messages_added)),
            (
                merged.conversations_updated,
                self.tr("%Ln conversation(s) updated", "", merged.conversations_updated),
            ),
            (merged.memories_added, self.tr("%Ln memory(-ies) added", "", merged.memories_added)),
            (
                merged.memories_updated,
                self.tr("%Ln memory(-ies) updated", "", merged.memories_updated),
            ),
            (merged.attachments_added, self.tr("%Ln file(s) added", "", merged.attachments_added)),
            (done.assistants_added, self.tr("%Ln assistant(s) added", "", done.assistants_added)),
            (done.prompts_added, self.tr("%Ln prompt(s) added", "", done.prompts_added)),
        )
        clauses = [text for n, text in counted if n]
        if clauses:
            sentences.append(self.tr("Restored: %1.").replace("%1", self.tr("; ").join(clauses)))
        else:
            sentences.append(self.tr("This computer already had everything in the backup."))
        if merged.messages_skipped_deleted:
            sentences.append(
                self.tr(
                    "%Ln message(s) deleted on this computer stayed deleted.",
                    "",
                    merged.messages_skipped_deleted,
                )
            )
        if done.providers_added:
            sentences.append(
                self.tr(
                    "%Ln provider(s) were added without their API keys: enter them in "
                    "Settings → Providers.",
                    "",
                    done.providers_added,
                )
            )
        return i18n.sentences(sentences)
