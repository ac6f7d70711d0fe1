"""Settings → Knowledge: the libraries (folders and files the assistants may cite), each
saved to settings.json as the other settings are, and how their indexing goes.

A library is made at once ("New library", no folders yet) and saved field by field as
it is edited; a save that changes nothing writes nothing, and one the settings file
would refuse is reported with its field (`invalid`) and not written.

A library's files, patterns or embedding model changing makes the engine look again
(`rescan`); a new name alone does not. Deleting a library takes it off every assistant
and drops its index. Indexing itself runs in the engine; this only reads its reports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from PySide6.QtCore import QObject, Signal

from desktop.core.errors import ParleyError, SettingsError
from desktop.core.i18n import QT_TR_NOOP, sentences, tr
from desktop.core.knowledge import (
    EmbeddingChoice,
    IndexProgress,
    LibrarySettings,
    LibraryState,
    SourceStatus,
    dump_library,
    parse_library,
)
from desktop.core.settings import ProviderKind, ProviderSettings, Settings
from desktop.engine.settings_service import SettingsService
from desktop.providers.embedding_models import embedding_models
from desktop.ui.viewmodels.knowledge_progress import ACTIVE_STATES, KnowledgeProgress
from desktop.ui.viewmodels.settings_undo import SettingsUndo
from desktop.ui.viewmodels.tasks import TaskGroup

# The protocols with no embeddings at all.
NO_EMBEDDINGS = frozenset({ProviderKind.ANTHROPIC})
# The protocols whose embedding requests can ask for fewer dimensions.
SIZED_KINDS = frozenset(
    {ProviderKind.OPENAI_CHAT, ProviderKind.OPENAI_RESPONSES, ProviderKind.GEMINI}
)


def patterns(text: str) -> tuple[str, ...]:
    """One glob pattern a line, blank lines ignored."""
    return tuple(dict.fromkeys(line.strip() for line in text.splitlines() if line.strip()))


@dataclass(frozen=True, slots=True)
class EmbeddingProvider:
    """One entry of the "Search by" picker: a provider whose models can embed, or None
    for words only."""

    provider_id: str | None
    label: str
    sized: bool = False  # its models can be asked for fewer dimensions


@dataclass(frozen=True, slots=True)
class LibraryDraft:
    """The library form's contents."""

    library_id: str  # "" for a library not saved yet
    name: str
    paths: tuple[str, ...] = ()
    include: str = ""  # one pattern a line
    exclude: str = ""
    embedding: EmbeddingChoice | None = None
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class ProgressView:
    """What the selected library's indexing section shows."""

    state: str  # the same line as in the list
    active: bool  # a pass runs: the bar and Cancel show
    done: int = 0
    total: int = 0  # 0 while a pass is still counting files: the bar is busy
    current_file: str = ""
    counts: str = ""
    failures: tuple[str, ...] = ()  # "path — reason", one a failed file
    partial: tuple[str, ...] = ()  # "path — why", one a file indexed only in part
    notice: str = ""  # re-embedding, or why the pass stopped


# The form's names for the fields an error can name.
_LABELS = {"name": QT_TR_NOOP("Name"), "paths": QT_TR_NOOP("Folders and files")}


