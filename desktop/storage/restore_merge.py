"""Restoring a backup by merging it into this device's data (design E3).

Nothing here is deleted or overwritten by older data, and what was deleted here stays
deleted (`tombstones.py`):
- conversations: those missing here are added, unless deleted here. For one in both,
  the backup's title, flags, assistant, system prompt and pinned messages are taken
  only when the person set them there after here (`changed_at`), and its active branch
  only when its `updated_at` is newer and its message is here after the merge; the
  workspace folder and file belong
  to this device and the rolling summary is derived, so neither is ever taken.
- messages: those missing here are added, unless they or their conversation were
  deleted here. One whose parent was deleted here hangs from its nearest ancestor that
  is still here (or becomes a root): nothing written elsewhere after a deletion is
  lost with it. A message in both is left as it is here.
- attachment rows: those missing are added (the caller first copies the backup's
  attachment files the store lacks; `attachment_hashes` names the ones its rows use).
- memories: those missing are added; for one in both, the backup's row wins only if
  its last change (`max(updated_at, deleted_at)`) is newer: a newer deletion on either
  side stays a deletion.
- the backup's tombstones for things absent here are kept too, so a later restore of
  an even older backup does not bring back what was deleted where the backup was made.

All in one write transaction: the whole backup is merged, or nothing is. The
full-text indexes of titles and messages follow through their triggers.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from sqlalchemy import Connection

from desktop.core.i18n import tr
from desktop.storage.database import Database
from desktop.storage.disk_space import disk_full_error, is_disk_full
from desktop.storage.errors import DatabaseTooNewError, MigrationError, StorageError
from desktop.storage.migrations import ensure_not_newer, migrate
from desktop.storage.restore_common import (
    ALIAS,
    ATTACHMENT_COLUMNS,
    CONVERSATION_COLUMNS,
    MEMORY_COLUMNS,
    MESSAGE_COLUMNS,
    backup_transaction,
    check_backup_file,
    column_list,
    finish_streaming,
    index_memory_words,
    max_rowid,
)
from desktop.storage.restore_replace import replace_with_backup
from desktop.storage.sqlite_engine import create_sqlite_engine
from desktop.storage.tables import PERSON_SET_COLUMNS
from desktop.storage.tombstones import Kind

__all__ = [
    "MergeOutcome",
    "RestoreConflictError",
    "attachment_hashes",
    "merge_backup",
    "prepare_backup_database",
    "replace_with_backup",
]

B: Final = ALIAS
# A tombstone counts only while what it names is absent here: a conversation deleted
# and then brought back here (an export imported again gives the same ids) is live,
# and what was written in it elsewhere is merged like any other reply.
_CONVERSATION_GONE: Final = (
    f"(EXISTS (SELECT 1 FROM main.tombstones t WHERE t.kind = '{Kind.CONVERSATION}'"
    " AND t.id = {column})"
    " AND NOT EXISTS (SELECT 1 FROM main.conversations gone WHERE gone.id = {column}))"
)
_MESSAGE_GONE: Final = (
    f"EXISTS (SELECT 1 FROM main.tombstones t WHERE t.kind = '{Kind.MESSAGE}' AND t.id = b.id)"
)
# When the person last set a conversation's title, pin... (`PERSON_SET_COLUMNS`): the
# register's time. A conversation never changed since step 8 counts from its creation,
# so a backup made before then never overrides a change made here.
_SET_AT: Final = "coalesce({t}.changed_at, {t}.created_at)"
# A memory's last change: its edit, its deletion or an undo of one, whichever is later.
_LAST_CHANGE: Final = (
    "max({t}.updated_at, coalesce({t}.deleted_at, {t}.updated_at),"
    " coalesce({t}.restored_at, {t}.updated_at))"
)


@dataclass(frozen=True, slots=True)
class MergeOutcome:
    conversations_added: int = 0
    conversations_updated: int = 0  # took the backup's newer title, flags...
    messages_added: int = 0
    messages_skipped_deleted: int = 0  # deleted here (or their conversation was)
    memories_added: int = 0  # live ones; a deleted one copied along is not counted
    memories_updated: int = 0
    attachments_added: int = 0


class RestoreConflictError(StorageError):
    """The backup cannot be merged without tying two conversations together."""


# --- the backup's database --------------------------------------------------------


def prepare_backup_database(path: Path) -> None:
    """Bring the extracted copy of a backup's database to the current schema.

    Raises `DatabaseTooNewError` for a backup made by a newer Parley, and
    `StorageError` for a file that is not a readable database; the copy is scratch,
    so the copy an upgrade keeps of it is removed again.
    """
    path = Path(path)
    check_backup_file(path)
    try:
        ensure_not_newer(path)
    except DatabaseTooNewError:
        raise DatabaseTooNewError(
            tr(
                "This backup was made by a newer version of Parley. Update Parley to "
                "restore it; nothing was changed."
            )
        ) from None
    except StorageError as exc:
        raise StorageError(
            tr(
                "The backup's database could not be read ({reason}). The backup may be "
                "damaged; nothing was changed."
            ).format(reason=exc)
        ) from exc
    kept_before = set(path.parent.glob(f"{path.name}.pre-v*.bak"))
    engine = create_sqlite_engine(path)
    try:
        migrate(engine)
    except MigrationError as exc:
        raise MigrationError(
            tr(
                "The backup's database could not be brought up to this version of Parley "
                "({reason}); nothing was changed."
            ).format(reason=exc)
        ) from exc
    except sqlite3.Error as exc:
        raise _unreadable(path, exc) from exc
    except Exception as exc:
        if is_disk_full(exc, path):
            raise disk_full_error(
                path,
                tr("Parley could not prepare the backup for restoring"),
                tr("Free some space there and try again; nothing was changed."),
            ) from exc
        if isinstance(exc, StorageError):
            raise
        raise _unreadable(path, getattr(exc, "orig", None) or exc) from exc
    finally:
        engine.dispose()
    for copy in set(path.parent.glob(f"{path.name}.pre-v*.bak")) - kept_before:
        copy.unlink(missing_ok=True)
    _standalone(path)


def _unreadable(path: Path, reason: BaseException) -> StorageError:
    return StorageError(
        tr(
            "The backup's database {name} could not be read ({reason}). The backup may be "
            "damaged; nothing was changed."
        ).format(name=path.name, reason=reason)
    )


def _standalone(path: Path) -> None:
    """One file again, with no WAL companions (the engine switched it to WAL)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA journal_mode = DELETE")
    finally:
        conn.close()


