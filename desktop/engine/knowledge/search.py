"""Searching knowledge libraries: by words and by meaning, fused into one list.

One function answers both the pre-retrieval path and the `knowledge_search` tool:
`KnowledgeSearch.search`. While each embedding model in use embeds the question (10 s
at most; once per model, however many libraries use it), it runs the word search (BM25
over the index's FTS5 table, common terms pruned; see `storage/knowledge_queries.py`),
top 50, and makes sure each library's matrix is loaded and current. Then, per model,
`matrix @ q` over its libraries' vectors (float32, L2-normalised: a dot product is the
cosine), top 50 by `np.argpartition` - after the word search rather than beside it,
because the product keeps every core busy and SQLite beside it slowed both. The lists
are fused by reciprocal rank fusion (k = 60): a passage high in both beats one high in
only one, and ranks need no common scale, so libraries embedded by different models
fuse as well as words and vectors do. The best `limit` (≤ 6) are returned, a passage
whose text is already among them (a copied file) left out.

Vectors are optional at every step: no model set, no provider for it, the embedder
failing or silent, no vectors yet for that model, vectors of another size: the library
is searched by words only and `SearchOutcome.words_only_reason` says why in the
person's words. A broken index (a database error) is not hidden: it propagates.

Memory: a library's matrix is read once and kept by `VectorMatrices`
(`vector_matrices.py`); a query allocates only its score vector.

Blocking work (SQLite, numpy) runs in worker threads: the event loop only waits.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt
from sqlalchemy import Engine

from desktop.core.errors import ProviderError
from desktop.core.i18n import tr
from desktop.core.knowledge import MAX_PASSAGES, LibrarySettings, Passage, SearchOutcome
from desktop.engine.knowledge.vector_matrices import VectorMatrices
from desktop.storage.knowledge_queries import (
    WORD_HITS,
    Fingerprint,
    StoredPassage,
    TermFrequencies,
    VectorMatrix,
    fetch_passages,
    library_fingerprint,
    word_search,
)
from desktop.storage.sqlite_engine import read_transaction

log = logging.getLogger(__name__)

QueryEmbedder = Callable[[str], Awaitable[Sequence[float]]]
"""Embeds a question with one model (as a query, where the model tells them apart)."""
Locate = Callable[[LibrarySettings, str], str]
"""The absolute path of a library-relative source path, from the library's settings."""

EMBED_TIMEOUT_S: Final = 10.0
VECTOR_HITS: Final = 50
RRF_K: Final = 60
_FETCH_BATCH: Final = 4 * MAX_PASSAGES  # candidates read per round (duplicates, gone files)


# --- reasons to search by words only ------------------------------------------------


def _no_provider() -> str:
    return tr("the embedding model's provider is not available")


def _no_answer() -> str:
    return tr("the embedding server did not answer")


def _provider_failed(error: ProviderError) -> str:
    return tr("the embedding server reported an error: {error}").format(error=error)


def _failed() -> str:
    return tr("the question could not be embedded")


def _empty_vector() -> str:
    return tr("the embedding model returned an empty vector")


def _no_vectors() -> str:
    return tr("the library has no vectors for this embedding model yet")


def _other_size() -> str:
    return tr("the embedding model returns vectors of another size than the library's index")


# --- ranking -----------------------------------------------------------------------


def query_vector(values: Sequence[float]) -> npt.NDArray[np.float32] | None:
    """The question's embedding as a unit float32 vector (float32, so `matrix @ q`
    never widens the matrix into a float64 copy); None if it is empty or not finite."""
    try:
        array = np.asarray(values, dtype=np.float32)
    except (TypeError, ValueError):
        return None
    if array.ndim != 1 or array.size == 0 or not np.all(np.isfinite(array)):
        return None
    norm = float(np.linalg.norm(array))
    if norm == 0.0 or not np.isfinite(norm):
        return None
    return np.ascontiguousarray(array / np.float32(norm), dtype=np.float32)


def nearest(
    matrices: Sequence[VectorMatrix], q: npt.NDArray[np.float32], count: int = VECTOR_HITS
) -> list[int]:
    """Chunk ids of the `count` rows most similar to `q` over all `matrices` (vectors
    of one model, so their cosines compare), most similar first."""
    found: list[tuple[float, int]] = []
    for vectors in matrices:
        n = len(vectors)
        if n == 0:
            continue
        scores = vectors.matrix @ q
        top = min(count, n)
        rows = np.argpartition(scores, n - top)[n - top :] if top < n else np.arange(n)
        found.extend(zip(scores[rows].tolist(), vectors.chunk_ids[rows].tolist(), strict=True))
    found.sort(key=lambda hit: (-hit[0], hit[1]))
    return [chunk_id for _, chunk_id in found[:count]]


