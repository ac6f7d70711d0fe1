"""Schema versions: an ordered list of steps, applied one transaction each.

The schema version lives in SQLite's `PRAGMA user_version` (stored in the file header,
so it changes atomically with the step that needs it). Step N takes a database at
version N-1 to version N. Released steps are frozen: they spell out their own DDL rather
than calling `tables.metadata.create_all()`, because `tables.py` always describes the
*latest* schema and a replayed step 1 must still build the version-1 schema.

Safety rules (SPEC section 9: a migration failure never destroys data):
- a database newer than the code is refused before anything touches it;
- a database that already holds tables is copied to `<name>.pre-v{N}.bak` (SQLite
  backup API, so the copy is consistent even with a live WAL) before the first step,
  unless no pending step has anything to change in it (a repair that this database
  does not need, see `NEEDED`): then only the version moves on, with no copy (which a
  nearly full disk may have no room for) and no upgrade notice;
- each step runs in `BEGIN IMMEDIATE`; a failing step rolls back, including its DDL
  and the version bump, and surfaces as `MigrationError`.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Final

from sqlalchemy import Connection, Engine, text

from desktop.storage.disk_space import disk_full_error, is_disk_full, size_text
from desktop.storage.errors import DatabaseTooNewError, MigrationError, StorageError
from desktop.storage.sqlite_engine import BUSY_TIMEOUT_MS, read_transaction, write_transaction

log = logging.getLogger(__name__)

Migration = Callable[[Connection], None]
"""One step: runs inside the caller's transaction, must not commit or change the version."""

Needed = Callable[[Connection], bool]
"""Whether a step would change anything in this database (read only; `NEEDED`)."""


_V1_DDL: Final = (
    """
    CREATE TABLE conversations (
        id TEXT NOT NULL PRIMARY KEY,
        title TEXT NOT NULL,
        assistant_id TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        pinned BOOLEAN NOT NULL DEFAULT 0,
        archived BOOLEAN NOT NULL DEFAULT 0,
        active_leaf_id TEXT,
        summary_text TEXT,
        summary_covered_ids TEXT,
        workspace TEXT
    )
    """,
    """
    CREATE TABLE messages (
        id TEXT NOT NULL PRIMARY KEY,
        conversation_id TEXT NOT NULL,
        parent_id TEXT,
        role TEXT NOT NULL,
        parts TEXT NOT NULL DEFAULT '[]',
        status TEXT NOT NULL,
        provider_id TEXT,
        model TEXT,
        input_tokens INTEGER,
        output_tokens INTEGER,
        reasoning_tokens INTEGER,
        first_token_ms INTEGER,
        created_at INTEGER NOT NULL,
        finished_at INTEGER,
        context TEXT NOT NULL DEFAULT '{}',
        FOREIGN KEY (conversation_id) REFERENCES conversations (id) ON DELETE CASCADE,
        FOREIGN KEY (parent_id) REFERENCES messages (id) ON DELETE CASCADE
    )
    """,
    "CREATE INDEX ix_messages_conversation_created ON messages (conversation_id, created_at)",
    "CREATE INDEX ix_messages_parent ON messages (parent_id)",
    "CREATE INDEX ix_messages_status ON messages (status)",
)


def _v1_create_chat_tables(conn: Connection) -> None:
    for statement in _V1_DDL:
        conn.exec_driver_sql(statement)