def attachment_hashes(backup_path: Path) -> set[str]:
    """The sha256 of every attachment the backup's rows name: the files the caller
    copies into the attachment store before merging (or replacing)."""
    check_backup_file(backup_path)
    conn = sqlite3.connect(f"{Path(backup_path).resolve().as_uri()}?mode=ro", uri=True)
    try:
        present = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'attachments'"
        ).fetchone()
        if present is None:  # written before attachments existed (schema 1-3)
            return set()
        return {str(row[0]) for row in conn.execute("SELECT DISTINCT sha256 FROM attachments")}
    except sqlite3.DatabaseError as exc:
        raise _unreadable(Path(backup_path), exc) from exc
    finally:
        conn.close()


# --- merging ----------------------------------------------------------------------


def merge_backup(db: Database, backup_path: Path, *, now_ms: int) -> MergeOutcome:
    """Merge a prepared backup database into `db` (see the module docstring).

    `now_ms` finishes answers the backup caught streaming. Raises
    `RestoreConflictError` (a message id that belongs to another conversation here) or
    `StorageError`; nothing is changed then.
    """
    with backup_transaction(db, Path(backup_path)) as conn:
        # Children may arrive before parents, and re-attached ones point at a parent
        # that is not here until they are fixed: checked at commit instead.
        conn.exec_driver_sql("PRAGMA defer_foreign_keys = ON")
        return _merge(conn, now_ms)


def _merge(conn: Connection, now_ms: int) -> MergeOutcome:
    conversations_before = max_rowid(conn, "conversations")
    conversations_added = _add_conversations(conn)
    _refuse_shared_message_ids(conn)
    messages_before = max_rowid(conn, "messages")
    skipped = _count_skipped_messages(conn)
    messages_added = _add_messages(conn)
    _reattach_orphans(conn, messages_before)
    _refuse_parents_elsewhere(conn, messages_before)
    finish_streaming(conn, messages_before, now_ms)
    conversations_updated = _take_newer_conversations(conn)
    _drop_dangling_leaves(conn, conversations_before)
    attachments_added = _add_attachments(conn)
    memories_added, memories_updated = _merge_memories(conn)
    _keep_backup_tombstones(conn)
    return MergeOutcome(
        conversations_added=conversations_added,
        conversations_updated=conversations_updated,
        messages_added=messages_added,
        messages_skipped_deleted=skipped,
        memories_added=memories_added,
        memories_updated=memories_updated,
        attachments_added=attachments_added,
    )


