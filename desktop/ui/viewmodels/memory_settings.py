"""Settings → Memory: what the assistants were asked to remember, listed, filtered by
scope and words, added, edited, deleted (with an Undo for a few seconds) and exported as
Markdown; and the model that embeds memories so they can be found by meaning.

Every memory call is the engine's (`MemoryService`), run as a background task: the
window never waits on the database or an embedder. A deletion is on disk the moment it
is made; Undo is the one way back, so after the Undo window nothing more happens. An
embedder that fails never costs a memory: it is kept and marked "words only" here.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Final

from PySide6.QtCore import QDate, QLocale, QObject, QTimer, Signal

from desktop.core.errors import ParleyError
from desktop.core.knowledge import EmbeddingChoice
from desktop.core.memory import ASSISTANT_SCOPE_PREFIX, GLOBAL_SCOPE, Memory, scope_for
from desktop.core.settings import Settings
from desktop.engine.memory.block import export_markdown
from desktop.engine.memory.service import MemoryService
from desktop.engine.settings_service import SettingsService
from desktop.ui.viewmodels.knowledge_settings import KnowledgeSettingsModel
from desktop.ui.viewmodels.settings_undo import SettingsUndo
from desktop.ui.viewmodels.tasks import TaskGroup
from desktop.ui.viewmodels.transfer import write_atomically

UNDO_MS: Final = 8000  # how long "Memory deleted. Undo" is offered
PREVIEW_LINES: Final = 3  # a row shows this many lines of a memory, at most
PREVIEW_LINE_CHARS: Final = 160  # ... each this long, at most (the list wraps them)
EMBED_BATCH: Final = 256  # memories given vectors per `embed_missing` call


def preview(text: str) -> str:
    """A memory as its row shows it: its first few non-empty lines, each cut short, with
    "…" when anything was left out (the whole text is in the row's tool tip)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    shown = [
        line if len(line) <= PREVIEW_LINE_CHARS else line[: PREVIEW_LINE_CHARS - 1] + "…"
        for line in lines[:PREVIEW_LINES]
    ]
    if len(lines) > PREVIEW_LINES and not shown[-1].endswith("…"):
        shown[-1] += " …"
    return "\n".join(shown)


def local_date(moment: datetime) -> str:
    """The day of `moment` where the person is, as their locale writes a short date."""
    day = moment.astimezone().date()
    return QLocale().toString(QDate(day.year, day.month, day.day), QLocale.FormatType.ShortFormat)


@dataclass(frozen=True, slots=True)
class ScopeOption:
    """One entry of a scope picker: a scope (None: every scope) and its name."""

    scope: str | None
    label: str


@dataclass(frozen=True, slots=True)
class MemoryRow:
    """What the list shows of one memory."""

    memory_id: str
    text: str  # all of it
    preview: str
    scope: str
    scope_label: str
    changed: str  # the day it was saved or last edited
    words_only: bool  # an embedding model is chosen, but this memory has no vector


