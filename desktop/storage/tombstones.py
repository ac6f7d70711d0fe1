"""Tombstones: the exact ids of conversations and messages the person deleted here.

A deleted row leaves nothing behind to compare with, so without a record of the
deletion an older backup restored by merging (`restore_merge.py`) would bring every
deleted chat back. The record names exact ids, never "everything older than": a
message written elsewhere after the deletion, which the tombstone does not name,
survives (see the backup and sync design, E3).

They are written in the same transaction as the delete itself (`ChatRepository`), so
there is never a deletion without its tombstone, nor the other way round. Memories
keep their tombstone in their own row (`memories.deleted_at`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from enum import StrEnum
from typing import Final

from sqlalchemy import Connection, insert, select

from desktop.storage.tables import tombstones

# Ids per statement: each row takes three bound parameters, and SQLite allows 32766
# since 3.32 (999 before it): this stays under both.
_BATCH: Final = 300


class Kind(StrEnum):
    CONVERSATION = "conversation"
    MESSAGE = "message"


def _batches(ids: Sequence[str]) -> Iterator[Sequence[str]]:
    for start in range(0, len(ids), _BATCH):
        yield ids[start : start + _BATCH]


def record(conn: Connection, kind: Kind | str, ids: Iterable[str], at_ms: int) -> None:
    """Remember that `ids` of `kind` were deleted at `at_ms`, inside the caller's
    transaction. An id already remembered keeps its first deletion time."""
    kind = Kind(kind)
    unique = sorted(set(ids))
    statement = insert(tombstones).prefix_with("OR IGNORE")
    for batch in _batches(unique):
        conn.execute(
            statement,
            [{"kind": kind.value, "id": item, "deleted_at": at_ms} for item in batch],
        )


def deleted_ids(conn: Connection, kind: Kind | str) -> set[str]:
    """Every id of `kind` deleted here."""
    query = select(tombstones.c.id).where(tombstones.c.kind == Kind(kind).value)
    return {str(row[0]) for row in conn.execute(query)}