def _add_conversations(conn: Connection) -> int:
    names = column_list(CONVERSATION_COLUMNS)
    result = conn.exec_driver_sql(
        f"INSERT INTO main.conversations ({names})"
        f" SELECT {column_list(CONVERSATION_COLUMNS, 'b.')} FROM {B}.conversations AS b"
        " WHERE NOT EXISTS (SELECT 1 FROM main.conversations c WHERE c.id = b.id)"
        f" AND NOT {_CONVERSATION_GONE.format(column='b.id')}"
        " ORDER BY b.rowid"
    )
    return int(result.rowcount)


def _refuse_shared_message_ids(conn: Connection) -> None:
    """A message id stored here in another conversation than the backup's would tie
    the two trees together: refuse the whole restore."""
    found = conn.exec_driver_sql(
        f"SELECT b.id FROM {B}.messages AS b JOIN main.messages AS m ON m.id = b.id"
        " WHERE m.conversation_id <> b.conversation_id LIMIT 1"
    ).first()
    if found is not None:
        raise RestoreConflictError(
            tr(
                "The backup's message {id} belongs to another conversation here than in "
                "the backup, so merging would tie the two together. Nothing was restored; "
                "replacing this device's data with the backup is still possible."
            ).format(id=found[0])
        )


def _new_message_filter() -> str:
    return (
        "NOT EXISTS (SELECT 1 FROM main.messages m WHERE m.id = b.id)"
        f" AND NOT {_MESSAGE_GONE}"
        f" AND NOT {_CONVERSATION_GONE.format(column='b.conversation_id')}"
    )


def _count_skipped_messages(conn: Connection) -> int:
    return int(
        conn.exec_driver_sql(
            f"SELECT count(*) FROM {B}.messages AS b"
            " WHERE NOT EXISTS (SELECT 1 FROM main.messages m WHERE m.id = b.id)"
            f" AND ({_MESSAGE_GONE}"
            f" OR {_CONVERSATION_GONE.format(column='b.conversation_id')})"
        ).scalar_one()
    )


def _add_messages(conn: Connection) -> int:
    names = column_list(MESSAGE_COLUMNS)
    result = conn.exec_driver_sql(
        f"INSERT INTO main.messages ({names})"
        f" SELECT {column_list(MESSAGE_COLUMNS, 'b.')} FROM {B}.messages AS b"
        f" WHERE {_new_message_filter()}"
        " AND EXISTS (SELECT 1 FROM main.conversations c WHERE c.id = b.conversation_id)"
        " ORDER BY b.rowid"
    )
    return int(result.rowcount)


def _reattach_orphans(conn: Connection, after_rowid: int) -> None:
    """New messages whose parent is not here (deleted here, or missing from the
    backup itself) hang from their nearest ancestor that is, or become roots."""
    orphans = conn.exec_driver_sql(
        "SELECT m.id, m.parent_id, m.conversation_id FROM main.messages AS m"
        " WHERE m.rowid > ? AND m.parent_id IS NOT NULL"
        " AND NOT EXISTS (SELECT 1 FROM main.messages p WHERE p.id = m.parent_id)",
        (after_rowid,),
    ).all()
    if not orphans:
        return
    moves = [
        (_surviving_ancestor(conn, parent, conversation), message_id)
        for message_id, parent, conversation in orphans
    ]
    conn.exec_driver_sql("UPDATE main.messages SET parent_id = ? WHERE id = ?", moves)


def _surviving_ancestor(conn: Connection, parent: str, conversation_id: str) -> str | None:
    """The first of `parent` and its ancestors (as the backup has them) stored here in
    the same conversation; None when there is none (a cycle ends the walk too)."""
    seen: set[str] = set()
    current: str | None = parent
    while current is not None and current not in seen:
        seen.add(current)
        here = conn.exec_driver_sql(
            "SELECT conversation_id FROM main.messages WHERE id = ?", (current,)
        ).scalar_one_or_none()
        if here is not None:
            return current if here == conversation_id else None
        current = conn.exec_driver_sql(
            f"SELECT parent_id FROM {B}.messages WHERE id = ?", (current,)
        ).scalar_one_or_none()
    return None


def _refuse_parents_elsewhere(conn: Connection, after_rowid: int) -> None:
    found = conn.exec_driver_sql(
        "SELECT m.id FROM main.messages AS m JOIN main.messages AS p ON p.id = m.parent_id"
        " WHERE m.rowid > ? AND p.conversation_id <> m.conversation_id LIMIT 1",
        (after_rowid,),
    ).first()
    if found is not None:
        raise RestoreConflictError(
            tr(
                "The backup's message {id} replies to a message of another conversation. "
                "Nothing was restored."
            ).format(id=found[0])
        )


