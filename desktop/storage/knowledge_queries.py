"""The read side of the knowledge index (`knowledge_index.py`): word search, the vectors
of a library as one matrix, the passages found, and when a library's index changed.

Word search. A query is split exactly as the index was: `words_for_index` (CJK runs as
character pairs), then SQLite's own `unicode61 remove_diacritics 2` tokenizer, run on a
private in-memory table, so "Café", "CAFE" and "café" are the term the index holds and
its document frequency can be looked up in ``chunks_vocab``. Each kept term goes to
MATCH as a quoted FTS5 string with its double quotes doubled, so `"`, `*`, `AND`,
`NEAR(`, `-` in a query are text, never syntax.

Which terms are kept. BM25 costs about a microsecond per posting of every term searched
(measured at 100,000 chunks: a term in 17 % of them costs 25 ms, one in every chunk
100-240 ms, a rare one under 1 ms), while a common term adds almost nothing to the
ranking (its IDF is near zero). So, by document frequency:
- a term in more than 20 % of the chunks is dropped;
- the rarest terms are kept, at most 8, while together they match at most 10 % of the
  chunks (`POSTINGS_SHARE`; the rarest one is always kept): a question of several
  middling words then costs what one middling word costs, not eight of them;
- when every term is common, all of them (at most 8) are kept and all required (AND),
  so a query is never emptied for nothing; as their chunks may still be tens of
  thousands, BM25 then ranks an even sample of at most `RANK_SAMPLE` of them (every
  n-th row id), 5-9 ms instead of 25-180 ms: the words of such a question tell little
  anyway, and its meaning is the vectors' part;
- a term in no chunk is dropped (it can match nothing).
The limits never go below `PRUNE_FLOOR` chunks: in a small library the cost is nil and
"20 %" is a handful of passages worth finding. Document frequencies come from FTS5's
vocabulary (`TermFrequencies`). Reading one costs time in proportion to it (a term in
every chunk of 100,000: 13 ms; one in 150: 0.03 ms), so the frequent terms, those in
more than `CENSUS_FLOOR` chunks, are read all at once in one pass over the vocabulary
(0.2 s at 100,000 chunks) and kept while the index's size stays within 10 % of what it
was; every other term is read alone, cheaply, as it is asked. Before, each new common
word of a question cost 2-4 ms to count, and counting the chunks 1 ms every question.

The BM25 query ranks the FTS table alone for the best 2 × `limit`, each with whether it
belongs to the libraries asked for and its source is indexed; only when too few of those
remain does it join every match to its source (a small library in a large index).

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

import sqlite3
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt
from sqlalchemy import Connection, text

from desktop.core.knowledge import SourceStatus
from desktop.storage.knowledge_index import words_for_index
from desktop.storage.sqlite_engine import driver_rows

WORD_HITS: Final = 50  # chunks a word search returns, best first
COMMON_SHARE: Final = 0.20  # a term in more of the chunks than this is dropped
POSTINGS_SHARE: Final = 0.10  # the kept terms together match at most this share
PRUNE_FLOOR: Final = 2_000  # ...but the limits are never below this many chunks
MAX_TERMS: Final = 8  # rarest terms kept
RANK_SAMPLE: Final = 2_000  # chunks BM25 ranks at most when every term is common
_OVERFETCH: Final = 2  # ranked FTS rows read per hit wanted, before filtering
CENSUS_FLOOR: Final = 256  # terms in more chunks than this are read all at once
_FREQUENCIES_DRIFT: Final = 0.10  # ...and kept while the number of chunks moves less
_CHANGED_KEY: Final = "changed:"  # meta key prefix of a library's change counter
_CHANGED: Final = {"low": _CHANGED_KEY, "high": _CHANGED_KEY[:-1] + chr(ord(":") + 1)}

_INDEXED = SourceStatus.INDEXED.value


# --- terms -------------------------------------------------------------------------


class _Tokenizer:
    """SQLite's unicode61 tokenizer with the index's options, on a private in-memory
    database: the one way to split a query exactly as the index split the chunks (its
    case folding and diacritic table differ from Python's in places, e.g. Greek)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None

    def terms(self, query: str) -> list[str]:
        with self._lock:
            if self._db is None:
                db = sqlite3.connect(":memory:", check_same_thread=False)
                db.execute(
                    "CREATE VIRTUAL TABLE q USING fts5 "
                    "(words, tokenize = 'unicode61 remove_diacritics 2')"
                )
                db.execute("CREATE VIRTUAL TABLE q_terms USING fts5vocab (q, 'instance')")
                self._db = db
            db = self._db
            db.execute("INSERT INTO q (rowid, words) VALUES (1, ?)", (query,))
            try:
                rows = db.execute("SELECT term FROM q_terms ORDER BY offset").fetchall()
            finally:
                db.execute("DELETE FROM q")
        return list(dict.fromkeys(str(row[0]) for row in rows))


_tokenizer = _Tokenizer()


def query_terms(query: str) -> list[str]:
    """The distinct index terms of `query`, in the order they appear."""
    prepared = words_for_index(query)
    return _tokenizer.terms(prepared) if prepared.strip() else []


def match_expression(terms: Iterable[str], *, all_required: bool = False) -> str:
    """An FTS5 query matching any (or all) of `terms`, each a quoted string."""
    joiner = " AND " if all_required else " OR "
    return joiner.join('"' + term.replace('"', '""') + '"' for term in terms)


_CHUNK_COUNT = "SELECT count(*) FROM chunks"
# Every library's change counter (`mark_library_changed`): the chunks are counted again
# only when one of them moved.
_COUNTERS = "SELECT key, value FROM meta WHERE key >= :low AND key < :high ORDER BY key"
_CENSUS = "SELECT term, doc FROM chunks_vocab WHERE doc > :floor"
_FREQUENCY = "SELECT doc FROM chunks_vocab WHERE term = :term"


def common_line(total: int) -> float:
    """A term in more chunks than this (of `total`) is too common to search for."""
    return max(COMMON_SHARE * total, PRUNE_FLOOR)


class TermFrequencies:
    """Document frequencies (chunks holding a term): the frequent terms from a census
    kept while the same libraries are indexed and the number of chunks stays within
    10 % of what it was when it was taken (they only decide which terms are worth
    searching, so a slightly old count does no harm, and a library being indexed does
    not make every question take it again), the others read as they are asked.
    Thread-safe."""

    def __init__(self, census_floor: int = CENSUS_FLOOR) -> None:
        self._floor = census_floor
        self._lock = threading.Lock()
        self._counters: list[tuple[str, str]] | None = None  # when `_total` was counted
        self._total = 0
        self._census_total = -1  # chunks when the census was taken
        self._census_libraries: set[str] | None = None  # ...and the libraries indexed
        self._census: dict[str, int] = {}

    def read(self, connection: Connection, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
        """The number of chunks, and each term's document frequency."""
        with self._lock:  # one census at a time: a second reader waits for the first
            counters = [(str(k), str(v)) for k, v in driver_rows(connection, _COUNTERS, _CHANGED)]
            if counters != self._counters:
                self._total = _chunk_count(connection)
                self._counters = counters
            total = self._total
            libraries = {key for key, _ in counters}  # a library added or forgotten
            if (
                libraries != self._census_libraries
                or abs(total - self._census_total) > _FREQUENCIES_DRIFT * self._census_total
            ):
                rows = driver_rows(connection, _CENSUS, {"floor": self._floor})
                self._census = {str(term): int(doc) for term, doc in rows}
                self._census_total, self._census_libraries = total, libraries
            census = self._census
        return total, {term: census.get(term) or _frequency(connection, term) for term in terms}


def _match(term: str) -> dict[str, object]:
    return {"match": match_expression([term])}


def _chunk_count(connection: Connection) -> int:
    return int(driver_rows(connection, _CHUNK_COUNT)[0][0])


def _frequency(connection: Connection, term: str) -> int:
    rows = driver_rows(connection, _FREQUENCY, {"term": term})
    return int(rows[0][0]) if rows else 0


def _placeholders(prefix: str, values: Sequence[object]) -> tuple[str, dict[str, object]]:
    """Named placeholders for an IN list of `values`, and their parameters."""
    names = [f"{prefix}{n}" for n in range(len(values))]
    return ", ".join(f":{name}" for name in names), dict(zip(names, values, strict=True))


@dataclass(frozen=True, slots=True)
class TermChoice:
    kept: tuple[str, ...]  # rarest first
    dropped: tuple[str, ...]  # too common, over the budget, or in no chunk
    all_required: bool = False  # every term was common: the kept ones are AND-ed

    @property
    def expression(self) -> str:
        return match_expression(self.kept, all_required=self.all_required)


def pick_terms(terms: Sequence[str], frequency: Mapping[str, int], total: int) -> TermChoice:
    """Which of `terms` to search for, given their document frequencies among `total`
    chunks (see the module's docstring)."""
    present = sorted((t for t in terms if frequency.get(t, 0) > 0), key=lambda t: frequency[t])
    common = common_line(total)
    budget = max(POSTINGS_SHARE * total, PRUNE_FLOOR)
    kept: list[str] = []
    postings = 0
    for term in present:
        df = frequency[term]
        if df > common or len(kept) == MAX_TERMS or (kept and postings + df > budget):
            break
        kept.append(term)
        postings += df
    all_required = not kept and len(present) > 1
    if not kept:
        kept = present[:MAX_TERMS]
    return TermChoice(tuple(kept), tuple(t for t in terms if t not in kept), all_required)


def choose_terms(
    connection: Connection, terms: Sequence[str], frequencies: TermFrequencies | None = None
) -> TermChoice:
    """`pick_terms` with the frequencies read from the index: through `frequencies`,
    which keeps the frequent ones, when given (a search keeps one); else each term
    alone, for a single question, where a census would cost more than it saves."""
    if not terms:
        return TermChoice((), ())
    if frequencies is not None:
        total, frequency = frequencies.read(connection, terms)
    else:
        total = _chunk_count(connection)
        frequency = {term: _frequency(connection, term) for term in terms}
    return pick_terms(terms, frequency, total)


# `rowid % :step = 0`: the sample BM25 ranks (step 1: every match).
_MATCHES = "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH :match"
_ANY = "SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH :match LIMIT 1"
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
    if choice.all_required:
        # Every term must match: one in no chunk (a kept count can be out of date after
        # a library's files changed) would leave nothing at all.
        kept = tuple(t for t in choice.kept if driver_rows(connection, _ANY, _match(t)))
        if not kept:
            return []
        gone = tuple(t for t in choice.kept if t not in kept)
        choice = TermChoice(kept, choice.dropped + gone, len(kept) > 1)
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
    connection.execute(_BUMP, {"key": _CHANGED_KEY + library_id})


def library_fingerprint(connection: Connection, library_id: str) -> Fingerprint:
    """Changes whenever what a search of the library could find changes (with every
    `mark_library_changed`)."""
    rows = driver_rows(connection, _COUNTER, {"key": _CHANGED_KEY + library_id})
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
