"""The read side of the knowledge index (`knowledge_index.py`): word search, the vectors
of a library as one matrix, the passages found, and when a library's index changed.

Word search. The question's worthwhile terms (`knowledge_terms.choose_terms`: common
ones dropped, the rarest kept) go to one BM25 query. It ranks the FTS table alone for
the best 2 × `limit`, each with whether it belongs to the libraries asked for and its
source is indexed; only when too few of those remain does it join every match to its
source (a small library in a large index).

Vectors. `load_vectors` fills one preallocated float32 array row by row from the BLOBs
(little-endian, L2-normalised by the indexer), so reading 100,000 × 768 vectors takes
exactly their 293 MiB plus one row, never a list of blobs and a copy.

Changes. A cached matrix is valid while `library_fingerprint` is unchanged: a counter
that every write transaction changing a library's sources, chunks or vectors bumps with
`mark_library_changed` (the store does it in each of its writes). One row of a small
table: it costs microseconds per query, where a summary of the library's sources cost
2 ms at 4,000 files.

Everything here filters on sources with status ``indexed``: a file that failed, is
pending or was skipped is never returned, whatever rows of it remain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt
from sqlalchemy import Connection, text

from desktop.core.knowledge import SourceStatus
from desktop.storage.knowledge_index import CHANGED_KEY
from desktop.storage.knowledge_terms import (
    TermFrequencies,
    choose_terms,
    query_terms,
)
from desktop.storage.sqlite_engine import driver_rows

WORD_HITS: Final = 50  # chunks a word search returns, best first
RANK_SAMPLE: Final = 2_000  # chunks BM25 ranks at most when every term is common
_OVERFETCH: Final = 2  # ranked FTS rows read per hit wanted, before filtering

_INDEXED = SourceStatus.INDEXED.value


# --- word search -------------------------------------------------------------------


def _placeholders(prefix: str, values: Sequence[object]) -> tuple[str, dict[str, object]]:
    """Named placeholders for an IN list of `values`, and their parameters."""
    names = [f"{prefix}{n}" for n in range(len(values))]
    return ", ".join(f":{name}" for name in names), dict(zip(names, values, strict=True))


_MATCHES = "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH :match"
# The best of the whole FTS table, each with whether it may be returned: one statement,
# as joining 100 ranked rows to their sources costs less than a second query. CROSS
# JOIN fixes the order (ranked rows, then their chunk and source): left to choose,
# SQLite walks every source of the library first (15 ms at 4,000 files, not 0.2 ms).
# INDEXED BY: a chunk's source from the small (id, source_id) index, not its row.
_RANKED = """WITH ranked AS (
        SELECT rowid AS id, bm25(chunks_fts) AS score FROM chunks_fts
        WHERE chunks_fts MATCH :match AND rowid % :step = 0 ORDER BY score LIMIT :limit)
    SELECT ranked.id, sources.status = :indexed AND sources.library_id IN ({libraries})
    FROM ranked CROSS JOIN chunks INDEXED BY chunks_sources ON chunks.id = ranked.id
    CROSS JOIN sources ON sources.id = chunks.source_id
    ORDER BY ranked.score, ranked.id"""
_RANKED_SEARCHABLE = """SELECT chunks_fts.rowid FROM chunks_fts
    CROSS JOIN chunks INDEXED BY chunks_sources ON chunks.id = chunks_fts.rowid
    CROSS JOIN sources ON sources.id = chunks.source_id
    WHERE chunks_fts MATCH :match AND chunks_fts.rowid % :step = 0
      AND sources.status = :indexed AND sources.library_id IN ({libraries})
    ORDER BY bm25(chunks_fts) LIMIT :limit"""


def word_search(
    connection: Connection,
    library_ids: Sequence[str],
    query: str,
    limit: int = WORD_HITS,
    frequencies: TermFrequencies | None = None,
) -> list[int]:
    """Chunk ids of the libraries' indexed sources matching `query`'s worthwhile
    terms, best BM25 first (at most `limit`)."""
    if not library_ids or limit <= 0:
        return []
    choice = choose_terms(connection, query_terms(query), frequencies)
    if not choice.kept:
        return []
    match: dict[str, object] = {"match": choice.expression, "step": 1}
    if choice.all_required:
        matches = int(driver_rows(connection, _MATCHES, {"match": choice.expression})[0][0])
        match["step"] = max(1, -(-matches // RANK_SAMPLE))
    wanted = _OVERFETCH * limit
    names, libraries = _placeholders("library", list(library_ids))
    match |= libraries | {"indexed": _INDEXED}
    ranked = driver_rows(connection, _RANKED.format(libraries=names), match | {"limit": wanted})
    hits = [int(chunk_id) for chunk_id, searchable in ranked if searchable][:limit]
    if len(hits) == limit or len(ranked) < wanted:
        return hits
    # Most of the best matches are elsewhere (other libraries, files not indexed):
    # rank only the searchable ones, joining each match to its source.
    rows = driver_rows(
        connection, _RANKED_SEARCHABLE.format(libraries=names), match | {"limit": limit}
    )
    return [int(chunk_id) for (chunk_id,) in rows]


# --- vectors -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class VectorMatrix:
    """A library's vectors under one model: row i of `matrix` belongs to chunk
    `chunk_ids[i]`. Empty (0 × 0) when the library has none for that model yet."""

    chunk_ids: npt.NDArray[np.int64]
    matrix: npt.NDArray[np.float32]

    @property
    def dimensions(self) -> int:
        return int(self.matrix.shape[1])

    def __len__(self) -> int:
        return int(self.matrix.shape[0])

    @property
    def nbytes(self) -> int:
        return int(self.matrix.nbytes + self.chunk_ids.nbytes)


def empty_matrix() -> VectorMatrix:
    return VectorMatrix(np.empty(0, dtype=np.int64), np.empty((0, 0), dtype=np.float32))


_VECTOR_FROM = """FROM sources
    JOIN chunks ON chunks.source_id = sources.id
    JOIN vectors ON vectors.chunk_id = chunks.id AND vectors.model_key = :model_key
    WHERE sources.library_id = :library_id AND sources.status = :indexed"""
_VECTOR_COUNT = text(f"SELECT count(*), max(length(vectors.vector)) {_VECTOR_FROM}")
_VECTOR_ROWS = text(f"SELECT vectors.chunk_id, vectors.vector {_VECTOR_FROM}")


def load_vectors(connection: Connection, library_id: str, model_key: str) -> VectorMatrix:
    """The library's vectors under `model_key`, from its indexed sources only.

    Call it inside one read transaction with `library_fingerprint`, so the fingerprint
    describes exactly the rows loaded. A vector of another size than the longest (a
    damaged row) is left out rather than failing the whole library."""
    params = {"library_id": library_id, "model_key": model_key, "indexed": _INDEXED}
    count, longest = connection.execute(_VECTOR_COUNT, params).one()
    if not count or not longest or longest % 4:
        return empty_matrix()
    dimensions = int(longest) // 4
    chunk_ids = np.empty(int(count), dtype=np.int64)
    matrix = np.empty((int(count), dimensions), dtype=np.float32)
    filled = 0
    for chunk_id, blob in connection.execute(_VECTOR_ROWS, params):
        if filled == len(chunk_ids) or len(blob) != longest:
            continue
        chunk_ids[filled] = chunk_id
        matrix[filled] = np.frombuffer(blob, dtype="<f4")
        filled += 1
    if filled < len(chunk_ids):  # damaged rows: keep the array exact rather than a view
        chunk_ids, matrix = chunk_ids[:filled].copy(), matrix[:filled].copy()
    return VectorMatrix(chunk_ids, matrix)


def vector_blob(vector: Sequence[float] | npt.NDArray[np.floating]) -> bytes:
    """How the index stores a vector: L2-normalised float32, little-endian (for the
    indexer, so both sides agree on it)."""
    array = np.asarray(vector, dtype="<f4")
    norm = float(np.linalg.norm(array))
    if norm > 0:
        array = array / np.float32(norm)
    return array.astype("<f4").tobytes()


# --- changes -----------------------------------------------------------------------

_BUMP = text(
    """INSERT INTO meta (key, value) VALUES (:key, '1')
    ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"""
)
_COUNTER = "SELECT value FROM meta WHERE key = :key"

Fingerprint = str


def mark_library_changed(connection: Connection, library_id: str) -> None:
    """Call it in every write transaction that adds, changes or removes a library's
    sources, chunks or vectors (or a source's status), so matrices cached for searches
    are reloaded."""
    connection.execute(_BUMP, {"key": CHANGED_KEY + library_id})


def library_fingerprint(connection: Connection, library_id: str) -> Fingerprint:
    """Changes whenever what a search of the library could find changes (with every
    `mark_library_changed`)."""
    rows = driver_rows(connection, _COUNTER, {"key": CHANGED_KEY + library_id})
    return str(rows[0][0]) if rows else ""


# --- passages ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StoredPassage:
    """A chunk as the index holds it; the caller turns `path` (library-relative) into
    the file's absolute path from the library's settings."""

    chunk_id: int
    library_id: str
    path: str
    text: str
    heading_path: str
    page: int | None
    char_start: int
    char_end: int
    source_sha256: str
    text_sha256: str


_PASSAGES = """SELECT chunks.id, sources.library_id, sources.path, chunks.text, chunks.heading_path,
        chunks.page, chunks.char_start, chunks.char_end, sources.sha256, chunks.text_sha256
    FROM chunks CROSS JOIN sources ON sources.id = chunks.source_id
    WHERE chunks.id IN ({ids}) AND sources.status = :indexed"""


def fetch_passages(connection: Connection, chunk_ids: Sequence[int]) -> list[StoredPassage]:
    """The chunks of `chunk_ids` whose source is still indexed, in the order asked for
    (a source may have failed or gone since its ids were found: it is left out)."""
    if not chunk_ids:
        return []
    names, ids = _placeholders("chunk", list(chunk_ids))
    rows = driver_rows(connection, _PASSAGES.format(ids=names), ids | {"indexed": _INDEXED})
    found = {
        int(row[0]): StoredPassage(
            chunk_id=int(row[0]),
            library_id=str(row[1]),
            path=str(row[2]),
            text=str(row[3]),
            heading_path=str(row[4]),
            page=None if row[5] is None else int(row[5]),
            char_start=int(row[6]),
            char_end=int(row[7]),
            source_sha256=str(row[8]),
            text_sha256=str(row[9]),
        )
        for row in rows
    }
    return [found[i] for i in chunk_ids if i in found]
