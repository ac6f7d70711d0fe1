"""Ranking primitives shared by the knowledge search and the memory search: the
question's vector, the rows nearest to it, and reciprocal rank fusion of ranked lists."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from desktop.storage.knowledge_queries import VectorMatrix

VECTOR_HITS: Final = 50
RRF_K: Final = 60


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
