"""One backup or restore at a time, with its progress in words and a Cancel that works
whichever part is running.

The work has two kinds of parts: copying and encrypting in a worker thread (stopped by
a flag it reads between files: cancelling the asyncio task there would leave the thread
writing into a scratch folder being removed), and transfers on the event loop (stopped
by cancelling the task, which ends the request at once). `cancel()` does what fits the
part running now, and the flag is also read when the next part starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from PySide6.QtCore import QObject, Signal

from desktop.engine.backup.service import Progress, Stage
from desktop.ui.viewmodels.tasks import TaskGroup

log = logging.getLogger(__name__)

# The parts that run on the event loop: cancelling the task ends them cleanly.
_ON_THE_LOOP = (Stage.UPLOAD, Stage.DOWNLOAD)

Work = Callable[[Progress, Callable[[], bool]], Coroutine[Any, Any, None]]


class BackupJob(QObject):
    workingChanged = Signal(bool)
    progressed = Signal(str, int, int)  # the stage in words, done, total (0: unknown)

    def __init__(self, tasks: TaskGroup, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self._task: asyncio.Task[Any] | None = None
        self._stop = False  # read by the worker thread between files
        self.stage: Stage | None = None
        self.replacing = False  # a restore that replaces: its merge stage says so

    @property
    def working(self) -> bool:
        return self._task is not None

    @property
    def cancelling(self) -> bool:
        return self.working and self._stop

    def run(self, work: Work, name: str, *, replacing: bool = False) -> bool:
        """Start `work(progress, cancelled)`; False (nothing started) while one runs.
        `work` reports its own outcome; this only tracks that it runs."""
        if self._task is not None:
            return False
        self._stop = False
        self.stage = None
        self.replacing = replacing
        loop = asyncio.get_running_loop()

        def progress(stage: Stage, done: int, total: int) -> None:  # any thread
            loop.call_soon_threadsafe(self._report, stage, done, total)

        self._task = self._tasks.start(self._run(work(progress, lambda: self._stop)), name)
        self.workingChanged.emit(True)
        return True

    async def _run(self, work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        finally:
            self._task = None
            self.stage = None
            self.workingChanged.emit(False)

    def _report(self, stage: Stage, done: int, total: int) -> None:
        if self._task is None:
            return
        self.stage = stage
        if self._stop and stage in _ON_THE_LOOP:  # cancelled just before a transfer
            self._task.cancel()
            return
        self.progressed.emit(self.stage_words(stage), done, total)

    def stage_words(self, stage: Stage) -> str:
        """What the running part does, as the progress line says it."""
        if stage is Stage.SNAPSHOT:
            return self.tr("Copying your chats, settings and files into the backup…")
        if stage is Stage.UPLOAD:
            return self.tr("Sending the backup to where backups go…")
        if stage is Stage.DOWNLOAD:
            return self.tr("Fetching the backup…")
        if stage is Stage.OPEN:
            return self.tr("Unlocking and checking the backup…")
        if self.replacing:
            return self.tr("Replacing this computer's data with the backup's…")
        return self.tr("Adding what this computer lacks…")

    def cancel(self) -> None:
        """Stop what runs: at once during a transfer, at the next file otherwise. A
        restore's merge, once started, finishes (it is one transaction)."""
        if self._task is None:
            return
        self._stop = True
        if self.stage in _ON_THE_LOOP:
            self._task.cancel()

    async def aclose(self) -> None:
        """At quit: cancel, and wait until no thread still reads the database."""
        task = self._task
        self.cancel()
        if task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(task), timeout=60)
