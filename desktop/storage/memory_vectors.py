"""The memories' vectors: stored beside each memory, read as one matrix per model.

A vector is float32 little-endian as the engine gave it (unit length), with the key of
the model that made it (`EmbeddingChoice.key`); an edit of the text clears both
(`MemoryRepository.update_text`). The engine keeps a model's matrix between searches
and reads it again only when `vectors_fingerprint` changed, which costs a walk of
ix_memories_model rather than of the rows, which hold the vectors.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from sqlalchemy import func, select, update

from desktop.core.memory import Memory
from desktop.storage.database import Database
from desktop.storage.memories import (
    LIVE,
    MEMORY_COLUMNS,
    NEWEST_FIRST,
    VECTOR_DTYPE,
    Vector,
    memory_from_row,
    pack_vector,
)
from desktop.storage.tables import memories


@dataclass(frozen=True, slots=True)
class MemoryVectors:
    """The live memories with a vector of one model: row i of `matrix` is `ids[i]`'s."""

    ids: tuple[str, ...]
    scopes: tuple[str, ...]
    matrix: npt.NDArray[np.float32]  # len(ids) x dimensions (0 x 0 when there are none)

    def __len__(self) -> int:
        return len(self.ids)


def set_vector(
    db: Database, memory_id: str, memory_text: str, vector: Vector, model_key: str
) -> bool:
    """Store the vector of `memory_text` if that is still the live memory's text: an
    edit made while the old text was being embedded never gets the old text's vector."""
    with db.write() as conn:
        changed = conn.execute(
            update(memories)
            .where(memories.c.id == memory_id, memories.c.text == memory_text, LIVE)
            .values(embedding=pack_vector(vector), model_key=model_key)
        ).rowcount
    return bool(changed)


def load_vectors(
    db: Database, model_key: str, scopes: Iterable[str] | None = None
) -> MemoryVectors:
    """Every live memory's vector of `model_key` in `scopes` (None: all; the engine
    keeps all and picks the scopes of each search). Vectors of another size than the
    first one's are left out: they cannot be compared with it."""
    query = select(memories.c.id, memories.c.scope, memories.c.embedding).where(
        LIVE, memories.c.model_key == model_key, memories.c.embedding.is_not(None)
    )
    if scopes is not None:
        query = query.where(memories.c.scope.in_(list(scopes)))
    with db.read() as conn:
        rows = conn.execute(query).all()
    size = len(rows[0].embedding) if rows else 0
    kept = [row for row in rows if len(row.embedding) == size and size > 0]
    if not kept:
        return MemoryVectors((), (), np.zeros((0, 0), dtype=np.float32))
    matrix = np.frombuffer(b"".join(row.embedding for row in kept), dtype=VECTOR_DTYPE)
    return MemoryVectors(
        tuple(row.id for row in kept),
        tuple(row.scope for row in kept),
        matrix.reshape(len(kept), size // VECTOR_DTYPE.itemsize).astype(np.float32, copy=False),
    )


def without_vector(db: Database, model_key: str, limit: int) -> list[Memory]:
    """Live memories with no vector of `model_key` (words only, or another model's),
    newest first, at most `limit`."""
    other = (memories.c.model_key != model_key) | memories.c.model_key.is_(None)
    query = select(*MEMORY_COLUMNS).where(LIVE, other).order_by(*NEWEST_FIRST).limit(limit)
    with db.read() as conn:
        return [memory_from_row(row) for row in conn.execute(query)]


def vectors_fingerprint(db: Database, model_key: str) -> tuple[int, int, int]:
    """Changes when `load_vectors(model_key)` may have: a vector stored or cleared, a
    memory with one deleted or restored."""
    query = select(
        func.count(),
        func.coalesce(func.max(memories.c.updated_at), 0),
        func.coalesce(func.sum(memories.c.deleted_at), 0),
    ).where(memories.c.model_key == model_key)
    with db.read() as conn:
        count, newest, deleted = conn.execute(query).one()
    return int(count), int(newest), int(deleted)