# Version 2: full-text search. Why these choices is explained in `search.py`; in short:
# trigram FTS5 tables (substring matching that works for CJK as well as spaced
# languages) with external content (the text lives once, in the tables it came from),
# kept in sync by triggers so no write path can forget the index. Triggers also fire
# for rows removed by ON DELETE CASCADE (checked in tests/storage/test_search.py).
_V2_DDL: Final = (
    "CREATE INDEX ix_conversations_recent ON conversations (archived, updated_at)",
    """
    CREATE VIRTUAL TABLE messages_fts USING fts5(
        search_text, content='messages', content_rowid='rowid',
        tokenize='trigram case_sensitive 0'
    )
    """,
    """
    CREATE VIRTUAL TABLE conversations_fts USING fts5(
        title, content='conversations', content_rowid='rowid',
        tokenize='trigram case_sensitive 0'
    )
    """,
    # External content: a 'delete' must repeat the exact text that was indexed, which
    # is what old.* holds. WHEN clauses skip re-indexing when the text did not change
    # (a streaming save rewrites status and usage far more often than the text).
    """
    CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts (rowid, search_text) VALUES (new.rowid, new.search_text);
    END
    """,
    """
    CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, search_text)
        VALUES ('delete', old.rowid, old.search_text);
    END
    """,
    """
    CREATE TRIGGER messages_fts_update AFTER UPDATE OF search_text ON messages
    WHEN old.search_text IS NOT new.search_text BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, search_text)
        VALUES ('delete', old.rowid, old.search_text);
        INSERT INTO messages_fts (rowid, search_text) VALUES (new.rowid, new.search_text);
    END
    """,
    """
    CREATE TRIGGER conversations_fts_insert AFTER INSERT ON conversations BEGIN
        INSERT INTO conversations_fts (rowid, title) VALUES (new.rowid, new.title);
    END
    """,
    """
    CREATE TRIGGER conversations_fts_delete AFTER DELETE ON conversations BEGIN
        INSERT INTO conversations_fts (conversations_fts, rowid, title)
        VALUES ('delete', old.rowid, old.title);
    END
    """,
    """
    CREATE TRIGGER conversations_fts_update AFTER UPDATE OF title ON conversations
    WHEN old.title IS NOT new.title BEGIN
        INSERT INTO conversations_fts (conversations_fts, rowid, title)
        VALUES ('delete', old.rowid, old.title);
        INSERT INTO conversations_fts (rowid, title) VALUES (new.rowid, new.title);
    END
    """,
)


def _v2_visible_text(parts_json: str | None) -> str:
    """Frozen copy of what `Message.text` meant at version 2: the text parts, joined.

    Deliberately not `mapping`: this step must compute the same thing forever.
    Unreadable JSON indexes as nothing rather than failing the upgrade.
    """
    try:
        items = json.loads(parts_json or "[]")
    except json.JSONDecodeError:
        return ""
    if not isinstance(items, list):
        return ""
    return "".join(
        item["text"]
        for item in items
        if isinstance(item, dict)
        and item.get("type") == "text"
        and isinstance(item.get("text"), str)
    )


def _v2_full_text_search(conn: Connection) -> None:
    conn.exec_driver_sql("ALTER TABLE messages ADD COLUMN search_text TEXT NOT NULL DEFAULT ''")
    # Backfill before the triggers exist, then index everything in one 'rebuild' pass.
    # Batches by rowid keep memory flat on a large history.
    last = -(2**63)
    while True:
        rows = conn.exec_driver_sql(
            "SELECT rowid, parts FROM messages WHERE rowid > ? ORDER BY rowid LIMIT 2000",
            (last,),
        ).all()
        if not rows:
            break
        last = rows[-1][0]
        updates = [(text, rowid) for rowid, parts in rows if (text := _v2_visible_text(parts))]
        if updates:
            conn.exec_driver_sql("UPDATE messages SET search_text = ? WHERE rowid = ?", updates)
    for statement in _V2_DDL:
        conn.exec_driver_sql(statement)
    conn.exec_driver_sql("INSERT INTO messages_fts (messages_fts) VALUES ('rebuild')")
    conn.exec_driver_sql("INSERT INTO conversations_fts (conversations_fts) VALUES ('rebuild')")


# Version 3: an index for 1-2 character queries, which trigrams cannot match (what it
# holds and why: `short_index.py`). Its text is computed by the application function
# parley_short_terms (registered on every connection by `sqlite_engine`), so its
# external content is a view that applies the function: 'rebuild' and the integrity
# check against the content work as they do for the v2 tables. Triggers feed it like
# the v2 ones; deleting recomputes the old text's terms, which is why the function is
# frozen.
_V3_TOKENIZER: Final = "unicode61 remove_diacritics 0 categories 'L* N* M* P* S* Co Cf Cn'"


def _v3_short_index_ddl(table: str, column: str) -> tuple[str, ...]:
    """The view, FTS5 table and triggers indexing `table.column` for short queries."""
    index, terms = f"{table}_short_fts", f"parley_short_terms({{row}}.{column})"
    return (
        f"""
        CREATE VIEW {index}_source AS
        SELECT rowid AS rowid, parley_short_terms({column}) AS terms FROM {table}
        """,
        f"""
        CREATE VIRTUAL TABLE {index} USING fts5(
            terms, content='{index}_source', content_rowid='rowid',
            tokenize="{_V3_TOKENIZER}", detail=none, prefix='1 2'
        )
        """,
        f"""
        CREATE TRIGGER {index}_insert AFTER INSERT ON {table} BEGIN
            INSERT INTO {index} (rowid, terms) VALUES (new.rowid, {terms.format(row="new")});
        END
        """,
        f"""
        CREATE TRIGGER {index}_delete AFTER DELETE ON {table} BEGIN
            INSERT INTO {index} ({index}, rowid, terms)
            VALUES ('delete', old.rowid, {terms.format(row="old")});
        END
        """,
        f"""
        CREATE TRIGGER {index}_update AFTER UPDATE OF {column} ON {table}
        WHEN old.{column} IS NOT new.{column} BEGIN
            INSERT INTO {index} ({index}, rowid, terms)
            VALUES ('delete', old.rowid, {terms.format(row="old")});
            INSERT INTO {index} (rowid, terms) VALUES (new.rowid, {terms.format(row="new")});
        END
        """,
    )


