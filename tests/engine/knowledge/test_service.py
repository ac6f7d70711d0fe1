"""The knowledge service: passes in the background, one at a time per library, progress on
the engine's event bus, cancel, forget, progress after a restart, a damaged index."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError

from desktop.core.dispatch import EventBus
from desktop.core.errors import ParleyError
from desktop.core.events import EngineEvent
from desktop.core.knowledge import (
    EmbeddingChoice,
    IndexProgress,
    LibrarySettings,
    LibraryState,
    SourceStatus,
)
from desktop.core.settings import Settings
from desktop.engine.knowledge.service import KnowledgeService, open_or_rebuild
from desktop.storage import sqlite_engine
from desktop.storage.knowledge_index import INDEX_FILE, open_index
from desktop.storage.knowledge_queries import word_search
from desktop.storage.sqlite_engine import read_transaction
from tests.support.knowledge import HashingEmbedder, write_library, write_many
from tests.support.knowledge_rows import add_source
from tests.support.waiting import run_within, wait_for

MODEL = EmbeddingChoice("local", "embed-small")


class Harness:
    """A service over a real data folder, settings that tests change, and one
    in-process embedder per model key."""

    def __init__(self, data_dir: Path, libraries: tuple[LibrarySettings, ...]) -> None:
        self.settings = Settings(libraries=libraries)
        self.embedders: dict[str, HashingEmbedder] = {}
        self.refuse = ""  # the factory's error, when set
        self.events: EventBus[EngineEvent] = EventBus()
        self.progress: list[IndexProgress] = []
        self.events.subscribe(self._heard)
        self.service = KnowledgeService(
            data_dir, lambda: self.settings, self._embedder, self.events
        )

    def _heard(self, event: EngineEvent) -> None:
        if isinstance(event, IndexProgress):
            self.progress.append(event)

    def _embedder(self, choice: EmbeddingChoice) -> HashingEmbedder:
        if self.refuse:
            raise ParleyError(self.refuse)
        return self.embedders.setdefault(choice.key, HashingEmbedder())

    def embedder(self) -> HashingEmbedder:
        return self.embedders.setdefault(MODEL.key, HashingEmbedder())

    def passes(self, library_id: str = "lib") -> int:
        return sum(
            1
            for e in self.progress
            if e.library_id == library_id and e.state is LibraryState.SCANNING
        )

    def ended(self, library_id: str = "lib") -> bool:
        mine = [e for e in self.progress if e.library_id == library_id]
        return (
            bool(mine)
            and mine[-1].state in (LibraryState.IDLE, LibraryState.CANCELLED)
            and not self.service.indexing([library_id])
        )


def _library(folder: Path, library_id: str = "lib", **changes: object) -> LibrarySettings:
    library = LibrarySettings(library_id, library_id.title(), (str(folder),), embedding=MODEL)
    return replace(library, **changes)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return write_library(tmp_path / "library")


def test_a_rescan_indexes_in_the_background_and_reports_on_the_bus(tmp_path, folder):
    async def main() -> None:
        h = Harness(tmp_path / "data", (_library(folder),))
        h.service.rescan("lib")
        assert h.service.indexing(["other", "lib"])
        await wait_for(h.ended)
        final = h.progress[-1]
        assert final.state is LibraryState.IDLE
        assert final.counts == {
            SourceStatus.INDEXED: 5,
            SourceStatus.FAILED: 3,
            SourceStatus.SKIPPED: 1,
        }
        assert h.service.progress("lib") == final
        assert h.service.last_summary["lib"].files_read == 5
        assert h.embedder().calls > 0
        await h.service.close()

    run_within(main())


def test_rescans_asked_for_during_a_pass_make_exactly_one_more(tmp_path, folder):
    async def main() -> None:
        h = Harness(tmp_path / "data", (_library(folder),))
        h.embedder().hold()
        h.service.rescan("lib")
        await wait_for(lambda: h.embedder().waiting == 1)
        for _ in range(3):
            h.service.rescan("lib")
        assert h.passes() == 1
        h.embedder().release()
        await wait_for(lambda: h.passes() == 2 and h.ended())
        assert h.embedder().calls == 1  # the second pass found nothing left to do
        assert h.service.last_summary["lib"].files_read == 0
        await h.service.close()

    run_within(main())


def test_cancel_stops_the_pass_and_the_next_one_goes_on_from_there(tmp_path):
    folder = write_many(tmp_path / "many", 50)

    async def main() -> None:
        h = Harness(tmp_path / "data", (_library(folder),))
        h.embedder().hold()
        h.service.rescan("lib")
        await wait_for(lambda: h.embedder().waiting == 1)
        h.service.rescan("lib")  # asked for after it: cancel drops this one too
        await h.service.cancel("lib")
        assert not h.service.indexing(["lib"])
        assert h.progress[-1].state is LibraryState.CANCELLED
        assert h.passes() == 1
        h.embedder().release()
        read_before = h.service.store.status_counts("lib").get(SourceStatus.INDEXED, 0)
        assert 0 < read_before < 50

        h.service.rescan("lib")
        await wait_for(h.ended)
        assert h.service.store.status_counts("lib") == {SourceStatus.INDEXED: 50}
        assert h.service.last_summary["lib"].files_read == 50 - read_before
        await h.service.close()

    run_within(main())


def test_forget_removes_a_library_and_leaves_the_others(tmp_path, folder):
    other = write_many(tmp_path / "other", 3)

    async def main() -> None:
        h = Harness(tmp_path / "data", (_library(folder), _library(other, "second")))
        h.service.rescan("lib")
        h.service.rescan("second")
        await wait_for(lambda: h.ended("lib") and h.ended("second"))
        await h.service.forget("lib")
        assert h.service.store.sources("lib") == {}
        assert h.service.store.status_counts("second") == {SourceStatus.INDEXED: 3}
        assert h.service.progress("lib").counts == {}
        await h.service.close()

    run_within(main())


def test_progress_after_a_restart_comes_from_the_index(tmp_path, folder):
    data = tmp_path / "data"

    async def first() -> None:
        h = Harness(data, (_library(folder),))
        h.service.rescan("lib")
        await wait_for(h.ended)
        await h.service.close()

    async def second() -> None:
        h = Harness(data, (_library(folder),))
        progress = h.service.progress("lib")
        assert progress.state is LibraryState.IDLE
        assert progress.counts[SourceStatus.INDEXED] == 5
        assert (progress.done, progress.total) == (9, 9)
        assert {f.path for f in progress.failed} == {"broken.docx", "huge.txt", "scan.pdf"}
        switched = EmbeddingChoice("local", "embed-large")
        h.settings = Settings(libraries=(_library(folder, embedding=switched),))
        assert h.service.progress("lib").state is LibraryState.RE_EMBEDDING
        await h.service.close()

    run_within(first())
    run_within(second())


def test_a_damaged_index_file_is_built_again(tmp_path, folder, caplog):
    data = tmp_path / "data"
    (data / INDEX_FILE).parent.mkdir(parents=True)
    (data / INDEX_FILE).write_bytes(b"this is not a database" * 100)

    async def main() -> None:
        h = Harness(data, (_library(folder),))
        h.service.rescan("lib")
        await wait_for(h.ended)
        assert h.service.store.status_counts("lib")[SourceStatus.INDEXED] == 5
        await h.service.close()

    run_within(main())
    assert "knowledge index could not be opened" in caplog.text


def test_an_embedder_that_cannot_be_set_up_leaves_words(tmp_path, folder):
    async def main() -> None:
        h = Harness(tmp_path / "data", (_library(folder),))
        h.refuse = "the provider 'local' is not configured"
        h.service.rescan("lib")
        await wait_for(h.ended)
        assert "not configured" in h.progress[-1].error
        assert h.service.store.status_counts("lib")[SourceStatus.INDEXED] == 5
        await h.service.close()

    run_within(main())


def test_disabled_and_unknown_libraries_are_not_indexed(tmp_path, folder):
    async def main() -> None:
        h = Harness(tmp_path / "data", (_library(folder, enabled=False),))
        h.service.rescan("lib")
        h.service.rescan("nope")
        await wait_for(lambda: not h.service.indexing(["lib", "nope"]))
        assert h.progress == []
        assert h.service.store.sources("lib") == {}
        await h.service.close()

    run_within(main())


def test_close_stops_running_passes(tmp_path):
    folder = write_many(tmp_path / "many", 30)

    async def main() -> None:
        h = Harness(tmp_path / "data", (_library(folder),))
        h.embedder().hold()
        h.service.rescan("lib")
        await wait_for(lambda: h.embedder().waiting == 1)
        await h.service.close()
        assert not h.service.indexing(["lib"])
        assert h.progress[-1].state is LibraryState.CANCELLED
        h.embedder().release()

    run_within(main())


def test_an_index_another_program_holds_locked_is_kept_and_the_error_raised(tmp_path, monkeypatch):
    monkeypatch.setattr(sqlite_engine, "BUSY_TIMEOUT_MS", 200)
    data = tmp_path / "data"
    engine = open_index(data)
    [zebra] = add_source(engine, "lib", "a.md", ["zebra"])
    engine.dispose()
    holder = sqlite3.connect(data / INDEX_FILE)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(OperationalError, match="locked"):
            open_or_rebuild(data)
    finally:
        holder.rollback()
        holder.close()
    engine = open_or_rebuild(data)
    try:
        with read_transaction(engine) as connection:
            assert word_search(connection, ["lib"], "zebra") == [zebra]
    finally:
        engine.dispose()
