"""The knowledge engine's controls as the window sees them, recorded: what Settings →
Knowledge asked for (re-scan, cancel, forget), and the state a test says a library is
in. Progress itself reaches the window as real `IndexProgress` events on a real bus."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from desktop.core.dispatch import EventBus
from desktop.core.knowledge import IndexProgress, LibraryState
from desktop.engine.settings_service import SettingsService
from desktop.storage.secrets import SecretStore
from desktop.ui.viewmodels.knowledge_progress import ACTIVE_STATES, KnowledgeProgress
from desktop.ui.viewmodels.tasks import TaskGroup


class RecordingControl:
    """Satisfies `KnowledgeControl`; `calls` lists ("rescan", library id) and so on."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.states: dict[str, IndexProgress] = {}

    def rescan(self, library_id: str) -> None:
        self.calls.append(("rescan", library_id))

    def cancel(self, library_id: str) -> None:
        self.calls.append(("cancel", library_id))

    def forget(self, library_id: str) -> None:
        self.calls.append(("forget", library_id))

    def progress(self, library_id: str) -> IndexProgress:
        return self.states.get(library_id, IndexProgress(library_id, LibraryState.IDLE))

    def indexing(self, library_ids: Iterable[str]) -> bool:
        return any(self.progress(i).state in ACTIVE_STATES for i in library_ids)


class Knowledge:
    """A settings service on a real file, the event bus the engine would publish on, the
    recorded control and the progress model joining them."""

    def __init__(self, service: SettingsService) -> None:
        self.service = service
        self.events: EventBus[Any] = EventBus()
        self.control = RecordingControl()
        self.tasks = TaskGroup()
        self.progress = KnowledgeProgress(self.tasks, self.control, self.events)

    def saved(self) -> dict[str, Any]:
        return json.loads(self.service.path.read_text(encoding="utf-8"))


@contextmanager
def knowledge_settings(data_dir: Path, **sections: Any) -> Iterator[Knowledge]:
    """`settings.json` in `data_dir` with an OpenAI-compatible provider ("Local": a chat
    model and an embedding model), an Ollama one, and `sections` (libraries, assistants)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    data = {
        "version": 1,
        "providers": [
            {
                "id": "local",
                "name": "Local",
                "kind": "openai_chat",
                "base_url": "http://127.0.0.1:9/v1",
                "models": ["test-model", "text-embedding-3-small"],
            },
            {
                "id": "ollama",
                "name": "Ollama",
                "kind": "ollama",
                "base_url": "http://127.0.0.1:9",
                "models": ["llama3.2", "nomic-embed-text"],
            },
        ],
        **sections,
    }
    (data_dir / "settings.json").write_text(json.dumps(data), encoding="utf-8")
    service = SettingsService(data_dir / "settings.json", SecretStore())
    try:
        yield Knowledge(service)
    finally:
        asyncio.run(service.aclose())
