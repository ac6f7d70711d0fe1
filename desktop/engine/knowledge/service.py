"""The engine's one entry point to knowledge libraries' indexing, owned by the app.

It opens the index (`knowledge/index.db` under the data folder; a damaged file is
deleted and built again from the person's files, never a failure to start), runs
indexing passes in the background (`KeyedTasks`, one key per library: at most one pass
per library at a time, and a re-scan asked for while one runs makes exactly one more
pass after it), and reports their progress as `IndexProgress` events on the engine's
event bus. The search code reads the same index through `engine`.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Final

from sqlalchemy import Engine
from sqlalchemy.exc import DatabaseError, SQLAlchemyError

from desktop.core.dispatch import EventBus
from desktop.core.errors import ParleyError
from desktop.core.events import EngineEvent
from desktop.core.i18n import tr
from desktop.core.knowledge import (
    MAX_PASSAGES,
    EmbeddingChoice,
    EmbeddingKind,
    FailedSource,
    IndexProgress,
    LibrarySettings,
    LibraryState,
    SearchOutcome,
    SourceStatus,
)
from desktop.core.settings import Settings
from desktop.engine.knowledge.embedding import Embedder
from desktop.engine.knowledge.indexer import IndexPass, PassSummary
from desktop.engine.knowledge.scanner import resolve_source
from desktop.engine.knowledge.search import KnowledgeSearch, QueryEmbedder
from desktop.engine.tasks import KeyedTasks
from desktop.storage.knowledge_index import INDEX_FILE, open_index
from desktop.storage.knowledge_store import KnowledgeStore

log = logging.getLogger(__name__)

EmbedderFactory = Callable[[EmbeddingChoice], Embedder]

_DAMAGED: Final = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})


def open_or_rebuild(data_dir: Path) -> Engine:
    """The index under `data_dir`; a file SQLite cannot read as a database is deleted
    and a new one made (it holds nothing that is not in the person's files). Any other
    failure (a full disk, a file another program holds locked) is raised as it is:
    deleting the index then would throw away every embedding for nothing."""
    try:
        return open_index(data_dir)
    except DatabaseError as error:
        code = getattr(error.orig, "sqlite_errorcode", None)
        if code is None or code & 0xFF not in _DAMAGED:
            raise
        log.warning(
            "The knowledge index could not be opened (%s); it is built again",
            type(error.orig).__name__,
        )
    path = data_dir / INDEX_FILE
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return open_index(data_dir)


class KnowledgeService:
    def __init__(
        self,
        data_dir: Path,
        settings: Callable[[], Settings],
        embedder_for: EmbedderFactory,
        events: EventBus[EngineEvent],
    ) -> None:
        self._engine = open_or_rebuild(data_dir)
        self.store = KnowledgeStore(self._engine)
        self._settings = settings
        self._embedder_for = embedder_for
        self._events = events
        self._tasks = KeyedTasks("knowledge-index")
        self._again: set[str] = set()  # libraries to pass over once more when done
        self._latest: dict[str, IndexProgress] = {}
        self.last_summary: dict[str, PassSummary] = {}  # the last finished pass's counts
        self.search = KnowledgeSearch(self._engine)

    @property
    def engine(self) -> Engine:
        """The index database, for the search queries."""
        return self._engine

    # --- passes -----------------------------------------------------------------------

    def rescan(self, library_id: str) -> None:
        """Bring the library's index up to date with its files, in the background. While
        a pass runs, this asks for one more after it (however often it is called).
        Must be called on the engine's event loop."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # asked before the loop runs (a window built first): soon
            asyncio.get_event_loop_policy().get_event_loop().call_soon(self.rescan, library_id)
            return
        if self._tasks.busy(library_id):
            self._again.add(library_id)
            return
        self._tasks.start(library_id, self._passes(library_id))

    async def cancel(self, library_id: str) -> None:
        """Stop the library's pass (and the one asked for after it) and wait until it
        has stopped; what it stored so far stays, and the next pass goes on from there."""
        self._again.discard(library_id)
        await self._tasks.cancel(library_id)

    def indexing(self, library_ids: Iterable[str]) -> bool:
        """Whether a pass runs for any of these libraries."""
        return any(self._tasks.busy(library_id) for library_id in library_ids)

    async def forget(self, library_id: str) -> None:
        """A deleted library: its pass stopped, and its sources, chunks, words and
        vectors removed from the index."""
        await self.cancel(library_id)
        self._latest.pop(library_id, None)
        self.last_summary.pop(library_id, None)
        removed = await asyncio.to_thread(self.store.forget, library_id)
        log.info("Knowledge library %s forgotten: %d sources removed", library_id, removed)

    async def close(self) -> None:
        """Stop every pass, wait for them, and close the index."""
        self._again.clear()
        await self._tasks.close()
        self.search.matrices.clear()
        self._engine.dispose()

    # --- searching --------------------------------------------------------------------

    def rescan_all(self) -> None:
        """Every enabled library brought up to date (at start: files changed while
        Parley was closed). Must be called on the engine's event loop."""
        for library in self._settings().libraries:
            if library.enabled:
                self.rescan(library.id)

    async def retrieve(
        self, library_ids: Sequence[str], query: str, *, limit: int = MAX_PASSAGES
    ) -> SearchOutcome:
        """The passages of those libraries (enabled, still configured) that best answer
        `query`; what an answer is given (`turn/retrieval.py`). Raises `ParleyError`
        when the index cannot be read."""
        settings = self._settings()
        libraries = [
            library
            for library_id in dict.fromkeys(library_ids)
            if (library := settings.library(library_id)) is not None and library.enabled
        ]
        if not libraries:
            return SearchOutcome(())
        embedders: dict[str, QueryEmbedder] = {}
        for library in libraries:
            choice = library.embedding
            if choice is not None and choice.key not in embedders:
                embedders[choice.key] = self._query_embedder(choice)
        try:
            return await self.search.search(
                libraries, query, embedders=embedders, locate=_absolute_path, limit=limit
            )
        except (SQLAlchemyError, OSError) as error:
            log.warning("Knowledge search failed: %s", type(error).__name__)
            raise ParleyError(tr("the index of your documents could not be read")) from error

    def _query_embedder(self, choice: EmbeddingChoice) -> QueryEmbedder:
        async def embed(query: str) -> Sequence[float]:
            embedder = self._embedder_for(choice)
            vectors = await embedder.embed([query], EmbeddingKind.QUERY)
            return vectors[0] if vectors else []

        return embed

    def progress(self, library_id: str) -> IndexProgress:
        """The library's latest progress: the last event of this session, or what the
        index says (after a restart). Reads the index: a few small queries."""
        latest = self._latest.get(library_id)
        if latest is not None:
            return latest
        counts = self.store.status_counts(library_id)
        failed = tuple(
            FailedSource(path, reason) for path, reason in self.store.failures(library_id)
        )
        partial = tuple(
            FailedSource(path, reason) for path, reason in self.store.partial(library_id)
        )
        total = sum(counts.values())
        state = LibraryState.IDLE
        library = self._settings().library(library_id)
        if library is not None and library.embedding is not None:
            keys = self.store.vector_keys(library_id)
            if set(keys) - {library.embedding.key}:
                state = LibraryState.RE_EMBEDDING  # a model switch that did not finish
        done = total - counts.get(SourceStatus.PENDING, 0)
        return IndexProgress(
            library_id, state, done, total, counts=counts, failed=failed, partial=partial
        )

    async def _passes(self, library_id: str) -> None:
        while True:
            self._again.discard(library_id)
            await self._one_pass(library_id)
            if library_id not in self._again:
                return

    async def _one_pass(self, library_id: str) -> None:
        library = self._settings().library(library_id)
        if library is None or not library.enabled:
            return
        embedder: Embedder | None = None
        error = ""
        if library.embedding is not None:
            try:
                embedder = self._embedder_for(library.embedding)
            except Exception as exc:  # the provider was removed, has no key, ...
                error = str(exc) if isinstance(exc, ParleyError) else type(exc).__name__
        index_pass = IndexPass(self.store, library, embedder, self._publish, embedder_error=error)
        try:
            self.last_summary[library_id] = await index_pass.run()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.error("Knowledge pass for library %s failed", library_id, exc_info=exc)
            reason = str(exc) if isinstance(exc, ParleyError) else type(exc).__name__
            stopped = index_pass.progress()
            self._publish(
                IndexProgress(
                    library_id,
                    LibraryState.IDLE,
                    stopped.done,
                    stopped.total,
                    counts=stopped.counts,
                    failed=stopped.failed,
                    error=tr("Indexing stopped: {reason}").format(reason=reason),
                )
            )

    def _publish(self, progress: IndexProgress) -> None:
        self._latest[progress.library_id] = progress
        self._events.emit(progress)


def _absolute_path(library: LibrarySettings, relative: str) -> str:
    """Where a passage's file is now; where it was expected when it is gone (the source
    panel then says so)."""
    found = resolve_source(library, relative)
    if found is not None:
        return str(found)
    roots = [Path(raw).expanduser() for raw in library.paths]
    folder = next((root for root in roots if root.name != relative), None)
    return str(folder.joinpath(*relative.split("/"))) if folder is not None else relative
