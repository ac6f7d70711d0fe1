"""The chunks of one indexing pass that wait for vectors, sent to the embedding model in
batches of `EMBED_BATCH` texts across files, `EMBED_IN_FLIGHT` batches at once.

A remote model answers in hundreds of milliseconds: one batch at a time, 78 batches of
a thousand pages took 28 s against a model answering 300 ms late, four at once 8.7 s,
while the pass goes on reading the next files. A batch waits (`add` does) while four
are out, so reading never runs far ahead of embedding.

A text in two batches out at once (the same paragraph in two files) is embedded by the
first; the second waits for its vector. A text is registered from when a batch takes
it until its vector is stored, where a later batch's cache lookup finds it, so no text
is sent twice in a pass.

When the model fails, no more calls are made this pass: every chunk still waiting is
given up for now (the next pass embeds it) and `failed` says why, once. Each batch's
vectors are stored in one transaction, waited for even when the pass is cancelled.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import ParamSpec, TypeVar

from desktop.core.errors import ParleyError
from desktop.core.i18n import tr
from desktop.core.knowledge import EmbeddingKind
from desktop.engine.knowledge.embedding import Embedder, pack
from desktop.storage.knowledge_store import ChunkToEmbed, KnowledgeStore, StoredVector

log = logging.getLogger(__name__)

EMBED_IN_FLIGHT = 4  # embedding calls at once (the providers' own limit for one call)

P = ParamSpec("P")
T = TypeVar("T")
_Vector = asyncio.Future[bytes | None]  # None: the batch embedding it gave up


async def write(call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run a database write in a worker thread and see it end even if the caller is
    cancelled meanwhile (the transaction commits or rolls back whole, then the
    cancellation goes on)."""
    future = asyncio.ensure_future(asyncio.to_thread(call, *args, **kwargs))
    try:
        return await asyncio.shield(future)
    except asyncio.CancelledError:
        await asyncio.wait([future])
        raise


def failure_reason(error: BaseException) -> str:
    if isinstance(error, ParleyError):
        return str(error)
    return tr("unexpected error ({kind})").format(kind=type(error).__name__)


class EmbedBatches:
    """One pass's embedding queue for one model key. `source_done` is called when the
    last waiting chunk of a source is dealt with (stored or given up); `failed` with
    the reason when the model fails."""

    def __init__(
        self,
        store: KnowledgeStore,
        key: str,
        embedder: Embedder,
        *,
        batch_size: int,
        source_done: Callable[[], None],
        failed: Callable[[str], None],
    ) -> None:
        self._store = store
        self._key = key
        self._embedder = embedder
        self._batch_size = batch_size
        self._source_done = source_done
        self._failed = failed
        self.failure = ""  # why the model failed this pass
        self.calls = 0  # embedding calls answered
        self.texts_embedded = 0
        self._queue: list[ChunkToEmbed] = []
        self._outstanding: dict[int, int] = {}  # source id -> chunks waiting for vectors
        self._flights: set[asyncio.Task[None]] = set()
        self._texts_in_flight: dict[str, _Vector] = {}  # text SHA-256 -> its vector

    async def add(self, source_id: int, chunks: Sequence[ChunkToEmbed]) -> None:
        """Queue a source's chunks; full batches go out (waiting while four are)."""
        self._outstanding[source_id] = len(chunks)
        self._queue.extend(chunks)
        while len(self._queue) >= self._batch_size and not self.failure:
            await self._launch()

    async def drain(self) -> None:
        """Send what is queued and wait for every batch; a database error in one
        ends the pass."""
        while self._queue:
            await self._launch()
        while self._flights:
            await self._land(asyncio.ALL_COMPLETED)

    async def abandon(self) -> None:
        """The pass ends early: the batches still out are cancelled (a write under
        way still ends whole)."""
        flights, self._flights = self._flights, set()
        for task in flights:
            task.cancel()
        await asyncio.gather(*flights, return_exceptions=True)

    async def _launch(self) -> None:
        while len(self._flights) >= EMBED_IN_FLIGHT:
            await self._land(asyncio.FIRST_COMPLETED)
        batch, self._queue = self._queue[: self._batch_size], self._queue[self._batch_size :]
        self._flights.add(asyncio.ensure_future(self._flush(batch)))

    async def _land(self, when: str) -> None:
        done, _ = await asyncio.wait(self._flights, return_when=when)
        self._flights -= done
        for task in done:
            task.result()

    async def _flush(self, batch: Sequence[ChunkToEmbed]) -> None:
        if self.failure:
            self._settle(batch)
            return
        shas = {chunk.text_sha256 for chunk in batch}
        elsewhere = {
            sha: self._texts_in_flight[sha] for sha in shas if sha in self._texts_in_flight
        }
        loop = asyncio.get_running_loop()
        mine: dict[str, _Vector] = {sha: loop.create_future() for sha in shas - set(elsewhere)}
        self._texts_in_flight.update(mine)
        try:
            vectors = await self._vectors_for(batch, mine, elsewhere)
            if vectors is not None:
                stored = [
                    StoredVector(c.chunk_id, c.text_sha256, vectors[c.text_sha256]) for c in batch
                ]
                await write(self._store.store_vectors, self._key, stored)
            self._settle(batch)
        finally:
            for sha, future in mine.items():
                if not future.done():
                    future.set_result(None)
                self._texts_in_flight.pop(sha, None)

    async def _vectors_for(
        self,
        batch: Sequence[ChunkToEmbed],
        mine: dict[str, _Vector],
        elsewhere: dict[str, _Vector],
    ) -> dict[str, bytes] | None:
        """The batch's vectors by text: its own texts from the cache (an earlier pass,
        another file) or the model, the others from the batches embedding them. None
        when there are none to be had (the model failed)."""
        cached = await asyncio.to_thread(self._store.cached_vectors, self._key, set(mine))
        texts: dict[str, str] = {}
        for chunk in batch:
            if chunk.text_sha256 in mine and chunk.text_sha256 not in cached:
                texts.setdefault(chunk.text_sha256, chunk.text)
        vectors = dict(cached)
        if texts:
            try:
                answer = await self._embedder.embed(list(texts.values()), EmbeddingKind.DOCUMENT)
                # Off the event loop: 64 vectors of 768 numbers take milliseconds to pack.
                packed = await asyncio.to_thread(pack, answer, len(texts))
            except Exception as error:
                self._stop(error)
                return None
            vectors.update(zip(texts, packed, strict=True))
            self.calls += 1
            self.texts_embedded += len(texts)
        for sha, future in mine.items():
            future.set_result(vectors[sha])
        for sha, future in elsewhere.items():
            vector = await future
            if vector is None:  # that batch gave up
                return None
            vectors[sha] = vector
        return vectors

    def _stop(self, error: Exception) -> None:
        if self.failure:
            return  # another batch out failed first
        log.warning("Embedding failed; the pass goes on by words only (%s)", type(error).__name__)
        self.failure = failure_reason(error)
        self._settle(self._queue)
        self._queue = []
        self._failed(self.failure)

    def _settle(self, batch: Sequence[ChunkToEmbed]) -> None:
        """These chunks are dealt with (stored, or given up on this pass): a source
        whose last chunk this was is done."""
        for chunk in batch:
            left = self._outstanding.get(chunk.source_id, 0) - 1
            if left > 0:
                self._outstanding[chunk.source_id] = left
            elif chunk.source_id in self._outstanding:
                del self._outstanding[chunk.source_id]
                self._source_done()
