"""`MemoryRepository`: the memories table and its word index (migration step 7).

Each public method is one transaction (writes take the write lock up front, see
`sqlite_engine`), so a saved, edited or deleted memory is on disk when the call
returns. Deleting sets `deleted_at` and keeps the row; every read leaves such a
tombstone out, an edit of it is refused (`MemoryDeleted`), and only the Undo of that
very deletion (`undelete` with its `deleted_at`) restores it.

Words. `memories_fts` is fed here, in the transaction that writes the text, with
`words_for_index(text)`: the knowledge index's preparation, CJK runs as overlapping
character pairs, so "周末" finds "我周末去爬山" although nothing separates its words. A
query is split the same way and by SQLite's own tokenizer (`query_terms`), each term
quoted (FTS5 syntax in a query is text). Terms too common to tell memories apart are
dropped as the knowledge search drops them (`pick_terms`: BM25 costs about a
microsecond per posting, and "my" may be in every memory); any remaining term may
match, and BM25 puts the memories with more and rarer terms first.

Vectors: `memory_vectors.py` (an edit here clears a memory's vector).
"""

from __future__ import annotations

import builtins
import heapq
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from sqlalchemy import (
    Connection,
    Row,
    bindparam,
    func,
    insert,
    literal_column,
    select,
    text,
    update,
)
from sqlalchemy.sql.expression import ColumnClause

from desktop.core.memory import Memory, MemoryDeleted, MemoryNotFound, check_scope, clean_text
from desktop.core.models import new_id, utc_now
from desktop.storage.database import Database
from desktop.storage.knowledge_index import words_for_index
from desktop.storage.knowledge_terms import (
    common_line,
    match_expression,
    pick_terms,
    query_terms,
)
from desktop.storage.mapping import from_epoch_ms, to_epoch_ms
from desktop.storage.tables import MEMORIES_FTS, memories

VECTOR_DTYPE: Final = np.dtype("<f4")
MAX_QUERY_TERMS: Final = 16  # a pasted paragraph cannot make a slow query

Vector = Sequence[float] | npt.NDArray[np.float32]

_ROWID: ColumnClause[Any] = literal_column("memories.rowid")
MEMORY_COLUMNS = (
    memories.c.id,
    memories.c.scope,
    memories.c.text,
    memories.c.created_at,
    memories.c.updated_at,
    memories.c.source_conversation_id,
    memories.c.source_message_id,
    memories.c.deleted_at,
    memories.c.embedding.is_(None).label("words_only"),  # the vector itself stays on disk
    _ROWID.label("row"),
)
LIVE = memories.c.deleted_at.is_(None)
# The order of ix_memories_scope (rowid ends every index entry): no sorting per scope.
NEWEST_FIRST = (memories.c.updated_at.desc(), _ROWID.desc())

_UNINDEX = text(
    f"DELETE FROM {MEMORIES_FTS} WHERE rowid = (SELECT rowid FROM memories WHERE id = :id)"
)
_INDEX = text(
    f"INSERT INTO {MEMORIES_FTS} (rowid, words) SELECT rowid, :words FROM memories WHERE id = :id"
)
_DOCUMENT_FREQUENCY = text(
    f"SELECT count(*) FROM (SELECT 1 FROM {MEMORIES_FTS} WHERE {MEMORIES_FTS} MATCH :term"
    " LIMIT :cap)"
)
# CROSS JOIN: from the matches to their rows, never every row of the scopes first.
_WORD_SEARCH = text(
    f"SELECT m.id FROM {MEMORIES_FTS} CROSS JOIN memories AS m ON m.rowid = {MEMORIES_FTS}.rowid"
    f" WHERE {MEMORIES_FTS} MATCH :match AND m.deleted_at IS NULL AND m.scope IN :scopes"
    f" ORDER BY {MEMORIES_FTS}.rank LIMIT :limit"
).bindparams(bindparam("scopes", expanding=True))


def memory_from_row(row: Row[Any]) -> Memory:
    return Memory(
        id=row.id,
        scope=row.scope,
        text=row.text,
        created_at=from_epoch_ms(row.created_at),
        updated_at=from_epoch_ms(row.updated_at),
        source_conversation_id=row.source_conversation_id,
        source_message_id=row.source_message_id,
        deleted_at=None if row.deleted_at is None else from_epoch_ms(row.deleted_at),
        words_only=bool(row.words_only),
    )


