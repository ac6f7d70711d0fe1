"""`ChatRepository`: conversations and their message trees.

Each public method is one transaction (writes use BEGIN IMMEDIATE, see sqlite_engine)
and returns what changed, so callers can broadcast it and let each screen decide whether
to refresh (STYLE.md, habit 7). All row <-> domain conversion goes through `mapping`.

Trees are walked in memory: a conversation holds at most a few thousand nodes, and one
indexed SELECT of all of them is cheaper and simpler than a recursive CTE per walk.

Subtrees are deleted explicitly rather than by the `parent_id` ON DELETE CASCADE alone:
SQLite runs cascades as nested triggers and gives up beyond 1000 levels ("too many
levels of trigger recursion"), and a plain 1,000-message chat is already that deep.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Connection,
    Row,
    Select,
    bindparam,
    delete,
    func,
    insert,
    literal_column,
    select,
    update,
)
from sqlalchemy.sql.expression import ColumnClause

from desktop.core.models import (
    Conversation,
    ConversationSummary,
    Message,
    MessageStatus,
    ModelRef,
    RollingSummary,
    Usage,
    new_id,
    utc_now,
)
from desktop.storage import mapping, tombstones
from desktop.storage.database import Database
from desktop.storage.errors import ConversationNotFound, MessageNotFound
from desktop.storage.tables import PERSON_SET_COLUMNS, conversations, messages
from desktop.storage.tree import (
    ChildrenMap,
    leaf_after_delete,
    newest_childless,
    newest_leaf,
    path_ids,
    subtree,
)

_ROWID: ColumnClause[Any] = literal_column("messages.rowid")
_CONVERSATION_ROWID: ColumnClause[Any] = literal_column("conversations.rowid")
# What messages are read from (`mapping.MESSAGE_COLUMNS`: no `search_text`), in order.
_MESSAGE_COLUMNS = tuple(messages.c[name] for name in mapping.MESSAGE_COLUMNS)
# Ids per statement: far below SQLite's bound-parameter limit (32766 since 3.32).
_ID_BATCH = 500


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
        conversation = self.new_conversation(title)
        with self._db.write() as conn:
            conn.execute(insert(conversations).values(mapping.conversation_to_row(conversation)))
        return conversation

    def new_conversation(self, title: str, assistant_id: str | None = None) -> Conversation:
        """A conversation as `create_conversation` would store it, not stored: a new
        chat is saved with its first message (`add_messages(..., conversation=)`), so a
        message that cannot be saved leaves no empty chat behind."""
        now = mapping.truncate_to_ms(self._clock())
        return Conversation(
            id=new_id(),
            title=_clean_title(title),
            assistant_id=assistant_id,
            created_at=now,
            updated_at=now,
        )

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

    def list_conversation_summaries(self) -> list[ConversationSummary]:
        """What `list_conversations` lists, in its order, with only what a list shows."""
        query = _summaries().order_by(
            conversations.c.pinned.desc(),
            conversations.c.updated_at.desc(),
            _CONVERSATION_ROWID.desc(),
        )
        with self._db.read() as conn:
            rows = conn.execute(query).all()
        return [mapping.conversation_summary_from_row(r) for r in rows]

    def conversation_summary(self, conversation_id: str) -> ConversationSummary | None:
        """One entry of `list_conversation_summaries`; None if deleted or archived."""
        query = _summaries().where(conversations.c.id == conversation_id)
        with self._db.read() as conn:
            row = conn.execute(query).one_or_none()
        return mapping.conversation_summary_from_row(row) if row else None

    def rename_conversation(self, conversation_id: str, title: str) -> Conversation:
        """Raises ValueError for a blank title, ConversationNotFound if it is gone.

        updated_at is left alone: renaming is not activity and must not reorder the list.
        """
        return self._update_conversation(conversation_id, title=_clean_title(title))

    def set_pinned(self, conversation_id: str, pinned: bool) -> Conversation:
        """Pin to (or unpin from) the top of the list; raises ConversationNotFound.

        updated_at is left alone, like renaming: unpinning must drop the conversation
        back to where its own activity puts it.
        """
        return self._update_conversation(conversation_id, pinned=pinned)

    def set_workspace(self, conversation_id: str, folder: str | None) -> Conversation:
        """Bind the conversation to a workspace folder (None: unbind); raises
        ConversationNotFound."""
        return self._update_conversation(conversation_id, workspace=folder)

    def set_workspace_file(self, conversation_id: str, path: str | None) -> Conversation:
        """The file whose current content goes with each message (None: none); raises
        ConversationNotFound."""
        return self._update_conversation(conversation_id, workspace_file=path)

    def set_assistant(self, conversation_id: str, assistant_id: str | None) -> Conversation:
        """The assistant the conversation talks to (None: the default one)."""
        return self._update_conversation(conversation_id, assistant_id=assistant_id)

    def set_summary(self, conversation_id: str, summary: RollingSummary | None) -> Conversation:
        """The rolling summary and the exact ids it covers (None: no summary)."""
        return self._update_conversation(
            conversation_id,
            summary_text=summary.text if summary else None,
            summary_covered_ids=json.dumps(list(summary.covered_ids)) if summary else None,
        )

    def set_system_prompt(self, conversation_id: str, prompt: str | None) -> Conversation:
        """The conversation's own system prompt (None: the assistant's)."""
        return self._update_conversation(conversation_id, system_prompt=prompt or None)

    def set_pinned_messages(self, conversation_id: str, ids: Sequence[str]) -> Conversation:
        """The messages always sent in full; raises ConversationNotFound."""
        unique = list(dict.fromkeys(ids))
        return self._update_conversation(
            conversation_id, pinned_message_ids=json.dumps(unique) if unique else None
        )

    def _update_conversation(self, conversation_id: str, **values: Any) -> Conversation:
        """Set columns of one conversation (never updated_at) and read it back. A change
        the person makes (a rename, a pin...) records its time in `changed_at`, which a
        restore compares; the workspace and summary are this device's own."""
        if any(name in values for name in PERSON_SET_COLUMNS):
            values["changed_at"] = self._now_ms()
        with self._db.write() as conn:
            result = conn.execute(
                update(conversations).where(conversations.c.id == conversation_id).values(**values)
            )
            if result.rowcount == 0:
                raise ConversationNotFound(conversation_id)
            changed = _conversation(conn, conversation_id)
        assert changed is not None
        return changed

    def delete_conversation(self, conversation_id: str, *, remember: bool = True) -> None:
        """Deletes the conversation and (by cascade) all its messages. Idempotent.

        The nodes are unlinked from their parents first, so the cascade is one level
        deep however long the chat is (see the module docstring). With `remember` (a
        person's deletion) the conversation's id and those of all its messages are kept
        as tombstones, in the same transaction, so a restored backup does not bring
        them back; a conversation Parley made for itself (a self-test) need not be.
        """
        with self._db.write() as conn:
            if remember and _conversation(conn, conversation_id) is not None:
                ids = conn.execute(
                    select(messages.c.id).where(messages.c.conversation_id == conversation_id)
                ).scalars()
                now = self._now_ms()
                tombstones.record(conn, tombstones.Kind.CONVERSATION, [conversation_id], now)
                tombstones.record(conn, tombstones.Kind.MESSAGE, list(ids), now)
            conn.execute(
                update(messages)
                .where(messages.c.conversation_id == conversation_id)
                .values(parent_id=None)
            )
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
        return self.add_messages([message])[0]

    def add_messages(
        self, new: Sequence[Message], *, conversation: Conversation | None = None
    ) -> list[Message]:
        """`add_message` for each, in one transaction: all are saved or none is (the
        person's message and the placeholder of its answer). The last becomes the leaf.

        `conversation` (from `new_conversation`) is stored first, in the same
        transaction, unless it is stored already (an earlier message of it was saved)."""
        rows = [mapping.message_to_row(message) for message in new]
        with self._db.write() as conn:
            if conversation is not None and _conversation(conn, conversation.id) is None:
                conn.execute(
                    insert(conversations).values(mapping.conversation_to_row(conversation))
                )
            for message, row in zip(new, rows, strict=True):
                _check_new_node(conn, message)
                conn.execute(_INSERT_MESSAGE, row)
                conn.execute(
                    _NEW_LEAF,
                    {
                        "conversation_id": message.conversation_id,
                        "active_leaf_id": message.id,
                        "updated_at": self._now_ms(),
                    },
                )
        return [mapping.message_from_row(row) for row in rows]

    def save_message(self, message: Message) -> None:
        """Write the streaming-time fields of an existing node (parts, status, usage...).

        While the answer still streams its text is not indexed for search: the index
        takes the whole text out and puts it back on every change, which for a long
        answer saved twice a second costs far more than the write itself. Every other
        status indexes it, and so does `interrupt_streaming` after a crash.

        Raises MessageNotFound if the row is gone (e.g. its conversation was deleted
        while the answer streamed), so the engine can stop instead of writing into void.
        """
        values = mapping.message_update_values(message)
        if message.status is MessageStatus.STREAMING:
            del values["search_text"]
        values["b_id"], values["b_conversation_id"] = message.id, message.conversation_id
        with self._db.write() as conn:
            result = conn.execute(_SAVE_MESSAGE, values)
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
        Only the rows on the path are decoded (other versions stay undecoded rows).
        """
        with self._db.read() as conn:
            conversation = _conversation(conn, conversation_id)
            rows = _node_rows(conn, conversation_id) if conversation else []
        ids, _children_of, by_id = _active(conversation, rows)
        return _decode(by_id, ids)

    def active_branch_ids(self, conversation_id: str) -> tuple[list[str], ChildrenMap]:
        """The ids of `active_path`, and `children_map`, from the two short columns.

        What opening a long chat needs of all of it (where the branch goes, its
        versions) before it decodes just the messages it shows (`messages_by_id`).
        """
        with self._db.read() as conn:
            conversation = _conversation(conn, conversation_id)
            rows = _id_rows(conn, conversation_id) if conversation else []
        ids, children, _by_id = _active(conversation, rows)
        return ids, children

    def usage_by_model(self, conversation_id: str) -> list[tuple[ModelRef | None, Usage]]:
        """Tokens of every answer (every version), summed per model in SQL: a long
        chat's totals without reading its messages."""
        m = messages.c
        query = (
            select(
                m.provider_id,
                m.model,
                func.sum(m.input_tokens),
                func.sum(m.output_tokens),
                func.sum(m.reasoning_tokens),
            )
            .where(m.conversation_id == conversation_id)
            .where(
                m.input_tokens.is_not(None)
                | m.output_tokens.is_not(None)
                | m.reasoning_tokens.is_not(None)
            )
            .group_by(m.provider_id, m.model)
        )
        with self._db.read() as conn:
            rows = conn.execute(query).all()
        return [
            (
                ModelRef(provider, model) if provider and model else None,
                Usage(int(tin or 0), int(tout or 0), int(treason or 0)),
            )
            for provider, model, tin, tout, treason in rows
        ]

    def messages_by_id(self, ids: Sequence[str]) -> list[Message]:
        """These messages, in the order given; ids no longer stored are left out."""
        found: dict[str, Row[Any]] = {}
        with self._db.read() as conn:
            for start in range(0, len(ids), _ID_BATCH):
                query = select(*_MESSAGE_COLUMNS).where(
                    messages.c.id.in_(ids[start : start + _ID_BATCH])
                )
                found.update((row.id, row) for row in conn.execute(query))
        return _decode(found, [message_id for message_id in ids if message_id in found])

    def branch(self, message_id: str) -> list[Message]:
        """Root ... `message_id`: the history a regenerate or continue of it starts from.

        Unlike `active_path` this follows any node, visible or not. Raises
        MessageNotFound.
        """
        with self._db.read() as conn:
            owner = _owner(conn, message_id)
            rows = _node_rows(conn, owner) if owner is not None else []
        by_id, parents, _children_of = _index(rows)
        if message_id not in by_id:
            raise MessageNotFound(message_id)
        return _decode(by_id, path_ids(parents, message_id))

    def children_map(self, conversation_id: str) -> ChildrenMap:
        """Child ids per parent id (None: the roots), each list in creation order.

        Reads two columns only, so version labels for a 5,000-message chat cost one
        light query and no JSON parsing.
        """
        with self._db.read() as conn:
            return _children(conn, conversation_id)

    def latest_leaf(self, conversation_id: str, message_id: str) -> str:
        """The leaf reached from `message_id` by always taking the newest child.

        That is what switching to a version shows: where the person last was on it.
        Raises MessageNotFound if the message is not in the conversation.
        """
        with self._db.read() as conn:
            if _owner(conn, message_id) != conversation_id:
                raise MessageNotFound(message_id)
            return newest_leaf(_children(conn, conversation_id), message_id)

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
            if _owner(conn, message_id) != conversation_id:
                raise MessageNotFound(message_id)
            conn.execute(
                update(conversations)
                .where(conversations.c.id == conversation_id)
                .values(active_leaf_id=message_id)
            )

    def delete_message(self, message_id: str) -> Message:
        """Delete a node and its whole subtree; returns the node as it was.

        If the active leaf was inside the subtree it moves, in the same transaction, to
        the newest leaf of the nearest remaining sibling (the previous one preferred,
        else the next), else to the parent, else to None (nothing left). Otherwise it
        stays: deleting a version the person does not see must not change what they
        see. Raises MessageNotFound.
        """
        with self._db.write() as conn:
            row = conn.execute(select(messages).where(messages.c.id == message_id))
            found = row.mappings().one_or_none()
            if found is None:
                raise MessageNotFound(message_id)
            node = mapping.message_from_row(found)
            conversation = _conversation(conn, node.conversation_id)
            children = _children(conn, node.conversation_id)
            doomed = subtree(children, message_id)
            tombstones.record(conn, tombstones.Kind.MESSAGE, doomed, self._now_ms())
            # Detach first so no cascade has anything left to recurse into.
            for batch in _batches(doomed):
                conn.execute(
                    update(messages).where(messages.c.id.in_(batch)).values(parent_id=None)
                )
            for batch in _batches(doomed):
                conn.execute(delete(messages).where(messages.c.id.in_(batch)))
            if conversation is not None and conversation.active_leaf_id in doomed:
                conn.execute(
                    update(conversations)
                    .where(conversations.c.id == node.conversation_id)
                    .values(active_leaf_id=leaf_after_delete(children, node))
                )
        return node

    def awaiting_approval(self) -> list[Message]:
        """Answers paused for the person's approval of tool calls (kept across restarts)."""
        waiting = messages.c.status == MessageStatus.AWAITING_APPROVAL.value
        with self._db.read() as conn:
            rows = conn.execute(select(*_MESSAGE_COLUMNS).where(waiting)).mappings().all()
        return [mapping.message_from_row(row) for row in rows]

    def interrupt_streaming(self) -> list[str]:
        """At start-up: rows a crash left `streaming` become `interrupted`, their text
        indexed for search at last (see `save_message`); returns their ids."""
        streaming = messages.c.status == MessageStatus.STREAMING.value
        with self._db.write() as conn:
            rows = conn.execute(select(*_MESSAGE_COLUMNS).where(streaming)).mappings().all()
            for row in rows:
                conn.execute(
                    update(messages)
                    .where(messages.c.id == row["id"])
                    .values(
                        status=MessageStatus.INTERRUPTED.value,
                        finished_at=self._now_ms(),
                        search_text=mapping.message_from_row(row).text,
                    )
                )
        return [row["id"] for row in rows]


