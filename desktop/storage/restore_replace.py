""" "Replace this device's data" with a backup's: the confirmed, destructive restore.

Before anything changes, the current database is copied with SQLite's online backup
API (consistent even while the WAL is live) to `<name>.pre-restore.bak` beside it, or
`-2`, `-3`... so no earlier copy is overwritten: the way back if the wrong backup was
chosen. The copy is taken while the write transaction of the replacement holds the
lock, so no write lands between the two. Then, in that transaction, conversations,
messages, attachment rows, memories and tombstones become the backup's. The workspace
folder and file of a conversation in both stay this device's: they name folders on
this machine.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any, Final

from sqlalchemy import Connection

from desktop.core.i18n import tr
from desktop.core.models import utc_now
from desktop.storage.database import Database
from desktop.storage.disk_space import disk_full_error, is_disk_full, size_text
from desktop.storage.errors import StorageError
from desktop.storage.mapping import to_epoch_ms
from desktop.storage.restore_common import (
    ALIAS,
    ATTACHMENT_COLUMNS,
    CONVERSATION_COLUMNS,
    MEMORY_COLUMNS,
    MESSAGE_COLUMNS,
    TOMBSTONE_COLUMNS,
    backup_transaction,
    check_backup_file,
    column_list,
    finish_streaming,
    index_memory_words,
)

log = logging.getLogger(__name__)

# Children before parents do not matter here: foreign keys are checked at commit.
_REPLACED: Final = (
    ("conversations", CONVERSATION_COLUMNS),
    ("messages", MESSAGE_COLUMNS),
    ("attachments", ATTACHMENT_COLUMNS),
    ("memories", MEMORY_COLUMNS),
    ("tombstones", TOMBSTONE_COLUMNS),
)


def free_copy_path(db_path: Path, label: str) -> Path:
    """`<name>.<label>.bak`, or `<name>.<label>-2.bak`...: claimed by creating it
    exclusively, so two copies never share a name. (`migrations._free_backup_path` does
    the same for its pre-upgrade copies; it has landed and is left as it is.)"""
    name, n = f"{db_path.name}.{label}.bak", 2
    while True:
        candidate = db_path.with_name(name)
        try:
            with candidate.open("x"):
                return candidate
        except FileExistsError:
            name, n = f"{db_path.name}.{label}-{n}.bak", n + 1


def _copy(source: Any, db_path: Path, label: str) -> Path:
    """Copy `db_path`'s database through `source`, an sqlite3 connection to it that
    holds no write transaction (SQLite copies nothing through one that does)."""
    target = free_copy_path(db_path, label)
    try:
        dest = sqlite3.connect(target)
        try:
            source.backup(dest)
            dest.execute("PRAGMA journal_mode = DELETE")  # no -wal/-shm to carry
        finally:
            dest.close()
    except (OSError, sqlite3.Error) as exc:
        target.unlink(missing_ok=True)
        if is_disk_full(exc, target):
            try:
                size = f" ({size_text(db_path.stat().st_size)})"
            except OSError:
                size = ""
            raise disk_full_error(
                target,
                tr("Parley could not keep a copy of its database{size} before restoring").format(
                    size=size
                ),
                tr("Free some space there and try again; nothing was changed."),
            ) from exc
        raise StorageError(
            tr(
                "Parley could not keep a copy of its database before restoring ({reason}); "
                "nothing was changed."
            ).format(reason=exc)
        ) from exc
    log.info("Copied the database to %s before replacing it with a backup", target)
    return target


def replace_with_backup(db: Database, backup_path: Path, *, now_ms: int | None = None) -> Path:
    """Make `db`'s chats, attachments, memories and tombstones the prepared backup's
    (`restore_merge.prepare_backup_database`); returns the copy kept of the old data.

    The copy is taken once the transaction that replaces the data holds the write
    lock, so nothing written meanwhile (an answer still being saved) can fall between
    the copy and the replacement. `now_ms` (default: now) finishes answers the backup
    caught streaming. On any failure the data is unchanged (a copy already taken
    stays, harmless).
    """
    backup_path = Path(backup_path)
    check_backup_file(backup_path)
    finished_at = now_ms if now_ms is not None else to_epoch_ms(utc_now())
    with backup_transaction(db, backup_path) as conn:
        # SQLite copies nothing through a connection in a write transaction, so the
        # copy reads through another one: it sees the last commit, which is what this
        # transaction starts from, since no one else can commit while it holds the lock.
        # A plain connection: the engine's would try to switch the journal mode.
        reader = sqlite3.connect(db.path)
        try:
            copy = _copy(reader, db.path, "pre-restore")
        finally:
            reader.close()
        conn.exec_driver_sql("PRAGMA defer_foreign_keys = ON")
        _replace(conn, finished_at)
    return copy


def _replace(conn: Connection, now_ms: int) -> None:
    # This device's values, none included, for every conversation it has.
    workspaces = conn.exec_driver_sql(
        "SELECT workspace, workspace_file, id FROM main.conversations"
    ).all()
    # Unlinked first, so deleting a long chat cascades one level, not thousands.
    conn.exec_driver_sql("UPDATE main.messages SET parent_id = NULL WHERE parent_id IS NOT NULL")
    for table, _columns in reversed(_REPLACED):
        conn.exec_driver_sql(f"DELETE FROM main.{table}")
    for table, columns in _REPLACED:
        conn.exec_driver_sql(
            f"INSERT INTO main.{table} ({column_list(columns)})"
            f" SELECT {column_list(columns)} FROM {ALIAS}.{table} ORDER BY rowid"
            if table != "tombstones"  # WITHOUT ROWID: no rowid to keep the order of
            else f"INSERT INTO main.{table} ({column_list(columns)})"
            f" SELECT {column_list(columns)} FROM {ALIAS}.{table}"
        )
    if workspaces:
        conn.exec_driver_sql(
            "UPDATE main.conversations SET workspace = ?, workspace_file = ? WHERE id = ?",
            [tuple(row) for row in workspaces],
        )
    rows = conn.exec_driver_sql("SELECT rowid, text FROM main.memories").all()
    index_memory_words(conn, [(int(rowid), str(text)) for rowid, text in rows])
    finish_streaming(conn, 0, now_ms)
