"""This device's changes not yet sent: found by comparing `parley.db` with `sync.db`.

Nothing in the chat code has to remember to log a change: whatever differs from what
was last sent or received is a change, found by one read of each table. So a change
made while sync was paused, offline or not yet set up is sent the next time, and a
crash anywhere loses nothing. Only finished messages are sent: one that is streaming
or waiting for approval goes once it ends.

Two steps, because a change must be stamped before other devices' changes are merged:
1. `stamp_changes` gives every change found a clock stamp now, records it in `sync.db`
   (registers, digests) and queues it in the outbox. Run before receiving: a rename
   made here and not yet sent then competes with a rename received by its stamp,
   instead of being overwritten unseen by the merge.
2. `collect` (after receiving) stamps anything new again and builds the records of
   the outbox from the current rows; `mark_sent` empties the outbox of what the
   storage now holds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

from sqlalchemy import Connection

from desktop.core import hlc
from desktop.storage import sync_records as rec
from desktop.storage.database import Database
from desktop.storage.sync_state import SyncState, get_meta, set_meta
from desktop.storage.tables import PERSON_SET_COLUMNS

CLOCK_KEY: Final = "clock"
CREATED: Final = "created_at"  # a register set once: when the conversation began
_BATCH: Final = 500


@dataclass(slots=True)
class Marks:
    """What to record once the storage holds the records: outbox entries (kind, id,
    stamp) to remove, and deletions sent."""

    outbox: list[tuple[str, str, int]] = field(default_factory=list)
    tombstones: list[tuple[str, str]] = field(default_factory=list)
    live: list[str] | None = None  # the conversations here when the records were made


@dataclass(slots=True)
class LocalChanges:
    records: list[dict[str, Any]]
    marks: Marks
    blobs: list[tuple[str, str]]  # (sha256, attachment id) of the files the records use

    def __len__(self) -> int:
        return len(self.records)


class _Clock:
    """Stamps for changes found here. A change whose time is known (a rename's
    `changed_at`, a memory's last edit) is stamped with that time, so of two edits
    made apart the later wins wherever it is noticed first; and always above the
    stamp of the value it replaced, which was here when the person changed it."""

    def __init__(self, last: int, now_ms: int) -> None:
        self.last = last
        self._now_ms = now_ms

    def stamp(self, replaced: int = 0, at_ms: int | None = None) -> int:
        wall = hlc.pack(at_ms) if at_ms else hlc.tick(self.last, self._now_ms)
        stamp = max(wall, replaced + 1)
        self.last = max(self.last, stamp)
        return stamp


def stamp_changes(db: Database, state: SyncState, device: str, now_ms: int) -> int:
    """Stamp and queue every change made here since the last look; returns how many."""
    with state.write() as sconn:
        clock = _Clock(int(get_meta(sconn, CLOCK_KEY, "0")), now_ms)
        queued = 0
        with db.read() as conn:
            queued += _stamp_conversations(conn, sconn, clock, device)
            queued += _stamp_messages(conn, sconn, clock, device)
            queued += _stamp_memories(conn, sconn, clock, device)
        set_meta(sconn, CLOCK_KEY, str(clock.last))
    return queued


def collect(db: Database, state: SyncState, device: str, now_ms: int) -> LocalChanges:
    """The records of every change not yet sent, in applying order."""
    stamp_changes(db, state, device, now_ms)
    marks = Marks()
    with state.read() as sconn, db.read() as conn:
        outbox: dict[str, list[tuple[str, int]]] = {}
        for kind, item, stamp in sconn.exec_driver_sql("SELECT kind, id, stamp FROM outbox"):
            outbox.setdefault(kind, []).append((item, stamp))
            marks.outbox.append((kind, item, stamp))
        conversations = _conversation_records(conn, sconn, outbox.get(rec.CONVERSATION, []))
        messages = _message_records(conn, sconn, outbox.get(rec.MESSAGE, []))
        attachments = _attachment_records(conn, outbox.get(rec.ATTACHMENT, []))
        memories = _memory_records(conn, sconn, outbox.get(rec.MEMORY, []))
        deletes = _deletes(conn, sconn, marks)
    blobs = [(r["row"]["sha256"], r["row"]["id"]) for r in attachments]
    ordered = conversations + attachments + rec.children_first_order(messages)
    return LocalChanges(ordered + memories + deletes, marks, blobs)


def mark_sent(state: SyncState, marks: Marks) -> None:
    """The storage holds these changes: take them out of the outbox. An entry stamped
    again meanwhile (changed while it was being sent) stays for the next sync."""
    with state.write() as conn:
        if marks.outbox:
            conn.exec_driver_sql(
                "DELETE FROM outbox WHERE kind = ? AND id = ? AND stamp = ?", marks.outbox
            )
        if marks.tombstones:
            conn.exec_driver_sql(
                "INSERT OR IGNORE INTO tombstones (kind, id) VALUES (?, ?)", marks.tombstones
            )
        if marks.live is not None:
            conn.exec_driver_sql("DELETE FROM live")
            if marks.live:
                conn.exec_driver_sql(
                    "INSERT INTO live (id) VALUES (?)", [(item,) for item in marks.live]
                )


def pending_count(db: Database, state: SyncState, device: str, now_ms: int) -> int:
    """How many changes wait to be sent (stamping what is new)."""
    stamp_changes(db, state, device, now_ms)
    with state.read() as sconn, db.read() as conn:
        queued = int(sconn.exec_driver_sql("SELECT COUNT(*) FROM outbox").scalar_one())
        sent = {
            (str(k), str(i)) for k, i in sconn.exec_driver_sql("SELECT kind, id FROM tombstones")
        }
        deleted = sum(
            1
            for kind, item in conn.exec_driver_sql("SELECT kind, id FROM tombstones")
            if (kind, item) not in sent
        )
    return queued + deleted


def _queue(sconn: Connection, kind: str, item: str, stamp: int) -> None:
    sconn.exec_driver_sql(
        "INSERT INTO outbox (kind, id, stamp) VALUES (?, ?, ?)"
        " ON CONFLICT (kind, id) DO UPDATE SET stamp = excluded.stamp",
        (kind, item, stamp),
    )


# --- step 1: stamping ---------------------------------------------------------------


def _stamp_conversations(conn: Connection, sconn: Connection, clock: _Clock, device: str) -> int:
    registers = {
        (row[0], row[1]): (row[2], int(row[3]))
        for row in sconn.exec_driver_sql(
            "SELECT conversation_id, field, value, stamp FROM registers"
        )
    }
    names = ", ".join(rec.FIELDS)
    queued = 0
    for row in conn.exec_driver_sql(
        f"SELECT id, created_at, updated_at, changed_at, {names} FROM conversations"
    ).mappings():
        cid = row["id"]
        if (cid, CREATED) not in registers:  # kept to bring it back as it was (sync_apply)
            save_register(sconn, cid, CREATED, row[CREATED], 0, "")
        changed = False
        for name in (*rec.FIELDS, "updated_at"):
            value = field_value(name, row[name])
            text = rec.canonical(value)
            known, replaced = registers.get((cid, name), (None, 0))
            if known == text or (
                name == "updated_at" and known is not None and int(json.loads(known)) >= value
            ):
                continue
            at_ms = row["changed_at"] if name in PERSON_SET_COLUMNS else None
            save_register(sconn, cid, name, value, clock.stamp(replaced, at_ms), device)
            changed = True
        if changed:
            _queue(sconn, rec.CONVERSATION, cid, clock.last)
            queued += 1
    return queued


SAVE_REGISTER_SQL: Final = (
    "INSERT INTO registers (conversation_id, field, value, stamp, device)"
    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (conversation_id, field) DO UPDATE SET"
    " value = excluded.value, stamp = excluded.stamp, device = excluded.device"
)


def save_register(
    sconn: Connection, cid: str, name: str, value: Any, stamp: int, device: str
) -> None:
    sconn.exec_driver_sql(SAVE_REGISTER_SQL, (cid, name, rec.canonical(value), stamp, device))


def field_value(name: str, value: Any) -> Any:
    """A conversation column's value as a register holds it."""
    if name in ("pinned", "archived"):
        return bool(value)
    if name == "pinned_message_ids":
        try:
            ids = json.loads(value or "[]")
        except json.JSONDecodeError:
            return []
        return [item for item in ids if isinstance(item, str)] if isinstance(ids, list) else []
    return value


# A cheap summary of a message row, compared before its full digest is worked out: a
# finished message hardly ever changes, and reading and hashing every one at every
# sync would cost seconds on a large history. SQLite's length() counts characters.
SIGNATURE_SQL: Final = (
    "status || '|' || IFNULL(finished_at, '') || '|' || length(parts) || '|'"
    " || length(context) || '|' || IFNULL(output_tokens, '')"
)


def _stamp_messages(conn: Connection, sconn: Connection, clock: _Clock, device: str) -> int:
    known = {
        row[0]: (row[1], row[2], int(row[3]))
        for row in sconn.exec_driver_sql("SELECT id, sig, digest, stamp FROM messages")
    }
    sent_files = {row[0] for row in sconn.exec_driver_sql("SELECT id FROM attachments")}
    statuses = ", ".join("?" for _ in rec.FINAL_STATUSES)
    candidates = [
        (str(row[0]), str(row[1]))
        for row in conn.exec_driver_sql(
            f"SELECT id, {SIGNATURE_SQL} FROM messages WHERE status IN ({statuses})",
            tuple(rec.FINAL_STATUSES),
        )
        if row[0] not in known or known[row[0]][0] != row[1]
    ]
    signatures = dict(candidates)
    names = ", ".join(rec.MESSAGE_COLUMNS)
    rows = _rows(
        conn,
        f"SELECT id, conversation_id, parent_id, {names} FROM messages WHERE id IN ({{ids}})",
        list(signatures),
    )
    queued = 0
    files: set[str] = set()
    for mid, signature in candidates:
        row = rows.get(mid)
        if row is None:
            continue
        data = message_data(row)
        digest = rec.digest([row["conversation_id"], data])
        _sig, seen, replaced = known.get(mid, (None, None, 0))
        if seen == digest:  # the same message: only its summary is new
            sconn.exec_driver_sql("UPDATE messages SET sig = ? WHERE id = ?", (signature, mid))
            continue
        stamp = clock.stamp(replaced, max(row["created_at"], row["finished_at"] or 0))
        if mid in known:
            sconn.exec_driver_sql(
                "UPDATE messages SET sig = ?, digest = ?, stamp = ?, device = ? WHERE id = ?",
                (signature, digest, stamp, device, mid),
            )
        else:
            sconn.exec_driver_sql(
                "INSERT INTO messages (id, conversation_id, parent_id, sig, digest, stamp, device)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (mid, row["conversation_id"], row["parent_id"], signature, digest, stamp, device),
            )
        _queue(sconn, rec.MESSAGE, mid, stamp)
        queued += 1
        files.update(rec.attachment_ids(data))
    for item in sorted(files - sent_files):
        sconn.exec_driver_sql("INSERT OR IGNORE INTO attachments (id) VALUES (?)", (item,))
        _queue(sconn, rec.ATTACHMENT, item, clock.last)
    return queued


def message_data(row: Any) -> dict[str, Any]:
    """A message row's synced columns as a record carries them."""
    data = {name: row[name] for name in rec.MESSAGE_COLUMNS}
    data["context"] = rec.shared_context(row["context"])
    return data


def _stamp_memories(conn: Connection, sconn: Connection, clock: _Clock, device: str) -> int:
    known = {
        row[0]: (row[1], int(row[2]))
        for row in sconn.exec_driver_sql("SELECT id, digest, stamp FROM memories")
    }
    names = ", ".join(rec.MEMORY_COLUMNS)
    queued = 0
    for row in conn.exec_driver_sql(f"SELECT id, {names} FROM memories").mappings():
        digest = rec.digest({name: row[name] for name in rec.MEMORY_COLUMNS})
        seen, replaced = known.get(row["id"], (None, 0))
        if seen == digest:
            continue
        changed = max(row["updated_at"], row["deleted_at"] or 0, row["restored_at"] or 0)
        stamp = clock.stamp(replaced, changed)
        sconn.exec_driver_sql(
            "INSERT INTO memories (id, digest, stamp, device) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET digest = excluded.digest,"
            " stamp = excluded.stamp, device = excluded.device",
            (row["id"], digest, stamp, device),
        )
        _queue(sconn, rec.MEMORY, row["id"], stamp)
        queued += 1
    return queued


# --- step 2: records ----------------------------------------------------------------


def _rows(conn: Connection, query: str, ids: list[str]) -> dict[str, Any]:
    """`query` (ending in "IN ({ids})") run over `ids` in batches, rows by id."""
    found: dict[str, Any] = {}
    for start in range(0, len(ids), _BATCH):
        batch = ids[start : start + _BATCH]
        marks = ", ".join("?" for _ in batch)
        for row in conn.exec_driver_sql(query.format(ids=marks), tuple(batch)).mappings():
            found[row["id"]] = row
    return found


def _conversation_records(
    conn: Connection, sconn: Connection, queued: list[tuple[str, int]]
) -> list[dict[str, Any]]:
    ids = [item for item, _stamp in queued]
    rows = _rows(conn, "SELECT id, created_at FROM conversations WHERE id IN ({ids})", ids)
    registers: dict[str, dict[str, list[Any]]] = {}
    for cid, name, value, stamp, device in sconn.exec_driver_sql(
        "SELECT conversation_id, field, value, stamp, device FROM registers"
    ):
        if cid in rows:
            registers.setdefault(cid, {})[name] = [json.loads(value), stamp, device]
    records = []
    for cid in ids:
        if cid not in rows:
            continue  # deleted since: its deletion is sent instead
        fields = registers.get(cid, {})
        fields.pop(CREATED, None)
        activity = fields.pop("updated_at", [0, 0, ""])
        records.append(
            {
                "t": rec.CONVERSATION,
                "id": cid,
                "created_at": rows[cid]["created_at"],
                "updated_at": activity,
                "fields": fields,
            }
        )
    return records


def _message_records(
    conn: Connection, sconn: Connection, queued: list[tuple[str, int]]
) -> list[dict[str, Any]]:
    ids = [item for item, _stamp in queued]
    names = ", ".join(rec.MESSAGE_COLUMNS)
    rows = _rows(
        conn, f"SELECT id, conversation_id, {names} FROM messages WHERE id IN ({{ids}})", ids
    )
    known = _rows(
        sconn, "SELECT id, parent_id, stamp, device FROM messages WHERE id IN ({ids})", ids
    )
    records = []
    for mid in ids:
        row, seen = rows.get(mid), known.get(mid)
        if row is None or seen is None or row["status"] not in rec.FINAL_STATUSES:
            continue
        records.append(
            {
                "t": rec.MESSAGE,
                "id": mid,
                "conversation_id": row["conversation_id"],
                # The parent it was written under: here it may hang from a nearer
                # ancestor after a deletion, which is not a change of it.
                "parent_id": seen["parent_id"],
                "row": message_data(row),
                "stamp": seen["stamp"],
                "device": seen["device"],
            }
        )
    return records


def _attachment_records(conn: Connection, queued: list[tuple[str, int]]) -> list[dict[str, Any]]:
    names = ", ".join(rec.ATTACHMENT_COLUMNS)
    ids = [item for item, _stamp in queued]
    rows = _rows(conn, f"SELECT {names} FROM attachments WHERE id IN ({{ids}})", ids)
    return [{"t": rec.ATTACHMENT, "row": dict(rows[item])} for item in ids if item in rows]


def _memory_records(
    conn: Connection, sconn: Connection, queued: list[tuple[str, int]]
) -> list[dict[str, Any]]:
    ids = [item for item, _stamp in queued]
    names = ", ".join(rec.MEMORY_COLUMNS)
    rows = _rows(conn, f"SELECT id, {names} FROM memories WHERE id IN ({{ids}})", ids)
    known = _rows(sconn, "SELECT id, stamp, device FROM memories WHERE id IN ({ids})", ids)
    return [
        {
            "t": rec.MEMORY,
            "id": mid,
            "row": {name: rows[mid][name] for name in rec.MEMORY_COLUMNS},
            "stamp": known[mid]["stamp"],
            "device": known[mid]["device"],
        }
        for mid in ids
        if mid in rows and mid in known
    ]


def _deletes(conn: Connection, sconn: Connection, marks: Marks) -> list[dict[str, Any]]:
    """Deletions made here, by exact id. A message nobody else has seen (made and
    deleted between two syncs) needs no record: marking it is enough. A conversation
    that was here at the last look and is gone now is a deletion even when its
    tombstone was sent before: a reply from elsewhere had brought it back since."""
    sent = {(str(k), str(i)) for k, i in sconn.exec_driver_sql("SELECT kind, id FROM tombstones")}
    tombstoned = [
        (str(k), str(i)) for k, i in conn.exec_driver_sql("SELECT kind, id FROM tombstones")
    ]
    fresh = [entry for entry in tombstoned if entry not in sent]
    live = {str(row[0]) for row in conn.exec_driver_sql("SELECT id FROM conversations")}
    marks.live = sorted(live)
    was_live = {str(row[0]) for row in sconn.exec_driver_sql("SELECT id FROM live")}
    gone = {item for kind, item in fresh if kind == "conversation"} | {
        item for kind, item in tombstoned if kind == "conversation" and item in was_live - live
    }
    if not fresh and not gone:
        return []
    marks.tombstones.extend(fresh)
    known = _rows(
        sconn,
        "SELECT id, conversation_id, parent_id FROM messages WHERE id IN ({ids})",
        [item for kind, item in fresh if kind == "message"],
    )
    by_conversation: dict[str, dict[str, str | None]] = {}
    for row in known.values():
        by_conversation.setdefault(row["conversation_id"], {})[row["id"]] = row["parent_id"]
    records = []
    for cid in sorted(gone | set(by_conversation)):
        # A conversation deleted again after a reply from elsewhere brought it back:
        # its own tombstone was sent the first time, its new messages' are fresh.
        whole = cid in gone or cid not in live
        records.append(
            {
                "t": rec.DELETE,
                "kind": "conversation" if whole else "message",
                "conversation_id": cid,
                "messages": dict(sorted(by_conversation.get(cid, {}).items())),
            }
        )
    return records
