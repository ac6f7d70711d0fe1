"""One indexing pass over a library: scan, read what changed, store words, embed.

The steps, and what each leaves behind if the pass stops there (cancelled, killed):
1. Scan (`scanner.py`): new and changed files become pending, gone files lose their
   rows. One transaction.
2. Each pending file, in path order: if its bytes hash to the SHA-256 it was indexed
   from (only touched), it is indexed again as it was. Otherwise it is read
   (`read_document`, in a worker thread) and cut into passages (`chunking.py`); its
   chunks and their words replace the old ones and it becomes indexed, in one
   transaction. A file that cannot be read becomes failed with the reason. From here
   on the file is found by words.
3. Its chunks without a vector under the library's model key get one: from the
   embedding cache when the same text was embedded before (another file, an earlier
   version, a model switched back), else from the `Embedder`, up to `EMBED_BATCH`
   texts a call across files, a few calls at once while the next files are read
   (`embed_batches.py`). Each batch is stored in one transaction.
Chunks of indexed files that still lack vectors (the embedder was down, the model
changed, the app quit) are embedded by the next pass; no other record says so, so none
can disagree. When the embedder fails, the pass stops asking it and goes on storing
words, and ends with `IndexProgress.error` saying why.

A pass whose library has vectors under another key is re-embedding (the model
changed): words keep answering meanwhile, and the old vectors are deleted once every
chunk has one under the new key.

Database writes run in worker threads and are waited for even when the pass is
cancelled, so the pass stops between transactions; a file being read when it is
cancelled is abandoned at once (reading writes nothing).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from desktop.core.attachments import AttachmentError
from desktop.core.i18n import tr
from desktop.core.knowledge import (
    FailedSource,
    IndexProgress,
    LibrarySettings,
    LibraryState,
    SourceStatus,
)
from desktop.core.limits import MAX_LIBRARY_DOCUMENT_CHARS
from desktop.engine.knowledge.chunking import Chunk, layout_for, split_into_chunks
from desktop.engine.knowledge.documents import read_document
from desktop.engine.knowledge.embed_batches import EmbedBatches, write
from desktop.engine.knowledge.embedding import EMBED_BATCH, Embedder
from desktop.engine.knowledge.progress import ProgressThrottle
from desktop.engine.knowledge.scanner import Listing, list_library, plan_scan
from desktop.storage.knowledge_store import ChunkToEmbed, KnowledgeStore, SourceRow, StoredVector

log = logging.getLogger(__name__)


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class _Read:
    sha256: str
    chunks: list[Chunk]
    note: str  # why only part of the file is indexed, or ""


def _read_and_chunk(path: Path) -> _Read:
    document = read_document(path)
    chunks = split_into_chunks(document.text, layout_for(path.name))
    note = ""
    if document.truncated:
        note = tr("only its first {count} characters are indexed: the rest is past the limit")
        note = note.format(count=f"{MAX_LIBRARY_DOCUMENT_CHARS:,}")
    return _Read(document.sha256, chunks, note)


def unavailable_notice(paths: Sequence[str]) -> str:
    """What a pass says when listed folders or files are not there at all."""
    listed = ", ".join(f"“{path}”" for path in paths)
    return tr("Not available now: {paths}. Their files are kept until they are back.").format(
        paths=listed
    )


def words_only_notice(reason: str) -> str:
    """What a pass that could not compute vectors says (`IndexProgress.error`)."""
    return tr("Searched by words only for now: vectors could not be computed ({reason}).").format(
        reason=reason
    )


@dataclass(slots=True)
class PassSummary:
    """What a pass did, for the log line and for tests: counts only."""

    files_read: int = 0
    files_touched: int = 0  # pending, but their bytes had not changed: not read
    files_failed: int = 0
    chunks_written: int = 0
    embed_calls: int = 0
    texts_embedded: int = 0
    vectors_from_cache: int = 0
    old_vectors_deleted: int = 0
    cache_pruned: int = 0  # cached embeddings of texts no longer in any file
    seconds: float = 0.0


class IndexPass:
    """One pass over `library`. `embedder` is None for a library searched by words only,
    or when the model could not be set up (`embedder_error` then says why)."""

    def __init__(
        self,
        store: KnowledgeStore,
        library: LibrarySettings,
        embedder: Embedder | None,
        report: Callable[[IndexProgress], None],
        *,
        embedder_error: str = "",
        batch_size: int = EMBED_BATCH,
    ) -> None:
        self._store = store
        self._library = library
        self._embedder = embedder
        self._key = library.embedding.key if library.embedding is not None else None
        self._embed_error = embedder_error
        self._batch_size = batch_size
        self._throttle = ProgressThrottle(self.progress, report)
        self.summary = PassSummary()
        self._state = LibraryState.SCANNING
        self._done = 0
        self._total = 0
        self._current = ""
        self._statuses: dict[str, SourceStatus] = {}
        self._counts: Counter[SourceStatus] = Counter()  # of `_statuses`, kept as it changes
        self._failures: dict[str, str] = {}
        self._partial: dict[str, str] = {}  # indexed in part: why
        self._unavailable = ""  # listed paths not there: their files are kept
        self._batches: EmbedBatches | None = None
        if self._key is not None and embedder is not None and not embedder_error:
            self._batches = EmbedBatches(
                store,
                self._key,
                embedder,
                batch_size=batch_size,
                source_done=self._step,
                failed=self._on_embedding_failed,
            )

    def progress(self) -> IndexProgress:
        return IndexProgress(
            library_id=self._library.id,
            state=self._state,
            done=self._done,
            total=self._total,
            current_file=self._current,
            counts={status: n for status, n in self._counts.items() if n},
            failed=tuple(FailedSource(p, r) for p, r in sorted(self._failures.items())),
            partial=tuple(FailedSource(p, r) for p, r in sorted(self._partial.items())),
            error=words_only_notice(self._embed_error) if self._embed_error else "",
            notice=self._unavailable,
        )

    async def run(self) -> PassSummary:
        """Run the pass to its end (or until cancelled: the state is then CANCELLED)."""
        started = time.monotonic()
        try:
            await self._run()
        except BaseException as error:
            if self._batches is not None:
                await self._batches.abandon()
            if isinstance(error, asyncio.CancelledError):
                self._finish(LibraryState.CANCELLED, started)
            raise
        self._finish(LibraryState.IDLE, started)
        return self.summary

    def _finish(self, state: LibraryState, started: float) -> None:
        if self._batches is not None:
            self.summary.embed_calls = self._batches.calls
            self.summary.texts_embedded = self._batches.texts_embedded
        self._state = state
        self._current = ""
        self.summary.seconds = time.monotonic() - started
        self._throttle.changed(now=True)
        self._throttle.close()
        s = self.summary
        log.info(
            "Knowledge pass %s for library %s: %d/%d files, %d read, %d touched, %d failed, "
            "%d chunks, %d texts embedded in %d calls, %d vectors from cache, "
            "%d old vectors deleted, %d cached pruned, %.2f s%s",
            state.value,
            self._library.id,
            self._done,
            self._total,
            s.files_read,
            s.files_touched,
            s.files_failed,
            s.chunks_written,
            s.texts_embedded,
            s.embed_calls,
            s.vectors_from_cache,
            s.old_vectors_deleted,
            s.cache_pruned,
            s.seconds,
            ", vectors stopped" if self._embed_error else "",
        )

    # --- the pass ---------------------------------------------------------------------

    async def _run(self) -> None:
        library_id = self._library.id
        self._throttle.changed(now=True)
        listing = await asyncio.to_thread(list_library, self._library)
        recorded = await asyncio.to_thread(self._store.sources, library_id)
        plan = plan_scan(listing, recorded)
        if listing.unavailable:
            self._unavailable = unavailable_notice(listing.unavailable)
        await write(self._store.apply_scan, library_id, plan.changed, plan.gone)
        for row in recorded.values():
            self._note(row.path, row.status, row.error)
        for entry in plan.changed:
            self._note(entry.path, entry.status, entry.error)
        for path in plan.gone:
            self._drop(path)

        pending = await asyncio.to_thread(self._store.pending, library_id)
        backlog: dict[int, list[ChunkToEmbed]] = {}
        old_keys: set[str] = set()
        if self._key is not None:
            old_keys = set(await asyncio.to_thread(self._store.vector_keys, library_id))
            old_keys.discard(self._key)
            if self._embedder is not None and not self._embed_error:
                pending_ids = {row.id for row in pending}
                missing = await asyncio.to_thread(
                    self._store.chunks_missing_vectors, library_id, self._key
                )
                for chunk in missing:
                    if chunk.source_id not in pending_ids:
                        backlog.setdefault(chunk.source_id, []).append(chunk)
        self._state = LibraryState.RE_EMBEDDING if old_keys else LibraryState.INDEXING
        self._total = len(pending) + len(backlog)
        self._throttle.changed(now=True)

        for row in pending:
            await self._index_file(row, listing)
        for source_id, chunks in backlog.items():
            await self._embed_source(source_id, chunks)
        if self._batches is not None:
            await self._batches.drain()
        await self._tidy_vectors(old_keys)
        if plan.gone or self.summary.files_read or self.summary.files_failed:
            # Texts may have left the index: their cached embeddings with them.
            self.summary.cache_pruned = await write(self._store.prune_embed_cache)

    def _note(self, path: str, status: SourceStatus, reason: str) -> None:
        self._drop(path)
        self._statuses[path] = status
        self._counts[status] += 1
        if status is SourceStatus.FAILED:
            self._failures[path] = reason
        elif status is SourceStatus.INDEXED and reason:
            self._partial[path] = reason

    def _drop(self, path: str) -> None:
        old = self._statuses.pop(path, None)
        if old is not None:
            self._counts[old] -= 1
        self._failures.pop(path, None)
        self._partial.pop(path, None)

    def _step(self) -> None:
        self._done += 1
        self._throttle.changed()

    async def _index_file(self, row: SourceRow, listing: Listing) -> None:
        found = listing.files.get(row.path)
        self._current = row.path
        self._throttle.changed()
        info: os.stat_result | None = None
        try:
            if found is not None:
                info = await asyncio.to_thread(os.stat, found.path)
        except FileNotFoundError:
            found = None
        except OSError:
            pass  # reading it will say why it cannot be read
        if found is None:
            # Gone since it was listed: the next scan would drop it anyway.
            await write(self._store.delete_source, row.id)
            self._drop(row.path)
            self._step()
            return
        size = info.st_size if info is not None else row.size
        mtime_ns = info.st_mtime_ns if info is not None else row.mtime_ns
        if row.sha256 and await self._same_bytes(found.path, row.sha256):
            await write(self._store.mark_unchanged, row.id, size=size, mtime_ns=mtime_ns)
            self.summary.files_touched += 1
            self._note(row.path, SourceStatus.INDEXED, row.error)  # a note stays
            await self._embed_source(row.id, None)
            return
        try:
            read = await asyncio.to_thread(_read_and_chunk, found.path)
        except AttachmentError as error:
            await self._fail(row, size, mtime_ns, error.problem)
            return
        except Exception as error:  # one unreadable file never stops the others
            log.warning("A library file could not be read (%s)", type(error).__name__)
            await self._fail(row, size, mtime_ns, tr("could not be read"))
            return
        self.summary.files_read += 1
        stored = await write(
            self._store.replace_chunks,
            row.id,
            sha256=read.sha256,
            size=size,
            mtime_ns=mtime_ns,
            chunks=read.chunks,
            note=read.note,
        )
        if not stored:
            self._step()
            return
        self.summary.chunks_written += len(read.chunks)
        self._note(row.path, SourceStatus.INDEXED, read.note)
        await self._embed_source(row.id, None)

    async def _same_bytes(self, path: Path, sha256: str) -> bool:
        try:
            return await asyncio.to_thread(_file_sha256, path) == sha256
        except OSError:
            return False  # reading it properly will say why it cannot be read

    async def _fail(self, row: SourceRow, size: int, mtime_ns: int, reason: str) -> None:
        await write(self._store.mark_failed, row.id, size=size, mtime_ns=mtime_ns, reason=reason)
        self.summary.files_failed += 1
        self._note(row.path, SourceStatus.FAILED, reason)
        self._step()

    # --- vectors ----------------------------------------------------------------------

    def _embedding(self) -> bool:
        return self._batches is not None and not self._embed_error

    def _on_embedding_failed(self, reason: str) -> None:
        self._embed_error = reason
        self._throttle.changed(now=True)

    async def _embed_source(self, source_id: int, missing: Sequence[ChunkToEmbed] | None) -> None:
        """Give the source's chunks without vectors theirs: from the cache now, the
        rest queued for the embedder. The source counts as done once all have one."""
        key, batches = self._key, self._batches
        if key is None or batches is None or not self._embedding():
            self._step()
            return
        if missing is None:
            missing = await asyncio.to_thread(
                self._store.chunks_missing_vectors, self._library.id, key, source_id=source_id
            )
        if missing:
            cached = await asyncio.to_thread(
                self._store.cached_vectors, key, {chunk.text_sha256 for chunk in missing}
            )
            hits = [
                StoredVector(c.chunk_id, c.text_sha256, cached[c.text_sha256])
                for c in missing
                if c.text_sha256 in cached
            ]
            if hits:
                await write(self._store.store_vectors, key, hits, cache=False)
                self.summary.vectors_from_cache += len(hits)
            missing = [c for c in missing if c.text_sha256 not in cached]
        if not missing:
            self._step()
            return
        await batches.add(source_id, missing)

    async def _tidy_vectors(self, old_keys: set[str]) -> None:
        """Old-model vectors go once every chunk has one under the current model; a
        library searched by words only keeps none."""
        library_id = self._library.id
        if self._key is None:
            if await asyncio.to_thread(self._store.vector_keys, library_id):
                deleted = await write(self._store.delete_other_vectors, library_id, None)
                self.summary.old_vectors_deleted += deleted
            return
        if not old_keys or not self._embedding():
            return
        missing = await asyncio.to_thread(self._store.chunks_missing_vectors, library_id, self._key)
        if not missing:
            deleted = await write(self._store.delete_other_vectors, library_id, self._key)
            self.summary.old_vectors_deleted += deleted
