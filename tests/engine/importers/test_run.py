"""Reading another client's export into a preview and importing it: counts, what is left
out, a cancel that keeps what was imported, a conflict that skips one conversation, a
second import that adds nothing, and the images and files stored and attached on the
way. Run on the toy importer (tests/support/import_toy.py) and a real database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from desktop.core.limits import MAX_ATTACHMENTS_PER_MESSAGE
from desktop.core.models import NoticePart, ToolCallPart
from desktop.engine.importers.files import ExportError
from desktop.engine.importers.model import Skipped
from desktop.engine.importers.run import (
    ImportCancelled,
    import_preview,
    read_export,
)
from desktop.storage.attachments import AttachmentStore
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from tests.support import import_toy
from tests.support.import_toy import chat, write_export

READERS = [import_toy]
PHOTO = (
    Path(__file__).resolve().parents[2] / "fixtures/imports/chatgpt/file-Photo123-torii.png"
).read_bytes()


@pytest.fixture
def db(tmp_path) -> Iterator[Database]:
    database = Database.open(tmp_path / "parley.db")
    try:
        yield database
    finally:
        database.close()


def test_an_export_no_importer_knows_is_refused_naming_the_clients_parley_reads(tmp_path):
    path = tmp_path / "notes.json"
    path.write_text('{"something": "else"}', encoding="utf-8")
    with pytest.raises(ExportError) as caught:
        read_export(path, readers=READERS)
    assert "notes.json" in str(caught.value) and "Toy Chat" in str(caught.value)


def test_the_preview_counts_conversations_messages_branches_images_and_what_is_left_out(
    tmp_path,
):
    branched = chat("b", "Branched", 1)
    branched["messages"].append(
        {"id": "b-0-again", "parent": "b-0-user", "role": "assistant", "text": "Again"}
    )
    path = write_export(
        tmp_path,
        [
            chat("a", "Trip to 京都", 2, images=3, notes=["3 images were not carried over."]),
            branched,
            "not a chat at all",
        ],
    )
    preview = read_export(path, readers=READERS)
    assert (preview.client, preview.label) == ("toy", "Toy Chat")
    totals = preview.totals
    assert (totals.conversations, totals.messages, totals.branches, totals.images) == (
        2,
        7,
        1,
        3,
    )
    assert [c.conversation.title for c in preview.conversations] == ["Trip to 京都", "Branched"]
    assert preview.skipped == (Skipped("chat 3", "not a chat"),)
    assert preview.not_imported == (
        Skipped("chat 3", "not a chat"),
        Skipped("Trip to 京都", "3 images were not carried over."),
    )


def test_cancel_while_reading_stops_the_read(tmp_path):
    path = write_export(tmp_path, [chat("a", "One", 1), chat("b", "Two", 1)])
    with pytest.raises(ImportCancelled):
        read_export(path, readers=READERS, cancelled=lambda: True)


def test_import_counts_and_importing_twice_adds_nothing(tmp_path, db):
    path = write_export(tmp_path, [chat("a", "One", 2), chat("b", "Two", 1)])
    preview = read_export(path, readers=READERS)
    steps: list[tuple[int, int]] = []
    first = import_preview(db, preview, progress=lambda *a: steps.append(a), cancelled=bool)
    assert (first.added, first.updated, first.unchanged) == (2, 0, 0)
    assert (first.messages_added, first.messages_present, first.failed) == (6, 0, ())
    assert steps == [(1, 2), (2, 2)] and not first.cancelled
    assert first.first_conversation_id == preview.conversations[0].conversation.id
    repository = ChatRepository(db)
    assert sorted(c.title for c in repository.list_conversations()) == ["One", "Two"]
    one = preview.conversations[0].conversation.id
    assert [m.text for m in repository.active_path(one)] == [
        "One: user 0",
        "One: assistant 0",
        "One: user 1",
        "One: assistant 1",
    ]

    again = import_preview(db, preview, progress=lambda *a: None, cancelled=bool)
    assert (again.added, again.updated, again.unchanged, again.messages_added) == (0, 0, 2, 0)
    assert again.messages_present == 6 and again.first_conversation_id == one
    assert len(repository.list_conversations()) == 2


def test_a_newer_export_updates_a_conversation_with_only_its_new_messages(tmp_path, db):
    old = read_export(write_export(tmp_path / "old", [chat("a", "One", 1)]), readers=READERS)
    import_preview(db, old, progress=lambda *a: None, cancelled=bool)
    new = read_export(write_export(tmp_path / "new", [chat("a", "One", 2)]), readers=READERS)
    outcome = import_preview(db, new, progress=lambda *a: None, cancelled=bool)
    assert (outcome.added, outcome.updated, outcome.messages_added) == (0, 1, 2)
    assert outcome.messages_present == 2


def test_cancel_between_conversations_keeps_what_was_imported(tmp_path, db):
    path = write_export(tmp_path, [chat(str(n), f"Chat {n}", 1) for n in range(5)])
    preview = read_export(path, readers=READERS)
    steps: list[tuple[int, int]] = []
    outcome = import_preview(
        db, preview, progress=lambda *a: steps.append(a), cancelled=lambda: len(steps) >= 2
    )
    assert outcome.cancelled and outcome.added == 2 and outcome.done == 2
    assert steps == [(1, 5), (2, 5)]
    titles = sorted(c.title for c in ChatRepository(db).list_conversations())
    assert titles == ["Chat 0", "Chat 1"]
    # the rest comes with the next import; the first two are not doubled
    rest = import_preview(db, preview, progress=lambda *a: None, cancelled=bool)
    assert (rest.added, rest.unchanged) == (3, 2)
    assert len(ChatRepository(db).list_conversations()) == 5


def test_a_conflicting_conversation_fails_alone_and_the_rest_is_imported(tmp_path, db):
    clash = chat("b", "Clash", 1)
    clash["messages"][0]["id"] = "a-0-user"  # a message of "One", claimed by another chat
    clash["messages"][1]["parent"] = "a-0-user"
    path = write_export(tmp_path, [chat("a", "One", 1), clash, chat("c", "Three", 1)])
    outcome = import_preview(
        db, read_export(path, readers=READERS), progress=lambda *a: None, cancelled=bool
    )
    assert outcome.added == 2 and outcome.messages_added == 4
    assert [f.where for f in outcome.failed] == ["Clash"]
    assert "another conversation" in outcome.failed[0].reason
    titles = sorted(c.title for c in ChatRepository(db).list_conversations())
    assert titles == ["One", "Three"]


# --- images and files ---------------------------------------------------------------


def _with_files(folder: Path, count: int) -> list[dict[str, Any]]:
    """`count` pictures written beside the export, as the toy's file entries
    (the export is then the folder: a toy.json chosen alone holds none of them)."""
    folder.mkdir(parents=True, exist_ok=True)
    entries = []
    for number in range(count):
        name = f"picture-{number}.png"
        (folder / name).write_bytes(PHOTO)  # one blob, kept once, for several attachments
        entries.append({"member": name})
    return entries


def test_the_preview_counts_the_files_to_attach_and_those_left_out(tmp_path):
    drawn = chat("a", "Drawn", 1, images=3, left_out=1)
    drawn["messages"][0]["files"] = _with_files(tmp_path, 2)
    path = write_export(tmp_path, [drawn, chat("b", "Plain", 1)])
    totals = read_export(path, readers=READERS).totals
    assert (totals.images, totals.files, totals.files_left_out) == (3, 2, 1)


def test_files_go_on_the_message_or_on_the_card_of_their_call(tmp_path, db):
    store = AttachmentStore(tmp_path / "attachments", db.engine)
    sent, drawn, stray = _with_files(tmp_path, 3)
    pictured = chat("a", "Pictures", 1)
    question, answer = pictured["messages"]
    question["files"] = [sent]
    answer["call"] = "call-1"
    answer["files"] = [{**drawn, "call": "call-1"}, {**stray, "call": "call-gone"}]
    preview = read_export(write_export(tmp_path, [pictured]).parent, readers=READERS)
    outcome = import_preview(
        db, preview, progress=lambda *a: None, cancelled=bool, attachments=store
    )
    assert (outcome.files_added, outcome.skipped) == (3, ())
    repository = ChatRepository(db)
    asked, answered = repository.active_path(preview.conversations[0].conversation.id)
    assert [a.name for a in store.get_many(asked.context.attachment_ids)] == ["picture-0.png"]
    (card,) = [p for p in answered.parts if isinstance(p, ToolCallPart)]
    assert [a.name for a in store.get_many(card.attachment_ids)] == ["picture-1.png"]
    # A file whose call the message does not have stays with the message.
    assert [a.name for a in store.get_many(answered.context.attachment_ids)] == ["picture-2.png"]
    assert (
        store.read_bytes(store.get_many(card.attachment_ids)[0])
        == (tmp_path / "picture-1.png").read_bytes()
    )


def test_a_message_takes_as_many_files_as_one_sent_in_parley(tmp_path, db):
    store = AttachmentStore(tmp_path / "attachments", db.engine)
    crowded = chat("a", "Crowded", 1)
    crowded["messages"][0]["files"] = _with_files(tmp_path, MAX_ATTACHMENTS_PER_MESSAGE + 1)
    preview = read_export(write_export(tmp_path, [crowded]).parent, readers=READERS)
    outcome = import_preview(
        db, preview, progress=lambda *a: None, cancelled=bool, attachments=store
    )
    last = f"picture-{MAX_ATTACHMENTS_PER_MESSAGE}.png"
    assert outcome.files_added == MAX_ATTACHMENTS_PER_MESSAGE
    assert outcome.skipped == (
        Skipped(
            f"{last} in “Crowded”",
            f"a message can carry at most {MAX_ATTACHMENTS_PER_MESSAGE} files",
        ),
    )
    question = ChatRepository(db).active_path(preview.conversations[0].conversation.id)[0]
    assert len(question.context.attachment_ids) == MAX_ATTACHMENTS_PER_MESSAGE
    notices = [p.text for p in question.parts if isinstance(p, NoticePart)]
    assert notices == [
        f"The file {last} was attached here; it could not be imported: a message can carry "
        f"at most {MAX_ATTACHMENTS_PER_MESSAGE} files."
    ]


def test_a_cancelled_import_brings_the_rest_of_the_files_the_next_time(tmp_path, db):
    store = AttachmentStore(tmp_path / "attachments", db.engine)
    chats = [chat(str(n), f"Chat {n}", 1) for n in range(3)]
    for item, entry in zip(chats, _with_files(tmp_path, 3), strict=True):
        item["messages"][0]["files"] = [entry]
    preview = read_export(write_export(tmp_path, chats).parent, readers=READERS)
    steps: list[tuple[int, int]] = []
    first = import_preview(
        db,
        preview,
        progress=lambda *a: steps.append(a),
        cancelled=lambda: len(steps) >= 1,
        attachments=store,
    )
    assert first.cancelled and (first.added, first.files_added) == (1, 1)
    rest = import_preview(db, preview, progress=lambda *a: None, cancelled=bool, attachments=store)
    assert (rest.added, rest.unchanged, rest.files_added, rest.skipped) == (2, 1, 2, ())
    with db.read() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM attachments").one() == (3,)
