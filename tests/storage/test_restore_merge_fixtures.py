"""Backups of every released schema version: prepared, then merged into today's data."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from desktop.storage.database import Database
from desktop.storage.errors import DatabaseTooNewError, StorageError
from desktop.storage.memories import MemoryRepository
from desktop.storage.migrations import SCHEMA_VERSION
from desktop.storage.repository import ChatRepository
from desktop.storage.restore_merge import (
    MergeOutcome,
    attachment_hashes,
    merge_backup,
    prepare_backup_database,
)
from desktop.storage.search import search, search_index_is_consistent
from tests.storage.restore_support import dump, memory_words_are_consistent, say
from tests.support.paths import SCHEMAS

NAMES = sorted(p.name for p in SCHEMAS.iterdir() if (p / "parley.db").is_file())
NOW_MS = 1_900_000_000_000


def _table(path: Path, table: str) -> list[dict[str, object]]:
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    try:
        present = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
        if present is None:
            return []
        return [dict(r) for r in conn.execute(f"SELECT * FROM {table}")]
    finally:
        conn.close()


def _version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


@pytest.mark.parametrize("name", NAMES)
def test_a_backup_of_every_version_merges_into_todays_data(name: str, tmp_path: Path) -> None:
    backup = tmp_path / "extracted" / "parley.db"
    backup.parent.mkdir()
    shutil.copyfile(SCHEMAS / name / "parley.db", backup)
    conversations = _table(backup, "conversations")
    messages = _table(backup, "messages")
    attachments = _table(backup, "attachments")
    memories = _table(backup, "memories")

    prepare_backup_database(backup)

    assert _version(backup) == SCHEMA_VERSION
    assert sorted(p.name for p in backup.parent.iterdir()) == ["parley.db"]  # no copy, no WAL
    assert attachment_hashes(backup) == {str(a["sha256"]) for a in attachments}
    with Database.open(tmp_path / "parley.db") as db:
        repo = ChatRepository(db)
        mine = repo.create_conversation("Already here")
        say(repo, mine.id, None, "Local question?")

        outcome = merge_backup(db, backup, now_ms=NOW_MS)

        assert outcome == MergeOutcome(
            conversations_added=len(conversations),
            messages_added=len(messages),
            attachments_added=len(attachments),
            memories_added=sum(1 for m in memories if m["deleted_at"] is None),
        )
        for conversation in conversations:
            stored = repo.get_conversation(str(conversation["id"]))
            assert stored is not None and stored.title == conversation["title"]
            assert stored.workspace == conversation["workspace"]  # new here: kept
        stored_ids = {m.id for c in conversations for m in repo.messages(str(c["id"]))}
        assert stored_ids == {m["id"] for m in messages}
        assert [m.text for m in repo.active_path(mine.id)] == ["Local question?"]
        trip = next(c for c in conversations if c["title"] == "Trip to Lisbon")
        assert repo.active_path(str(trip["id"]))[-1].id == trip["active_leaf_id"]
        assert [h.conversation_id for h in search(db, "Alfama") if h.message_id] == [trip["id"]]
        assert search(db, "zanzibar") == []
        assert {m.id for m in MemoryRepository(db).list()} == {
            m["id"] for m in memories if m["deleted_at"] is None
        }
        assert search_index_is_consistent(db)
        assert memory_words_are_consistent(db)

        again = dump(db.path)
        assert merge_backup(db, backup, now_ms=NOW_MS) == MergeOutcome()
        assert dump(db.path) == again


def test_the_v7_backup_brings_its_memories_findable_by_their_words(tmp_path: Path) -> None:
    backup = tmp_path / "backup.db"
    shutil.copyfile(SCHEMAS / "v7" / "parley.db", backup)
    prepare_backup_database(backup)
    with Database.open(tmp_path / "parley.db") as db:
        merge_backup(db, backup, now_ms=NOW_MS)
        memories = MemoryRepository(db)
        [cjk] = [m for m in memories.list() if "爬山" in m.text]
        assert memories.search_words(["global"], "周末", 5) == [cjk.id]
        assert memories.search_words(["global"], "zanzibar", 5) == []  # deleted there
        assert not next(m for m in memories.list(["assistant:planner"])).words_only


def test_merging_the_same_history_twice_adds_nothing(tmp_path: Path) -> None:
    """This device's own database, upgraded, and a backup of it: nothing to add."""
    here = tmp_path / "here" / "parley.db"
    shutil.copytree(SCHEMAS / "v5", here.parent)
    backup = tmp_path / "backup.db"
    shutil.copyfile(SCHEMAS / "v5" / "parley.db", backup)
    prepare_backup_database(backup)
    with Database.open(here) as db:
        before = dump(db.path)
        assert merge_backup(db, backup, now_ms=NOW_MS) == MergeOutcome()
        assert dump(db.path) == before


def test_a_backup_from_a_newer_parley_is_refused_unchanged(tmp_path: Path) -> None:
    backup = tmp_path / "parley.db"
    shutil.copyfile(SCHEMAS / "v7" / "parley.db", backup)
    conn = sqlite3.connect(backup)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    content = backup.read_bytes()

    with pytest.raises(DatabaseTooNewError, match="newer version of Parley"):
        prepare_backup_database(backup)

    assert backup.read_bytes() == content


def test_a_damaged_or_missing_backup_database_is_said_plainly(tmp_path: Path) -> None:
    damaged = tmp_path / "parley.db"
    damaged.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StorageError, match=r"could not be read.*nothing was changed"):
        prepare_backup_database(damaged)
    with pytest.raises(StorageError, match="missing"):
        prepare_backup_database(tmp_path / "absent.db")
    with pytest.raises(StorageError, match="missing"):
        attachment_hashes(tmp_path / "absent.db")
    assert not (tmp_path / "absent.db").exists()
