"""Writing and reading the knowledge index's sources, chunks and vectors.

The indexer's side of `knowledge_index.py` (the search queries live in
`knowledge_queries.py`). Every method is one transaction and blocks: the engine calls
them from a worker thread. Each file's words are replaced in one transaction (its
chunks, their word-index rows and its source row together), and each batch of vectors in
another, so a process killed at any instant leaves an index where every indexed source
has all its chunks and words, and a vector is either stored or still missing. A missing
vector is found again by `chunks_missing_vectors`, never recorded anywhere else: there
is no "embedded" flag that could disagree with the vectors table.

What a status means (`SourceStatus`):
- pending: found and not yet read since it was found or changed (its old chunks, if
  any, are still there until it is read; searches leave it out).
- indexed: its chunks and words match the file's bytes (`sha256`); its vectors for the
  library's current model may still be missing (`chunks_missing_vectors`).
- failed: it could not be read; `error` says why, in the person's words; no chunks.
- skipped: not a kind of file Parley reads, or empty; `error` says which; no chunks.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Connection, Engine, Row, bindparam, text

from desktop.core.knowledge import SourceStatus
from desktop.storage.knowledge_index import words_for_index
from desktop.storage.knowledge_queries import mark_library_changed
from desktop.storage.sqlite_engine import read_transaction, write_transaction

_IN_CLAUSE_MAX = 500  # SQLite's host-parameter limit is far above; keeps statements small


@dataclass(frozen=True, slots=True)
class SourceRow:
    id: int
    path: str  # library-relative
    size: int
    mtime_ns: int
    sha256: str
    status: SourceStatus
    error: str
    chunks: int
    indexed_at: float | None


@dataclass(frozen=True, slots=True)
class ScannedSource:
    """What a scan found for a new or changed file, and what it makes of it (pending,
    or skipped/failed without reading, with the reason)."""

    path: str
    size: int
    mtime_ns: int
    status: SourceStatus
    error: str = ""


class ChunkFields(Protocol):
    """A passage to store (the chunker's `Chunk` has these)."""

    @property
    def ordinal(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def heading_path(self) -> str: ...
    @property
    def page(self) -> int | None: ...
    @property
    def char_start(self) -> int: ...
    @property
    def char_end(self) -> int: ...
    @property
    def text_sha256(self) -> str: ...


@dataclass(frozen=True, slots=True)
class ChunkToEmbed:
    chunk_id: int
    source_id: int
    text: str
    text_sha256: str


@dataclass(frozen=True, slots=True)
class StoredVector:
    chunk_id: int
    text_sha256: str
    vector: bytes  # float32 little-endian, L2-normalised


def _row(values: Row[Any]) -> SourceRow:
    source_id, path, size, mtime_ns, sha256, status, error, chunks, indexed_at = tuple(values)
    return SourceRow(
        id=int(source_id),
        path=str(path),
        size=int(size),
        mtime_ns=int(mtime_ns),
        sha256=str(sha256),
        status=SourceStatus(status),
        error=str(error),
        chunks=int(chunks),
        indexed_at=float(indexed_at) if indexed_at is not None else None,
    )


_SOURCE_COLUMNS = "id, path, size, mtime_ns, sha256, status, error, chunks, indexed_at"


def _batches(items: Sequence[str], size: int = _IN_CLAUSE_MAX) -> Iterable[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class KnowledgeStore:
    """The index's rows for the indexer. Safe to call from several threads: each call
    takes its own connection, and writes take turns."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._write_lock = threading.Lock()

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A write transaction, one at a time in this process: two libraries indexed
        at once take turns here instead of waiting on SQLite's lock, whose timeout a
        long scan of a large library could outlast."""
        with self._write_lock, write_transaction(self.engine) as conn:
            yield conn

    # --- sources ---------------------------------------------------------------------

    def sources(self, library_id: str) -> dict[str, SourceRow]:
        """The library's sources by library-relative path."""
        with read_transaction(self.engine) as conn:
            rows = conn.execute(
                text(f"SELECT {_SOURCE_COLUMNS} FROM sources WHERE library_id = :lib"),
                {"lib": library_id},
            ).all()
        return {row.path: row for row in map(_row, rows)}

    def source(self, source_id: int) -> SourceRow | None:
        with read_transaction(self.engine) as conn:
            found = conn.execute(
                text(f"SELECT {_SOURCE_COLUMNS} FROM sources WHERE id = :id"), {"id": source_id}
            ).first()
        return _row(found) if found is not None else None

    def apply_scan(
        self, library_id: str, found: Sequence[ScannedSource], gone: Collection[str]
    ) -> None:
        """Record a scan in one transaction: new and changed files with their new size,
        mtime and status; the rows of files that are gone deleted (their chunks, words
        and vectors with them). A changed file that goes back to pending keeps its
        chunks and SHA-256 until it is read: if its bytes turn out the same, nothing
        is chunked or embedded again."""
        with self._writing() as conn:
            for entry in found:
                conn.execute(
                    text(
                        """INSERT INTO sources (library_id, path, size, mtime_ns, status, error)
                        VALUES (:lib, :path, :size, :mtime, :status, :error)
                        ON CONFLICT (library_id, path) DO UPDATE SET
                            size = excluded.size, mtime_ns = excluded.mtime_ns,
                            status = excluded.status,
                            error = CASE WHEN excluded.status = 'pending'
                                AND sources.status = 'indexed' THEN sources.error
                                ELSE excluded.error END"""
                    ),
                    {
                        "lib": library_id,
                        "path": entry.path,
                        "size": entry.size,
                        "mtime": entry.mtime_ns,
                        "status": entry.status.value,
                        "error": entry.error,
                    },
                )
                if entry.status is not SourceStatus.PENDING:
                    _drop_chunks(conn, library_id, entry.path)
            for batch in _batches(sorted(gone)):
                conn.execute(
                    text(
                        "DELETE FROM sources WHERE library_id = :lib AND path IN :paths"
                    ).bindparams(bindparam("paths", expanding=True)),
                    {"lib": library_id, "paths": list(batch)},
                )
            if found or gone:
                mark_library_changed(conn, library_id)

    def pending(self, library_id: str) -> list[SourceRow]:
        """The library's pending sources, in path order (the order they are read in)."""
        with read_transaction(self.engine) as conn:
            rows = conn.execute(
                text(
                    f"""SELECT {_SOURCE_COLUMNS} FROM sources
                    WHERE library_id = :lib AND status = 'pending' ORDER BY path"""
                ),
                {"lib": library_id},
            ).all()
        return [_row(row) for row in rows]

    def replace_chunks(
        self,
        source_id: int,
        *,
        sha256: str,
        size: int,
        mtime_ns: int,
        chunks: Sequence[ChunkFields],
        note: str = "",
    ) -> bool:
        """A source read anew: its old chunks (with their words and vectors) replaced by
        `chunks`, and it is indexed, all in one transaction; `note` says why only part of
        it is (kept until it is read again). False if the source is no longer there (its
        library was forgotten meanwhile)."""
        with self._writing() as conn:
            if not _changing(conn, source_id):
                return False
            conn.execute(text("DELETE FROM chunks WHERE source_id = :id"), {"id": source_id})
            for chunk in chunks:
                chunk_id = conn.execute(
                    text(
                        """INSERT INTO chunks (source_id, ordinal, text, heading_path, page,
                            char_start, char_end, text_sha256)
                        VALUES (:source, :ordinal, :text, :heading, :page, :start, :end, :sha)"""
                    ),
                    {
                        "source": source_id,
                        "ordinal": chunk.ordinal,
                        "text": chunk.text,
                        "heading": chunk.heading_path,
                        "page": chunk.page,
                        "start": chunk.char_start,
                        "end": chunk.char_end,
                        "sha": chunk.text_sha256,
                    },
                ).lastrowid
                conn.execute(
                    text("INSERT INTO chunks_fts (rowid, words) VALUES (:id, :words)"),
                    {"id": chunk_id, "words": words_for_index(chunk.text)},
                )
            conn.execute(
                text(
                    """UPDATE sources SET status = 'indexed', error = :note, sha256 = :sha,
                        size = :size, mtime_ns = :mtime, chunks = :n, indexed_at = :now
                    WHERE id = :id"""
                ),
                {
                    "id": source_id,
                    "sha": sha256,
                    "size": size,
                    "mtime": mtime_ns,
                    "n": len(chunks),
                    "note": note,
                    "now": time.time(),
                },
            )
        return True

    def mark_unchanged(self, source_id: int, *, size: int, mtime_ns: int) -> None:
        """A pending source whose bytes are those it was indexed from (only touched):
        indexed again with its new size and mtime, its chunks, vectors and note kept."""
        with self._writing() as conn:
            _changing(conn, source_id)
            conn.execute(
                text(
                    """UPDATE sources SET status = 'indexed', size = :size,
                        mtime_ns = :mtime WHERE id = :id"""
                ),
                {"id": source_id, "size": size, "mtime": mtime_ns},
            )

    def mark_failed(self, source_id: int, *, size: int, mtime_ns: int, reason: str) -> None:
        """A source that could not be read: failed with `reason`, its chunks gone."""
        with self._writing() as conn:
            _changing(conn, source_id)
            conn.execute(text("DELETE FROM chunks WHERE source_id = :id"), {"id": source_id})
            conn.execute(
                text(
                    """UPDATE sources SET status = 'failed', error = :reason, sha256 = '',
                        size = :size, mtime_ns = :mtime, chunks = 0, indexed_at = :now
                    WHERE id = :id"""
                ),
                {
                    "id": source_id,
                    "reason": reason,
                    "size": size,
                    "mtime": mtime_ns,
                    "now": time.time(),
                },
            )

    def delete_source(self, source_id: int) -> None:
        with self._writing() as conn:
            _changing(conn, source_id)
            conn.execute(text("DELETE FROM sources WHERE id = :id"), {"id": source_id})

    def forget(self, library_id: str) -> int:
        """Every row of a deleted library; returns how many sources went. The embedding
        cache stays: it is keyed by text, not by library."""
        with self._writing() as conn:
            result = conn.execute(
                text("DELETE FROM sources WHERE library_id = :lib"), {"lib": library_id}
            )
            mark_library_changed(conn, library_id)
        return int(result.rowcount)

    def status_counts(self, library_id: str) -> dict[SourceStatus, int]:
        with read_transaction(self.engine) as conn:
            rows = conn.execute(
                text(
                    """SELECT status, COUNT(*) FROM sources WHERE library_id = :lib
                    GROUP BY status"""
                ),
                {"lib": library_id},
            ).all()
        return {SourceStatus(str(status)): int(count) for status, count in rows}

    def failures(self, library_id: str) -> list[tuple[str, str]]:
        """(path, reason) of the library's failed sources, in path order."""
        with read_transaction(self.engine) as conn:
            rows = conn.execute(
                text(
                    """SELECT path, error FROM sources
                    WHERE library_id = :lib AND status = 'failed' ORDER BY path"""
                ),
                {"lib": library_id},
            ).all()
        return [(str(path), str(error)) for path, error in rows]

    def partial(self, library_id: str) -> list[tuple[str, str]]:
        """(path, why) of the library's sources indexed only in part, in path order."""
        with read_transaction(self.engine) as conn:
            rows = conn.execute(
                text(
                    """SELECT path, error FROM sources WHERE library_id = :lib
                    AND status = 'indexed' AND error != '' ORDER BY path"""
                ),
                {"lib": library_id},
            ).all()
        return [(str(path), str(error)) for path, error in rows]

    # --- vectors ---------------------------------------------------------------------

    def chunks_missing_vectors(
        self, library_id: str, model_key: str, *, source_id: int | None = None
    ) -> list[ChunkToEmbed]:
        """Chunks of the library's indexed sources (or of one source) that have no
        vector under `model_key`, in source and reading order."""
        one_source = "AND s.id = :source" if source_id is not None else ""
        with read_transaction(self.engine) as conn:
            rows = conn.execute(
                text(
                    f"""SELECT c.id, c.source_id, c.text, c.text_sha256
                    FROM chunks c JOIN sources s ON s.id = c.source_id
                    LEFT JOIN vectors v ON v.chunk_id = c.id AND v.model_key = :key
                    WHERE s.library_id = :lib AND s.status = 'indexed' {one_source}
                        AND v.chunk_id IS NULL
                    ORDER BY s.path, c.ordinal"""
                ),
                {"lib": library_id, "key": model_key, "source": source_id},
            ).all()
        return [ChunkToEmbed(int(r[0]), int(r[1]), str(r[2]), str(r[3])) for r in rows]

    def cached_vectors(self, model_key: str, text_sha256s: Collection[str]) -> dict[str, bytes]:
        """Embeddings already computed under `model_key`, by the SHA-256 of their text."""
        found: dict[str, bytes] = {}
        with read_transaction(self.engine) as conn:
            for batch in _batches(sorted(set(text_sha256s))):
                rows = conn.execute(
                    text(
                        """SELECT text_sha256, vector FROM embed_cache
                        WHERE model_key = :key AND text_sha256 IN :shas"""
                    ).bindparams(bindparam("shas", expanding=True)),
                    {"key": model_key, "shas": list(batch)},
                ).all()
                found.update((str(sha), bytes(vector)) for sha, vector in rows)
        return found

    def store_vectors(
        self, model_key: str, vectors: Sequence[StoredVector], *, cache: bool = True
    ) -> int:
        """Vectors for chunks under `model_key` (and, with `cache`, in the embedding
        cache by their text), in one transaction. A chunk deleted meanwhile (its file
        re-read) is passed over, also when its id was given to a new chunk since (SQLite
        reuses the highest row ids): the text's SHA-256 must match. Returns how many
        were stored."""
        stored = 0
        changed: set[int] = set()
        with self._writing() as conn:
            for item in vectors:
                result = conn.execute(
                    text(
                        """INSERT OR REPLACE INTO vectors (chunk_id, model_key, vector)
                        SELECT id, :key, :vector FROM chunks
                        WHERE id = :chunk AND text_sha256 = :sha"""
                    ),
                    {
                        "key": model_key,
                        "vector": item.vector,
                        "chunk": item.chunk_id,
                        "sha": item.text_sha256,
                    },
                )
                stored += int(result.rowcount)
                if result.rowcount:
                    changed.add(item.chunk_id)
                if cache:
                    conn.execute(
                        text(
                            """INSERT OR REPLACE INTO embed_cache (text_sha256, model_key, vector)
                            VALUES (:sha, :key, :vector)"""
                        ),
                        {"sha": item.text_sha256, "key": model_key, "vector": item.vector},
                    )
            _mark_changed(conn, changed)
        return stored

    def prune_embed_cache(self) -> int:
        """Drop cached embeddings of texts no chunk of any library holds any more (an
        edited paragraph's old wording, a deleted file's), so the cache stays the size
        of the index. A text still held keeps its vectors under every model: a model
        switched back is not paid for twice. Returns how many went."""
        with self._writing() as conn:
            result = conn.execute(
                text(
                    """DELETE FROM embed_cache WHERE NOT EXISTS (
                        SELECT 1 FROM chunks WHERE chunks.text_sha256 = embed_cache.text_sha256)"""
                )
            )
        return int(result.rowcount)

    def vector_keys(self, library_id: str) -> dict[str, int]:
        """How many of the library's chunks have a vector, per model key."""
        with read_transaction(self.engine) as conn:
            rows = conn.execute(
                text(
                    """SELECT v.model_key, COUNT(*) FROM vectors v
                    JOIN chunks c ON c.id = v.chunk_id JOIN sources s ON s.id = c.source_id
                    WHERE s.library_id = :lib GROUP BY v.model_key"""
                ),
                {"lib": library_id},
            ).all()
        return {str(key): int(count) for key, count in rows}

    def delete_other_vectors(self, library_id: str, keep_key: str | None) -> int:
        """The library's vectors under any key but `keep_key` (all, for None): a model
        switch that has finished, or a library now searched by words only."""
        with self._writing() as conn:
            result = conn.execute(
                text(
                    """DELETE FROM vectors WHERE model_key IS NOT :keep AND chunk_id IN (
                        SELECT c.id FROM chunks c JOIN sources s ON s.id = c.source_id
                        WHERE s.library_id = :lib)"""
                ),
                {"lib": library_id, "keep": keep_key},
            )
            if result.rowcount:
                mark_library_changed(conn, library_id)
        return int(result.rowcount)

    def chunk_count(self, library_id: str) -> int:
        with read_transaction(self.engine) as conn:
            count = conn.execute(
                text(
                    """SELECT COUNT(*) FROM chunks c JOIN sources s ON s.id = c.source_id
                    WHERE s.library_id = :lib"""
                ),
                {"lib": library_id},
            ).scalar_one()
        return int(count)


def _changing(conn: Connection, source_id: int) -> bool:
    """Marks the library of a source about to be written as changed; False if the
    source is no longer there."""
    library_id = conn.execute(
        text("SELECT library_id FROM sources WHERE id = :id"), {"id": source_id}
    ).scalar()
    if library_id is None:
        return False
    mark_library_changed(conn, str(library_id))
    return True


def _drop_chunks(conn: Connection, library_id: str, path: str) -> None:
    conn.execute(
        text(
            """DELETE FROM chunks WHERE source_id =
            (SELECT id FROM sources WHERE library_id = :lib AND path = :path)"""
        ),
        {"lib": library_id, "path": path},
    )
    conn.execute(
        text(
            """UPDATE sources SET sha256 = '', chunks = 0
            WHERE library_id = :lib AND path = :path"""
        ),
        {"lib": library_id, "path": path},
    )


def _mark_changed(conn: Connection, chunk_ids: set[int]) -> None:
    """The libraries of chunks whose vectors changed: their cached matrices are stale."""
    ids = sorted(chunk_ids)
    libraries: set[str] = set()
    for start in range(0, len(ids), 500):
        batch = ids[start : start + 500]
        marks = ", ".join(str(int(chunk_id)) for chunk_id in batch)
        rows = conn.execute(
            text(
                "SELECT DISTINCT s.library_id FROM chunks c JOIN sources s ON s.id = c.source_id"
                f" WHERE c.id IN ({marks})"
            )
        ).all()
        libraries.update(str(row[0]) for row in rows)
    for library_id in libraries:
        mark_library_changed(conn, library_id)
