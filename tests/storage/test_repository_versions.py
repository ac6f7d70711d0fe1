"""ChatRepository's version operations on a real SQLite file: subtree delete, leaves, pins."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import insert

from desktop.core.models import Message, Role, TextPart, new_id
from desktop.storage import mapping
from desktop.storage.database import Database
from desktop.storage.errors import ConversationNotFound, MessageNotFound
from desktop.storage.repository import ChatRepository
from desktop.storage.tables import messages

_BASE = datetime(2024, 5, 1, tzinfo=UTC)
_tick = iter(range(1, 10_000_000))


def _add(repo: ChatRepository, conversation_id: str, parent: Message | None, text: str) -> Message:
    role = Role.USER if parent is None or parent.role is Role.ASSISTANT else Role.ASSISTANT
    return repo.add_message(
        Message(
            id=new_id(),
            conversation_id=conversation_id,
            parent_id=parent.id if parent else None,
            role=role,
            parts=[TextPart(text)],
            created_at=_BASE + timedelta(seconds=next(_tick)),
        )
    )


def _count(db: Database) -> int:
    with db.read() as conn:
        return conn.exec_driver_sql("SELECT count(*) FROM messages").scalar_one()


def _leaf(repo: ChatRepository, conversation_id: str) -> str | None:
    conversation = repo.get_conversation(conversation_id)
    assert conversation is not None
    return conversation.active_leaf_id


class Tree:
    """q ── a1 ── f1 ── g1          (a1, a2, a3: three versions of the answer to q)
    ├─ a2 ── f2 ── g2
    │         └─ f2b           (f2b is newer than f2: a2's latest leaf is f2b)
    └─ a3 ── f3
    """

    def __init__(self, repo: ChatRepository) -> None:
        self.c = repo.create_conversation("tree").id
        self.q = _add(repo, self.c, None, "q")
        self.a1 = _add(repo, self.c, self.q, "a1")
        self.a2 = _add(repo, self.c, self.q, "a2")
        self.a3 = _add(repo, self.c, self.q, "a3")
        self.f1 = _add(repo, self.c, self.a1, "f1")
        self.g1 = _add(repo, self.c, self.f1, "g1")
        self.f2 = _add(repo, self.c, self.a2, "f2")
        self.g2 = _add(repo, self.c, self.f2, "g2")
        self.f2b = _add(repo, self.c, self.a2, "f2b")
        self.f3 = _add(repo, self.c, self.a3, "f3")


def test_children_map_lists_children_in_creation_order_with_roots_under_none(
    repo: ChatRepository,
) -> None:
    t = Tree(repo)
    other_root = _add(repo, t.c, None, "q edited")
    children = repo.children_map(t.c)
    assert children[None] == [t.q.id, other_root.id]
    assert children[t.q.id] == [t.a1.id, t.a2.id, t.a3.id]
    assert children[t.a2.id] == [t.f2.id, t.f2b.id]
    assert t.g1.id not in children  # leaves have no entry
    assert repo.children_map("missing") == {}


def test_latest_leaf_follows_the_newest_child_at_every_level(repo: ChatRepository) -> None:
    t = Tree(repo)
    assert repo.latest_leaf(t.c, t.a1.id) == t.g1.id
    assert repo.latest_leaf(t.c, t.a2.id) == t.f2b.id
    assert repo.latest_leaf(t.c, t.q.id) == t.f3.id
    assert repo.latest_leaf(t.c, t.g2.id) == t.g2.id  # a leaf is its own latest leaf
    other = repo.create_conversation("other").id
    with pytest.raises(MessageNotFound):
        repo.latest_leaf(other, t.a1.id)
    with pytest.raises(MessageNotFound):
        repo.latest_leaf(t.c, "missing")


def test_branch_is_root_to_any_node_visible_or_not(repo: ChatRepository) -> None:
    t = Tree(repo)
    repo.set_active_leaf(t.c, t.f3.id)
    assert [m.text for m in repo.branch(t.g2.id)] == ["q", "a2", "f2", "g2"]
    assert repo.branch(t.q.id) == [t.q]
    with pytest.raises(MessageNotFound):
        repo.branch("missing")


def test_delete_message_removes_the_subtree_and_returns_the_node(
    repo: ChatRepository, db: Database
) -> None:
    t = Tree(repo)
    assert _count(db) == 10
    deleted = repo.delete_message(t.a2.id)
    assert deleted == t.a2
    assert _count(db) == 6
    remaining = {m.id for m in repo.messages(t.c)}
    assert remaining == {t.q.id, t.a1.id, t.a3.id, t.f1.id, t.g1.id, t.f3.id}
    with pytest.raises(MessageNotFound):
        repo.delete_message(t.a2.id)
    with pytest.raises(MessageNotFound):
        repo.delete_message(t.g2.id)  # went with its ancestor


def test_deleting_the_visible_version_moves_to_the_previous_sibling_latest_leaf(
    repo: ChatRepository,
) -> None:
    t = Tree(repo)
    repo.set_active_leaf(t.c, t.g2.id)
    repo.delete_message(t.a2.id)
    assert _leaf(repo, t.c) == t.g1.id
    assert [m.text for m in repo.active_path(t.c)] == ["q", "a1", "f1", "g1"]


def test_deleting_the_first_version_moves_to_the_next_sibling(repo: ChatRepository) -> None:
    t = Tree(repo)
    repo.set_active_leaf(t.c, t.f1.id)  # inside a1's subtree, not its leaf
    repo.delete_message(t.a1.id)
    assert _leaf(repo, t.c) == t.f2b.id


def test_deleting_an_only_child_moves_to_the_parent_and_the_last_root_to_none(
    repo: ChatRepository,
) -> None:
    t = Tree(repo)
    repo.set_active_leaf(t.c, t.f3.id)
    repo.delete_message(t.f3.id)
    assert _leaf(repo, t.c) == t.a3.id
    repo.delete_message(t.q.id)
    assert _leaf(repo, t.c) is None
    assert repo.messages(t.c) == [] and repo.active_path(t.c) == []


def test_deleting_a_hidden_version_leaves_the_visible_branch_alone(
    repo: ChatRepository,
) -> None:
    t = Tree(repo)
    repo.set_active_leaf(t.c, t.g1.id)
    repo.delete_message(t.a3.id)
    assert _leaf(repo, t.c) == t.g1.id


def test_a_chain_deeper_than_sqlites_trigger_limit_can_be_deleted(
    repo: ChatRepository, db: Database
) -> None:
    """SQLite gives up cascading past 1000 levels; a 2,000-message chat is that deep."""
    c = repo.create_conversation("long").id
    rows, parent = [], None
    for i in range(2000):
        node = Message(
            id=new_id(),
            conversation_id=c,
            parent_id=parent,
            role=Role.USER if i % 2 == 0 else Role.ASSISTANT,
            created_at=_BASE + timedelta(milliseconds=i),
        )
        rows.append(mapping.message_to_row(node))
        parent = node.id
    with db.write() as conn:
        conn.execute(insert(messages), rows)
    repo.set_active_leaf(c, rows[-1]["id"])

    repo.delete_message(rows[1]["id"])
    assert [m.id for m in repo.messages(c)] == [rows[0]["id"]]
    assert _leaf(repo, c) == rows[0]["id"]

    with db.write() as conn:
        conn.execute(insert(messages), rows[1:])
    repo.delete_conversation(c)
    assert _count(db) == 0


def test_set_pinned_puts_the_conversation_first_without_touching_updated_at(
    repo: ChatRepository,
) -> None:
    older = repo.create_conversation("older")
    newer = repo.create_conversation("newer")
    assert [c.id for c in repo.list_conversations()] == [newer.id, older.id]

    pinned = repo.set_pinned(older.id, True)
    assert pinned.pinned and pinned.updated_at == older.updated_at
    assert repo.get_conversation(older.id) == pinned
    assert [c.id for c in repo.list_conversations()] == [older.id, newer.id]

    unpinned = repo.set_pinned(older.id, False)
    assert not unpinned.pinned
    assert [c.id for c in repo.list_conversations()] == [newer.id, older.id]
    with pytest.raises(ConversationNotFound):
        repo.set_pinned("missing", True)


@pytest.mark.parametrize("leaf", ["g1", "f2b", "f2", "f3"])
def test_active_branch_ids_are_the_active_path_with_the_children_map(
    repo: ChatRepository, leaf: str
) -> None:
    t = Tree(repo)
    node = getattr(t, leaf)
    repo.set_active_leaf(t.c, node.id)  # f2 is inside a branch: its child is not shown
    ids, children = repo.active_branch_ids(t.c)
    assert ids == [m.id for m in repo.branch(node.id)] == [m.id for m in repo.active_path(t.c)]
    assert ids[-1] == node.id
    assert children == repo.children_map(t.c)


def test_active_branch_ids_of_an_empty_or_missing_conversation(repo: ChatRepository) -> None:
    assert repo.active_branch_ids(repo.create_conversation("empty").id) == ([], {})
    assert repo.active_branch_ids("missing") == ([], {})


def test_messages_by_id_come_in_the_order_asked_without_the_missing_ones(
    repo: ChatRepository,
) -> None:
    t = Tree(repo)
    asked = [t.g2.id, "missing", t.q.id, t.f2b.id]
    assert repo.messages_by_id(asked) == [t.g2, t.q, t.f2b]
    assert repo.messages_by_id([]) == []


def test_the_active_path_decodes_only_its_own_rows(repo: ChatRepository, db: Database) -> None:
    t = Tree(repo)
    repo.set_active_leaf(t.c, t.g1.id)
    with db.write() as conn:  # a row on a hidden branch that this version cannot read
        conn.exec_driver_sql("UPDATE messages SET role = 'oracle' WHERE id = ?", (t.g2.id,))
    assert [m.text for m in repo.active_path(t.c)] == ["q", "a1", "f1", "g1"]
    assert repo.active_branch_ids(t.c)[0] == [t.q.id, t.a1.id, t.f1.id, t.g1.id]
