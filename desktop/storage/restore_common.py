"""What merging and replacing from a backup's database share.

The backup's `parley.db` (an extracted, standalone copy, brought to the current schema
by `restore_merge.prepare_backup_database`) is attached to the write connection under
the schema name `ALIAS`, so rows move with INSERT ... SELECT inside SQLite instead of
through Python. Every statement names `main.` or the alias explicitly.

Two things the triggers cannot do are done here: the memories' word index is fed from
Python (`memories.py`: CJK text is split into pairs first), and an answer the backup
caught while it was still streaming arrives `interrupted`, its text indexed, as a
crash would leave it at the next start (`ChatRepository.interrupt_streaming`).
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError

from desktop.core.i18n import tr
from desktop.core.models import MessageStatus
from desktop.storage import mapping
from desktop.storage.database import Database
from desktop.storage.disk_space import disk_full_error, is_disk_full
from desktop.storage.errors import StorageError
from desktop.storage.knowledge_index import words_for_index
from desktop.storage.migrations import SCHEMA_VERSION

# Private there; a transaction with something attached around it needs the same BEGIN.
from desktop.storage.sqlite_engine import _BEGIN_OPTION
from desktop.storage.tables import (
    MEMORIES_FTS,
    attachments,
    conversations,
    memories,
    messages,
    tombstones,
)

log = logging.getLogger(__name__)

ALIAS: Final = "restored"
"""The schema name the backup's database is attached under."""

# Column lists by name: a column added by ALTER TABLE sits at another position in an
# older database than in a new one, so nothing is copied by position.
CONVERSATION_COLUMNS: Final = tuple(c.name for c in conversations.columns)
MESSAGE_COLUMNS: Final = tuple(c.name for c in messages.columns)
ATTACHMENT_COLUMNS: Final = tuple(c.name for c in attachments.columns)
MEMORY_COLUMNS: Final = tuple(c.name for c in memories.columns)
TOMBSTONE_COLUMNS: Final = tuple(c.name for c in tombstones.columns)

_BATCH: Final = 500


def column_list(columns: tuple[str, ...], prefix: str = "") -> str:
    return ", ".join(f"{prefix}{name}" for name in columns)


def check_backup_file(path: Path) -> None:
    """ATTACH of a missing file would create an empty one: say so instead."""
    if not path.is_file():
        raise StorageError(
            tr("The backup's database {path} is missing, so nothing was restored.").format(
                path=path
            )
        )


@contextmanager
def backup_transaction(db: Database, backup_path: Path) -> Iterator[Connection]:
    """One write transaction on `db` (BEGIN IMMEDIATE, as `Database.write`) with the
    backup's database attached as `ALIAS`: committed when the block ends, rolled back
    if it raises, and the backup detached again either way.

    SQLite detaches only outside a transaction (the transaction keeps a lock on the
    attached file), so the attachment wraps the transaction on one connection.
    Failures come out as StorageError saying nothing was changed.
    """
    check_backup_file(backup_path)
    with _restore_errors(db.path), db.engine.connect() as conn:
        raw = conn.connection.dbapi_connection
        assert raw is not None
        raw.execute(f"ATTACH DATABASE ? AS {ALIAS}", (str(backup_path),))
        try:
            found = int(raw.execute(f"PRAGMA {ALIAS}.user_version").fetchone()[0])
            if found != SCHEMA_VERSION:
                raise StorageError(
                    tr(
                        "The backup's database is at schema version {found}, not {known}: "
                        "it must be prepared for this version of Parley first. Nothing was "
                        "restored."
                    ).format(found=found, known=SCHEMA_VERSION)
                )
            conn.execution_options(**{_BEGIN_OPTION: "IMMEDIATE"})
            with conn.begin():
                yield conn
        finally:
            try:
                raw.execute(f"DETACH DATABASE {ALIAS}")
            except sqlite3.Error as exc:  # never hand the pool a connection holding it
                log.warning("Could not detach the backup's database: %s", exc)
                conn.invalidate()


@contextmanager
def _restore_errors(db_path: Path) -> Iterator[None]:
    """SQLite's failures as a StorageError; the transaction was rolled back by then."""
    try:
        yield
    except (DBAPIError, sqlite3.Error) as exc:
        if is_disk_full(exc, db_path):
            raise disk_full_error(
                db_path,
                tr("Parley could not restore the backup"),
                tr("Free some space there and try again; nothing was changed."),
            ) from exc
        reason = exc.orig if isinstance(exc, DBAPIError) else exc
        raise StorageError(
            tr(
                "The backup's data could not be restored ({reason}); nothing was changed. "
                "The backup may be damaged."
            ).format(reason=reason)
        ) from exc


def max_rowid(conn: Connection, table: str) -> int:
    """The largest rowid of `main.table` (0 if empty): rows inserted after this call in
    the same transaction are those above it (no AUTOINCREMENT, so rowids only grow)."""
    return int(
        conn.exec_driver_sql(f"SELECT coalesce(max(rowid), 0) FROM main.{table}").scalar_one()
    )


def index_memory_words(conn: Connection, rows: list[tuple[int, str]]) -> None:
    """Feed the memories' word index for these (rowid, text) rows, replacing what it
    held for them (`memories._index`)."""
    for start in range(0, len(rows), _BATCH):
        batch = rows[start : start + _BATCH]
        conn.exec_driver_sql(
            f"DELETE FROM main.{MEMORIES_FTS} WHERE rowid = ?", [(rowid,) for rowid, _ in batch]
        )
        conn.exec_driver_sql(
            f"INSERT INTO main.{MEMORIES_FTS} (rowid, words) VALUES (?, ?)",
            [(rowid, words_for_index(text)) for rowid, text in batch],
        )


def finish_streaming(conn: Connection, after_rowid: int, now_ms: int) -> int:
    """Messages inserted above `after_rowid` that were still streaming, or waiting for
    the person to approve a tool call, when the backup was taken become `interrupted`,
    finished at `now_ms`, their text indexed: nothing will ever stream into them here,
    and a tool call asked for on another computer (its paths, its workspace) is not
    offered for approval on this one. Returns how many."""
    names = column_list(mapping.MESSAGE_COLUMNS)
    rows = conn.exec_driver_sql(
        f"SELECT {names} FROM main.messages WHERE rowid > ? AND status IN (?, ?)",
        (after_rowid, MessageStatus.STREAMING.value, MessageStatus.AWAITING_APPROVAL.value),
    ).all()
    if rows:
        reader = mapping.MessageReader()
        conn.exec_driver_sql(
            "UPDATE main.messages SET status = ?, finished_at = ?, search_text = ? WHERE id = ?",
            [
                (MessageStatus.INTERRUPTED.value, now_ms, reader.read(row).text, row[0])
                for row in rows
            ],
        )
    return len(rows)
