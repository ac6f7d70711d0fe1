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

Blocking work (SQLite, numpy) runs in worker threads: the event loop only waits. The
word search's thread waits up to 5 ms for the question's vectors and, when they are
back and the matrices held are current, does the rest itself in the same read
transaction; otherwise the event loop loads what is missing and a second worker call
ranks. On a busy machine every hop between the loop and a thread waits for a core: a
search with one hop had a p95 3 ms lower.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt
from sqlalchemy import Connection, Engine

from desktop.core.errors import ProviderError
from desktop.core.i18n import tr
from desktop.core.knowledge import MAX_PASSAGES, LibrarySettings, Passage, SearchOutcome
from desktop.engine.knowledge.ranking import VECTOR_HITS, fuse, nearest, query_vector
from desktop.engine.knowledge.vector_matrices import CachedMatrix, VectorMatrices
from desktop.storage.knowledge_queries import (
    WORD_HITS,
    Fingerprint,
    StoredPassage,
    VectorMatrix,
    fetch_passages,
    library_fingerprint,
    word_search,
)
from desktop.storage.knowledge_terms import TermFrequencies
from desktop.storage.sqlite_engine import read_transaction

log = logging.getLogger(__name__)

QueryEmbedder = Callable[[str], Awaitable[Sequence[float]]]
"""Embeds a question with one model (as a query, where the model tells them apart)."""
Locate = Callable[[LibrarySettings, str], str]
"""The absolute path of a library-relative source path, from the library's settings."""

EMBED_TIMEOUT_S: Final = 10.0
_FETCH_BATCH: Final = 4 * MAX_PASSAGES  # candidates read per round (duplicates, gone files)
# How long the word search's thread waits for the question's vectors before it hands
# the rest back to the event loop: a hop back and forth costs about this much on a busy
# machine, and a vector that comes later comes from a network that takes far longer.
_ARRIVAL_WAIT_S: Final = 0.005


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


# --- the search --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Prepared:
    """One model's share of a search before its matrices are searched."""

    q: npt.NDArray[np.float32] | None  # the query's unit vector, if it could be made
    matrices: list[VectorMatrix]  # of its libraries that can be searched with q
    words_only: dict[str, str]  # library id -> why its vectors are not searched


Embedded = tuple[npt.NDArray[np.float32] | None, str]
"""A question's unit vector under one model, or None and why there is none."""


class _Arrived:
    """The question's vectors as they come back, per model key: filled on the event
    loop, read by the worker thread that searches the words."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._vectors: dict[str, Embedded] = {}

    def arrive(self, key: str, vector: Embedded) -> None:
        with self._changed:
            self._vectors[key] = vector
            self._changed.notify_all()

    def wait(self, keys: Iterable[str], timeout_s: float) -> dict[str, Embedded] | None:
        """Every one of `keys`' vectors, if they all arrive within `timeout_s`."""
        wanted = set(keys)
        with self._changed:
            if self._changed.wait_for(lambda: wanted <= self._vectors.keys(), timeout_s):
                return dict(self._vectors)
            return None


Held = dict[tuple[str, str], CachedMatrix | None]
"""The matrices held when a search began, per (library id, model key)."""


@dataclass(frozen=True, slots=True)
class _Job:
    """What the worker thread needs to finish a search by itself when every model's
    vector has arrived and every matrix held is current."""

    groups: dict[str, list[LibrarySettings]]  # model key -> its libraries
    arrived: _Arrived
    by_id: dict[str, LibrarySettings]
    locate: Locate
    limit: int
    abandoned: threading.Event  # the search ended (cancelled): rank nothing more


