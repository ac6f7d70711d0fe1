"""The chat header's knowledge status: the assistant's libraries by name, and how far a
library still being indexed is, from the engine's progress reports."""

from __future__ import annotations

from dataclasses import replace

from desktop.core.knowledge import IndexProgress, LibraryState, SourceStatus
from desktop.ui.viewmodels.knowledge_status import KnowledgeStatusModel
from tests.support.knowledge_control import knowledge_settings

LIBRARIES = [
    {"id": "docs", "name": "Docs", "paths": ["/data/docs"]},
    {"id": "notes", "name": "Notes", "paths": ["/data/notes"]},
    {"id": "old", "name": "Old", "paths": ["/data/old"], "enabled": False},
]
ASSISTANTS = [
    {"id": "writer", "name": "Writer", "libraries": ["docs", "notes", "old"]},
    {"id": "plain", "name": "Plain"},
]


def test_the_assistant_s_libraries_are_named_and_indexing_is_shown(tmp_path, memory_keyring, qapp):
    with knowledge_settings(tmp_path, libraries=LIBRARIES, assistants=ASSISTANTS) as knowledge:
        status = KnowledgeStatusModel(knowledge.service, knowledge.progress)
        changes: list[None] = []
        status.changed.connect(lambda: changes.append(None))
        status.follow("plain")
        assert status.text() == ""  # no libraries: the header shows nothing

        status.follow("writer")
        assert status.text() == "Knowledge: Docs, Notes"  # a library turned off is left out
        assert status.tooltip() == "Answers may cite these libraries:\n• Docs\n• Notes"

        knowledge.events.emit(IndexProgress("notes", LibraryState.SCANNING))
        assert status.text() == "Knowledge: Docs, Notes (indexing…)"
        knowledge.events.emit(IndexProgress("notes", LibraryState.INDEXING, 40, 100, "a.md"))
        assert status.text() == "Knowledge: Docs, Notes (indexing 40%)"
        knowledge.events.emit(IndexProgress("docs", LibraryState.RE_EMBEDDING, 10, 100))
        assert status.text() == "Knowledge: Docs, Notes (indexing 25%)"  # both together
        knowledge.events.emit(
            IndexProgress("notes", LibraryState.IDLE, 100, 100, counts={SourceStatus.INDEXED: 90})
        )
        assert status.text() == "Knowledge: Docs, Notes (re-embedding 10%)"
        knowledge.events.emit(IndexProgress("docs", LibraryState.CANCELLED, 12, 100))
        assert status.text() == "Knowledge: Docs, Notes"
        before = len(changes)
        knowledge.events.emit(IndexProgress("elsewhere", LibraryState.INDEXING, 1, 2))
        assert len(changes) == before  # another assistant's library changes nothing here


def test_a_renamed_library_or_an_edited_assistant_shows_at_once(tmp_path, memory_keyring, qapp):
    with knowledge_settings(tmp_path, libraries=LIBRARIES, assistants=ASSISTANTS) as knowledge:
        status = KnowledgeStatusModel(knowledge.service, knowledge.progress)
        status.follow("writer")
        settings = knowledge.service.settings
        renamed = tuple(
            replace(lib, name="Handbook") if lib.id == "docs" else lib for lib in settings.libraries
        )
        knowledge.service.save(replace(settings, libraries=renamed))
        assert status.text() == "Knowledge: Handbook, Notes"
        settings = knowledge.service.settings
        assistants = tuple(replace(a, libraries=()) for a in settings.assistants)
        knowledge.service.save(replace(settings, assistants=assistants))
        assert status.text() == ""