def _summaries() -> Select[Any]:
    """The columns `mapping.conversation_summary_from_row` reads, in its order."""
    return select(
        conversations.c.id,
        conversations.c.title,
        conversations.c.updated_at,
        conversations.c.pinned,
        _CONVERSATION_ROWID.label("sequence"),
    ).where(conversations.c.archived.is_(False))


def _clean_title(title: str) -> str:
    clean = title.strip()
    if not clean:
        raise ValueError("a conversation title must not be empty")
    return clean


# The statements every send runs, built once: building one costs several times more
# than running it.
_CONVERSATION_BY_ID = select(conversations).where(
    conversations.c.id == bindparam("conversation_id")
)
_INSERT_MESSAGE = insert(messages)
_NEW_LEAF = (
    update(conversations)
    .where(conversations.c.id == bindparam("conversation_id"))
    .values(active_leaf_id=bindparam("active_leaf_id"), updated_at=bindparam("updated_at"))
)
_PARENT_CONVERSATION = select(messages.c.conversation_id).where(
    messages.c.id == bindparam("parent_id")
)
# Sets the columns named in the parameters (`message_update_values`).
_SAVE_MESSAGE = update(messages).where(
    messages.c.id == bindparam("b_id"),
    messages.c.conversation_id == bindparam("b_conversation_id"),
)


