"""Schema versions: fresh files, current files, old files, too-new files, failures."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import Connection, inspect

from desktop.storage.database import Database
from desktop.storage.disk_space import size_text
from desktop.storage.errors import DatabaseTooNewError, DiskFullError, MigrationError
from desktop.storage.migrations import MIGRATIONS, SCHEMA_VERSION, migrate
from desktop.storage.repository import ChatRepository
from desktop.storage.search import search, search_index_is_consistent
from desktop.storage.sqlite_engine import create_sqlite_engine
from desktop.storage.tables import metadata
from tests.support.paths import SCHEMAS

NEXT = SCHEMA_VERSION + 1  # the version a hypothetical next step would create


def _version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def _tables(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        return {r[0] for r in rows}
    finally:
        conn.close()


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _backups(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.bak"))


def test_a_new_file_is_created_at_the_current_version(db_path: Path) -> None:
    Database.open(db_path).close()
    assert _version(db_path) == SCHEMA_VERSION == len(MIGRATIONS)
    assert {"conversations", "messages"} <= _tables(db_path)
    assert _backups(db_path.parent) == []


def test_an_empty_file_is_migrated_without_a_backup(db_path: Path) -> None:
    db_path.touch()
    Database.open(db_path).close()
    assert _version(db_path) == SCHEMA_VERSION
    assert _backups(db_path.parent) == []


def test_the_migrated_schema_matches_tables_py(db: Database) -> None:
    """Step 1 spells out its DDL; it must agree with what the code queries."""
    inspector = inspect(db.engine)
    for table in metadata.sorted_tables:
        columns = {c["name"]: c for c in inspector.get_columns(table.name)}
        assert list(columns) == [c.name for c in table.columns]
        for column in table.columns:
            assert columns[column.name]["nullable"] == column.nullable, column.name
        assert inspector.get_pk_constraint(table.name)["constrained_columns"] == [
            c.name for c in table.primary_key.columns
        ]
        indexes = {i["name"]: i["column_names"] for i in inspector.get_indexes(table.name)}
        assert indexes == {i.name: [c.name for c in i.columns] for i in table.indexes}
    with db.read() as conn:
        rows = conn.exec_driver_sql("PRAGMA foreign_key_list(messages)").mappings().all()
    foreign_keys = {r["from"]: (r["table"], r["on_delete"]) for r in rows}
    assert foreign_keys == {
        "conversation_id": ("conversations", "CASCADE"),
        "parent_id": ("messages", "CASCADE"),
    }


def test_opening_a_current_database_changes_nothing(db_path: Path) -> None:
    with Database.open(db_path) as db:
        conversation = ChatRepository(db).create_conversation("keep me")
    with Database.open(db_path) as db:
        assert ChatRepository(db).get_conversation(conversation.id) == conversation
    assert _version(db_path) == SCHEMA_VERSION
    assert _backups(db_path.parent) == []


def test_a_v0_database_with_a_foreign_table_is_backed_up_then_migrated(db_path: Path) -> None:
    raw = sqlite3.connect(db_path)
    raw.execute("CREATE TABLE notes (body TEXT)")
    raw.execute("INSERT INTO notes VALUES ('precious')")
    raw.commit()
    raw.close()

    Database.open(db_path).close()

    assert _version(db_path) == SCHEMA_VERSION
    assert {"notes", "conversations", "messages"} <= _tables(db_path)
    backup = db_path.with_name(f"parley.db.pre-v{SCHEMA_VERSION}.bak")
    assert _backups(db_path.parent) == [backup]
    copy = sqlite3.connect(backup)
    try:
        assert copy.execute("SELECT body FROM notes").fetchall() == [("precious",)]
        assert copy.execute("PRAGMA user_version").fetchone()[0] == 0
    finally:
        copy.close()


def test_a_newer_database_is_refused_and_left_untouched(db_path: Path) -> None:
    raw = sqlite3.connect(db_path)
    raw.execute("CREATE TABLE future_things (x)")
    raw.execute("INSERT INTO future_things VALUES (42)")
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    raw.commit()
    raw.close()
    before = _digest(db_path)

    with pytest.raises(DatabaseTooNewError, match="newer version of Parley") as caught:
        Database.open(db_path)

    assert "left unchanged" in str(caught.value)
    assert _digest(db_path) == before
    assert _version(db_path) == SCHEMA_VERSION + 5
    assert _backups(db_path.parent) == []


def test_migrate_itself_refuses_a_newer_database(db_path: Path) -> None:
    Database.open(db_path).close()
    engine = create_sqlite_engine(db_path)
    try:
        with pytest.raises(DatabaseTooNewError):
            migrate(engine, migrations=MIGRATIONS[:0])
    finally:
        engine.dispose()
    assert _version(db_path) == SCHEMA_VERSION


def _create_then_fail(conn: Connection) -> None:
    conn.exec_driver_sql("CREATE TABLE half_done (x)")
    conn.exec_driver_sql("UPDATE conversations SET title = 'clobbered'")
    raise RuntimeError("disk on fire")


def test_a_failing_migration_rolls_back_and_keeps_data_and_a_backup(db_path: Path) -> None:
    with Database.open(db_path) as db:
        conversation = ChatRepository(db).create_conversation("survivor")

    engine = create_sqlite_engine(db_path)
    try:
        with pytest.raises(MigrationError, match=f"version {NEXT} failed and was undone") as caught:
            migrate(engine, migrations=(*MIGRATIONS, _create_then_fail))
    finally:
        engine.dispose()

    assert "disk on fire" in str(caught.value)
    assert f".pre-v{NEXT}.bak" in str(caught.value)
    assert _version(db_path) == SCHEMA_VERSION
    assert "half_done" not in _tables(db_path)  # the DDL was rolled back too
    with Database.open(db_path) as db:
        assert ChatRepository(db).get_conversation(conversation.id) == conversation
    assert _backups(db_path.parent) == [db_path.with_name(f"parley.db.pre-v{NEXT}.bak")]


def test_a_second_attempt_never_overwrites_an_earlier_backup(db_path: Path) -> None:
    with Database.open(db_path) as db:
        ChatRepository(db).create_conversation("x")
    for _ in range(2):
        engine = create_sqlite_engine(db_path)
        try:
            with pytest.raises(MigrationError):
                migrate(engine, migrations=(*MIGRATIONS, _create_then_fail))
        finally:
            engine.dispose()
    assert [p.name for p in _backups(db_path.parent)] == [
        f"parley.db.pre-v{NEXT}-2.bak",
        f"parley.db.pre-v{NEXT}.bak",
    ]


def test_a_failing_first_migration_leaves_an_empty_file_at_version_0(db_path: Path) -> None:
    def broken_v1(conn: Connection) -> None:
        MIGRATIONS[0](conn)
        raise ValueError("typo in step 1")

    engine = create_sqlite_engine(db_path)
    try:
        with pytest.raises(MigrationError, match="version 1"):
            migrate(engine, migrations=(broken_v1,))
    finally:
        engine.dispose()
    assert _version(db_path) == 0
    assert _tables(db_path) == set()


def test_later_steps_run_in_order_and_bump_the_version(db_path: Path) -> None:
    Database.open(db_path).close()

    def add_column(conn: Connection) -> None:
        conn.exec_driver_sql("ALTER TABLE conversations ADD COLUMN color TEXT")

    engine = create_sqlite_engine(db_path)
    try:
        assert migrate(engine, migrations=(*MIGRATIONS, add_column)) == NEXT
        assert migrate(engine, migrations=(*MIGRATIONS, add_column)) == NEXT  # idempotent
    finally:
        engine.dispose()
    assert _version(db_path) == NEXT
    assert "color" in {c["name"] for c in _columns(db_path, "conversations")}


def _columns(path: Path, table: str) -> list[dict[str, object]]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(f"PRAGMA table_info({table})").fetchall()
        return [{"name": r[1]} for r in rows]
    finally:
        conn.close()


def test_a_v1_database_with_data_becomes_searchable_in_v2(db_path: Path) -> None:
    """Step 2 backfills search_text from the stored parts and indexes titles too."""
    engine = create_sqlite_engine(db_path)
    try:
        migrate(engine, migrations=MIGRATIONS[:1])
        parts = [
            {"type": "reasoning", "text": "hidden musing", "duration_ms": 5},
            {"type": "text", "text": "Paris in "},
            {"type": "text", "text": "spring, 你好世界"},
            {"type": "image", "attachment_id": "from-the-future"},
        ]
        with engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO conversations (id, title, created_at, updated_at)"
                " VALUES ('c1', 'Holiday plans', 1, 2)"
            )
            conn.exec_driver_sql(
                "INSERT INTO messages (id, conversation_id, role, parts, status, created_at)"
                " VALUES ('m1', 'c1', 'user', ?, 'complete', 1), ('m2', 'c1', 'user', ?,"
                " 'complete', 2), ('m3', 'c1', 'user', '{not json', 'complete', 3)",
                (json.dumps(parts), json.dumps([{"type": "text", "text": "nothing"}])),
            )
    finally:
        engine.dispose()
    assert _version(db_path) == 1

    with Database.open(db_path) as db:
        assert [h.message_id for h in search(db, "spring")] == ["m1"]
        assert [h.message_id for h in search(db, "世界")] == ["m1"]
        assert [h.message_id for h in search(db, '"in spring"')] == ["m1"]  # parts joined
        assert search(db, "musing") == []  # reasoning is not indexed
        assert [(h.conversation_id, h.message_id) for h in search(db, "holiday")] == [("c1", None)]
        assert search_index_is_consistent(db)
        messages = ChatRepository(db).messages("c1")
        assert [m.id for m in messages] == ["m1", "m2", "m3"]
    assert _version(db_path) == SCHEMA_VERSION
    assert _backups(db_path.parent) == [db_path.with_name(f"parley.db.pre-v{SCHEMA_VERSION}.bak")]


def test_the_search_index_objects_exist_after_migrating(db: Database) -> None:
    with db.read() as conn:
        rows = conn.exec_driver_sql("SELECT type, name FROM sqlite_master").all()
    names = {name for kind, name in rows if kind in ("table", "trigger", "view")}
    assert {"messages_fts", "conversations_fts"} <= names
    assert {"messages_short_fts", "conversations_short_fts"} <= names
    assert {"messages_short_fts_source", "conversations_short_fts_source"} <= names
    assert {
        f"{table}_{index}_{event}"
        for table in ("messages", "conversations")
        for index in ("fts", "short_fts")
        for event in ("insert", "delete", "update")
    } <= names


def test_a_v2_database_with_data_gets_the_short_query_index_in_v3(db_path: Path) -> None:
    """Step 3 indexes the titles and messages already there, and its triggers work."""
    engine = create_sqlite_engine(db_path)
    try:
        migrate(engine, migrations=MIGRATIONS[:2])
        with engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO conversations (id, title, created_at, updated_at)"
                " VALUES ('c1', '周末 plans', 1, 2), ('c2', 'Other', 3, 4)"
            )
            conn.exec_driver_sql(
                "INSERT INTO messages"
                " (id, conversation_id, role, parts, status, created_at, search_text)"
                " VALUES ('m1', 'c1', 'user', '[]', 'complete', 1, 'Go to 学校 at 9%'),"
                " ('m2', 'c2', 'user', '[]', 'complete', 2, 'nothing here')"
            )
    finally:
        engine.dispose()
    assert _version(db_path) == 2

    with Database.open(db_path) as db:
        assert [(h.conversation_id, h.message_id) for h in search(db, "周末")] == [("c1", None)]
        assert [h.message_id for h in search(db, "学校")] == ["m1"]
        assert [h.message_id for h in search(db, "go")] == ["m1"]
        assert [h.message_id for h in search(db, "%")] == ["m1"]
        assert [h.message_id for h in search(db, "no")] == ["m2"]
        assert search_index_is_consistent(db)
        ChatRepository(db).delete_conversation("c1")
        assert search(db, "学校") == [] and search(db, "周末") == []
        assert search_index_is_consistent(db)
    assert _version(db_path) == SCHEMA_VERSION
    backup = db_path.with_name(f"parley.db.pre-v{SCHEMA_VERSION}.bak")
    assert _backups(db_path.parent) == [backup]
    assert _version(backup) == 2


def test_a_v3_database_with_data_gains_the_attachments_table_in_v4(db_path: Path) -> None:
    """Step 4 only adds a table: the chats, their search index and the version move on."""
    engine = create_sqlite_engine(db_path)
    try:
        migrate(engine, migrations=MIGRATIONS[:3])
        with engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO conversations (id, title, created_at, updated_at)"
                " VALUES ('c1', 'Quarterly report', 1, 2)"
            )
            conn.exec_driver_sql(
                "INSERT INTO messages"
                " (id, conversation_id, role, parts, status, created_at, search_text, context)"
                " VALUES ('m1', 'c1', 'user', ?, 'complete', 1, 'see the figures', ?)",
                (
                    json.dumps([{"type": "text", "text": "see the figures"}]),
                    json.dumps({"attachment_ids": [], "context_captured": False}),
                ),
            )
    finally:
        engine.dispose()
    assert "attachments" not in _tables(db_path)
    before = sqlite3.connect(db_path)
    try:
        rows_before = before.execute("SELECT * FROM messages ORDER BY id").fetchall()
    finally:
        before.close()

    with Database.open(db_path) as db:
        assert [h.message_id for h in search(db, "figures")] == ["m1"]
        assert search_index_is_consistent(db)
        with db.read() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM attachments").scalar_one() == 0
            indexes = conn.exec_driver_sql("PRAGMA index_list(attachments)").mappings().all()
            assert "ix_attachments_sha256" in {i["name"] for i in indexes}
            assert conn.exec_driver_sql("SELECT * FROM messages ORDER BY id").all() == rows_before
    assert _version(db_path) == SCHEMA_VERSION
    backup = db_path.with_name(f"parley.db.pre-v{SCHEMA_VERSION}.bak")
    assert _backups(db_path.parent) == [backup]
    assert _version(backup) == 3 and "attachments" not in _tables(backup)


def test_the_app_hears_of_an_upgrade_only_when_one_runs_on_existing_data(db_path: Path) -> None:
    calls: list[str] = []
    with Database.open(db_path, on_upgrade=lambda: calls.append("new")):
        pass
    assert calls == []  # a new file: nothing to say
    with Database.open(db_path, on_upgrade=lambda: calls.append("current")):
        pass
    assert calls == []

    old = db_path.with_name("old.db")
    engine = create_sqlite_engine(old)
    try:
        migrate(engine, migrations=MIGRATIONS[:1])
        with engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO conversations (id, title, created_at, updated_at)"
                " VALUES ('c1', 'Kept', 1, 2)"
            )
    finally:
        engine.dispose()
    with Database.open(old, on_upgrade=lambda: calls.append("upgrade")) as db:
        assert ChatRepository(db).get_conversation("c1") is not None
    assert calls == ["upgrade"]  # once, however many steps ran


def test_no_room_for_the_backup_says_so_and_upgrades_nothing(small_disk) -> None:
    """A version-5 history that step 6 must repair, on a disk with room to read it but
    not to copy it."""
    fixture = SCHEMAS / "v5-without-workspace-file"
    path = small_disk.root / "parley.db"
    shutil.copyfile(fixture / "parley.db", path)
    before = _digest(path)
    small_disk.fill(leave=64 * 1024)

    with pytest.raises(DiskFullError) as caught:
        Database.open(path)

    message = str(caught.value)
    assert "could not keep a copy of the database before upgrading it" in message
    assert f"the copy needs about {size_text(path.stat().st_size)}" in message
    assert f"the disk holding {small_disk.root} is full" in message
    assert "nothing was changed" in message
    assert _version(path) == 5 and _digest(path) == before
    assert _backups(small_disk.root) == []
    small_disk.release()
    Database.open(path).close()
    assert _version(path) == SCHEMA_VERSION


def test_an_upgrade_with_nothing_to_change_needs_no_room_for_a_copy(small_disk) -> None:
    """The last version-5 release's database, on the same nearly full disk, taken to
    version 6: step 6 has nothing to do in it, so it moves on at once, with no copy and
    no notice. (Step 7 adds tables to every database: that upgrade needs its copy.)"""
    path = small_disk.root / "parley.db"
    shutil.copyfile(SCHEMAS / "v5-latest" / "parley.db", path)
    small_disk.fill(leave=64 * 1024)
    notices: list[str] = []

    engine = create_sqlite_engine(path)
    try:
        migrate(engine, MIGRATIONS[:6], on_upgrade=lambda: notices.append("upgrading"))
    finally:
        engine.dispose()

    assert _version(path) == 6
    assert _backups(small_disk.root) == [] and notices == []