def pack_vector(vector: Vector) -> bytes:
    return np.asarray(vector, dtype=VECTOR_DTYPE).tobytes()


def _index(conn: Connection, memory_id: str, memory_text: str) -> None:
    conn.execute(_UNINDEX, {"id": memory_id})
    conn.execute(_INDEX, {"id": memory_id, "words": words_for_index(memory_text)})


def _read(conn: Connection, memory_id: str) -> Memory:
    row = conn.execute(select(*MEMORY_COLUMNS).where(memories.c.id == memory_id)).one_or_none()
    if row is None:
        raise MemoryNotFound(memory_id)
    return memory_from_row(row)


def _live(conn: Connection, memory_id: str) -> Memory:
    memory = _read(conn, memory_id)
    if memory.deleted:
        raise MemoryDeleted(memory_id)
    return memory


def _in_scopes(scopes: Iterable[str]) -> Any:
    return memories.c.scope.in_(builtins.list(scopes))


class MemoryRepository:
    """Synchronous access to the memories of one `Database` (the engine calls it from a
    worker thread). `clock` is injectable so tests get distinct, predictable times."""

    def __init__(self, db: Database, *, clock: Callable[[], datetime] = utc_now) -> None:
        self._db = db
        self._clock = clock

    # --- writes -----------------------------------------------------------------------

    def add(
        self,
        scope: str,
        memory_text: str,
        *,
        source_conversation_id: str | None = None,
        source_message_id: str | None = None,
        vector: Vector | None = None,
        model_key: str | None = None,
    ) -> Memory:
        """A new memory, with its vector when one is given. Raises `InvalidMemory`."""
        scope, memory_text = check_scope(scope), clean_text(memory_text)
        now = to_epoch_ms(self._clock())
        values: dict[str, Any] = {
            "id": new_id(),
            "scope": scope,
            "text": memory_text,
            "created_at": now,
            "updated_at": now,
            "source_conversation_id": source_conversation_id,
            "source_message_id": source_message_id,
        }
        if vector is not None and model_key:
            values.update(embedding=pack_vector(vector), model_key=model_key)
        with self._db.write() as conn:
            conn.execute(insert(memories).values(values))
            _index(conn, values["id"], memory_text)
            return _read(conn, values["id"])

    def update_text(self, memory_id: str, memory_text: str) -> Memory:
        """The memory with its new text, and no vector until it is embedded again (the
        same text changes nothing). Raises `MemoryNotFound`, `MemoryDeleted`,
        `InvalidMemory`."""
        memory_text = clean_text(memory_text)
        with self._db.write() as conn:
            if _live(conn, memory_id).text == memory_text:
                return _read(conn, memory_id)
            conn.execute(
                update(memories)
                .where(memories.c.id == memory_id, LIVE)
                .values(
                    text=memory_text,
                    updated_at=to_epoch_ms(self._clock()),
                    embedding=None,
                    model_key=None,
                )
            )
            _index(conn, memory_id, memory_text)
            return _read(conn, memory_id)

    def delete(self, memory_id: str) -> Memory:
        """The tombstone (`deleted_at` set). Raises `MemoryNotFound`, or `MemoryDeleted`
        when it already was: the first deletion's time stays what an Undo restores."""
        with self._db.write() as conn:
            _live(conn, memory_id)
            conn.execute(
                update(memories)
                .where(memories.c.id == memory_id, LIVE)
                .values(deleted_at=to_epoch_ms(self._clock()))
            )
            return _read(conn, memory_id)

    def undelete(self, memory_id: str, deleted_at: datetime) -> Memory | None:
        """Undo of the deletion that left `deleted_at`: the memory back as it was. None
        when it is not that tombstone (restored already, or deleted again since).
        Raises `MemoryNotFound`. The undo's time is kept (`restored_at`): restoring a
        backup taken while the memory was deleted must not delete it again."""
        with self._db.write() as conn:
            restored = conn.execute(
                update(memories)
                .where(memories.c.id == memory_id)
                .where(memories.c.deleted_at == to_epoch_ms(deleted_at))
                .values(deleted_at=None, restored_at=to_epoch_ms(self._clock()))
            ).rowcount
            memory = _read(conn, memory_id)
        return memory if restored else None

    def rebuild_index(self) -> None:
        """Feed the word index again from every memory (a repair, or after the way
        words are prepared changed)."""
        with self._db.write() as conn:
            conn.execute(text(f"DELETE FROM {MEMORIES_FTS}"))
            for memory_id, memory_text in conn.execute(select(memories.c.id, memories.c.text)):
                conn.execute(_INDEX, {"id": memory_id, "words": words_for_index(memory_text)})

    # --- reads ------------------------------------------------------------------------

    def get(self, memory_id: str) -> Memory | None:
        """The memory, a tombstone included (its `deleted_at` says so)."""
        with self._db.read() as conn:
            row = conn.execute(
                select(*MEMORY_COLUMNS).where(memories.c.id == memory_id)
            ).one_or_none()
        return memory_from_row(row) if row is not None else None

    def get_many(self, ids: Sequence[str]) -> builtins.list[Memory]:
        """The live ones of `ids`, in that order."""
        if not ids:
            return []
        query = select(*MEMORY_COLUMNS).where(memories.c.id.in_(builtins.list(ids)), LIVE)
        with self._db.read() as conn:
            found = {row.id: memory_from_row(row) for row in conn.execute(query)}
        return [found[memory_id] for memory_id in ids if memory_id in found]

    def list(self, scopes: Iterable[str] | None = None, query: str = "") -> builtins.list[Memory]:
        """Live memories of `scopes` (None: all), newest first; with `query`, those whose
        text holds it (case folded)."""
        statement = select(*MEMORY_COLUMNS).where(LIVE).order_by(*NEWEST_FIRST)
        if scopes is not None:
            statement = statement.where(_in_scopes(scopes))
        with self._db.read() as conn:
            found = [memory_from_row(row) for row in conn.execute(statement)]
        needle = query.strip().casefold()
        return [m for m in found if needle in m.text.casefold()] if needle else found

    def newest(self, scopes: Iterable[str], chars: int) -> builtins.list[Memory]:
        """The live memories of `scopes`, newest first, until their texts reach `chars`
        characters in all (the one that reaches it included). Each scope is walked in
        its index's order and the walks merged, so only what is returned is read."""
        walks = [
            select(*MEMORY_COLUMNS).where(memories.c.scope == scope, LIVE).order_by(*NEWEST_FIRST)
            for scope in dict.fromkeys(scopes)
        ]
        found: builtins.list[Memory] = []
        total = 0
        with self._db.read() as conn:
            rows = heapq.merge(
                *(conn.execute(walk) for walk in walks),
                key=lambda row: (row.updated_at, row.row),
                reverse=True,
            )
            for row in rows:
                if total >= chars:
                    break
                found.append(memory_from_row(row))
                total += len(row.text)
        return found

    def texts(self, scopes: Iterable[str]) -> builtins.list[tuple[str, str]]:
        """(id, text) of every live memory of `scopes`: what a new one is compared with."""
        query = select(memories.c.id, memories.c.text).where(LIVE, _in_scopes(scopes))
        with self._db.read() as conn:
            return [(str(row[0]), str(row[1])) for row in conn.execute(query)]

    def count(self, scopes: Iterable[str]) -> int:
        with self._db.read() as conn:
            statement = select(func.count()).where(LIVE, _in_scopes(scopes))
            return int(conn.execute(statement).scalar_one())

    def search_words(self, scopes: Iterable[str], query: str, limit: int) -> builtins.list[str]:
        """Ids of the live memories of `scopes` matching `query`'s telling terms, best
        first (BM25), at most `limit`."""
        wanted = builtins.list(scopes)
        terms = query_terms(query)[:MAX_QUERY_TERMS]
        if not terms or not wanted or limit <= 0:
            return []
        with self._db.read() as conn:
            total = int(conn.execute(select(func.count()).select_from(memories)).scalar_one())
            cap = int(common_line(total)) + 1
            frequency: dict[str, int] = {}
            for term in terms:
                found = conn.execute(
                    _DOCUMENT_FREQUENCY, {"term": match_expression([term]), "cap": cap}
                ).scalar_one()
                frequency[term] = total if int(found) >= cap else int(found)
            choice = pick_terms(terms, frequency, total)
            if not choice.kept:
                return []
            params = {"match": choice.expression, "scopes": wanted, "limit": limit}
            return [str(row[0]) for row in conn.execute(_WORD_SEARCH, params)]
