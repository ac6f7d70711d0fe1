"""Where each knowledge library's indexing stands, as the window sees it.

The engine indexes in the background and reports `IndexProgress` on an event bus; this
keeps the latest report per library for everything in the window that shows it (Settings
→ Knowledge, the chat header), so they subscribe once and agree. What the window asks of
the engine (re-scan, cancel, forget) goes through the small `KnowledgeControl` port: the
window never waits for indexing, it only starts and stops it.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Iterable
from typing import Any, Protocol

from PySide6.QtCore import QObject, Signal

from desktop.core.dispatch import EventBus
from desktop.core.knowledge import IndexProgress, LibraryState
from desktop.ui.viewmodels.tasks import TaskGroup

# The states in which a pass is running: a bar is shown and Cancel stops it.
ACTIVE_STATES = frozenset({LibraryState.SCANNING, LibraryState.INDEXING, LibraryState.RE_EMBEDDING})


class KnowledgeControl(Protocol):
    """What the window asks of the knowledge engine. Each call returns at once (or with
    an awaitable the window runs as a task of its own): the work it starts reports
    through `IndexProgress` events, never through the call."""

    def rescan(self, library_id: str) -> Awaitable[None] | None:
        """Look for new, changed and removed files and index them."""
        ...

    def cancel(self, library_id: str) -> Awaitable[None] | None:
        """Stop the library's running pass; what was indexed stays."""
        ...

    def progress(self, library_id: str) -> IndexProgress:
        """Where the library stands now (its last pass, when none runs)."""
        ...

    def forget(self, library_id: str) -> Awaitable[None] | None:
        """Drop everything indexed for a deleted library."""
        ...

    def indexing(self, library_ids: Iterable[str]) -> bool:
        """Whether a pass runs for any of these libraries."""
        ...


class KnowledgeProgress(QObject):
    """The latest `IndexProgress` per library, and the engine's controls.

    Without a control (no engine) libraries can still be edited; nothing reports, and
    `available` is False so the page offers no Re-scan. Events may come from any thread:
    they are handed to this object's thread before anything reads them.
    """

    changed = Signal(str)  # library id
    _arrived = Signal(object)  # an IndexProgress, from whichever thread sent it

    def __init__(
        self,
        tasks: TaskGroup,
        control: KnowledgeControl | None = None,
        events: EventBus[Any] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self._control = control
        self._latest: dict[str, IndexProgress] = {}
        self._arrived.connect(self._on_arrived)
        if events is not None:
            events.subscribe(self._on_event)

    @property
    def available(self) -> bool:
        return self._control is not None

    def progress(self, library_id: str) -> IndexProgress | None:
        """The library's latest report; before any, what the engine says now (None
        without an engine)."""
        latest = self._latest.get(library_id)
        if latest is not None or self._control is None:
            return latest
        # The engine reads the index to answer: once, then its reports keep it current
        # (every row and the header ask again on each repaint).
        latest = self._latest[library_id] = self._control.progress(library_id)
        return latest

    def active(self, library_id: str) -> bool:
        progress = self.progress(library_id)
        return progress is not None and progress.state in ACTIVE_STATES

    def rescan(self, library_id: str) -> None:
        if self._control is not None:
            self._run(self._control.rescan(library_id), f"knowledge-rescan-{library_id}")

    def cancel(self, library_id: str) -> None:
        if self._control is not None:
            self._run(self._control.cancel(library_id), f"knowledge-cancel-{library_id}")

    def forget(self, library_id: str) -> None:
        """The library was deleted: its index goes, and so does what was reported."""
        self._latest.pop(library_id, None)
        if self._control is not None:
            self._run(self._control.forget(library_id), f"knowledge-forget-{library_id}")
        self.changed.emit(library_id)

    def _run(self, result: Awaitable[None] | None, name: str) -> None:
        if inspect.isawaitable(result):
            self._tasks.start(_awaited(result), name)

    def _on_event(self, event: Any) -> None:
        if isinstance(event, IndexProgress):
            self._arrived.emit(event)  # queued when sent from another thread

    def _on_arrived(self, event: IndexProgress) -> None:
        self._latest[event.library_id] = event
        self.changed.emit(event.library_id)


async def _awaited(result: Awaitable[None]) -> None:
    await result
