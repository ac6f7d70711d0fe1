"""Reading another client's export into a preview and importing it: counts, what is left
out, a cancel that keeps what was imported, a conflict that skips one conversation, and
a second import that adds nothing. Run on the toy importer (tests/support/import_toy.py)
and a real database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from desktop.engine.importers.files import ExportError
from desktop.engine.importers.model import Skipped
from desktop.engine.importers.run import (
    ImportCancelled,
    import_preview,
    read_export,
)
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from tests.support import import_toy
from tests.support.import_toy import chat, write_export

READERS = [import_toy]


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