@dataclass(frozen=True, slots=True)
class _Words:
    hits: list[int]
    fingerprints: dict[str, Fingerprint]  # of the libraries searched by vectors too
    # Set when the worker thread finished the search: each model's share and the passages.
    finished: tuple[list[_Prepared], list[Passage]] | None = None


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

        arrived = _Arrived()

        async def embedded(key: str) -> Embedded:
            vector = await _embed(embedders[key], query, self._embed_timeout_s)
            arrived.arrive(key, vector)
            return vector

        embeddings = {key: asyncio.ensure_future(embedded(key)) for key in groups}
        job = _Job(
            groups, arrived, {lib.id: lib for lib in searched}, locate, limit, threading.Event()
        )
        held = {
            (lib.id, key): self.matrices.held(lib.id, key) for key in groups for lib in groups[key]
        }
        try:
            # Each embedding starts (and one that needs no network ends) before the
            # word search's thread competes with the event loop for the interpreter.
            await asyncio.sleep(0)
            ids = [lib.id for lib in searched]
            words = await asyncio.to_thread(self._words, ids, query, job, held)
            # Let go of the matrices held then: one being read again must not be kept
            # beside its successor. Emptied, not only unnamed: the thread pool's work
            # item still holds the call's arguments until that thread runs again.
            held.clear()
            if words.finished is not None:
                prepared, passages = words.finished
            else:
                # A vector still on its way or a matrix to read: the rest from here.
                # Every model's part is awaited to its end, then the first failure is
                # raised as it was: a database error, not a group of them.
                parts = await asyncio.gather(
                    *(
                        self._prepare(key, members, words.fingerprints, embeddings[key])
                        for key, members in groups.items()
                    ),
                    return_exceptions=True,
                )
                for part in parts:
                    if isinstance(part, BaseException):
                        raise part
                prepared = [part for part in parts if isinstance(part, _Prepared)]
                passages = await asyncio.to_thread(self._passages, words.hits, prepared, job)
        finally:
            job.abandoned.set()
            for embedding in embeddings.values():
                embedding.cancel()
        for ready in prepared:
            words_only.update(ready.words_only)
        reason = _reason(searched, words_only)
        log.info(
            "knowledge search: %d libraries, %d word hits, %d models, %d passages, %.0f ms%s",
            len(searched),
            len(words.hits),
            sum(1 for ready in prepared if ready.matrices),
            len(passages),
            (time.perf_counter() - began) * 1000,
            ", words only for some" if reason else "",
        )
        return SearchOutcome(tuple(passages), reason)

    def _words(self, library_ids: list[str], query: str, job: _Job, held: Held) -> _Words:
        """The word hits and the fingerprints of the libraries searched by vectors too;
        and when their vectors arrive meanwhile (a fast embedder) and the matrices held
        are current, the whole search, in one read transaction: each hop between the
        event loop and a worker thread waits for a core on a busy machine."""
        embedded = [lib.id for members in job.groups.values() for lib in members]
        with read_transaction(self._engine) as connection:
            hits = word_search(connection, library_ids, query, WORD_HITS, self._frequencies)
            fingerprints = {lib: library_fingerprint(connection, lib) for lib in embedded}
            prepared = _prepared_here(job, held, fingerprints)
            if prepared is None:
                return _Words(hits, fingerprints)
            ranked = self._rank(connection, hits, prepared, job.limit)
        return _Words(hits, fingerprints, (prepared, _located(ranked, job)))

    async def _prepare(
        self,
        model_key: str,
        libraries: list[LibrarySettings],
        fingerprints: Mapping[str, Fingerprint],
        embedding: asyncio.Future[Embedded],
    ) -> _Prepared:
        """One model's query vector and its libraries' matrices, read while the query
        is embedded (the first read of a large library takes a second or two)."""
        matrices = [
            await self.matrices.get(lib.id, model_key, fingerprints[lib.id]) for lib in libraries
        ]
        return _usable(libraries, matrices, *await embedding)

    def _passages(
        self, word_hits: list[int], prepared: list[_Prepared], job: _Job
    ) -> list[Passage]:
        with read_transaction(self._engine) as connection:
            ranked = self._rank(connection, word_hits, prepared, job.limit)
        return _located(ranked, job)

    def _rank(
        self,
        connection: Connection,
        word_hits: list[int],
        prepared: list[_Prepared],
        limit: int,
    ) -> list[tuple[StoredPassage, float]]:
        """Fuses the word hits with each model's nearest chunks; the best `limit` still
        indexed, one per distinct text (a copied file is not two sources). The products
        come after the word search, not beside it: they keep every core busy (BLAS),
        and SQLite beside them slowed both."""
        rankings = [word_hits]
        for ready in prepared:
            if ready.q is not None and ready.matrices:
                rankings.append(nearest(ready.matrices, ready.q, VECTOR_HITS))
        fused = fuse(rankings)
        chosen: list[tuple[StoredPassage, float]] = []
        seen_texts: set[str] = set()
        # The best `limit` first (usually all there is to read), then more in batches
        # when some were copies or their files are gone.
        start = 0
        while start < len(fused):
            end = start + (limit if start == 0 else _FETCH_BATCH)
            scores = dict(fused[start:end])
            start = end
            for stored in fetch_passages(connection, list(scores)):
                if stored.text_sha256 in seen_texts:
                    continue
                seen_texts.add(stored.text_sha256)
                chosen.append((stored, scores[stored.chunk_id]))
                if len(chosen) == limit:
                    return chosen
        return chosen


def _prepared_here(
    job: _Job, held: Held, fingerprints: Mapping[str, Fingerprint]
) -> list[_Prepared] | None:
    """Every model's share, if the matrices held are the index's current ones and its
    vector arrives in time; else None (the event loop reads what is missing)."""
    current: dict[str, list[VectorMatrix]] = {}
    for key, members in job.groups.items():
        matrices = [held[(lib.id, key)] for lib in members]
        if any(
            m is None or m.fingerprint != fingerprints[lib.id]
            for m, lib in zip(matrices, members, strict=True)
        ):
            return None  # a matrix to read: no use waiting for the vectors
        current[key] = [m.vectors for m in matrices if m is not None]
    arrived = job.arrived.wait(job.groups, _ARRIVAL_WAIT_S)
    if arrived is None or job.abandoned.is_set():
        return None
    return [_usable(members, current[key], *arrived[key]) for key, members in job.groups.items()]


def _located(ranked: list[tuple[StoredPassage, float]], job: _Job) -> list[Passage]:
    """The passages with their files found (outside the transaction: a library on a
    network drive may be slow to answer)."""
    return [
        _passage(stored, job.locate(job.by_id[stored.library_id], stored.path), score)
        for stored, score in ranked
        if stored.library_id in job.by_id
    ]


def _usable(
    libraries: list[LibrarySettings],
    matrices: list[VectorMatrix],
    q: npt.NDArray[np.float32] | None,
    failure: str,
) -> _Prepared:
    """Which of one model's libraries its vector `q` can search, and why not the others."""
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


async def _embed(embedder: QueryEmbedder, query: str, timeout_s: float) -> Embedded:
    """The query's unit vector, or None and why there is none (in the person's words)."""
    try:
        async with asyncio.timeout(timeout_s):  # no task of its own, unlike wait_for
            values = await embedder(query)
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