class MemorySettingsModel(QObject):
    changed = Signal()  # the rows
    optionsChanged = Signal()  # the scopes, the embedding providers or the saved model
    undoChanged = Signal()  # an Undo is offered, or no longer
    saved = Signal(str)  # the memory added (or already kept) or edited
    restored = Signal(str)  # the memory Undo brought back
    notice = Signal(str)  # a sentence on what was done
    failed = Signal(str)  # a sentence on what could not be done
    exported = Signal(str)  # the file written

    def __init__(
        self,
        service: SettingsService,
        memory: MemoryService,
        tasks: TaskGroup,
        embeddings: KnowledgeSettingsModel,
        parent: QObject | None = None,
        *,
        undo: SettingsUndo | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._settings_undo = undo  # the Settings window's: the model chosen can be undone
        self._memory = memory
        self._tasks = tasks
        # The embedding picker's providers and model lists: the knowledge page's, so an
        # endpoint is asked once for both pages.
        self.embeddings = embeddings
        self._memories: list[Memory] = []
        self.scope_filter: str | None = None  # the list's filters (`set_filter`)
        self.query = ""
        self._listing = 0  # the newest listing asked; older answers are dropped
        self.loaded = False  # a listing has come back
        self._undoable: Memory | None = None  # the last deletion, while Undo is offered
        self.undo_timer = QTimer(self)
        self.undo_timer.setSingleShot(True)
        self.undo_timer.setInterval(UNDO_MS)
        self.undo_timer.timeout.connect(self.end_undo)
        service.changed.subscribe(self._on_settings_changed)

    @property
    def _settings(self) -> Settings:
        return self._service.settings

    # --- reading ------------------------------------------------------------------

    def rows(self) -> list[MemoryRow]:
        names = self._assistant_names()
        marked = self._settings.memory.embedding is not None
        return [
            MemoryRow(
                memory_id=m.id,
                text=m.text,
                preview=preview(m.text),
                scope=m.scope,
                scope_label=self.scope_label(m.scope, names),
                changed=local_date(m.updated_at),
                words_only=marked and m.words_only,
            )
            for m in self._memories
        ]

    def row(self, memory_id: str) -> MemoryRow | None:
        return next((r for r in self.rows() if r.memory_id == memory_id), None)

    def filter_options(self) -> list[ScopeOption]:
        """All memories, then the scopes one by one."""
        return [ScopeOption(None, self.tr("All memories")), *self.scope_options()]

    def scope_options(self) -> list[ScopeOption]:
        """Where a memory can be kept: every assistant's, or one assistant's."""
        names = self._assistant_names()
        return [ScopeOption(GLOBAL_SCOPE, self.scope_label(GLOBAL_SCOPE, names))] + [
            ScopeOption(scope_for(assistant_id), name) for assistant_id, name in names.items()
        ]

    def scope_label(self, scope: str, names: dict[str, str] | None = None) -> str:
        if scope == GLOBAL_SCOPE:
            return self.tr("Global")
        assistant_id = scope.removeprefix(ASSISTANT_SCOPE_PREFIX)
        name = (names if names is not None else self._assistant_names()).get(assistant_id)
        return name or self.tr("%1 (removed assistant)").replace("%1", assistant_id)

    @property
    def can_undo(self) -> bool:
        return self._undoable is not None

    @property
    def embedding(self) -> EmbeddingChoice | None:
        return self._settings.memory.embedding

    def _assistant_names(self) -> dict[str, str]:
        return {a.id: a.name for a in self._settings.all_assistants()}

    # --- listing ------------------------------------------------------------------

    def set_filter(self, scope: str | None, query: str) -> None:
        """List the memories of `scope` (None: all) whose text holds `query`."""
        if (scope, query.strip()) != (self.scope_filter, self.query):
            self.scope_filter, self.query = scope, query.strip()
            self.refresh()

    def refresh(self) -> None:
        """Read the list again (the memory tools may have changed it meanwhile)."""
        self._listing += 1
        self._tasks.start(self._list(self._listing), "list-memories")

    async def _list(self, listing: int) -> None:
        try:
            found = await self._listed()
        except (OSError, ParleyError) as error:
            self._fail(self.tr("Could not read the memories: %1"), error)
            return
        if listing == self._listing:
            self._memories = found
            self.loaded = True
            self.changed.emit()

    async def _listed(self) -> list[Memory]:
        return await self._memory.list(
            None if self.scope_filter is None else (self.scope_filter,), self.query
        )

    # --- changes ------------------------------------------------------------------

    def add(self, scope: str, text: str) -> None:
        self._tasks.start(self._add(scope, text), "add-memory")

    async def _add(self, scope: str, text: str) -> None:
        try:
            outcome = await self._memory.save(scope, text)
        except (OSError, ParleyError) as error:
            self._fail(self.tr("Could not save the memory: %1"), error)
            return
        if outcome.duplicate_of is not None:
            self.notice.emit(self.tr("That is already kept as a memory."))
        elif outcome.words_only_reason:
            self.notice.emit(self._words_only_note(outcome.words_only_reason))
        else:
            self.notice.emit(self.tr("Saved."))
        self.saved.emit(outcome.memory.id)
        self.refresh()

    def edit(self, memory_id: str, text: str) -> None:
        self._tasks.start(self._edit(memory_id, text), "edit-memory")

    async def _edit(self, memory_id: str, text: str) -> None:
        try:
            memory = await self._memory.update(memory_id, text)
        except (OSError, ParleyError) as error:
            self._fail(self.tr("Could not save the memory: %1"), error)
            self.refresh()  # (deleted meanwhile: the list says so)
            return
        if memory.words_only and self.embedding is not None:
            self.notice.emit(self._words_only_note(None))
        else:
            self.notice.emit(self.tr("Saved."))
        self.saved.emit(memory.id)
        self.refresh()

    def _words_only_note(self, reason: str | None) -> str:
        if reason is None:
            return self.tr("Saved. It is found by its words only until it can be embedded.")
        note = self.tr("Saved. It is found by its words only until it can be embedded: %1.")
        return note.replace("%1", reason.rstrip("."))

    def delete(self, memory_id: str) -> None:
        """Delete now (durably); "Undo" brings it back while it is offered."""
        self._tasks.start(self._delete(memory_id), "delete-memory")

    async def _delete(self, memory_id: str) -> None:
        try:
            tombstone = await self._memory.delete(memory_id)
        except (OSError, ParleyError) as error:
            self._fail(self.tr("Could not delete the memory: %1"), error)
            self.refresh()
            return
        self._memories = [m for m in self._memories if m.id != memory_id]
        self.changed.emit()
        self._undoable = tombstone
        self.undo_timer.start()
        self.undoChanged.emit()
        self.refresh()

    def undo(self) -> None:
        """Bring back the last deleted memory, if Undo is still offered."""
        tombstone = self._undoable
        if tombstone is None:
            return
        self.end_undo()
        self._tasks.start(self._undo(tombstone), "undelete-memory")

    async def _undo(self, tombstone: Memory) -> None:
        try:
            restored = await self._memory.undelete(tombstone.id, tombstone.deleted_at)
        except (OSError, ParleyError) as error:
            self._fail(self.tr("Could not bring the memory back: %1"), error)
            return
        if restored is None:
            self.failed.emit(self.tr("The memory could not be brought back."))
        else:
            self.notice.emit(self.tr("Memory restored."))
            self.restored.emit(restored.id)
        self.refresh()

    def end_undo(self) -> None:
        """Stop offering Undo: the deletion stays as it is (it is on disk already)."""
        self.undo_timer.stop()
        if self._undoable is not None:
            self._undoable = None
            self.undoChanged.emit()

    def export(self, path: str) -> None:
        """Write the memories the list shows (its filters applied) to `path` as Markdown."""
        self._tasks.start(self._export(Path(path)), "export-memories")

    async def _export(self, path: Path) -> None:
        try:
            memories = await self._listed()
            text = export_markdown(memories, self._assistant_names())
            await asyncio.to_thread(write_atomically, path, text)
        except (OSError, ParleyError) as error:
            sentence = self.tr("Could not export to %1: %2").replace("%2", _reason(error))
            self.failed.emit(sentence.replace("%1", str(path)))
            return
        done = self.tr("Memories exported to %1: %2.").replace("%2", str(len(memories)))
        self.notice.emit(done.replace("%1", str(path)))
        self.exported.emit(str(path))

    # --- the embedding model ------------------------------------------------------

    def set_embedding(self, choice: EmbeddingChoice | None) -> None:
        """Save the model memories are embedded with; the memories it has no vectors
        for are then embedded in the background (search by words works meanwhile)."""
        settings = self._settings
        if choice == settings.memory.embedding:
            return
        changed = replace(settings, memory=replace(settings.memory, embedding=choice))
        try:
            if self._settings_undo is not None:  # (it says when the file cannot be written)
                if not self._settings_undo.save(
                    changed, self.tr("Memories' embedding model changed")
                ):
                    return
            else:
                self._service.save(changed)
        except (OSError, ParleyError) as error:
            self._fail(self.tr("Could not save settings: %1"), error)
            return
        self.notice.emit(self.tr("Saved."))
        if choice is not None:
            self._tasks.start(self._embed_missing(), "embed-memories")

    async def _embed_missing(self) -> None:
        total = 0
        try:
            while (done := await self._memory.embed_missing(EMBED_BATCH)) > 0:
                total += done
                if done < EMBED_BATCH:
                    break
        except (OSError, ParleyError) as error:
            self._fail(self.tr("Could not embed the memories: %1"), error)
        if total:
            note = self.tr("Memories embedded with the new model: %1.")
            self.notice.emit(note.replace("%1", str(total)))
            self.refresh()

    # --- helpers ------------------------------------------------------------------

    def _fail(self, sentence: str, error: BaseException) -> None:
        self.failed.emit(sentence.replace("%1", _reason(error)))

    def _on_settings_changed(self, _settings: Settings) -> None:
        """Assistants, providers or the model changed: scope names, providers offered
        and "words only" marks follow."""
        self.optionsChanged.emit()
        self.changed.emit()


def _reason(error: BaseException) -> str:
    """An error as the end of a sentence (an OSError may carry no words of its own)."""
    return (getattr(error, "strerror", None) or str(error) or type(error).__name__).rstrip(".")
