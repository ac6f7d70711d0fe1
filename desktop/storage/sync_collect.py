"""This device's changes not yet sent: found by comparing `parley.db` with `sync.db`.

Nothing in the chat code has to remember to log a change: whatever differs from what
was last sent or received is a change, found by one read of each table. So a change
made while sync was paused, offline or not yet set up is sent the next time, and a
crash between writing and sending loses nothing. Only finished messages are sent:
one that is streaming or waiting for approval goes once it ends.

`collect` returns the records and the `Marks` to write into `sync.db` once the
storage holds them (`mark_sent`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection

from desktop.core import hlc
from desktop.storage import sync_records as rec
from desktop.storage.database import Database
from desktop.storage.sync_state import SyncState, get_meta, set_meta

CLOCK_KEY = "clock"


@dataclass(slots=True)
class Marks:
    messages: list[tuple[str, str, str | None, str, int, str]] = field(default_factory=list)
    registers: list[tuple[str, str, str, int, str]] = field(default_factory=list)
    memories: list[tuple[str, str, int, str]] = field(default_factory=list)
    attachments: list[str] = field(default_factory=list)
    tombstones: list[tuple[str, str]] = field(default_factory=list)
    clock: int = 0


@dataclass(slots=True)
class LocalChanges:
    records: list[dict[str, Any]]
    marks: Marks
    blobs: list[tuple[str, str]]  # (sha256, attachment id) of the files the records use

    def __len__(self) -> int:
        return len(self.records)


class _Clock:
    def __init__(self, last: int, now_ms: int) -> None:
        self.last = last
        self._now_ms = now_ms

    def stamp(self) -> int:
        self.last = hlc.tick(self.last, self._now_ms)
        return self.last


def collect(db: Database, state: SyncState, device: str, now_ms: int) -> LocalChanges:
    """Every change made here since it was last sent, as records in applying order."""
    with state.read() as sconn:
        clock = _Clock(int(get_meta(sconn, CLOCK_KEY, "0")), now_ms)
        known_messages = {
            row[0]: (row[1], row[2], row[3])
            for row in sconn.exec_driver_sql(
                "SELECT id, digest, conversation_id, parent_id FROM messages"
            )
        }
        registers = {
            (row[0], row[1]): (row[2], row[3], row[4])
            for row in sconn.exec_driver_sql(
                "SELECT conversation_id, field, value, stamp, device FROM registers"
            )
        }
        known_memories = {
            row[0]: row[1] for row in sconn.exec_driver_sql("SELECT id, digest FROM memories")
        }
        known_attachments = {row[0] for row in sconn.exec_driver_sql("SELECT id FROM attachments")}
        sent_tombstones = {
            (row[0], row[1]) for row in sconn.exec_driver_sql("SELECT kind, id FROM tombstones")
        }
    marks = Marks()
    with db.read() as conn:
        conversations = _conversations(conn, registers, clock, device, marks)
        messages, wanted = _messages(conn, known_messages, clock, device, marks)
        attachments = _attachments(conn, wanted, known_attachments, marks)
        memories = _memories(conn, known_memories, clock, device, marks)
        deletes = _deletes(conn, sent_tombstones, known_messages, marks)
    marks.clock = clock.last
    blobs = [(row["sha256"], row["id"]) for row in (r["row"] for r in attachments)]
    records = conversations + attachments + rec.children_first_order(messages)
    return LocalChanges(records + memories + deletes, marks, blobs)


def mark_sent(state: SyncState, marks: Marks) -> None:
    """Record that the storage now holds these changes."""
    with state.write() as conn:
        record_marks(conn, marks)


def record_marks(conn: Connection, marks: Marks) -> None:
    if marks.messages:
        conn.exec_driver_sql(
            "INSERT INTO messages (id, conversation_id, parent_id, digest, stamp, device)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET"
            " digest = excluded.digest, stamp = excluded.stamp, device = excluded.device",
            marks.messages,
        )
    if marks.registers:
        conn.exec_driver_sql(
            "INSERT INTO registers (conversation_id, field, value, stamp, device)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (conversation_id, field) DO UPDATE SET"
            " value = excluded.value, stamp = excluded.stamp, device = excluded.device",
            marks.registers,
        )
    if marks.memories:
        conn.exec_driver_sql(
            "INSERT INTO memories (id, digest, stamp, device) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET digest = excluded.digest,"
            " stamp = excluded.stamp, device = excluded.device",
            marks.memories,
        )
    if marks.attachments:
        conn.exec_driver_sql(
            "INSERT OR IGNORE INTO attachments (id) VALUES (?)",
            [(item,) for item in marks.attachments],
        )
    if marks.tombstones:
        conn.exec_driver_sql(
            "INSERT OR IGNORE INTO tombstones (kind, id) VALUES (?, ?)", marks.tombstones
        )
    current = int(get_meta(conn, CLOCK_KEY, "0"))
    set_meta(conn, CLOCK_KEY, str(max(current, marks.clock)))


def _conversations(
    conn: Connection,
    registers: dict[tuple[str, str], tuple[str, int, str]],
    clock: _Clock,
    device: str,
    marks: Marks,
) -> list[dict[str, Any]]:
    names = ", ".join(rec.FIELDS)
    records = []
    for row in conn.exec_driver_sql(
        f"SELECT id, created_at, updated_at, {names} FROM conversations"
    ).mappings():
        cid = row["id"]
        fields: dict[str, list[Any]] = {}
        changed = False
        for name in (*rec.FIELDS, "updated_at"):
            value = _field_value(name, row[name])
            text = rec.canonical(value)
            known = registers.get((cid, name))
            if known is not None and (
                known[0] == text
                or (name == "updated_at" and int(json.loads(known[0]) or 0) >= value)
            ):
                fields[name] = [json.loads(known[0]), known[1], known[2]]
                continue
            stamp = clock.stamp()
            fields[name] = [value, stamp, device]
            marks.registers.append((cid, name, text, stamp, device))
            changed = True
        if changed:
            activity = fields.pop("updated_at")
            records.append(
                {
                    "t": rec.CONVERSATION,
                    "id": cid,
                    "created_at": row["created_at"],
                    "updated_at": activity,
                    "fields": fields,
                }
            )
    return records


def _field_value(name: str, value: Any) -> Any:
    if name in ("pinned", "archived"):
        return bool(value)
    if name == "pinned_message_ids":
        try:
            ids = json.loads(value or "[]")
        except json.JSONDecodeError:
            return []
        return [item for item in ids if isinstance(item, str)] if isinstance(ids, list) else []
    return value


def _messages(
    conn: Connection,
    known: dict[str, tuple[str | None, str, str | None]],
    clock: _Clock,
    device: str,
    marks: Marks,
) -> tuple[list[dict[str, Any]], set[str]]:
    names = ", ".join(rec.MESSAGE_COLUMNS)
    marks_ = ", ".join("?" for _ in rec.FINAL_STATUSES)
    records = []
    wanted: set[str] = set()
    query = (
        f"SELECT id, conversation_id, parent_id, {names} FROM messages WHERE status IN ({marks_})"
    )
    for row in conn.exec_driver_sql(query, tuple(rec.FINAL_STATUSES)).mappings():
        data = {name: row[name] for name in rec.MESSAGE_COLUMNS}
        data["context"] = rec.shared_context(row["context"])
        digest = rec.digest([row["conversation_id"], data])
        seen = known.get(row["id"])
        if seen is not None and seen[0] == digest:
            continue
        # A message received earlier keeps the parent it was written under: here it may
        # hang from a nearer ancestor after a deletion, which is not a change of it.
        parent = seen[2] if seen is not None else row["parent_id"]
        stamp = clock.stamp()
        records.append(
            {
                "t": rec.MESSAGE,
                "id": row["id"],
                "conversation_id": row["conversation_id"],
                "parent_id": parent,
                "row": data,
                "stamp": stamp,
                "device": device,
            }
        )
        marks.messages.append((row["id"], row["conversation_id"], parent, digest, stamp, device))
        wanted.update(rec.attachment_ids(data))
    return records, wanted


def _attachments(
    conn: Connection, wanted: set[str], known: set[str], marks: Marks
) -> list[dict[str, Any]]:
    missing = sorted(wanted - known)
    records = []
    names = ", ".join(rec.ATTACHMENT_COLUMNS)
    for start in range(0, len(missing), 500):
        batch = missing[start : start + 500]
        marks_ = ", ".join("?" for _ in batch)
        for row in conn.exec_driver_sql(
            f"SELECT {names} FROM attachments WHERE id IN ({marks_})", tuple(batch)
        ).mappings():
            records.append({"t": rec.ATTACHMENT, "row": dict(row)})
            marks.attachments.append(row["id"])
    return records


def _memories(
    conn: Connection, known: dict[str, str], clock: _Clock, device: str, marks: Marks
) -> list[dict[str, Any]]:
    names = ", ".join(rec.MEMORY_COLUMNS)
    records = []
    for row in conn.exec_driver_sql(f"SELECT id, {names} FROM memories").mappings():
        data = {name: row[name] for name in rec.MEMORY_COLUMNS}
        digest = rec.digest(data)
        if known.get(row["id"]) == digest:
            continue
        stamp = clock.stamp()
        records.append(
            {"t": rec.MEMORY, "id": row["id"], "row": data, "stamp": stamp, "device": device}
        )
        marks.memories.append((row["id"], digest, stamp, device))
    return records


def _deletes(
    conn: Connection,
    sent: set[tuple[str, str]],
    known: dict[str, tuple[str | None, str, str | None]],
    marks: Marks,
) -> list[dict[str, Any]]:
    """Deletions made here, by exact id. A message nobody else has seen (made and
    deleted between two syncs) needs no record: marking it is enough."""
    fresh = [
        (str(kind), str(item))
        for kind, item in conn.exec_driver_sql("SELECT kind, id FROM tombstones")
        if (kind, item) not in sent
    ]
    if not fresh:
        return []
    marks.tombstones.extend(fresh)
    live_conversations = {row[0] for row in conn.exec_driver_sql("SELECT id FROM conversations")}
    gone_conversations = {item for kind, item in fresh if kind == "conversation"}
    by_conversation: dict[str, dict[str, str | None]] = {}
    for kind, item in fresh:
        if kind == "message" and item in known:
            _digest, conversation_id, parent = known[item]
            by_conversation.setdefault(conversation_id, {})[item] = parent
    records = []
    for cid in sorted(gone_conversations | set(by_conversation)):
        named = by_conversation.get(cid, {})
        # A conversation deleted again after a reply from elsewhere brought it back:
        # its own tombstone was sent the first time, its new messages' are fresh.
        whole = cid in gone_conversations or cid not in live_conversations
        records.append(
            {
                "t": rec.DELETE,
                "kind": "conversation" if whole else "message",
                "conversation_id": cid,
                "messages": dict(sorted(named.items())),
            }
        )
    return records


def pending_count(db: Database, state: SyncState, device: str, now_ms: int) -> int:
    return len(collect(db, state, device, now_ms))
