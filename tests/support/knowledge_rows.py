"""Fills a knowledge index (`storage/knowledge_index.py`) with rows written directly in
SQL, as the indexer would leave them: a source, its chunks, their word-index rows and
their vectors per model key. Read-side tests use it instead of the indexer."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import Engine, bindparam, text

from desktop.core.knowledge import SourceStatus
from desktop.storage.knowledge_index import words_for_index
from desktop.storage.knowledge_queries import mark_library_changed, vector_blob
from desktop.storage.sqlite_engine import write_transaction

Vectorise = Callable[[str], Sequence[float]]

_clock = itertools.count(1_700_000_000)


@dataclass(frozen=True, slots=True)
class Chunk:
    text: str
    heading_path: str = ""
    page: int | None = None


def _sha(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def add_source(
    engine: Engine,
    library_id: str,
    path: str,
    chunks: Sequence[str | Chunk],
    *,
    status: SourceStatus = SourceStatus.INDEXED,
    vectors: Mapping[str, Vectorise] | None = None,
) -> list[int]:
    """A file of `library_id` with `chunks` (word-indexed, and embedded by each model
    key's function in `vectors`); returns the chunk ids in order."""
    parts = [c if isinstance(c, Chunk) else Chunk(c) for c in chunks]
    body = "\n\n".join(part.text for part in parts)
    with write_transaction(engine) as connection:
        source_id = connection.execute(
            text(
                "INSERT INTO sources (library_id, path, size, mtime_ns, sha256, status, error, "
                "chunks, indexed_at) VALUES (:library, :path, :size, 1, :sha, :status, :error, "
                ":chunks, :at) RETURNING id"
            ),
            {
                "library": library_id,
                "path": path,
                "size": len(body.encode()),
                "sha": _sha(body),
                "status": status.value,
                "error": "damaged" if status is SourceStatus.FAILED else "",
                "chunks": len(parts),
                "at": float(next(_clock)) if status is SourceStatus.INDEXED else None,
            },
        ).scalar_one()
        mark_library_changed(connection, library_id)
        first = connection.execute(text("SELECT coalesce(max(id), 0) + 1 FROM chunks")).scalar_one()
        ids = list(range(int(first), int(first) + len(parts)))
        rows = []
        offset = 0
        for chunk_id, (ordinal, part) in zip(ids, enumerate(parts), strict=True):
            rows.append(
                {
                    "id": chunk_id,
                    "source": source_id,
                    "ordinal": ordinal,
                    "text": part.text,
                    "words": words_for_index(part.text),
                    "heading": part.heading_path,
                    "page": part.page,
                    "start": offset,
                    "end": offset + len(part.text),
                    "sha": _sha(part.text),
                }
            )
            offset += len(part.text) + 2
        if not rows:
            return ids
        connection.execute(
            text(
                "INSERT INTO chunks (id, source_id, ordinal, text, heading_path, page, "
                "char_start, char_end, text_sha256) VALUES (:id, :source, :ordinal, :text, "
                ":heading, :page, :start, :end, :sha)"
            ),
            rows,
        )
        connection.execute(text("INSERT INTO chunks_fts (rowid, words) VALUES (:id, :words)"), rows)
        for model_key, vectorise in (vectors or {}).items():
            connection.execute(
                text("INSERT INTO vectors (chunk_id, model_key, vector) VALUES (:id, :key, :v)"),
                [
                    {"id": row["id"], "key": model_key, "v": vector_blob(vectorise(row["text"]))}
                    for row in rows
                ],
            )
    return ids


def set_status(engine: Engine, library_id: str, path: str, status: SourceStatus) -> None:
    with write_transaction(engine) as connection:
        connection.execute(
            text(
                "UPDATE sources SET status = :status WHERE library_id = :library AND path = :path"
            ),
            {"status": status.value, "library": library_id, "path": path},
        )
        mark_library_changed(connection, library_id)


def add_vectors(
    engine: Engine,
    chunk_ids: Sequence[int],
    model_key: str,
    texts: Sequence[str],
    vectorise: Vectorise,
) -> None:
    """Vectors under another model for chunks already there (a model switched)."""
    with write_transaction(engine) as connection:
        libraries = connection.execute(
            text(
                "SELECT DISTINCT library_id FROM sources JOIN chunks ON chunks.source_id = "
                "sources.id WHERE chunks.id IN :ids"
            ).bindparams(bindparam("ids", expanding=True)),
            {"ids": list(chunk_ids)},
        ).scalars()
        for library_id in libraries:
            mark_library_changed(connection, library_id)
        for chunk_id, chunk_text in zip(chunk_ids, texts, strict=True):
            connection.execute(
                text("INSERT INTO vectors (chunk_id, model_key, vector) VALUES (:id, :key, :v)"),
                {"id": chunk_id, "key": model_key, "v": vector_blob(vectorise(chunk_text))},
            )