def _conversation(conn: Connection, conversation_id: str) -> Conversation | None:
    found = conn.execute(_CONVERSATION_BY_ID, {"conversation_id": conversation_id})
    row = found.mappings().one_or_none()
    return mapping.conversation_from_row(row) if row else None


def _check_new_node(conn: Connection, message: Message) -> None:
    """Its conversation exists and its parent (if any) is in that conversation."""
    if _conversation(conn, message.conversation_id) is None:
        raise ConversationNotFound(message.conversation_id)
    if message.parent_id is not None:
        parent_conversation = conn.execute(
            _PARENT_CONVERSATION, {"parent_id": message.parent_id}
        ).scalar_one_or_none()
        if parent_conversation is None:
            raise MessageNotFound(message.parent_id)
        if parent_conversation != message.conversation_id:
            raise ValueError("the parent message belongs to another conversation")


def _owner(conn: Connection, message_id: str) -> str | None:
    """The conversation a message belongs to, None if there is no such message."""
    query = select(messages.c.conversation_id).where(messages.c.id == message_id)
    return conn.execute(query).scalar_one_or_none()


def _id_rows(conn: Connection, conversation_id: str) -> Sequence[Row[Any]]:
    """Each node's id and parent_id, in creation order."""
    query = select(messages.c.id, messages.c.parent_id).where(
        messages.c.conversation_id == conversation_id
    )
    return conn.execute(_created_order(query)).all()


