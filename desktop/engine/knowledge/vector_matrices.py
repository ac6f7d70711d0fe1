"""The vector matrices of the libraries being searched, kept between questions.

A library's matrix (chunks × dims × 4 bytes: 293 MiB for 100,000 × 768) is read once
and kept per (library, model key); a query allocates only its score vector. A matrix is
dropped after 10 minutes unused, and reloaded when the library's index changed
(`knowledge_queries.library_fingerprint`). Reading runs in a worker thread.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from sqlalchemy import Engine

from desktop.storage.knowledge_queries import (
    Fingerprint,
    VectorMatrix,
    library_fingerprint,
    load_vectors,
)
from desktop.storage.sqlite_engine import read_transaction

IDLE_S: Final = 600.0


@dataclass(slots=True)
class CachedMatrix:
    """A matrix held, with the fingerprint of the index it was read from."""

    fingerprint: Fingerprint
    vectors: VectorMatrix
    used_at: float


class VectorMatrices:
    """The matrices of the libraries in use, per (library id, model key): read once,
    reused by every query, reloaded when the library's index changed, dropped after
    `idle_s` unused. One load at a time per key, so two questions at once never read
    the same 300 MiB twice. Use from the event loop's thread."""

    def __init__(
        self, engine: Engine, *, idle_s: float = IDLE_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._engine = engine
        self._idle_s = idle_s
        self._clock = clock
        self._entries: dict[tuple[str, str], CachedMatrix] = {}
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        self._sweep: asyncio.TimerHandle | None = None
        self._sweep_loop: asyncio.AbstractEventLoop | None = None
        self.loads = 0  # matrices read from the index so far (for tests and figures)

    @property
    def resident_bytes(self) -> int:
        return sum(entry.vectors.nbytes for entry in self._entries.values())

    def cached(self) -> set[tuple[str, str]]:
        return set(self._entries)

    def held(self, library_id: str, model_key: str) -> CachedMatrix | None:
        """The matrix held now (marked used), current or not: a worker thread compares
        its fingerprint with the index's before it searches it."""
        entry = self._entries.get((library_id, model_key))
        if entry is not None:
            entry.used_at = self._clock()
        return entry

    async def get(
        self, library_id: str, model_key: str, fingerprint: Fingerprint | None = None
    ) -> VectorMatrix:
        """The library's current vectors under `model_key` (empty if it has none).
        `fingerprint`: the library's, if the caller has just read it (saves a read)."""
        key = (library_id, model_key)
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            entry = self._entries.get(key)
            if entry is not None:
                if fingerprint is None:
                    fingerprint = await asyncio.to_thread(self._fingerprint, library_id)
                if fingerprint != entry.fingerprint:
                    # Let go of the old matrix before reading the new one: never two.
                    del self._entries[key]
                    entry = None
            if entry is None:
                entry = await asyncio.to_thread(self._load, library_id, model_key)
                self.loads += 1
            entry.used_at = self._clock()
            self._entries[key] = entry  # (again, should the timer have dropped it meanwhile)
            self._schedule_sweep()
            return entry.vectors

    def drop_idle(self) -> None:
        """Let go of the matrices not used for `idle_s` (also run by a timer)."""
        self._sweep = None
        now = self._clock()
        for key, entry in list(self._entries.items()):
            if now - entry.used_at >= self._idle_s:
                del self._entries[key]
        self._schedule_sweep()

    def clear(self) -> None:
        """Let go of every matrix (the index is closed or rebuilt)."""
        self._entries.clear()
        if self._sweep is not None:
            self._sweep.cancel()
            self._sweep = None

    def _schedule_sweep(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # called outside the loop (a test): the next use schedules it
            return
        if self._sweep is not None and self._sweep_loop is not loop:  # that loop is gone
            self._sweep.cancel()
            self._sweep = None
        if self._sweep is None and self._entries:
            self._sweep_loop = loop
            oldest = min(entry.used_at for entry in self._entries.values())
            delay = max(oldest + self._idle_s - self._clock(), 0.0) + 1.0
            self._sweep = loop.call_later(delay, self.drop_idle)

    def _fingerprint(self, library_id: str) -> Fingerprint:
        with read_transaction(self._engine) as connection:
            return library_fingerprint(connection, library_id)

    def _load(self, library_id: str, model_key: str) -> CachedMatrix:
        # One snapshot for both: the fingerprint describes exactly the rows read.
        with read_transaction(self._engine) as connection:
            fingerprint = library_fingerprint(connection, library_id)
            vectors = load_vectors(connection, library_id, model_key)
        return CachedMatrix(fingerprint, vectors, self._clock())
