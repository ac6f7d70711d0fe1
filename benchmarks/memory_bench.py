"""Timings for memories (desktop/engine/memory/): the all-in block and hybrid retrieval.

Run from the repository root:  python benchmarks/memory_bench.py [--memories N] [--dims D]

Builds a temporary database through the real migrations, with memories written in one
transaction straight into the table and its word index (as `MemoryRepository.add`
writes them): short facts of 6-16 words drawn from a 5,000-word vocabulary with a Zipf
distribution, each starting with a common word ("My", "The", "Likes"...), half global
and half one assistant's, with vectors from an in-process embedder (a hashed bag of
words, `--dims` wide, unit length) so that questions find memories by meaning too.

Then it prints p50 and p95 in milliseconds of:
- the all-in block for 1,000 memories: `memory_block` over them (whole memories,
  newest first, cut at 4,000 characters), and the whole injection, `MemoryService.all_in`
  (reads only the newest that can fit) followed by `memory_block`. Target: <= 5 ms.
- hybrid retrieval over `--memories` (10,000) memories: `MemoryService.search` end to
  end for 50 questions x 3 rounds, the question embedded by the in-process embedder
  (its own time included), the vectors already kept. Target: <= 20 ms. Also the first
  search (the vectors read from the database) and a save (duplicate checks included).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert, text

from desktop.core.knowledge import EmbeddingKind
from desktop.core.memory import GLOBAL_SCOPE, Memory, scope_for, scopes_for
from desktop.engine.memory.block import Handles, memory_block
from desktop.engine.memory.embedding import MemoryEmbedder
from desktop.engine.memory.service import MemoryService
from desktop.storage.database import Database
from desktop.storage.knowledge_index import words_for_index
from desktop.storage.mapping import to_epoch_ms
from desktop.storage.memories import pack_vector
from desktop.storage.tables import MEMORIES_FTS, memories

VOCABULARY = 5_000
QUESTIONS = 50
ROUNDS = 3
BLOCK_MEMORIES = 1_000
ASSISTANT = "writer"
MODEL_KEY = "bench/hashed"
_STARTS = ("My", "The", "I", "Likes", "Prefers", "Has", "Works", "Lives", "Their")
_SYLLABLES = [c + v for c in "kstnhmrlbdpgvz" for v in "aeiou"]


class HashedEmbedder:
    """A hashed bag of words, `dims` wide, unit length: fast, and texts sharing words
    point the same way (a remote model's latency is not ours to measure)."""

    def __init__(self, dims: int) -> None:
        self.dims = dims

    def vector(self, value: str) -> np.ndarray[Any, np.dtype[np.float32]]:
        out = np.zeros(self.dims, dtype=np.float32)
        for word in value.lower().split():
            digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
            out[int.from_bytes(digest[:4], "little") % self.dims] += 1.0 if digest[4] & 1 else -1.0
        norm = float(np.linalg.norm(out))
        return out / norm if norm else out

    async def embed(self, texts: Sequence[str], _kind: EmbeddingKind) -> list[list[float]]:
        return [self.vector(value).tolist() for value in texts]


def _vocabulary(rng: np.random.Generator) -> list[str]:
    words: dict[str, None] = {}
    while len(words) < VOCABULARY:
        words["".join(rng.choice(_SYLLABLES, size=int(rng.integers(2, 4))))] = None
    return list(words)


def _facts(rng: np.random.Generator, words: list[str], count: int) -> list[str]:
    ranks = np.minimum(rng.zipf(1.3, size=count * 16), len(words)) - 1
    out, at = [], 0
    for _ in range(count):
        size = int(rng.integers(6, 17))
        body = " ".join(words[int(r)] for r in ranks[at : at + size])
        at += size
        out.append(f"{_STARTS[int(rng.integers(len(_STARTS)))]} {body}")
    return out


def _fill(db: Database, facts: Sequence[str], embedder: HashedEmbedder) -> None:
    start = datetime(2024, 1, 1, tzinfo=UTC)
    rows = []
    for number, fact in enumerate(facts):
        stamp = to_epoch_ms(start + timedelta(minutes=number))
        rows.append(
            {
                "id": f"{number:032x}",
                "scope": GLOBAL_SCOPE if number % 2 else scope_for(ASSISTANT),
                "text": fact,
                "created_at": stamp,
                "updated_at": stamp,
                "embedding": pack_vector(embedder.vector(fact)),
                "model_key": MODEL_KEY,
            }
        )
    with db.write() as conn:
        conn.execute(insert(memories), rows)
        conn.execute(
            text(
                f"INSERT INTO {MEMORIES_FTS} (rowid, words)"
                " SELECT rowid, :w FROM memories WHERE id = :id"
            ),
            [{"w": words_for_index(row["text"]), "id": row["id"]} for row in rows],
        )


def _ms(samples: Sequence[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered) * 1000, p95 * 1000


def _row(label: str, samples: Sequence[float], target: float | None = None) -> None:
    p50, p95 = _ms(samples)
    verdict = "" if target is None else ("  ok" if p95 <= target else f"  OVER {target:g} ms")
    print(f"  {label:<60}{p50:>8.2f}{p95:>8.2f}{verdict}")


async def _timed(call: Callable[[], Awaitable[object]], times: int) -> list[float]:
    samples = []
    for _ in range(times):
        began = time.perf_counter()
        await call()
        samples.append(time.perf_counter() - began)
    return samples


def _sync_timed(call: Callable[[], object], times: int) -> list[float]:
    samples = []
    for _ in range(times):
        began = time.perf_counter()
        call()
        samples.append(time.perf_counter() - began)
    return samples


async def block_figures(folder: Path, rng: np.random.Generator, words: list[str]) -> None:
    embedder = HashedEmbedder(256)
    with Database.open(folder / "block.db") as db:
        _fill(db, _facts(rng, words, BLOCK_MEMORIES), embedder)
        service = MemoryService(db)
        scopes = scopes_for(ASSISTANT, include_global=True)
        newest_first: list[Memory] = await service.list(scopes)
        assert len(newest_first) == BLOCK_MEMORIES
        block = memory_block(newest_first, Handles())
        print(f"\nAll-in block, {BLOCK_MEMORIES:,} memories ({len(block):,} characters kept)")
        print(f"  {'(ms)':<60}{'p50':>8}{'p95':>8}")
        _row(
            "memory_block over all of them",
            _sync_timed(lambda: memory_block(newest_first, Handles()), 200),
            5,
        )

        async def inject() -> None:
            memory_block(await service.all_in(scopes), Handles())

        await inject()
        _row("all_in (database read) + memory_block", await _timed(inject, 200), 5)


async def retrieval_figures(
    folder: Path, rng: np.random.Generator, words: list[str], count: int, dims: int
) -> None:
    embedder = HashedEmbedder(dims)
    facts = _facts(rng, words, count)
    with Database.open(folder / "retrieval.db") as db:
        began = time.perf_counter()
        _fill(db, facts, embedder)
        built = time.perf_counter() - began
        service = MemoryService(db, MemoryEmbedder(embedder, MODEL_KEY))
        scopes = scopes_for(ASSISTANT, include_global=True)
        questions = []
        for _ in range(QUESTIONS):  # two words of a memory, two common, one rare
            source = facts[int(rng.integers(len(facts)))].split()[1:]
            common = [words[int(i)] for i in rng.integers(0, 20, size=2)]
            rare = words[int(rng.integers(VOCABULARY // 2, VOCABULARY))]
            questions.append(" ".join([*rng.choice(source, size=2), *common, rare, "?"]))
        print(f"\nHybrid retrieval, {count:,} memories x {dims} dims (built in {built:.1f} s)")
        print(f"  {'(ms)':<60}{'p50':>8}{'p95':>8}")
        first = await _timed(lambda: service.search(scopes, questions[0]), 1)
        print(f"  {'first search (vectors read from the database)':<60}{first[0] * 1000:>8.2f}")
        samples = []
        found = 0
        for _ in range(ROUNDS):
            for question in questions:
                began = time.perf_counter()
                result = await service.search(scopes, question)
                samples.append(time.perf_counter() - began)
                found += len(result.memories)
        _row("search: words + query embedding + vectors, fused", samples, 20)
        print(f"  {'memories returned per search':<60}{found / len(samples):>8.1f}")

        fresh = iter(_facts(rng, words, 40))
        saves = await _timed(lambda: service.save(GLOBAL_SCOPE, next(fresh)), 40)
        _row("save (duplicate checks, vector kept up to date)", saves)
        after = await _timed(lambda: service.search(scopes, questions[1]), 1)
        print(f"  {'search right after a save':<60}{after[0] * 1000:>8.2f}")
        print(f"  {'vector matrices read from the database':<60}{service.vectors.loads:>8}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--dims", type=int, default=768)
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    words = _vocabulary(rng)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        await block_figures(folder, rng, words)
        await retrieval_figures(folder, rng, words, args.memories, args.dims)


if __name__ == "__main__":
    asyncio.run(main())
