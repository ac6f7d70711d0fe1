"""Importing a conversation (usually read by `engine.export.from_json`) into the database.

One write transaction: all of it lands, or none. Ids are kept as they are in the file,
so a conversation exported from one machine and imported on another stays the same
conversation, and importing it again is a no-op:
- a new conversation id: the conversation and all its messages are inserted;
- a known conversation id: only messages it does not have yet are added (a branch made
  elsewhere); the conversation row (title, active branch, flags) is left as it is here;
- a message id that already belongs to a *different* conversation: refused, because
  sharing it would tie two trees together and corrupt both.

Messages are inserted parents first (the parent_id foreign key checks each row as it
is written); the full-text index follows through its triggers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from sqlalchemy import Connection, insert, select

from desktop.core.i18n import tr
from desktop.core.models import Conversation, Message
from desktop.storage import mapping
from desktop.storage.database import Database
from desktop.storage.errors import StorageError
from desktop.storage.tables import conversations, messages

_ID_BATCH = 500  # stay far below SQLite's bound-parameter limit


@dataclass(frozen=True, slots=True)
class ImportResult:
    conversation_id: str
    added: int  # messages inserted
    skipped: int  # messages that were already there


class ImportConflictError(StorageError):
    """The data cannot be imported without corrupting what is already stored."""


def _batches(ids: Sequence[str]) -> Iterator[Sequence[str]]:
    for start in range(0, len(ids), _ID_BATCH):
        yield ids[start : start + _ID_BATCH]


def _owners(conn: Connection, ids: Sequence[str]) -> dict[str, str]:
    """message id -> the conversation it is stored in, for the ids that exist."""
    owners: dict[str, str] = {}
    for batch in _batches(ids):
        query = select(messages.c.id, messages.c.conversation_id).where(messages.c.id.in_(batch))
        owners.update({row.id: row.conversation_id for row in conn.execute(query)})
    return owners


def parents_first(nodes: Sequence[Message]) -> list[Message]:
    """Each node after its parent when the parent is among `nodes`; otherwise in the
    given order. Nodes on or below a parent cycle are left out of the result."""
    by_id = {m.id: m for m in nodes}
    placed: set[str] = set()
    ordered: list[Message] = []
    for node in nodes:
        chain: list[Message] = []
        in_chain: set[str] = set()
        current: Message | None = node
        while current is not None and current.id not in placed:
            if current.id in in_chain:
                break  # a cycle: from_json rejects these; nothing sensible to insert
            chain.append(current)
            in_chain.add(current.id)
            current = by_id.get(current.parent_id or "")
        else:
            for item in reversed(chain):
                placed.add(item.id)
                ordered.append(item)
    return ordered


def import_conversation(
    db: Database, conversation: Conversation, messages_: list[Message]
) -> ImportResult:
    """Insert what is missing of `conversation` and `messages_`; see the module doc.

    Raises `ImportConflictError` for a message of another conversation (in the data or
    in the database) or a parent that exists nowhere; nothing is written then.
    """
    strangers = [m.id for m in messages_ if m.conversation_id != conversation.id]
    if strangers:
        raise ImportConflictError(
            tr(
                "The message {message} does not belong to the conversation {id} being imported; "
                "nothing was imported."
            ).format(message=strangers[0], id=conversation.id)
        )
    file_ids = {m.id for m in messages_}
    if len(file_ids) != len(messages_):
        raise ImportConflictError(tr("The same message id appears twice; nothing was imported."))
    ordered = parents_first(messages_)
    if len(ordered) != len(messages_):
        raise ImportConflictError(
            tr("The messages of {id} do not form a tree; nothing was imported.").format(
                id=conversation.id
            )
        )
    with db.write() as conn:
        owners = _owners(conn, [m.id for m in ordered])
        elsewhere = sorted(i for i, owner in owners.items() if owner != conversation.id)
        if elsewhere:
            raise ImportConflictError(
                tr(
                    "%n message(s) being imported, e.g. {example}, already "
                    "belong to another conversation. Nothing was imported, so neither "
                    "conversation is changed.",
                    "",
                    len(elsewhere),
                ).format(example=elsewhere[0])
            )
        new = [m for m in ordered if m.id not in owners]
        _check_outside_parents(conn, conversation.id, new, file_ids)
        exists = conn.execute(
            select(conversations.c.id).where(conversations.c.id == conversation.id)
        ).first()
        if exists is None:
            conn.execute(insert(conversations).values(mapping.conversation_to_row(conversation)))
        if new:
            conn.execute(insert(messages), [mapping.message_to_row(m) for m in new])
    return ImportResult(conversation.id, added=len(new), skipped=len(ordered) - len(new))


def _check_outside_parents(
    conn: Connection, conversation_id: str, new: list[Message], file_ids: set[str]
) -> None:
    """A parent that is not being imported must already be stored, in this conversation."""
    outside = sorted({m.parent_id for m in new if m.parent_id and m.parent_id not in file_ids})
    owners = _owners(conn, outside)
    for message in new:
        parent = message.parent_id
        if parent is None or parent in file_ids:
            continue
        if parent not in owners:
            raise ImportConflictError(
                tr(
                    "The message {id} replies to {parent}, which is neither being imported nor "
                    "stored; nothing was imported."
                ).format(id=message.id, parent=parent)
            )
        if owners[parent] != conversation_id:
            raise ImportConflictError(
                tr(
                    "The message {id} replies to {parent}, which belongs to another "
                    "conversation; nothing was imported."
                ).format(id=message.id, parent=parent)
            )
