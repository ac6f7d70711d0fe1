"""Importing conversations on a real SQLite file: round trips, idempotence, conflicts."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from itertools import count

import pytest
from sqlalchemy import func, select, text

from desktop.core.models import (
    ContextSnapshot,
    Conversation,
    ErrorPart,
    Message,
    MessageStatus,
    ModelRef,
    ReasoningPart,
    Role,
    TextPart,
    Usage,
    new_id,
)
from desktop.engine.export.parley_json import from_json, to_json
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository
from desktop.storage.search import search, search_index_is_consistent
from desktop.storage.tables import messages as messages_table
from desktop.storage.transfer import (
    ImportConflictError,
    ImportResult,
    import_conversation,
    parents_first,
)

_BASE = datetime(2024, 5, 1, 9, 0, 0, 123456, tzinfo=UTC)  # microseconds: truncated to ms
_tick = count(1)


def _node(
    repo: ChatRepository,
    conversation_id: str,
    parent: Message | None,
    text_: str,
    **fields: object,
) -> Message:
    message = Message(
        id=new_id(),
        conversation_id=conversation_id,
        parent_id=parent.id if parent else None,
        role=Role.USER if parent is None or parent.role is Role.ASSISTANT else Role.ASSISTANT,
        parts=[TextPart(text_)],
        created_at=_BASE + timedelta(seconds=next(_tick)),
        **fields,  # type: ignore[arg-type]
    )
    return repo.add_message(message)


def _rich_conversation(repo: ChatRepository, db: Database) -> str:
    """A tree with two answer versions, every kind of part and field, a summary."""
    chat = repo.create_conversation("Import me")
    question = _node(
        repo,
        chat.id,
        None,
        "Which language for a CLI?",
        context=ContextSnapshot(("a1",), "x.md", True),
    )
    first = _node(
        repo,
        chat.id,
        question,
        "Go, probably.",
        status=MessageStatus.CANCELLED,
        model=ModelRef("openai", "gpt-4o"),
        usage=Usage(10, 20, 3),
        first_token_ms=321,
        finished_at=_BASE + timedelta(minutes=1, microseconds=999),
    )
    first.parts = [ReasoningPart("weighing options", 1200), TextPart("Go, probably.")]
    repo.save_message(first)
    _node(repo, chat.id, first, "Why not Rust?")
    second = _node(repo, chat.id, question, "Rust, for safety.", status=MessageStatus.ERROR)
    second.parts = [TextPart("Rust, for safety."), ErrorPart("overloaded", 529)]
    repo.save_message(second)
    with db.write() as conn:
        conn.execute(
            text(
                "UPDATE conversations SET pinned = 1, summary_text = 'sum',"
                " summary_covered_ids = :ids, workspace = '/w' WHERE id = :id"
            ),
            {"ids": json.dumps([question.id]), "id": chat.id},
        )
    return chat.id


def _export(repo: ChatRepository, conversation_id: str, *, branch_only: bool = False) -> str:
    conversation = repo.get_conversation(conversation_id)
    assert conversation is not None
    nodes = repo.active_path(conversation_id) if branch_only else repo.messages(conversation_id)
    return json.dumps(to_json(conversation, nodes), ensure_ascii=False)


def _import(db: Database, exported: str) -> ImportResult:
    return import_conversation(db, *from_json(json.loads(exported)))


def _message_count(db: Database) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(messages_table)).scalar_one())


def test_export_delete_import_restores_the_identical_tree(
    repo: ChatRepository, db: Database
) -> None:
    chat_id = _rich_conversation(repo, db)
    conversation = repo.get_conversation(chat_id)
    tree = repo.messages(chat_id)
    path = repo.active_path(chat_id)
    exported = _export(repo, chat_id)

    repo.delete_conversation(chat_id)
    assert repo.get_conversation(chat_id) is None and search(db, "Rust") == []

    result = _import(db, exported)

    assert result == ImportResult(chat_id, added=4, skipped=0)
    assert repo.get_conversation(chat_id) == conversation  # title, flags, leaf, summary
    assert repo.messages(chat_id) == tree  # ids, parts, statuses, times to the ms
    assert repo.active_path(chat_id) == path
    assert {h.message_id for h in search(db, "Rust")} == {tree[2].id, tree[3].id}
    assert search_index_is_consistent(db)


def test_importing_the_same_file_twice_adds_nothing_the_second_time(
    repo: ChatRepository, db: Database
) -> None:
    chat_id = _rich_conversation(repo, db)
    exported = _export(repo, chat_id)
    repo.delete_conversation(chat_id)

    assert _import(db, exported).added == 4
    assert _import(db, exported) == ImportResult(chat_id, added=0, skipped=4)
    assert _message_count(db) == 4
    assert len(repo.list_conversations()) == 1


def test_importing_into_the_existing_conversation_adds_only_missing_messages(
    repo: ChatRepository, db: Database
) -> None:
    chat_id = _rich_conversation(repo, db)
    exported = _export(repo, chat_id)
    tree = repo.messages(chat_id)
    with db.write() as conn:  # lose the first answer's subtree (answer + follow-up)
        conn.execute(text("DELETE FROM messages WHERE id = :id"), {"id": tree[1].id})
    repo.rename_conversation(chat_id, "Renamed here")
    before = repo.get_conversation(chat_id)

    result = _import(db, exported)

    assert result == ImportResult(chat_id, added=2, skipped=2)
    assert repo.messages(chat_id) == tree
    assert repo.get_conversation(chat_id) == before  # the local row is not overwritten


def test_a_branch_only_file_imports_as_a_conversation_of_that_branch(
    repo: ChatRepository, db: Database
) -> None:
    chat_id = _rich_conversation(repo, db)
    path = repo.active_path(chat_id)
    exported = _export(repo, chat_id, branch_only=True)
    repo.delete_conversation(chat_id)

    assert _import(db, exported).added == len(path) == 2
    assert repo.active_path(chat_id) == path


def test_a_message_id_of_another_conversation_is_refused_and_nothing_changes(
    repo: ChatRepository, db: Database
) -> None:
    chat_id = _rich_conversation(repo, db)
    conversation, nodes = from_json(json.loads(_export(repo, chat_id)))
    conversation.id = "a-different-conversation"
    for node in nodes:
        node.conversation_id = conversation.id

    with pytest.raises(ImportConflictError, match="already belong to another conversation"):
        import_conversation(db, conversation, nodes)

    assert repo.get_conversation(conversation.id) is None
    assert _message_count(db) == 4


def test_a_parent_that_exists_nowhere_is_refused(repo: ChatRepository, db: Database) -> None:
    conversation = Conversation(id="c-new", title="orphans", created_at=_BASE, updated_at=_BASE)
    orphan = Message(
        id="m-orphan",
        conversation_id="c-new",
        parent_id="m-ghost",
        role=Role.USER,
        created_at=_BASE,
    )
    with pytest.raises(ImportConflictError, match="neither being imported nor stored"):
        import_conversation(db, conversation, [orphan])
    assert repo.get_conversation("c-new") is None


def test_a_parent_already_stored_in_the_conversation_is_accepted(
    repo: ChatRepository, db: Database
) -> None:
    chat = repo.create_conversation("grow me")
    root = _node(repo, chat.id, None, "root")
    reply = Message(
        id="m-reply",
        conversation_id=chat.id,
        parent_id=root.id,
        role=Role.ASSISTANT,
        created_at=_BASE,
    )
    stored = repo.get_conversation(chat.id)
    assert stored is not None
    assert import_conversation(db, stored, [reply]) == ImportResult(chat.id, added=1, skipped=0)
    assert [m.id for m in repo.active_path(chat.id)] == [root.id]  # the active leaf is kept


def test_messages_of_another_conversation_or_twice_the_same_id_are_refused(db: Database) -> None:
    conversation = Conversation(id="c", title="t", created_at=_BASE, updated_at=_BASE)
    stray = Message(id="m", conversation_id="elsewhere", parent_id=None, role=Role.USER)
    with pytest.raises(ImportConflictError, match="does not belong"):
        import_conversation(db, conversation, [stray])
    twin = Message(id="m", conversation_id="c", parent_id=None, role=Role.USER)
    with pytest.raises(ImportConflictError, match="twice"):
        import_conversation(db, conversation, [twin, twin])


def test_parents_come_first_whatever_the_input_order() -> None:
    def node(id_: str, parent: str | None) -> Message:
        return Message(id=id_, conversation_id="c", parent_id=parent, role=Role.USER)

    shuffled = [node("d", "c"), node("b", "a"), node("c", "b"), node("a", None), node("x", None)]
    assert [m.id for m in parents_first(shuffled)] == ["a", "b", "c", "d", "x"]
    looped = [node("p", "q"), node("q", "p"), node("r", None)]
    assert [m.id for m in parents_first(looped)] == ["r"]
