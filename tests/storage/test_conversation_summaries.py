"""Conversation summaries: the sidebar's rows, listed in full or read back one at a time."""

from __future__ import annotations

from datetime import UTC, datetime

from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository


def test_summaries_follow_the_list_order_including_ties(db: Database) -> None:
    same_moment = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
    repo = ChatRepository(db, clock=lambda: same_moment)  # every update in one millisecond
    created = [repo.create_conversation(f"chat {n}") for n in range(5)]
    repo.set_pinned(created[3].id, True)
    archived = repo.create_conversation("archived")
    with db.write() as conn:
        conn.exec_driver_sql("UPDATE conversations SET archived = 1 WHERE id = ?", (archived.id,))

    summaries = repo.list_conversation_summaries()

    # Ties on updated_at are broken by creation order, newest first, as in the full list.
    assert [s.id for s in summaries] == [c.id for c in repo.list_conversations()]
    assert [s.title for s in summaries] == ["chat 3", "chat 4", "chat 2", "chat 1", "chat 0"]
    sequences = [s.sequence for s in summaries[1:]]
    assert sequences == sorted(sequences, reverse=True) and len(set(sequences)) == 4
    assert summaries[0].pinned and not any(s.pinned for s in summaries[1:])
    assert all(s.updated_at == same_moment for s in summaries)


def test_one_summary_is_the_same_row_and_none_once_gone(repo: ChatRepository, db: Database):
    first = repo.create_conversation("first")
    second = repo.create_conversation("second")
    repo.rename_conversation(first.id, "renamed")
    listed = {s.id: s for s in repo.list_conversation_summaries()}

    assert repo.conversation_summary(first.id) == listed[first.id]
    assert repo.conversation_summary(first.id).title == "renamed"
    repo.delete_conversation(first.id)
    assert repo.conversation_summary(first.id) is None
    with db.write() as conn:
        conn.exec_driver_sql("UPDATE conversations SET archived = 1 WHERE id = ?", (second.id,))
    assert repo.conversation_summary(second.id) is None  # archived chats are not listed
    assert repo.conversation_summary("no such id") is None
