"""`ChatRepository`: conversations and their message trees.

Each public method is one transaction (writes use BEGIN IMMEDIATE, see sqlite_engine)
and returns what changed, so callers can broadcast it and let each screen decide whether
to refresh (STYLE.md, habit 7). All row <-> domain conversion goes through `mapping`.

Trees are walked in memory: a conversation holds at most a few thousand nodes, and one
indexed SELECT of all of them is cheaper and simpler than a recursive CTE per walk.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Select, delete, insert, literal_column, select, update
from sqlalchemy.sql.expression import ColumnClause

from desktop.core.models import Conversation, Message, MessageStatus, new_id, utc_now
from desktop.storage import mapping
from desktop.storage.database import Database
from desktop.storage.errors import ConversationNotFound, MessageNotFound
from desktop.storage.tables import conversations, messages

_ROWID: ColumnClause[Any] = literal_column("messages.rowid")


def _created_order(query: Select[Any]) -> Select[Any]:
    # rowid breaks ties between nodes created in the same millisecond.
    return query.order_by(messages.c.created_at, _ROWID)


class ChatRepository:
    """Synchronous access to conversations and messages in one `Database`.

    `clock` is injectable so tests get distinct, predictable timestamps.
    """

    def __init__(self, db: Database, *, clock: Callable[[], datetime] = utc_now):
        self._db = db
        self._clock = clock

    def _now_ms(self) -> int:
        return mapping.to_epoch_ms(self._clock())

    # --- conversations --------------------------------------------------------

    def create_conversation(self, title: str) -> Conversation:
        """A new, empty conversation. The title is stripped and must not be empty."""
        now = mapping.truncate_to_ms(self._clock())
        conversation = Conversation(
            id=new_id(), title=_clean_title(title), created_at=now, updated_at=now
        )
        with self._db.write() as conn:
            conn.execute(insert(conversations).values(mapping.conversation_to_row(conversation)))
        return conversation

    def get_conversation(self, conversation_id: str) -> Conversation | None:
        with self._db.read() as conn:
            return _conversation(conn, conversation_id)

    def list_conversations(self) -> list[Conversation]:
        """Not archived; pinned first, then most recently updated first."""
        query = (
            select(conversations)
            .where(conversations.c.archived.is_(False))
            .order_by(
                conversations.c.pinned.desc(),
                conversations.c.updated_at.desc(),
                literal_column("conversations.rowid").desc(),
            )
        )
        with self._db.read() as conn:
            rows = conn.execute(query).mappings().all()
        return [mapping.conversation_from_row(r) for r in rows]

    def rename_conversation(self, conversation_id: str, title: str) -> Conversation:
        """Raises ValueError for a blank title, ConversationNotFound if it is gone.

        updated_at is left alone: renaming is not activity and must not reorder the list.
        """
        clean = _clean_title(title)
        with self._db.write() as conn:
            result = conn.execute(
                update(conversations)
                .where(conversations.c.id == conversation_id)
                .values(title=clean)
            )
            if result.rowcount == 0:
                raise ConversationNotFound(conversation_id)
            renamed = _conversation(conn, conversation_id)
        assert renamed is not None
        return renamed

    def delete_conversation(self, conversation_id: str) -> None:
        """Deletes the conversation and (by cascade) all its messages. Idempotent."""
        with self._db.write() as conn:
            conn.execute(delete(conversations).where(conversations.c.id == conversation_id))

    def touch(self, conversation_id: str) -> None:
        """Mark as just updated (moves it up the list). A deleted conversation is ignored."""
        with self._db.write() as conn:
            conn.execute(
                update(conversations)
                .where(conversations.c.id == conversation_id)
                .values(updated_at=self._now_ms())
            )

    # --- messages -------------------------------------------------------------

    def add_message(self, message: Message) -> Message:
        """Insert a node, make it the active leaf and bump updated_at, atomically.

        Returns the message as stored (times truncated to the millisecond). Raises
        ConversationNotFound / MessageNotFound (missing parent), or ValueError when the
        parent belongs to another conversation.
        """
        row = mapping.message_to_row(message)
        with self._db.write() as conn:
            if _conversation(conn, message.conversation_id) is None:
                raise ConversationNotFound(message.conversation_id)
            if message.parent_id is not None:
                parent_conversation = conn.execute(
                    select(messages.c.conversation_id).where(messages.c.id == message.parent_id)
                ).scalar_one_or_none()
                if parent_conversation is None:
                    raise MessageNotFound(message.parent_id)
                if parent_conversation != message.conversation_id:
                    raise ValueError("the parent message belongs to another conversation")
            conn.execute(insert(messages).values(row))
            conn.execute(
                update(conversations)
                .where(conversations.c.id == message.conversation_id)
                .values(active_leaf_id=message.id, updated_at=self._now_ms())
            )
        return mapping.message_from_row(row)

    def save_message(self, message: Message) -> None:
        """Write the streaming-time fields of an existing node (parts, status, usage...).

        Raises MessageNotFound if the row is gone (e.g. its conversation was deleted
        while the answer streamed), so the engine can stop instead of writing into void.
        """
        with self._db.write() as conn:
            result = conn.execute(
                update(messages)
                .where(
                    messages.c.id == message.id,
                    messages.c.conversation_id == message.conversation_id,
                )
                .values(mapping.message_update_values(message))
            )
            if result.rowcount == 0:
                raise MessageNotFound(message.id)

    def get_message(self, message_id: str) -> Message | None:
        with self._db.read() as conn:
            row = conn.execute(select(messages).where(messages.c.id == message_id))
            found = row.mappings().one_or_none()
        return mapping.message_from_row(found) if found else None

    def messages(self, conversation_id: str) -> list[Message]:
        """Every node of the conversation, in creation order."""
        with self._db.read() as conn:
            return _messages(conn, conversation_id)

    def active_path(self, conversation_id: str) -> list[Message]:
        """Root ... active leaf: the branch the person currently sees.

        If the active leaf is unset or dangling (its subtree was deleted), the newest
        leaf is used. A cycle (corrupt data) stops the walk instead of looping forever.
        """
        with self._db.read() as conn:
            conversation = _conversation(conn, conversation_id)
            nodes = _messages(conn, conversation_id) if conversation else []
        if not nodes:
            return []
        by_id = {m.id: m for m in nodes}
        leaf = by_id.get(conversation.active_leaf_id or "") if conversation else None
        if leaf is None:
            parents = {m.parent_id for m in nodes}
            leaves = [m for m in nodes if m.id not in parents]
            leaf = leaves[-1] if leaves else nodes[-1]
        path: list[Message] = []
        seen: set[str] = set()
        node: Message | None = leaf
        while node is not None and node.id not in seen:
            seen.add(node.id)
            path.append(node)
            node = by_id.get(node.parent_id) if node.parent_id else None
        path.reverse()
        return path

    def siblings(self, message_id: str) -> list[Message]:
        """Nodes sharing the message's parent (itself included), in creation order.

        These are the alternatives (edits, regenerations) the "< 2/3 >" switcher shows.
        """
        with self._db.read() as conn:
            me = conn.execute(
                select(messages.c.conversation_id, messages.c.parent_id).where(
                    messages.c.id == message_id
                )
            ).one_or_none()
            if me is None:
                return []
            same_parent = (
                messages.c.parent_id.is_(None)
                if me.parent_id is None
                else messages.c.parent_id == me.parent_id
            )
            query = select(messages).where(
                messages.c.conversation_id == me.conversation_id, same_parent
            )
            rows = conn.execute(_created_order(query)).mappings().all()
        return [mapping.message_from_row(r) for r in rows]

    def set_active_leaf(self, conversation_id: str, message_id: str) -> None:
        """Show the branch ending at `message_id` (which must be in the conversation)."""
        with self._db.write() as conn:
            owner = conn.execute(
                select(messages.c.conversation_id).where(messages.c.id == message_id)
            ).scalar_one_or_none()
            if owner is None or owner != conversation_id:
                raise MessageNotFound(message_id)
            conn.execute(
                update(conversations)
                .where(conversations.c.id == conversation_id)
                .values(active_leaf_id=message_id)
            )

    def interrupt_streaming(self) -> list[str]:
        """At start-up: rows a crash left `streaming` become `interrupted`; returns ids."""
        streaming = messages.c.status == MessageStatus.STREAMING.value
        with self._db.write() as conn:
            ids = list(conn.execute(select(messages.c.id).where(streaming)).scalars())
            if ids:
                conn.execute(
                    update(messages)
                    .where(streaming)
                    .values(status=MessageStatus.INTERRUPTED.value, finished_at=self._now_ms())
                )
        return ids


def _clean_title(title: str) -> str:
    clean = title.strip()
    if not clean:
        raise ValueError("a conversation title must not be empty")
    return clean


def _conversation(conn: Connection, conversation_id: str) -> Conversation | None:
    row = (
        conn.execute(select(conversations).where(conversations.c.id == conversation_id))
        .mappings()
        .one_or_none()
    )
    return mapping.conversation_from_row(row) if row else None


def _messages(conn: Connection, conversation_id: str) -> list[Message]:
    query = select(messages).where(messages.c.conversation_id == conversation_id)
    return [mapping.message_from_row(r) for r in conn.execute(_created_order(query)).mappings()]