def _take_newer_conversations(conn: Connection) -> int:
    """The backup's title, flags... where the person set them there after here; its
    active branch and activity time where it was used there after here. Returns how
    many conversations took either."""
    newer_set = f"{_SET_AT.format(t='b')} > {_SET_AT.format(t='c')}"
    newer_use = "b.updated_at > c.updated_at"
    changed = conn.exec_driver_sql(
        f"SELECT count(*) FROM main.conversations AS c JOIN {B}.conversations AS b"
        f" ON b.id = c.id WHERE {newer_set} OR {newer_use}"
    ).scalar_one()
    fields = ", ".join(f"{name} = b.{name}" for name in PERSON_SET_COLUMNS)
    conn.exec_driver_sql(
        f"UPDATE main.conversations AS c SET {fields}, changed_at = b.changed_at"
        f" FROM {B}.conversations AS b WHERE b.id = c.id AND {newer_set}"
    )
    conn.exec_driver_sql(
        "UPDATE main.conversations AS c SET"
        " active_leaf_id = CASE WHEN EXISTS (SELECT 1 FROM main.messages m"
        " WHERE m.id = b.active_leaf_id AND m.conversation_id = c.id)"
        " THEN b.active_leaf_id ELSE c.active_leaf_id END,"
        " updated_at = b.updated_at"
        f" FROM {B}.conversations AS b WHERE b.id = c.id AND {newer_use}"
    )
    return int(changed)


def _drop_dangling_leaves(conn: Connection, after_rowid: int) -> None:
    """A conversation just added whose active message was deleted here shows its
    newest branch instead (readers fall back to it when the leaf is unset)."""
    conn.exec_driver_sql(
        "UPDATE main.conversations SET active_leaf_id = NULL"
        " WHERE rowid > ? AND active_leaf_id IS NOT NULL AND NOT EXISTS"
        " (SELECT 1 FROM main.messages m WHERE m.id = main.conversations.active_leaf_id"
        " AND m.conversation_id = main.conversations.id)",
        (after_rowid,),
    )


def _add_attachments(conn: Connection) -> int:
    names = column_list(ATTACHMENT_COLUMNS)
    result = conn.exec_driver_sql(
        f"INSERT INTO main.attachments ({names})"
        f" SELECT {column_list(ATTACHMENT_COLUMNS, 'b.')} FROM {B}.attachments AS b"
        " WHERE NOT EXISTS (SELECT 1 FROM main.attachments a WHERE a.id = b.id)"
        " ORDER BY b.rowid"
    )
    return int(result.rowcount)


def _merge_memories(conn: Connection) -> tuple[int, int]:
    """(live memories added, memories that took the backup's newer row)."""
    before = max_rowid(conn, "memories")
    names = column_list(MEMORY_COLUMNS)
    conn.exec_driver_sql(
        f"INSERT INTO main.memories ({names})"
        f" SELECT {column_list(MEMORY_COLUMNS, 'b.')} FROM {B}.memories AS b"
        " WHERE NOT EXISTS (SELECT 1 FROM main.memories m WHERE m.id = b.id)"
        " ORDER BY b.rowid"
    )
    added = conn.exec_driver_sql(
        "SELECT rowid, text, deleted_at IS NULL FROM main.memories WHERE rowid > ?", (before,)
    ).all()
    newer = f"{_LAST_CHANGE.format(t='b')} > {_LAST_CHANGE.format(t='c')}"
    fields = ", ".join(f"{name} = b.{name}" for name in MEMORY_COLUMNS if name != "id")
    updated = conn.exec_driver_sql(
        f"UPDATE main.memories AS c SET {fields} FROM {B}.memories AS b"
        f" WHERE b.id = c.id AND {newer} RETURNING rowid, text"
    ).all()
    index_memory_words(conn, [(int(row[0]), str(row[1])) for row in [*added, *updated]])
    return sum(1 for row in added if row[2]), len(updated)


def _keep_backup_tombstones(conn: Connection) -> None:
    """What was deleted where the backup was made, and is not here, stays away from
    later merges too. (Something deleted there but still here is kept: a restore never
    deletes.)"""
    conn.exec_driver_sql(
        "INSERT OR IGNORE INTO main.tombstones (kind, id, deleted_at)"
        f" SELECT t.kind, t.id, t.deleted_at FROM {B}.tombstones AS t WHERE NOT ("
        f"(t.kind = '{Kind.CONVERSATION}'"
        " AND EXISTS (SELECT 1 FROM main.conversations c WHERE c.id = t.id))"
        f" OR (t.kind = '{Kind.MESSAGE}'"
        " AND EXISTS (SELECT 1 FROM main.messages m WHERE m.id = t.id)))"
    )