class KnowledgeSettingsModel(QObject):
    changed = Signal()  # the list of libraries or the providers offered
    progressChanged = Signal(str)  # library id: its state line and indexing section
    embeddingModelsChanged = Signal(str)  # provider id: its models or their note
    saved = Signal(str)  # library id
    failed = Signal(str)  # the settings file could not be written
    invalid = Signal(str, str)  # field, sentence: what settings.json would refuse

    def __init__(
        self,
        service: SettingsService,
        progress: KnowledgeProgress,
        parent: QObject | None = None,
        *,
        tasks: TaskGroup | None = None,
        undo: SettingsUndo | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._progress = progress
        self._undo = undo  # the Settings window's: its saves can be undone there
        self._tasks = tasks  # None: the endpoints are never asked (saved models only)
        # What each endpoint said, by provider id with the address it was asked at.
        self._listed: dict[str, tuple[tuple[str, str], list[str]]] = {}
        self._notes: dict[str, str] = {}
        self._asking: set[str] = set()
        service.changed.subscribe(self._on_settings_changed)
        progress.changed.connect(self.progressChanged)

    @property
    def _settings(self) -> Settings:
        return self._service.settings

    # --- reading ------------------------------------------------------------------

    def libraries(self) -> tuple[LibrarySettings, ...]:
        return self._settings.libraries

    def library(self, library_id: str) -> LibrarySettings | None:
        return self._settings.library(library_id)

    @property
    def can_index(self) -> bool:
        """An engine is there to index (Re-scan and Cancel do something)."""
        return self._progress.available

    def active(self, library_id: str) -> bool:
        return self._progress.active(library_id)

    def new_draft(self) -> LibraryDraft:
        return LibraryDraft("", self.tr("New library"))

    def draft_for(self, library_id: str) -> LibraryDraft:
        library = self.library(library_id)
        if library is None:
            return self.new_draft()
        return LibraryDraft(
            library_id=library.id,
            name=library.name,
            paths=library.paths,
            include="\n".join(library.include),
            exclude="\n".join(library.exclude),
            embedding=library.embedding,
            enabled=library.enabled,
        )

    # --- embedding models ---------------------------------------------------------

    def embedding_providers(
        self, current: EmbeddingChoice | None = None
    ) -> list[EmbeddingProvider]:
        """Words only, then every configured provider that has embeddings. The chosen
        one's provider, if it is gone, stays listed, marked, so the form shows what is
        saved."""
        entries = [EmbeddingProvider(None, self.tr("None — search by words only"))]
        for provider in self._settings.providers:
            if provider.kind not in NO_EMBEDDINGS:
                entries.append(
                    EmbeddingProvider(provider.id, provider.name, provider.kind in SIZED_KINDS)
                )
        if current is not None and all(e.provider_id != current.provider_id for e in entries):
            label = self.tr("%1 (not available)").replace("%1", current.provider_id)
            entries.append(EmbeddingProvider(current.provider_id, label))
        return entries

    def embedding_models(self, provider_id: str) -> list[str]:
        """The models offered for a provider: what its endpoint listed, or, until it
        answers (or if it cannot), its saved models named as embedding models."""
        provider = self._settings.provider(provider_id)
        if provider is None:
            return []
        listed = self._listed.get(provider_id)
        if listed is not None and listed[0] == _endpoint(provider):
            return list(listed[1])
        return embedding_models(provider.models)  # by their names

    def embedding_note(self, provider_id: str) -> str:
        """A line on the provider's list: being asked, or why it could not be."""
        return self._notes.get(provider_id, "")

    def list_embedding_models(self, provider_id: str, *, again: bool = False) -> None:
        """Ask the provider's endpoint which of its models embed (once a session unless
        `again`); `embeddingModelsChanged` tells when its answer or failure is in."""
        provider = self._settings.provider(provider_id)
        if self._tasks is None or provider is None or provider_id in self._asking:
            return
        listed = self._listed.get(provider_id)
        if listed is not None and listed[0] == _endpoint(provider) and not again:
            return
        self._asking.add(provider_id)
        asking = self.tr("Asking %1 for its embedding models…").replace("%1", provider.name)
        self._notes[provider_id] = asking
        self.embeddingModelsChanged.emit(provider_id)
        self._tasks.start(self._list(provider), "list-embedding-models")

    async def _list(self, provider: ProviderSettings) -> None:
        try:
            models = await self._service.embedding_models(provider.id)
        except ParleyError as error:
            note = self.tr("Could not ask %1 for its models: %2. Type the model's name.")
            self._notes[provider.id] = note.replace("%1", provider.name).replace("%2", str(error))
        else:
            self._listed[provider.id] = (_endpoint(provider), models)
            empty = self.tr("%1 lists no embedding models. Type the model's name.")
            self._notes[provider.id] = "" if models else empty.replace("%1", provider.name)
        finally:
            self._asking.discard(provider.id)
        self.embeddingModelsChanged.emit(provider.id)

    def state_line(self, library_id: str, *, with_file: bool = True) -> str:
        """One line on the library for its row: what it holds or what indexing does
        (and the file being read, unless `with_file` is False)."""
        library = self.library(library_id)
        if library is None:
            return ""
        if not library.enabled:
            return self.tr("Turned off")
        if not library.paths:
            return self.tr("No folders or files yet")
        progress = self._progress.progress(library_id)
        if progress is None or (progress.state is LibraryState.IDLE and not progress.counts):
            line = self.tr("Not indexed yet")
            return self._words_only(line) if library.embedding is None else line
        state = progress.state
        if state is LibraryState.SCANNING:
            return self.tr("Looking for new and changed files…")
        if state is LibraryState.INDEXING:
            line = self.tr("Indexing %1 of %2").replace("%1", str(progress.done))
            line = line.replace("%2", str(progress.total))
            return (
                f"{line} — {progress.current_file}" if with_file and progress.current_file else line
            )
        if state is LibraryState.RE_EMBEDDING:
            return self.tr("Re-embedding…")
        indexed = progress.counts.get(SourceStatus.INDEXED, 0)
        if state is LibraryState.CANCELLED:
            line = self.tr("Cancelled · %n file(s) indexed", "", indexed)
        elif progress.error:
            line = self.tr("Stopped · %n file(s) indexed", "", indexed)
        else:
            line = self.tr("Indexed %n file(s)", "", indexed)
        failed = progress.counts.get(SourceStatus.FAILED, 0)
        if failed:
            line += " · " + self.tr("%1 failed").replace("%1", str(failed))
        return self._words_only(line) if library.embedding is None else line

    def _words_only(self, line: str) -> str:
        words_only = self.tr("words only")
        return f"{line} · {words_only}"

    def progress_view(self, library_id: str) -> ProgressView:
        progress = self._progress.progress(library_id)
        state = self.state_line(library_id, with_file=False)  # the file has a line of its own
        if progress is None:
            return ProgressView(state, active=False)
        notice = progress.error
        if progress.state is LibraryState.RE_EMBEDDING:
            notice = self.tr("Re-embedding — search by words keeps working meanwhile")
        notice = sentences([notice, progress.notice])
        return ProgressView(
            state=state,
            active=progress.state in ACTIVE_STATES,
            done=progress.done,
            total=progress.total,
            current_file=progress.current_file,
            counts=self._counts(progress),
            failures=tuple(f"{f.path} — {f.reason}" for f in progress.failed),
            partial=tuple(f"{f.path} — {f.reason}" for f in progress.partial),
            notice=notice,
        )

    def _counts(self, progress: IndexProgress) -> str:
        names = {
            SourceStatus.INDEXED: self.tr("%1 indexed").replace(
                "%1", str(progress.counts.get(SourceStatus.INDEXED, 0))
            ),
            SourceStatus.PENDING: self.tr("%1 waiting").replace(
                "%1", str(progress.counts.get(SourceStatus.PENDING, 0))
            ),
            SourceStatus.FAILED: self.tr("%1 failed").replace(
                "%1", str(progress.counts.get(SourceStatus.FAILED, 0))
            ),
            SourceStatus.SKIPPED: self.tr("%1 skipped").replace(
                "%1", str(progress.counts.get(SourceStatus.SKIPPED, 0))
            ),
        }
        return " · ".join(text for status, text in names.items() if progress.counts.get(status, 0))

    # --- changes ------------------------------------------------------------------

    def add(self) -> str:
        """A new library, saved at once with no folders yet (nothing to index until
        some are added); its id, or "" when it could not be saved."""
        return self.save(self.new_draft())

    def save(self, draft: LibraryDraft, *, coalesce: bool = False) -> str:
        """Store the form's library (checked as settings.json is read); its id, or ""
        when it was not saved. Indexing starts again when what it covers changed.
        `coalesce`: typing, whose quick saves Undo takes back as one."""
        paths = tuple(dict.fromkeys(p.strip() for p in draft.paths if p.strip()))
        library_id = draft.library_id or self._free_id(draft.name)
        data = dump_library(
            LibrarySettings(
                id=library_id,
                name=draft.name,
                paths=paths,
                include=patterns(draft.include),
                exclude=patterns(draft.exclude),
                embedding=draft.embedding,
                enabled=draft.enabled,
            )
        )
        try:
            library = parse_library(data, "library")
        except SettingsError as error:
            field = error.field.removeprefix("library").lstrip(".").split("[", 1)[0]
            label = tr(_LABELS[field]) if field in _LABELS else field
            sentence = self.tr("%1 %2.").replace("%1", label).replace("%2", error.problem)
            self.invalid.emit(field, sentence if field else error.problem)
            return ""
        settings = self._settings
        before = settings.library(library_id)
        if library == before:
            return library_id  # nothing changed
        listed = [library if lib.id == library_id else lib for lib in settings.libraries]
        if before is None:
            listed.append(library)
            label = self.tr("Library %1 added")
        else:
            label = self.tr("Library %1 changed")
        label = label.replace("%1", library.name)
        if not self._write(replace(settings, libraries=tuple(listed)), label, coalesce=coalesce):
            return ""
        self.saved.emit(library_id)
        if not library.enabled:
            if before is not None and before.enabled and self.active(library_id):
                self._progress.cancel(library_id)
        elif before is None and not library.paths:
            pass  # a new library with nothing in it yet: nothing to index
        elif before is None or _covers_differently(before, library):
            self._progress.rescan(library_id)
        return library_id

    def delete(self, library_id: str) -> None:
        """Remove the library, take it off the assistants that used it, drop its index."""
        settings = self._settings
        library = settings.library(library_id)
        if library is None:
            return
        assistants = tuple(
            replace(a, libraries=tuple(i for i in a.libraries if i != library_id))
            for a in settings.assistants
        )
        libraries = tuple(lib for lib in settings.libraries if lib.id != library_id)
        label = self.tr("Library %1 deleted").replace("%1", library.name)
        if self._write(replace(settings, libraries=libraries, assistants=assistants), label):
            self._progress.forget(library_id)

    def rescan(self, library_id: str) -> None:
        if self.library(library_id) is not None:
            self._progress.rescan(library_id)

    def cancel(self, library_id: str) -> None:
        self._progress.cancel(library_id)

    # --- helpers ------------------------------------------------------------------

    def _free_id(self, name: str) -> str:
        base = re.sub(r"[^a-z0-9_-]+", "-", name.lower()).strip("-_")[:32] or "library"
        taken = {lib.id for lib in self._settings.libraries}
        candidate, number = base, 2
        while candidate in taken:
            candidate, number = f"{base}-{number}", number + 1
        return candidate

    def _write(self, settings: Settings, label: str, *, coalesce: bool = False) -> bool:
        try:
            if self._undo is not None:  # (which says itself when the file cannot be written)
                return self._undo.save(settings, label, coalesce=coalesce)
            self._service.save(settings)
        except (OSError, ParleyError) as error:
            self.failed.emit(self.tr("Could not save settings: %1").replace("%1", str(error)))
            return False
        return True

    def _on_settings_changed(self, _settings: Settings) -> None:
        self.changed.emit()


def _endpoint(provider: ProviderSettings) -> tuple[str, str]:
    """What a model list belongs to: another address is another list."""
    return (provider.kind.value, provider.base_url)


def _covers_differently(before: LibrarySettings, after: LibrarySettings) -> bool:
    """Whether the index must be looked at again: other files, or other vectors."""
    return (before.paths, before.include, before.exclude, before.embedding, before.enabled) != (
        after.paths,
        after.include,
        after.exclude,
        after.embedding,
        after.enabled,
    )