def _children(conn: Connection, conversation_id: str) -> ChildrenMap:
    children: ChildrenMap = {}
    for row in _id_rows(conn, conversation_id):
        children.setdefault(row.parent_id, []).append(row.id)
    return children


def _batches(ids: set[str]) -> Iterator[Sequence[str]]:
    ordered = sorted(ids)
    for start in range(0, len(ordered), _ID_BATCH):
        yield ordered[start : start + _ID_BATCH]


def _node_rows(conn: Connection, conversation_id: str) -> Sequence[Row[Any]]:
    """The conversation's rows (`_MESSAGE_COLUMNS`), in creation order, undecoded."""
    query = select(*_MESSAGE_COLUMNS).where(messages.c.conversation_id == conversation_id)
    return conn.execute(_created_order(query)).all()


def _index(
    rows: Sequence[Row[Any]],
) -> tuple[dict[str, Row[Any]], dict[str, str | None], ChildrenMap]:
    """Rows by id, parent id by id, and child ids by parent id (in creation order)."""
    by_id: dict[str, Row[Any]] = {}
    parents: dict[str, str | None] = {}
    children: ChildrenMap = {}
    for row in rows:
        message_id, parent_id = row.id, row.parent_id
        by_id[message_id] = row
        parents[message_id] = parent_id
        children.setdefault(parent_id, []).append(message_id)
    return by_id, parents, children


def _active(
    conversation: Conversation | None, rows: Sequence[Row[Any]]
) -> tuple[list[str], ChildrenMap, dict[str, Row[Any]]]:
    """The active path's ids (with `active_path`'s fallbacks), the children map and the
    rows by id, from rows in creation order that have at least `id` and `parent_id`."""
    by_id, parents, children = _index(rows)
    if conversation is None or not rows:
        return [], children, by_id
    leaf = conversation.active_leaf_id
    if leaf not in by_id:
        leaf = newest_childless(children, list(by_id)) or rows[-1].id
    return path_ids(parents, leaf), children, by_id


def _decode(by_id: dict[str, Row[Any]], ids: list[str]) -> list[Message]:
    reader = mapping.MessageReader()
    return [reader.read(by_id[message_id]) for message_id in ids]


def _messages(conn: Connection, conversation_id: str) -> list[Message]:
    reader = mapping.MessageReader()
    return [reader.read(row) for row in _node_rows(conn, conversation_id)]
