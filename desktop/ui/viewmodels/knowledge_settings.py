"""Settings → Knowledge: the libraries (folders and files the assistants may cite), each
saved to settings.json as the other settings are, and how their indexing goes.

A library's files, patterns or embedding model changing makes the engine look again
(`rescan`); a new name alone does not. Deleting a library takes it off every assistant
and drops its index. Indexing itself runs in the engine; this only reads its reports.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from PySide6.QtCore import QObject, Signal

from desktop.core.errors import ParleyError, SettingsError
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
from desktop.ui.viewmodels.knowledge_progress import ACTIVE_STATES, KnowledgeProgress

# The protocols whose embedding requests can ask for fewer dimensions.
SIZED_KINDS = frozenset(
    {ProviderKind.OPENAI_CHAT, ProviderKind.OPENAI_RESPONSES, ProviderKind.GEMINI}
)


def models_named_embed(provider: ProviderSettings) -> list[str]:
    """A provider's models whose id says they embed ("text-embedding-3-small",
    "nomic-embed-text"): a stand-in until the providers say which of theirs embed."""
    return [m for m in provider.models if "embed" in m.lower()]


def patterns(text: str) -> tuple[str, ...]:
    """One glob pattern a line, blank lines ignored."""
    return tuple(dict.fromkeys(line.strip() for line in text.splitlines() if line.strip()))


@dataclass(frozen=True, slots=True)
class EmbeddingOption:
    """One entry of the embedding model picker (None: words only)."""

    choice: EmbeddingChoice | None  # without dimensions: the form sets those
    label: str
    sized: bool = False  # the model can be asked for fewer dimensions


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
    notice: str = ""  # re-embedding, or why the pass stopped


class KnowledgeSettingsModel(QObject):
    changed = Signal()  # the list of libraries or the embedding models offered
    progressChanged = Signal(str)  # library id: its state line and indexing section
    saved = Signal(str)  # library id
    failed = Signal(str)

    def __init__(
        self,
        service: SettingsService,
        progress: KnowledgeProgress,
        embedding_models: Callable[[ProviderSettings], list[str]] = models_named_embed,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._progress = progress
        self._embedding_models = embedding_models
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

    def embedding_options(self, current: EmbeddingChoice | None = None) -> list[EmbeddingOption]:
        """Words only, then every configured provider's embedding models. A chosen model
        no longer offered stays listed, marked, so the form shows what is saved."""
        options = [EmbeddingOption(None, self.tr("None — search by words only"))]
        for provider in self._settings.providers:
            sized = provider.kind in SIZED_KINDS
            for model in self._embedding_models(provider):
                choice = EmbeddingChoice(provider.id, model)
                options.append(EmbeddingOption(choice, f"{provider.name} · {model}", sized))
        if current is not None and option_index(options, current) is None:
            owner = self._settings.provider(current.provider_id)
            where = owner.name if owner is not None else current.provider_id
            label = self.tr("%1 · %2 (not available)").replace("%1", where)
            sized = owner is not None and owner.kind in SIZED_KINDS
            options.append(
                EmbeddingOption(
                    replace(current, dimensions=None), label.replace("%2", current.model), sized
                )
            )
        return options

    def state_line(self, library_id: str, *, with_file: bool = True) -> str:
        """One line on the library for its row: what it holds or what indexing does
        (and the file being read, unless `with_file` is False)."""
        library = self.library(library_id)
        if library is None:
            return ""
        if not library.enabled:
            return self.tr("Turned off")
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
        return ProgressView(
            state=state,
            active=progress.state in ACTIVE_STATES,
            done=progress.done,
            total=progress.total,
            current_file=progress.current_file,
            counts=self._counts(progress),
            failures=tuple(f"{f.path} — {f.reason}" for f in progress.failed),
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

    def save(self, draft: LibraryDraft) -> str:
        """Store the form's library (checked as settings.json is read); its id, or ""
        when it was not saved. Indexing starts again when what it covers changed."""
        paths = tuple(p.strip() for p in draft.paths if p.strip())
        if not paths:
            self.failed.emit(self.tr("Add a folder or files for the library to hold."))
            return ""
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
            field = error.field.removeprefix("library").lstrip(".")
            self.failed.emit(
                self.tr("%1: %2").replace("%1", field).replace("%2", error.problem)
                if field
                else error.problem
            )
            return ""
        settings = self._settings
        before = settings.library(library_id)
        listed = [library if lib.id == library_id else lib for lib in settings.libraries]
        if before is None:
            listed.append(library)
        if not self._write(replace(settings, libraries=tuple(listed))):
            return ""
        self.saved.emit(library_id)
        if not library.enabled:
            if before is not None and before.enabled and self.active(library_id):
                self._progress.cancel(library_id)
        elif before is None or _covers_differently(before, library):
            self._progress.rescan(library_id)
        return library_id

    def delete(self, library_id: str) -> None:
        """Remove the library, take it off the assistants that used it, drop its index."""
        settings = self._settings
        if settings.library(library_id) is None:
            return
        assistants = tuple(
            replace(a, libraries=tuple(i for i in a.libraries if i != library_id))
            for a in settings.assistants
        )
        libraries = tuple(lib for lib in settings.libraries if lib.id != library_id)
        if self._write(replace(settings, libraries=libraries, assistants=assistants)):
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

    def _write(self, settings: Settings) -> bool:
        try:
            self._service.save(settings)
        except (OSError, ParleyError) as error:
            self.failed.emit(self.tr("Could not save settings: %1").replace("%1", str(error)))
            return False
        return True

    def _on_settings_changed(self, _settings: Settings) -> None:
        self.changed.emit()


def option_index(options: list[EmbeddingOption], choice: EmbeddingChoice | None) -> int | None:
    """Where `choice` is among `options` (whatever dimensions it asks for)."""
    for index, option in enumerate(options):
        if option.choice is None or choice is None:
            if option.choice is choice:
                return index
        elif (option.choice.provider_id, option.choice.model) == (choice.provider_id, choice.model):
            return index
    return None


def _covers_differently(before: LibrarySettings, after: LibrarySettings) -> bool:
    """Whether the index must be looked at again: other files, or other vectors."""
    return (before.paths, before.include, before.exclude, before.embedding, before.enabled) != (
        after.paths,
        after.include,
        after.exclude,
        after.embedding,
        after.enabled,
    )
