"""`MemoryService`: the engine's one way to keep, change, forget and find memories.

Saving. A new memory is first compared with those kept in the scopes it must not repeat
(its own by default): the same normalised text (`core.memory.normalised`: case, spacing
and a final full stop aside), or a vector of the same model at cosine
≥ `DUPLICATE_COSINE`, is that memory, returned instead of a second copy (a model is
then pointed at editing it). Otherwise the text and its vector are written in one
transaction. An embedder that fails or does not answer in time never costs the memory:
it is written without a vector (`words_only`), found by its words, and given a vector
by `embed_missing` once the model answers again.

Searching is the knowledge search's recipe at memory scale: the query's words (BM25,
`MemoryRepository.search_words`) while the query is embedded, then the nearest stored
vectors of that model in the scopes asked for, the two rankings fused by reciprocal rank
(k = 60). No embedding model, or one that fails: words only, and `words_only_reason`
says why when something failed rather than was chosen.

The embedding model is asked for at each call (`embedding.py`). Database work runs in
worker threads.
"""

from __future__ import annotations

import asyncio
import builtins
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Final

import numpy as np
import numpy.typing as npt

from desktop.core.i18n import tr
from desktop.core.knowledge import EmbeddingKind
from desktop.core.memory import (
    DUPLICATE_COSINE,
    MEMORY_BLOCK_MAX_CHARS,
    MEMORY_RETRIEVE_LIMIT,
    Memory,
    check_scope,
    clean_text,
    normalised,
)
from desktop.core.models import utc_now
from desktop.engine.knowledge.embedding import EMBED_BATCH
from desktop.engine.knowledge.ranking import RRF_K, fuse, query_vector
from desktop.engine.memory.embedding import Embedded, EmbedderSource, MemoryEmbedder, embed_text
from desktop.engine.memory.vectors import VectorCache
from desktop.storage.database import Database
from desktop.storage.memories import MemoryRepository
from desktop.storage.memory_vectors import set_vector, without_vector

log = logging.getLogger(__name__)

EMBED_TIMEOUT_S: Final = 10.0
CANDIDATES: Final = 50  # memories each ranking contributes to the fusion


@dataclass(frozen=True, slots=True)
class SaveOutcome:
    """`memory` holds the fact: the new memory, or the one already kept
    (`duplicate_of`, the same memory) when the text repeats it."""

    memory: Memory
    duplicate_of: Memory | None = None
    words_only_reason: str | None = None  # why a new memory has no vector, if it failed


@dataclass(frozen=True, slots=True)
class SearchResult:
    memories: tuple[Memory, ...]  # best first
    words_only_reason: str | None = None  # why vectors were not used, if something failed


