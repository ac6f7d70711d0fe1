""" "Replace this device's data": a copy of the old data first, then the backup's rows."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from desktop.storage import tombstones
from desktop.storage.database import Database
from desktop.storage.errors import StorageError
from desktop.storage.memories import MemoryRepository
from desktop.storage.repository import ChatRepository
from desktop.storage.restore_merge import prepare_backup_database, replace_with_backup
from desktop.storage.search import search, search_index_is_consistent
from tests.storage.restore_support import dump, memory_words_are_consistent, rows, say, snapshot
from tests.support.paths import SCHEMAS
from tests.support.step_clock import StepClock


def test_replacing_keeps_a_copy_of_the_old_data_and_this_devices_workspaces(
    db: Database, repo: ChatRepository, clock: StepClock, tmp_path: Path
) -> None:
    memories = MemoryRepository(db, clock=clock)
    shared = repo.create_conversation("Shared")
    question = say(repo, shared.id, None, "Both have this?")
    repo.set_workspace(shared.id, "/here/project")
    repo.set_workspace_file(shared.id, "/here/project/notes.md")
    memories.add("global", "Kept only in the copy")
    (tmp_path / "backup").mkdir()
    backup = snapshot(db, tmp_path / "backup" / "parley.db")
    with Database.open(backup) as other:  # the backup's own history goes on there
        theirs = ChatRepository(other, clock=clock)
        theirs.set_workspace(shared.id, "/there/project")
        theirs.rename_conversation(shared.id, "Shared, renamed there")
        reply = say(theirs, shared.id, question.id, "Yes, and this reply")
        only_there = theirs.create_conversation("Only there")
        say(theirs, only_there.id, None, "Written there?")
        their_memory = MemoryRepository(other, clock=clock).add("global", "From there")
        gone = theirs.create_conversation("Deleted there")
        theirs.delete_conversation(gone.id)
    prepare_backup_database(backup)
    # Here, meanwhile:
    local_only = repo.create_conversation("Only here")
    say(repo, local_only.id, None, "Mine alone?")
    old = dump(db.path)
    old_rows = {table: rows(db, table) for table in ("conversations", "messages", "memories")}

    copy = replace_with_backup(db, backup)

    assert copy == db.path.with_name("parley.db.pre-restore.bak")
    with Database.open(copy) as kept:  # it opens, and holds the old data
        assert {t: rows(kept, t) for t in old_rows} == old_rows
    assert repo.get_conversation(local_only.id) is None
    stored = repo.get_conversation(shared.id)
    assert stored.title == "Shared, renamed there"
    assert (stored.workspace, stored.workspace_file) == ("/here/project", "/here/project/notes.md")
    assert [m.id for m in repo.active_path(shared.id)] == [question.id, reply.id]
    assert repo.get_conversation(only_there.id).workspace is None
    assert [m.text for m in MemoryRepository(db).list()] == [
        "From there",
        "Kept only in the copy",
    ]
    assert MemoryRepository(db).search_words(["global"], "there", 5) == [their_memory.id]
    with db.read() as conn:
        assert gone.id in tombstones.deleted_ids(conn, tombstones.Kind.CONVERSATION)
    assert search(db, "Mine alone") == []
    assert search_index_is_consistent(db)
    assert memory_words_are_consistent(db)
    assert dump(db.path) != old

    # A second replace never overwrites the first copy.
    assert replace_with_backup(db, backup) == db.path.with_name("parley.db.pre-restore-2.bak")
    assert copy.exists()


def test_replacing_with_an_old_versions_backup_works(
    db: Database, repo: ChatRepository, tmp_path: Path
) -> None:
    repo.create_conversation("Replaced")
    backup = tmp_path / "v3.db"
    shutil.copyfile(SCHEMAS / "v3" / "parley.db", backup)
    prepare_backup_database(backup)

    replace_with_backup(db, backup)

    assert sorted(c.title for c in repo.list_conversations()) == ["Trip to Lisbon", "周末计划"]
    assert search(db, "Alfama")
    assert search_index_is_consistent(db)


def test_a_replace_that_fails_changes_nothing(
    db: Database, repo: ChatRepository, tmp_path: Path
) -> None:
    repo.create_conversation("Stays")
    backup = tmp_path / "v6.db"
    shutil.copyfile(SCHEMAS / "v6" / "parley.db", backup)
    prepare_backup_database(backup)
    with db.write() as conn:
        conn.exec_driver_sql(
            "CREATE TRIGGER refuse BEFORE INSERT ON attachments"
            " BEGIN SELECT RAISE(ABORT, 'no room for it'); END"
        )
    before = dump(db.path)

    with pytest.raises(StorageError, match=r"no room for it.*nothing was changed"):
        replace_with_backup(db, backup)

    assert dump(db.path) == before
    assert [c.title for c in repo.list_conversations()] == ["Stays"]