_V3_DDL: Final = (
    *_v3_short_index_ddl("messages", "search_text"),
    *_v3_short_index_ddl("conversations", "title"),
)


def _v3_short_query_index(conn: Connection) -> None:
    for statement in _V3_DDL:
        conn.exec_driver_sql(statement)
    conn.exec_driver_sql("INSERT INTO messages_short_fts (messages_short_fts) VALUES ('rebuild')")
    conn.exec_driver_sql(
        "INSERT INTO conversations_short_fts (conversations_short_fts) VALUES ('rebuild')"
    )


# Version 4: attachments (SPEC section 7). The files themselves live in the
# content-addressed store on disk; this table records each sending of one. Messages
# list the ids in their JSON columns, so there is no foreign key to add to them.
_V4_DDL: Final = (
    """
    CREATE TABLE attachments (
        id TEXT NOT NULL PRIMARY KEY,
        sha256 TEXT NOT NULL,
        name TEXT NOT NULL,
        mime TEXT NOT NULL,
        size INTEGER NOT NULL,
        kind TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        text_chars INTEGER,
        truncated BOOLEAN NOT NULL DEFAULT 0,
        width INTEGER,
        height INTEGER
    )
    """,
    "CREATE INDEX ix_attachments_sha256 ON attachments (sha256)",
    # The file a conversation's messages carry a fresh copy of at each send.
    "ALTER TABLE conversations ADD COLUMN workspace_file TEXT",
)


def _v4_attachments(conn: Connection) -> None:
    for statement in _V4_DDL:
        conn.exec_driver_sql(statement)


# A conversation's own system prompt (used when its assistant allows one) and the
# messages the person pinned so that they are always sent in full (a JSON list of ids).
_V5_DDL: Final = (
    "ALTER TABLE conversations ADD COLUMN system_prompt TEXT",
    "ALTER TABLE conversations ADD COLUMN pinned_message_ids TEXT",
)


def _v5_prompt_and_pins(conn: Connection) -> None:
    for statement in _V5_DDL:
        conn.exec_driver_sql(statement)


# Version 6: a repair. Step 4 gained `conversations.workspace_file` after it had been
# released, so a database that reached version 4 before then never got the column, and
# step 5 took it on to version 5 without it (where every query naming the column fails).
# Every other object of the current schema is in every database a released step built:
# tests/storage/test_schema_fixtures.py upgrades a database written by each release and
# compares its schema with a new one's. So the column is all there is to add, and only
# where it is missing. (It lands at the end of the table; columns are always named.)
_V6_MISSING_COLUMNS: Final = (("conversations", "workspace_file", "TEXT"),)