def fuse(rankings: Sequence[Sequence[int]], k: int = RRF_K) -> list[tuple[int, float]]:
    """Reciprocal rank fusion: each chunk scores the sum of 1 / (k + rank) over the
    lists it is in (rank from 1). Best first; ties go to the better single rank."""
    scores: dict[int, float] = {}
    best: dict[int, int] = {}
    for ranking in rankings:
        for rank, chunk_id in enumerate(dict.fromkeys(ranking), start=1):
            scores[chunk_id] = scores.get(chunk_id, 0.0) + 1.0 / (k + rank)
            best[chunk_id] = min(best.get(chunk_id, rank), rank)
    order = sorted(scores, key=lambda c: (-scores[c], best[c], c))
    return [(chunk_id, scores[chunk_id]) for chunk_id in order]


# --- the search --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Prepared:
    """One model's share of a search before its matrices are searched."""

    q: npt.NDArray[np.float32] | None  # the query's unit vector, if it could be made
    matrices: list[VectorMatrix]  # of its libraries that can be searched with q
    words_only: dict[str, str]  # library id -> why its vectors are not searched


class KnowledgeSearch:
    """Searches one knowledge index (the engine from `open_index`), keeping the vector
    matrices of the libraries in use (`matrices`)."""

    def __init__(
        self,
        engine: Engine,
        matrices: VectorMatrices | None = None,
        *,
        embed_timeout_s: float = EMBED_TIMEOUT_S,
    ) -> None:
        self._engine = engine
        self._embed_timeout_s = embed_timeout_s
        self.matrices = matrices if matrices is not None else VectorMatrices(engine)
        self._frequencies = TermFrequencies()

    async def search(
        self,
        libraries: Sequence[LibrarySettings],
        query: str,
        *,
        embedders: Mapping[str, QueryEmbedder],
        locate: Locate,
        limit: int = MAX_PASSAGES,
    ) -> SearchOutcome:
        """The passages of `libraries` (disabled ones left out) that best answer
        `query`, best first, at most `limit` (capped at `MAX_PASSAGES`).

        `embedders` maps an `EmbeddingChoice.key` to the function that embeds the query
        with that model; a library whose key has none is searched by words only. Each
        model embeds the query once, however many libraries use it."""
        began = time.perf_counter()
        limit = min(limit, MAX_PASSAGES)
        searched = [library for library in libraries if library.enabled]
        if limit <= 0 or not searched or not query.strip():
            return SearchOutcome(())
        words_only: dict[str, str] = {}
        groups: dict[str, list[LibrarySettings]] = {}
        for library in searched:
            if library.embedding is None:
                continue  # chosen: words only, nothing to tell on every answer
            if library.embedding.key not in embedders:
                words_only[library.id] = _no_provider()
            else:
                groups.setdefault(library.embedding.key, []).append(library)

        ids = [library.id for library in searched]
        embedded = [library.id for members in groups.values() for library in members]
        lexical = asyncio.ensure_future(asyncio.to_thread(self._word_hits, ids, query, embedded))
        prepared = [
            asyncio.ensure_future(self._prepare(key, members, query, embedders[key], lexical))
            for key, members in groups.items()
        ]
        # Every part is awaited to its end (cancelled with the search), then the first
        # failure is raised as it was: a database error, not a group of them.
        parts = await asyncio.gather(lexical, *prepared, return_exceptions=True)
        for part in parts:
            if isinstance(part, BaseException):
                raise part
        word_hits, _ = lexical.result()
        searches: list[tuple[list[VectorMatrix], npt.NDArray[np.float32]]] = []
        for task in prepared:
            ready = task.result()
            words_only.update(ready.words_only)
            if ready.q is not None and ready.matrices:
                searches.append((ready.matrices, ready.q))
        # The products after the word search, not beside it: they keep every core busy
        # (BLAS), and SQLite beside them slowed both. One worker call for the products,
        # the fusion, the passages and finding their files (a library on a network
        # drive may be slow to answer): each hop to a thread costs on a busy machine.
        by_id = {library.id: library for library in searched}
        passages = await asyncio.to_thread(
            lambda: [
                _passage(stored, locate(by_id[stored.library_id], stored.path), score)
                for stored, score in self._rank(word_hits, searches, limit)
                if stored.library_id in by_id
            ]
        )
        reason = _reason(searched, words_only)
        log.info(
            "knowledge search: %d libraries, %d word hits, %d models, %d passages, %.0f ms%s",
            len(searched),
            len(word_hits),
            len(searches),
            len(passages),
            (time.perf_counter() - began) * 1000,
            ", words only for some" if reason else "",
        )
        return SearchOutcome(tuple(passages), reason)

    def _word_hits(
        self, library_ids: list[str], query: str, embedded: list[str]
    ) -> tuple[list[int], dict[str, Fingerprint]]:
        """The word hits, and the fingerprints of the libraries searched by vectors
        too (read here rather than in a worker call of their own: a hop to a thread
        costs milliseconds on a busy machine)."""
        with read_transaction(self._engine) as connection:
            hits = word_search(connection, library_ids, query, WORD_HITS, self._frequencies)
            return hits, {lib: library_fingerprint(connection, lib) for lib in embedded}

    async def _prepare(
        self,
        model_key: str,
        libraries: list[LibrarySettings],
        query: str,
        embedder: QueryEmbedder,
        lexical: asyncio.Future[tuple[list[int], dict[str, Fingerprint]]],
    ) -> _Prepared:
        """One model's query vector and its libraries' matrices, read while the query
        is embedded (the first read of a large library takes a second or two)."""
        embedding = asyncio.ensure_future(_embed(embedder, query, self._embed_timeout_s))
        try:
            _, fingerprints = await lexical
            matrices = [
                await self.matrices.get(lib.id, model_key, fingerprints[lib.id])
                for lib in libraries
            ]
            q, failure = await embedding
        finally:
            embedding.cancel()
        if q is None:
            return _Prepared(None, [], {library.id: failure for library in libraries})
        usable: list[VectorMatrix] = []
        words_only: dict[str, str] = {}
        for library, vectors in zip(libraries, matrices, strict=True):
            if len(vectors) == 0:
                words_only[library.id] = _no_vectors()
            elif vectors.dimensions != q.shape[0]:
                words_only[library.id] = _other_size()
            else:
                usable.append(vectors)
        return _Prepared(q, usable, words_only)

    def _rank(
        self,
        word_hits: list[int],
        searches: Sequence[tuple[Sequence[VectorMatrix], npt.NDArray[np.float32]]],
        limit: int,
    ) -> list[tuple[StoredPassage, float]]:
        """Fuses the word hits with each model's nearest chunks; the best `limit` still
        indexed, one per distinct text (a copied file is not two sources)."""
        rankings = [word_hits, *(nearest(m, q, VECTOR_HITS) for m, q in searches)]
        fused = fuse(rankings)
        chosen: list[tuple[StoredPassage, float]] = []
        seen_texts: set[str] = set()
        with read_transaction(self._engine) as connection:
            for start in range(0, len(fused), _FETCH_BATCH):
                batch = fused[start : start + _FETCH_BATCH]
                scores = dict(batch)
                for stored in fetch_passages(connection, list(scores)):
                    if stored.text_sha256 in seen_texts:
                        continue
                    seen_texts.add(stored.text_sha256)
                    chosen.append((stored, scores[stored.chunk_id]))
                    if len(chosen) == limit:
                        return chosen
        return chosen