class MemoryService:
    """Memories of one database, embedded by the model `embedder` names at each call.
    Use from one event loop; saves run one at a time, so two saves of one fact at once
    cannot both find no copy of it."""

    def __init__(
        self,
        database: Database,
        embedder: EmbedderSource | MemoryEmbedder | None = None,
        *,
        clock: Callable[[], datetime] = utc_now,
        embed_timeout_s: float = EMBED_TIMEOUT_S,
    ) -> None:
        self._db = database
        self.repository = MemoryRepository(database, clock=clock)
        if isinstance(embedder, MemoryEmbedder):
            fixed = embedder
            self._embedder: EmbedderSource = lambda: fixed
        else:
            self._embedder = embedder or (lambda: None)
        self._timeout_s = embed_timeout_s
        self.vectors = VectorCache(database)
        self._tombstones: dict[str, datetime] = {}  # deletions this service can undo
        self._saving = asyncio.Lock()

    # --- changes ----------------------------------------------------------------------

    async def save(
        self,
        scope: str,
        text: str,
        *,
        source_conversation_id: str | None = None,
        source_message_id: str | None = None,
        duplicate_scopes: Sequence[str] | None = None,
    ) -> SaveOutcome:
        """Keep `text` in `scope`, unless a memory of `duplicate_scopes` (default: the
        scope itself) already says it. Raises `InvalidMemory`."""
        scope, text = check_scope(scope), clean_text(text)
        among = tuple(dict.fromkeys(duplicate_scopes or (scope,)))
        async with self._saving:
            same = await asyncio.to_thread(self._same_text, among, text)
            if same is not None:
                return SaveOutcome(same, duplicate_of=same)
            embedded = await embed_text(
                self._embedder, text, EmbeddingKind.DOCUMENT, self._timeout_s
            )
            if embedded.vector is not None and embedded.model_key is not None:
                close = await asyncio.to_thread(
                    self._closest, embedded.model_key, among, embedded.vector
                )
                if close is not None:
                    return SaveOutcome(close, duplicate_of=close)
            memory = await asyncio.to_thread(
                self._add, scope, text, embedded, source_conversation_id, source_message_id
            )
        return SaveOutcome(memory, words_only_reason=embedded.reason)

    async def update(self, memory_id: str, text: str) -> Memory:
        """The memory with its new text, embedded again (`words_only` when that failed:
        the text is saved all the same). Raises `MemoryNotFound`, `MemoryDeleted` (a
        deleted memory is never brought back by an edit), `InvalidMemory`."""
        memory = await asyncio.to_thread(self.repository.update_text, memory_id, text)
        self.vectors.forget()
        if not memory.words_only:
            return memory  # the same text: its vector still fits
        embedded = await embed_text(
            self._embedder, memory.text, EmbeddingKind.DOCUMENT, self._timeout_s
        )
        if embedded.vector is None or embedded.model_key is None:
            return memory
        stored = await asyncio.to_thread(
            set_vector, self._db, memory.id, memory.text, embedded.vector, embedded.model_key
        )
        self.vectors.forget()
        return replace(memory, words_only=not stored)

    async def delete(self, memory_id: str) -> Memory:
        """The tombstone; `undelete` restores it. Raises `MemoryNotFound`, `MemoryDeleted`."""
        tombstone = await asyncio.to_thread(self._delete, memory_id)
        assert tombstone.deleted_at is not None
        self._tombstones[memory_id] = tombstone.deleted_at
        return tombstone

    async def undelete(self, memory_id: str, deleted_at: datetime | None = None) -> Memory | None:
        """Undo of a deletion: of the one at `deleted_at`, or else of this service's last
        deletion of the memory. The restored memory; None when there is no such deletion
        to undo (restored already, or deleted again since). Raises `MemoryNotFound`."""
        stamp = deleted_at or self._tombstones.get(memory_id)
        if stamp is None:
            return None
        restored = await asyncio.to_thread(self.repository.undelete, memory_id, stamp)
        if restored is not None:
            self._tombstones.pop(memory_id, None)
            self.vectors.forget()
        return restored

    async def embed_missing(self, limit: int = 256) -> int:
        """Give up to `limit` memories without a vector of the current model one (words
        only ones, or after the model changed); how many were given one. Stops at the
        first failure: what is left waits for the next call."""
        embedded = 0
        try:
            source = self._embedder()
        except Exception as error:
            log.info("memory embedding skipped: %s", type(error).__name__)
            return 0
        if source is None:
            return 0
        waiting = await asyncio.to_thread(without_vector, self._db, source.model_key, limit)
        for start in range(0, len(waiting), EMBED_BATCH):
            batch = waiting[start : start + EMBED_BATCH]
            try:
                values = await asyncio.wait_for(
                    source.embedder.embed([m.text for m in batch], EmbeddingKind.DOCUMENT),
                    self._timeout_s,
                )
            except Exception as error:
                log.info("memory embedding stopped: %s", type(error).__name__)
                break
            pairs = [
                (memory, vector)
                for memory, raw in zip(batch, values, strict=False)
                if (vector := query_vector(raw)) is not None
            ]
            embedded += await asyncio.to_thread(self._store_vectors, source.model_key, pairs)
        if embedded:
            self.vectors.forget()
        return embedded

    # --- reading ----------------------------------------------------------------------

    async def get(self, memory_id: str) -> Memory | None:
        return await asyncio.to_thread(self.repository.get, memory_id)

    async def list(
        self, scopes: Sequence[str] | None = None, query: str = ""
    ) -> builtins.list[Memory]:
        """Live memories of `scopes` (None: all), newest first; those holding `query`."""
        return await asyncio.to_thread(self.repository.list, scopes, query)

    async def all_in(
        self, scopes: Sequence[str], max_chars: int = MEMORY_BLOCK_MAX_CHARS
    ) -> builtins.list[Memory]:
        """The newest memories of `scopes`, about as many as a block of `max_chars`
        holds (`memory_block` keeps the ones that fit), read without reading them all."""
        return await asyncio.to_thread(self.repository.newest, scopes, max_chars)

    async def search(
        self, scopes: Sequence[str], query: str, limit: int = MEMORY_RETRIEVE_LIMIT
    ) -> SearchResult:
        """The live memories of `scopes` that best answer `query`, best first."""
        began = time.perf_counter()
        wanted = tuple(dict.fromkeys(scopes))
        if not wanted or not query.strip() or limit <= 0:
            return SearchResult(())
        embedding = asyncio.ensure_future(
            embed_text(self._embedder, query, EmbeddingKind.QUERY, self._timeout_s)
        )
        try:
            word_ids, kept = await asyncio.to_thread(self._words, wanted, query)
            if kept == 0:
                return SearchResult(())
            embedded = await embedding
        finally:
            embedding.cancel()
        memories, reason = await asyncio.to_thread(self._rank, wanted, word_ids, embedded, limit)
        log.info(
            "memory search: %d word hits, %s, %d memories, %.0f ms",
            len(word_ids),
            "words only" if reason or embedded.vector is None else "with vectors",
            len(memories),
            (time.perf_counter() - began) * 1000,
        )
        return SearchResult(tuple(memories), reason)

    # --- in worker threads ------------------------------------------------------------

    def _add(
        self,
        scope: str,
        text: str,
        embedded: Embedded,
        source_conversation_id: str | None,
        source_message_id: str | None,
    ) -> Memory:
        memory = self.repository.add(
            scope,
            text,
            source_conversation_id=source_conversation_id,
            source_message_id=source_message_id,
            vector=embedded.vector,
            model_key=embedded.model_key,
        )
        if embedded.vector is not None and embedded.model_key is not None:
            self.vectors.added(embedded.model_key, memory.id, memory.scope, embedded.vector)
        return memory

    def _delete(self, memory_id: str) -> Memory:
        tombstone = self.repository.delete(memory_id)
        self.vectors.removed(memory_id)
        return tombstone

    def _same_text(self, scopes: Sequence[str], text: str) -> Memory | None:
        key = normalised(text)
        for memory_id, kept in self.repository.texts(scopes):
            if normalised(kept) == key:
                found = self.repository.get_many([memory_id])
                if found:
                    return found[0]
        return None

    def _closest(
        self, model_key: str, scopes: Sequence[str], vector: npt.NDArray[np.float32]
    ) -> Memory | None:
        nearest, _size = self.vectors.nearest(model_key, scopes, vector, 1)
        if not nearest or nearest[0][1] < DUPLICATE_COSINE:
            return None
        found = self.repository.get_many([nearest[0][0]])
        return found[0] if found else None

    def _store_vectors(
        self, model_key: str, pairs: Sequence[tuple[Memory, npt.NDArray[np.float32]]]
    ) -> int:
        return sum(set_vector(self._db, m.id, m.text, vector, model_key) for m, vector in pairs)

    def _words(self, scopes: Sequence[str], query: str) -> tuple[builtins.list[str], int]:
        """The word ranking, and how many memories the scopes hold (none: no search)."""
        kept = self.repository.count(scopes)
        return (self.repository.search_words(scopes, query, CANDIDATES) if kept else []), kept

    def _rank(
        self,
        scopes: Sequence[str],
        word_ids: builtins.list[str],
        embedded: Embedded,
        limit: int,
    ) -> tuple[builtins.list[Memory], str | None]:
        rankings = [word_ids]
        reason = embedded.reason
        if embedded.vector is not None and embedded.model_key is not None:
            nearest, size = self.vectors.nearest(
                embedded.model_key, scopes, embedded.vector, CANDIDATES
            )
            if size == 0:
                reason = tr("no memory has been embedded with this model yet")
            elif size != embedded.vector.shape[0]:
                reason = tr(
                    "the embedding model returns vectors of another size than the memories'"
                )
            rankings.append([memory_id for memory_id, _score in nearest])
        positions: dict[str, int] = {}
        numbered = [[positions.setdefault(i, len(positions)) for i in ids] for ids in rankings]
        ids = list(positions)
        fused = [ids[position] for position, _score in fuse(numbered, RRF_K)]
        # A few spare: a memory deleted by another Parley may still be in the vectors.
        return self.repository.get_many(fused[: limit * 2])[:limit], reason