def _v6_add_missing_columns(conn: Connection) -> None:
    for table, column, kind in _V6_MISSING_COLUMNS:
        present = {row[1] for row in conn.exec_driver_sql(f"PRAGMA table_info({table})")}
        if column not in present:
            log.info("Adding the column %s.%s that an earlier upgrade left out", table, column)
            conn.exec_driver_sql(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


def _v6_needed(conn: Connection) -> bool:
    """Whether step 6 has a column to add here (only databases of one early release)."""
    for table, column, _kind in _V6_MISSING_COLUMNS:
        present = {row[1] for row in conn.exec_driver_sql(f"PRAGMA table_info({table})")}
        if column not in present:
            return True
    return False


# Version 7: memories (facts the person asked an assistant to keep; `core/memory.py`).
# A deleted memory keeps its row with `deleted_at` set (a tombstone: an older copy or a
# stale edit must never bring it back). Its vector is stored beside it with the key of
# the model that made it, and cleared when the text changes. No foreign key to the
# conversation it came from: a memory outlives its conversation.
# The word index is a plain FTS5 table (it keeps its own copy of what it indexes) fed by
# `storage/memories.py` with the text as the knowledge index prepares it (CJK runs as
# overlapping character pairs), which SQL alone cannot compute; only the delete is a
# trigger. Tombstones stay in it and are filtered out by the query. rowid = the memory's.
_V7_DDL: Final = (
    """
    CREATE TABLE memories (
        id TEXT NOT NULL PRIMARY KEY,
        scope TEXT NOT NULL,
        text TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        source_conversation_id TEXT,
        source_message_id TEXT,
        deleted_at INTEGER,
        embedding BLOB,
        model_key TEXT
    )
    """,
    # A scope's live memories, newest first, straight from the index.
    "CREATE INDEX ix_memories_scope ON memories (scope, deleted_at, updated_at)",
    # The vectors of one model, and a cheap check of whether they changed (covering).
    "CREATE INDEX ix_memories_model ON memories (model_key, updated_at, deleted_at)",
    """
    CREATE VIRTUAL TABLE memories_fts USING fts5(
        words, tokenize='unicode61 remove_diacritics 2'
    )
    """,
    """
    CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
        DELETE FROM memories_fts WHERE rowid = old.rowid;
    END
    """,
)


def _v7_memories(conn: Connection) -> None:
    for statement in _V7_DDL:
        conn.exec_driver_sql(statement)


# Version 8: tombstones (`tombstones.py`). The exact ids of what the person deleted here,
# conversations and messages, so that restoring an older backup (and later, syncing)
# never brings them back. Memories keep their own tombstone in their row (step 7).
# WITHOUT ROWID: the key is the whole row, and lookups are always by (kind, id).
# And `conversations.changed_at`: when the person last renamed, pinned... a conversation
# (`updated_at` moves with messages only), so a restore keeps the newer rename; and
# `memories.restored_at`, when an undo brought a memory back, for the same reason.
_V8_DDL: Final = (
    """
    CREATE TABLE tombstones (
        kind TEXT NOT NULL,
        id TEXT NOT NULL,
        deleted_at INTEGER NOT NULL,
        PRIMARY KEY (kind, id)
    ) WITHOUT ROWID
    """,
    "ALTER TABLE conversations ADD COLUMN changed_at INTEGER",
    "ALTER TABLE memories ADD COLUMN restored_at INTEGER",
)


def _v8_tombstones(conn: Connection) -> None:
    for statement in _V8_DDL:
        conn.exec_driver_sql(statement)


MIGRATIONS: Final[tuple[Migration, ...]] = (
    _v1_create_chat_tables,
    _v2_full_text_search,
    _v3_short_query_index,
    _v4_attachments,
    _v5_prompt_and_pins,
    _v6_add_missing_columns,
    _v7_memories,
    _v8_tombstones,
)
SCHEMA_VERSION: Final = len(MIGRATIONS)

# Steps that change something only in some databases, and how to tell which: where none
# of the pending steps is needed, no backup is taken. A step not named here always
# changes the database.
NEEDED: Final[Mapping[Migration, Needed]] = {_v6_add_missing_columns: _v6_needed}


def _too_new(path: Path | str, found: int, known: int) -> DatabaseTooNewError:
    return DatabaseTooNewError(
        f"The database {path} was written by a newer version of Parley (schema version "
        f"{found}; this version understands up to {known}). Update Parley to open it; "
        "the file was left unchanged."
    )


def ensure_not_newer(path: Path, known: int = SCHEMA_VERSION) -> None:
    """Refuse a too-new database before an engine (which switches on WAL) touches it.

    Uses a bare sqlite3 connection that only reads the header; a missing file passes.
    """
    if not path.exists():
        return
    try:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            found = conn.execute("PRAGMA user_version").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        if is_disk_full(exc, path):
            raise disk_full_error(
                path, "Parley could not open its database", _FREE_AND_RETRY
            ) from exc
        raise StorageError(
            f"{path} could not be opened as a Parley database ({exc}). "
            "It may be damaged or not a database at all; it was left unchanged."
        ) from exc
    if found > known:
        raise _too_new(path, found, known)


_FREE_AND_RETRY: Final = (
    "Free some space there and start Parley again; your chats were left unchanged."
)


def _backup_needs_space(db_path: Path) -> StorageError:
    """The copy taken before an upgrade did not fit: say how much it needs."""
    try:
        size = f" (the copy needs about {size_text(db_path.stat().st_size)})"
    except OSError:
        size = ""
    return disk_full_error(
        db_path,
        f"Parley could not keep a copy of the database before upgrading it{size}",
        "Free some space there and start Parley again; nothing was changed.",
    )


def _step_needed(conn: Connection, step: Migration, needed: Mapping[Migration, Needed]) -> bool:
    check = needed.get(step)
    return True if check is None else check(conn)


def _changes_data(
    conn: Connection, steps: Sequence[Migration], needed: Mapping[Migration, Needed]
) -> bool:
    """Whether any of `steps` would change the database as it is now. (A step not
    needed now is not needed after earlier steps that were not needed either.)"""
    return any(_step_needed(conn, step, needed) for step in steps)


def _version(conn: Connection) -> int:
    return int(conn.exec_driver_sql("PRAGMA user_version").scalar_one())


def _has_tables(conn: Connection) -> bool:
    count = conn.execute(
        text("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    ).scalar_one()
    return count > 0


def _free_backup_path(db_path: Path, version: int) -> Path:
    """`<name>.pre-v{N}.bak`, or `-2`, `-3`... so an older backup is never overwritten.

    The name is claimed by creating the file exclusively: two Parleys starting at once
    never write the same copy.
    """
    name, n = f"{db_path.name}.pre-v{version}.bak", 2
    while True:
        candidate = db_path.with_name(name)
        try:
            with candidate.open("x"):
                return candidate
        except FileExistsError:
            name, n = f"{db_path.name}.pre-v{version}-{n}.bak", n + 1


def backup_database(engine: Engine, version: int) -> Path:
    """Copy the live database with the SQLite backup API; returns the copy's path."""
    db_path = Path(engine.url.database or "")
    target = _free_backup_path(db_path, version)
    with engine.connect() as conn:
        source = conn.connection.dbapi_connection
        assert source is not None
        dest = sqlite3.connect(target)
        try:
            source.backup(dest)
            # A standalone copy: no -wal/-shm companions needed to open it.
            dest.execute("PRAGMA journal_mode = DELETE")
        except BaseException:
            dest.close()
            target.unlink(missing_ok=True)
            raise
        dest.close()
    log.info("Backed up the database to %s before migrating to v%d", target, version)
    return target


def migrate(
    engine: Engine,
    migrations: Sequence[Migration] = MIGRATIONS,
    on_upgrade: Callable[[], object] | None = None,
    needed: Mapping[Migration, Needed] = NEEDED,
) -> int:
    """Bring the database up to `len(migrations)`; returns that version.

    `on_upgrade` is called once before an existing database is upgraded (which may take
    seconds on a long history), so the app can say what it is doing. Where no pending
    step is `needed`, the version moves on without a backup and without `on_upgrade`.

    Raises `DatabaseTooNewError` (nothing changed) or `MigrationError` (the failing
    step rolled back; earlier steps stay applied and the backup is kept).
    """
    target = len(migrations)
    db_name = engine.url.database or "database"
    with read_transaction(engine) as conn:
        current = _version(conn)
        has_data = _has_tables(conn)
        changes = has_data and _changes_data(conn, migrations[current:], needed)
    if current > target:
        raise _too_new(db_name, current, target)
    if current == target:
        return current

    backup: Path | None = None
    if changes:
        if on_upgrade is not None:
            on_upgrade()
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        while backup is None:
            try:
                backup = backup_database(engine, target)
            except (OSError, sqlite3.Error) as exc:
                if is_disk_full(exc, Path(db_name)):
                    raise _backup_needs_space(Path(db_name)) from exc
                # Another Parley starting at the same moment may be migrating this very
                # file: wait for it, and stop if it got there.
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise MigrationError(
                        f"Could not back up {db_name} before upgrading it ({exc}); "
                        "the database was not changed."
                    ) from exc
                time.sleep(0.05)
                with read_transaction(engine) as conn:
                    if _version(conn) >= target:
                        return target

    for version in range(current + 1, target + 1):
        step = migrations[version - 1]
        try:
            with write_transaction(engine) as conn:
                if _version(conn) >= version:  # another instance got there first
                    continue
                if _step_needed(conn, step, needed):
                    step(conn)
                conn.exec_driver_sql(f"PRAGMA user_version = {int(version)}")
        except Exception as exc:
            detail = getattr(exc, "orig", None) or exc
            kept = f" A copy from before the upgrade is at {backup}." if backup else ""
            if is_disk_full(exc, Path(db_name)):
                raise disk_full_error(
                    Path(db_name),
                    f"Upgrading the database to version {version} failed and was undone",
                    f"Free some space there and start Parley again; your data is unchanged.{kept}",
                ) from exc
            raise MigrationError(
                f"Upgrading the database {db_name} to version {version} failed and was "
                f"undone, so your data is unchanged.{kept} ({type(exc).__name__}: {detail})"
            ) from exc
        log.info("Migrated %s to schema version %d", db_name, version)
    return target