async def _embed(
    embedder: QueryEmbedder, query: str, timeout_s: float
) -> tuple[npt.NDArray[np.float32] | None, str]:
    """The query's unit vector, or None and why there is none (in the person's words)."""
    try:
        values = await asyncio.wait_for(embedder(query), timeout_s)
    except TimeoutError:
        return None, _no_answer()
    except ProviderError as error:
        return None, _provider_failed(error)
    except Exception as error:  # any other failure of the embedder: words still work
        log.warning("query embedding failed: %s", type(error).__name__)
        return None, _failed()
    q = query_vector(values)
    return (q, "") if q is not None else (None, _empty_vector())


def _passage(stored: StoredPassage, path: str, score: float) -> Passage:
    return Passage(
        chunk_id=stored.chunk_id,
        library_id=stored.library_id,
        path=path,
        relative_path=stored.path,
        text=stored.text,
        heading_path=stored.heading_path,
        page=stored.page,
        char_start=stored.char_start,
        char_end=stored.char_end,
        source_sha256=stored.source_sha256,
        score=score,
    )


def _reason(searched: Sequence[LibrarySettings], words_only: Mapping[str, str]) -> str:
    """One reason when every library has the same one; else each library's, by name."""
    if not words_only:
        return ""
    reasons = set(words_only.values())
    if len(words_only) == len(searched) and len(reasons) == 1:
        return reasons.pop()
    return "; ".join(
        tr("{library}: {reason}").format(library=library.name, reason=words_only[library.id])
        for library in searched
        if library.id in words_only
    )
