"""The chat header's knowledge status: which libraries the conversation's assistant may
cite, and whether one of them is still being indexed (answers then cite only what is
indexed so far)."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from desktop.core.knowledge import LibrarySettings, LibraryState
from desktop.core.settings import Settings
from desktop.engine.settings_service import SettingsService
from desktop.ui.viewmodels.knowledge_progress import ACTIVE_STATES, KnowledgeProgress


class KnowledgeStatusModel(QObject):
    changed = Signal()

    def __init__(
        self,
        settings: SettingsService,
        progress: KnowledgeProgress,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._settings = settings
        self._progress = progress
        self._assistant_id: str | None = None
        settings.changed.subscribe(self._on_settings_changed)
        progress.changed.connect(self._on_progress)

    def follow(self, assistant_id: str | None) -> None:
        """The chat now talks to this assistant."""
        if assistant_id != self._assistant_id:
            self._assistant_id = assistant_id
            self.changed.emit()

    def libraries(self) -> list[LibrarySettings]:
        """The assistant's libraries that exist and are turned on, in its order."""
        settings = self._settings.settings
        listed = (settings.library(i) for i in settings.assistant(self._assistant_id).libraries)
        return [lib for lib in listed if lib is not None and lib.enabled]

    def text(self) -> str:
        """ "Knowledge: Docs, Notes", and "(indexing 40%)" while one of them is indexed;
        "" when the assistant uses none."""
        libraries = self.libraries()
        if not libraries:
            return ""
        names = ", ".join(lib.name for lib in libraries)
        text = self.tr("Knowledge: %1").replace("%1", names)
        running = [
            p
            for lib in libraries
            if (p := self._progress.progress(lib.id)) is not None and p.state in ACTIVE_STATES
        ]
        if not running:
            return text
        done = sum(p.done for p in running)
        total = sum(p.total for p in running)
        re_embedding = all(p.state is LibraryState.RE_EMBEDDING for p in running)
        if not total:
            state = self.tr("re-embedding…") if re_embedding else self.tr("indexing…")
        else:
            percent = str(min(100, done * 100 // total))
            state = self.tr("re-embedding %1%") if re_embedding else self.tr("indexing %1%")
            state = state.replace("%1", percent)
        return f"{text} ({state})"

    def tooltip(self) -> str:
        """Each library on a line of its own (the label may be shortened)."""
        if not self.libraries():
            return ""
        lines = [self.tr("Answers may cite these libraries:")]
        lines += [f"• {lib.name}" for lib in self.libraries()]
        return "\n".join(lines)

    def _on_settings_changed(self, _settings: Settings) -> None:
        self.changed.emit()

    def _on_progress(self, library_id: str) -> None:
        if any(lib.id == library_id for lib in self.libraries()):
            self.changed.emit()
