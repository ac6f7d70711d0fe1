"""Restoring a backup, at its edges: what one side changed after the other's last
activity, indexes that must follow merged rows, and the database after a replace."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from desktop.core.attachments import AttachmentKind
from desktop.core.models import (
    ContextSnapshot,
    Conversation,
    Message,
    Role,
    TextPart,
    new_id,
    utc_now,
)
from desktop.core.paths import DataPaths
from desktop.storage.attachments import AttachmentStore
from desktop.storage.database import Database
from desktop.storage.memories import MemoryRepository
from desktop.storage.repository import ChatRepository
from desktop.storage.restore_merge import (
    merge_backup,
    prepare_backup_database,
    replace_with_backup,
)
from desktop.storage.search import search, search_index_is_consistent
from desktop.storage.transfer import import_conversation
from tests.storage.restore_support import memory_words_are_consistent, say, snapshot
from tests.support.paths import SCHEMAS
from tests.support.step_clock import StepClock

NOW_MS = 1_900_000_000_000


class _Device:
    def __init__(self, path: Path, clock: StepClock) -> None:
        self.db = Database.open(path)
        self.clock = clock
        self.chats = ChatRepository(self.db, clock=clock)
        self.memories = MemoryRepository(self.db, clock=clock)


@pytest.fixture
def here(tmp_path: Path) -> Iterator[_Device]:
    (tmp_path / "here").mkdir()
    device = _Device(tmp_path / "here" / "parley.db", StepClock())
    try:
        yield device
    finally:
        device.db.close()


def _copy_of(device: _Device, tmp_path: Path, later: timedelta) -> _Device:
    """Another device that started as a copy of `device` and works `later` after it."""
    folder = tmp_path / f"copy-{new_id()[:8]}"
    folder.mkdir()
    clock = StepClock()
    clock.now = device.clock.now + later
    return _Device(snapshot(device.db, folder / "parley.db"), clock)


def _backup_of(device: _Device, tmp_path: Path) -> Path:
    folder = tmp_path / f"backup-{new_id()[:8]}"
    folder.mkdir()
    path = snapshot(device.db, folder / "parley.db")
    prepare_backup_database(path)
    return path


# --- conversations changed on both sides --------------------------------------------


def test_a_rename_and_pin_made_here_after_the_backups_last_message_are_kept(
    here: _Device, tmp_path: Path
) -> None:
    chat = here.chats.create_conversation("Trip")
    question = say(here.chats, chat.id, None, "Where to eat?")
    there = _copy_of(here, tmp_path, timedelta(hours=1))
    try:
        say(there.chats, chat.id, question.id, "In the Alfama")  # there, at 13:00
        backup = _backup_of(there, tmp_path)
    finally:
        there.db.close()
    here.clock.now += timedelta(hours=2)  # here, at 14:00, later than anything there
    here.chats.rename_conversation(chat.id, "Lisbon, May")
    here.chats.set_pinned(chat.id, True)
    here.chats.set_system_prompt(chat.id, "Answer in Portuguese.")

    merge_backup(here.db, backup, now_ms=NOW_MS)

    stored = here.chats.get_conversation(chat.id)
    assert (stored.title, stored.pinned, stored.system_prompt) == (
        "Lisbon, May",
        True,
        "Answer in Portuguese.",
    )


def test_a_rename_made_there_after_here_is_taken_and_the_newer_activity_too(
    here: _Device, tmp_path: Path
) -> None:
    chat = here.chats.create_conversation("Trip")
    question = say(here.chats, chat.id, None, "Where to eat?")
    here.chats.rename_conversation(chat.id, "Trip, first name")  # here, at 12:00
    there = _copy_of(here, tmp_path, timedelta(hours=1))
    try:
        answer = say(there.chats, chat.id, question.id, "In the Alfama")  # there, 13:00
        there.chats.rename_conversation(chat.id, "Lisbon")
        backup = _backup_of(there, tmp_path)
    finally:
        there.db.close()

    outcome = merge_backup(here.db, backup, now_ms=NOW_MS)

    stored = here.chats.get_conversation(chat.id)
    assert stored.title == "Lisbon"
    assert stored.active_leaf_id == answer.id
    assert outcome.conversations_updated == 1
    # Merging it again changes nothing more.
    assert merge_backup(here.db, backup, now_ms=NOW_MS).conversations_updated == 0


def test_replies_written_on_both_sides_are_all_kept_and_searchable(
    here: _Device, tmp_path: Path
) -> None:
    chat = here.chats.create_conversation("Both")
    question = say(here.chats, chat.id, None, "Which tea?")
    there = _copy_of(here, tmp_path, timedelta(hours=1))
    try:
        theirs = say(there.chats, chat.id, question.id, "Sencha from there")
        their_follow = say(there.chats, chat.id, theirs.id, "Why sencha?")
        backup = _backup_of(there, tmp_path)
    finally:
        there.db.close()
    mine = say(here.chats, chat.id, question.id, "Oolong from here")

    merge_backup(here.db, backup, now_ms=NOW_MS)

    assert {m.id for m in here.chats.siblings(mine.id)} == {mine.id, theirs.id}
    assert here.chats.get_message(their_follow.id).parent_id == theirs.id
    assert {h.message_id for h in search(here.db, "sencha")} == {theirs.id, their_follow.id}
    assert [h.message_id for h in search(here.db, "Oolong")] == [mine.id]
    assert search_index_is_consistent(here.db)


def test_short_and_cjk_queries_find_merged_messages(here: _Device, tmp_path: Path) -> None:
    there = _copy_of(here, tmp_path, timedelta(hours=1))
    try:
        chat = there.chats.create_conversation("周末")
        message = say(there.chats, chat.id, None, "周末去爬山?")
        backup = _backup_of(there, tmp_path)
    finally:
        there.db.close()

    merge_backup(here.db, backup, now_ms=NOW_MS)

    assert message.id in {h.message_id for h in search(here.db, "爬山")}
    assert chat.id in {h.conversation_id for h in search(here.db, "周")}
    assert search_index_is_consistent(here.db)


# --- deleted, then brought back here ---------------------------------------------


def _imported(db: Database) -> tuple[Conversation, Message]:
    """The same export imported twice gives the same ids (importers derive them)."""
    conversation = Conversation("c" * 32, "Imported chat")
    question = Message("d" * 32, conversation.id, None, Role.USER, [TextPart("Imported?")])
    import_conversation(db, conversation, [question])
    return conversation, question


def test_replies_to_a_conversation_deleted_and_imported_again_here_are_merged(
    here: _Device, tmp_path: Path
) -> None:
    conversation, question = _imported(here.db)
    here.chats.delete_conversation(conversation.id)
    _imported(here.db)  # the person imports the export again: it is back, live
    there = _copy_of(here, tmp_path, timedelta(hours=1))
    try:
        reply = say(there.chats, conversation.id, question.id, "Continued over there")
        backup = _backup_of(there, tmp_path)
    finally:
        there.db.close()

    outcome = merge_backup(here.db, backup, now_ms=NOW_MS)

    assert (outcome.messages_added, outcome.messages_skipped_deleted) == (1, 0)
    assert here.chats.get_message(reply.id) is not None
    assert [h.message_id for h in search(here.db, "Continued")] == [reply.id]


# --- memories ----------------------------------------------------------------------


def test_a_memory_brought_back_by_undo_is_not_deleted_again_by_an_older_backup(
    here: _Device, tmp_path: Path
) -> None:
    memory = here.memories.add("global", "Likes tea")
    deleted = here.memories.delete(memory.id)
    backup = _backup_of(here, tmp_path)  # the daily backup ran just then
    assert deleted.deleted_at is not None
    here.memories.undelete(memory.id, deleted.deleted_at)

    merge_backup(here.db, backup, now_ms=NOW_MS)

    assert not here.memories.get(memory.id).deleted


# --- replacing ---------------------------------------------------------------------


def test_after_a_replace_the_database_reopens_whole_and_the_copy_stands_alone(
    here: _Device, tmp_path: Path
) -> None:
    there = _copy_of(here, tmp_path, timedelta(hours=1))
    chat = here.chats.create_conversation("Mine")
    say(here.chats, chat.id, None, "Kept in the copy?")
    try:
        theirs = there.chats.create_conversation("Theirs")
        say(there.chats, theirs.id, None, "Written over there?")
        there.memories.add("global", "From there")
        backup = _backup_of(there, tmp_path)
    finally:
        there.db.close()
    # Unwritten-back pages in the WAL: the copy must hold them all the same.
    say(here.chats, chat.id, None, "Only in the WAL so far?")

    copy = replace_with_backup(here.db, backup, now_ms=NOW_MS)
    here.db.close()

    assert sorted(p.name for p in copy.parent.iterdir() if p.name.startswith(copy.name)) == [
        copy.name
    ]
    standalone = sqlite3.connect(copy)
    try:
        assert standalone.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert standalone.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        texts = {row[0] for row in standalone.execute("SELECT search_text FROM messages")}
        assert texts == {"Kept in the copy?", "Only in the WAL so far?"}
    finally:
        standalone.close()
    with Database.open(here.db.path) as reopened:
        raw = sqlite3.connect(reopened.path)
        try:
            assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        finally:
            raw.close()
        chats = ChatRepository(reopened)
        assert [c.title for c in chats.list_conversations()] == ["Theirs"]
        assert search(reopened, "over there")
        assert search(reopened, "WAL") == []
        assert search_index_is_consistent(reopened)
        assert memory_words_are_consistent(reopened)
        # And it takes new writes.
        say(chats, theirs.id, None, "Still writable?")


def test_the_copy_kept_before_replacing_keeps_its_attachment_files(
    here: _Device, tmp_path: Path
) -> None:
    store = AttachmentStore(DataPaths(tmp_path / "data").attachments, here.db.engine)
    chat = here.chats.create_conversation("With a file")
    attachment = store.put_bytes(
        b"my only copy of the receipt",
        name="receipt.txt",
        mime="text/plain",
        kind=AttachmentKind.DOCUMENT,
    )
    message = Message(new_id(), chat.id, None, Role.USER, [TextPart("See the receipt?")])
    message.context = ContextSnapshot(attachment_ids=(attachment.id,))
    here.chats.add_message(message)
    empty = tmp_path / "empty"
    empty.mkdir()
    with Database.open(empty / "parley.db"):
        pass
    backup = empty / "parley.db"
    prepare_backup_database(backup)

    copy = replace_with_backup(here.db, backup, now_ms=NOW_MS)
    store.collect_garbage(now=utc_now() + timedelta(days=30))

    assert copy.exists()
    assert store.blob_path(attachment).exists()


@pytest.mark.parametrize(
    "name", sorted(p.name for p in SCHEMAS.iterdir() if (p / "parley.db").is_file())
)
def test_a_backup_of_every_version_can_replace_this_devices_data(
    name: str, here: _Device, tmp_path: Path
) -> None:
    mine = here.chats.create_conversation("Only here")
    say(here.chats, mine.id, None, "Replaced?")
    backup = tmp_path / "extracted" / "parley.db"
    backup.parent.mkdir()
    shutil.copyfile(SCHEMAS / name / "parley.db", backup)
    source = sqlite3.connect(backup)
    try:
        wanted = {row[0] for row in source.execute("SELECT id FROM messages")}
    finally:
        source.close()
    prepare_backup_database(backup)

    copy = replace_with_backup(here.db, backup, now_ms=NOW_MS)

    assert copy.exists() and here.chats.get_conversation(mine.id) is None
    with here.db.read() as conn:
        stored = {row[0] for row in conn.exec_driver_sql("SELECT id FROM messages")}
    assert stored == wanted
    assert search(here.db, "Alfama") and search(here.db, "Replaced") == []
    assert search_index_is_consistent(here.db)
    assert memory_words_are_consistent(here.db)
