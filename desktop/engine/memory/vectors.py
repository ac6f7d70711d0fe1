"""The memories' vectors of each embedding model, kept between searches.

Reading 10,000 vectors from SQLite takes tens of milliseconds (hundreds for large
models), a search's whole budget, while a product with them takes about one. So a
model's matrix is read once and kept. A memory saved or deleted through the service is
added to or dropped from the kept matrix (a copy of it: milliseconds), so the search
that follows a save does not read them all again; other changes (an edit, an Undo)
drop the matrix, to be read at the next search. A write by another Parley on the same
file is seen by `vectors_fingerprint` (a walk of one small index), checked before each
use. Whatever the matrix holds, the memories found are read again and deleted ones left
out, so a stale row can cost a place in the ranking, never show a deleted memory.

Methods run in worker threads, one at a time (a lock): two saves at once must not each
add to the same old matrix and lose the other's row.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from desktop.storage.database import Database
from desktop.storage.memory_vectors import MemoryVectors, load_vectors, vectors_fingerprint


@dataclass(frozen=True, slots=True)
class _Entry:
    fingerprint: tuple[int, int, int]
    vectors: MemoryVectors
    scope_codes: npt.NDArray[np.int32]  # per row: its scope's number in `scope_names`
    scope_names: dict[str, int]


def _entry(fingerprint: tuple[int, int, int], vectors: MemoryVectors) -> _Entry:
    names: dict[str, int] = {}
    codes = np.fromiter(
        (names.setdefault(scope, len(names)) for scope in vectors.scopes),
        dtype=np.int32,
        count=len(vectors),
    )
    return _Entry(fingerprint, vectors, codes, names)


class VectorCache:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._entries: dict[str, _Entry] = {}
        self._lock = threading.Lock()
        self.loads = 0  # matrices read from the database so far (for tests and figures)

    def forget(self) -> None:
        """Drop every matrix: memories changed in a way only a new read can follow."""
        with self._lock:
            self._entries.clear()

    def added(
        self, model_key: str, memory_id: str, scope: str, vector: npt.NDArray[np.float32]
    ) -> None:
        """A memory was saved with `vector`: the kept matrix gains its row."""
        with self._lock:
            entry = self._entries.pop(model_key, None)
            if entry is None:
                return
            kept = entry.vectors
            if len(kept) and kept.matrix.shape[1] != vector.shape[0]:
                return  # another size: the next search reads them and says so
            row = vector[np.newaxis, :]
            matrix = np.vstack([kept.matrix, row]) if len(kept) else row.copy()
            grown = MemoryVectors((*kept.ids, memory_id), (*kept.scopes, scope), matrix)
            self._entries[model_key] = _entry(vectors_fingerprint(self._db, model_key), grown)

    def removed(self, memory_id: str) -> None:
        """A memory was deleted: every kept matrix loses its row."""
        with self._lock:
            for model_key, entry in list(self._entries.items()):
                kept = entry.vectors
                if memory_id not in kept.ids:
                    continue
                keep = np.array([i != memory_id for i in kept.ids], dtype=bool)
                rest = MemoryVectors(
                    tuple(i for i in kept.ids if i != memory_id),
                    tuple(s for i, s in zip(kept.ids, kept.scopes, strict=True) if i != memory_id),
                    kept.matrix[keep],
                )
                fingerprint = vectors_fingerprint(self._db, model_key)
                self._entries[model_key] = _entry(fingerprint, rest)

    def _current(self, model_key: str) -> _Entry:
        fingerprint = vectors_fingerprint(self._db, model_key)
        entry = self._entries.get(model_key)
        if entry is not None and entry.fingerprint == fingerprint:
            return entry
        entry = _entry(fingerprint, load_vectors(self._db, model_key))
        self._entries[model_key] = entry
        self.loads += 1
        return entry

    def nearest(
        self, model_key: str, scopes: Sequence[str], q: npt.NDArray[np.float32], count: int
    ) -> tuple[list[tuple[str, float]], int]:
        """The `count` memories of `scopes` most similar to the unit vector `q` (and at
        all: cosine above 0), most similar first, with their cosines; and the size of
        the model's vectors (0 when it has none in those scopes). Nothing when that size
        is not `q`'s."""
        with self._lock:
            entry = self._current(model_key)
        wanted = [entry.scope_names[scope] for scope in scopes if scope in entry.scope_names]
        rows = np.flatnonzero(np.isin(entry.scope_codes, wanted))
        if rows.size == 0:
            return [], 0
        matrix = entry.vectors.matrix
        size = int(matrix.shape[1])
        if size != q.shape[0]:
            return [], size
        scores = (matrix @ q)[rows]  # all rows: cheaper than copying those of the scopes
        top = min(count, rows.size)
        best = np.argpartition(scores, scores.size - top)[scores.size - top :]
        ranked = sorted(best.tolist(), key=lambda i: -float(scores[i]))
        ids = entry.vectors.ids
        # A vector at a right angle to the query's, or pointing away, says nothing of it.
        return [(ids[int(rows[i])], float(scores[i])) for i in ranked if scores[i] > 0], size
