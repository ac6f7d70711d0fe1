"""Applying other devices' change records to `parley.db` (design E3).

The merge gives the same data whatever order records arrive in, and applying one twice
changes nothing:
- a message is inserted once; a later change of it wins by (stamp, device);
- each conversation field is a last-writer-wins register, its activity time a maximum;
- a deletion removes exactly the ids it names. A reply it does not name, written
  elsewhere meanwhile, survives: it hangs from the nearest ancestor no deletion named,
  worked out from the parents messages were written under (`sync.db` keeps them, the
  deletion records carry them), so every device picks the same one. A conversation
  deleted here that receives such a reply comes back, holding it (`Applied.revived`).
- a record whose conversation or parent has not arrived yet (it is in a segment of
  another device not read yet) waits in `sync.db` and is tried again with every batch.

Everything of one batch is one transaction of `parley.db`, then one of `sync.db`
(see `sync_state.py` for why a crash between them is harmless).
"""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import dataclass, field
from typing import Any, Final

from sqlalchemy import Connection

from desktop.core import hlc
from desktop.storage import mapping
from desktop.storage import sync_records as rec
from desktop.storage.database import Database
from desktop.storage.restore_common import index_memory_words
from desktop.storage.sqlite_engine import driver_connection
from desktop.storage.sync_check import well_formed
from desktop.storage.sync_collect import CLOCK_KEY, CREATED, SAVE_REGISTER_SQL, SIGNATURE_SQL
from desktop.storage.sync_state import SyncState, add_waiting, get_meta, set_meta, take_waiting
from desktop.storage.tables import PERSON_SET_COLUMNS
from desktop.storage.tombstones import Kind
from desktop.storage.tombstones import record as record_tombstones

log = logging.getLogger(__name__)

_BATCH: Final = 500
_MAX_DEPTH: Final = 100_000


@dataclass(slots=True)
class Applied:
    applied: int = 0
    waiting: int = 0
    revived: list[str] = field(default_factory=list)  # conversation ids brought back
    removed_devices: dict[str, int] = field(default_factory=dict)  # device → last segment
    passed_over: int = 0  # malformed records (sync_check.py), or ones the data refused


def apply_records(
    db: Database, state: SyncState, records: list[dict[str, Any]], now_ms: int
) -> Applied:
    """Apply `records` (and those waiting from earlier batches) in one transaction."""
    outcome = Applied()
    with state.write() as sconn, db.write() as conn:
        merge = _Merge(conn, sconn, now_ms, outcome)
        fresh = [record for record in records if well_formed(record)]
        outcome.passed_over = len(records) - len(fresh)
        queue = take_waiting(sconn) + fresh
        progress = True
        while queue and progress:
            progress = False
            later = []
            for record in queue:
                applied = merge.apply_alone(record)
                if applied is None:
                    outcome.passed_over += 1
                elif applied:
                    progress = True
                    outcome.applied += 1
                else:
                    later.append(record)
            queue = later
        merge.finish()
        add_waiting(sconn, queue)
        outcome.waiting = len(queue)
        set_meta(sconn, CLOCK_KEY, str(merge.clock))
    return outcome


class _Merge:
    """Statements go to the two transactions' sqlite3 connections directly: a batch
    is tens of thousands of small queries, where SQLAlchemy's own cost per statement
    would be most of the time (measured: 42 µs against 5 µs per lookup)."""

    def __init__(self, conn: Connection, sconn: Connection, now_ms: int, outcome: Applied):
        self.conn = conn
        self.main = driver_connection(conn)
        self.known = driver_connection(sconn)
        self.now_ms = now_ms
        self.outcome = outcome
        self.clock = int(get_meta(sconn, CLOCK_KEY, "0"))
        self.activity: dict[str, int] = {}  # conversation → its newest message received

    def finish(self) -> None:
        """What is done once per batch rather than once per record."""
        for cid, at_ms in self.activity.items():
            self._raise_activity(cid, at_ms)

    def apply_alone(self, record: dict[str, Any]) -> bool | None:
        """`apply` inside a savepoint: a record the data refuses (a duplicate key, a
        value of the wrong kind deep inside) is undone alone and passed over (None),
        and the rest of the batch still applies. A failure of the database itself (a
        full disk) is not the record's fault: it ends the whole batch."""
        for cursor in (self.main, self.known):
            cursor.execute("SAVEPOINT sync_record")
        try:
            applied = self.apply(record)
        except (KeyError, TypeError, ValueError, OverflowError, sqlite3.IntegrityError):
            log.warning("A received %s record could not be applied", record.get("t"))
            for cursor in (self.main, self.known):
                cursor.execute("ROLLBACK TO sync_record")
            applied = None
        for cursor in (self.main, self.known):
            cursor.execute("RELEASE sync_record")
        return applied

    def apply(self, record: dict[str, Any]) -> bool:
        """True once applied (or nothing is left to do), False to wait."""
        kind = record.get("t")
        stamp = record.get("stamp")
        if isinstance(stamp, int):
            self.clock = hlc.observe(self.clock, stamp)
        if kind == rec.CONVERSATION:
            return self._conversation(record)
        if kind == rec.MESSAGE:
            return self._message(record)
        if kind == rec.DELETE:
            return self._delete(record)
        if kind == rec.MEMORY:
            return self._memory(record)
        if kind == rec.ATTACHMENT:
            return self._attachment(record)
        if kind == rec.REMOVED:
            device, after = record["device"], int(record["after"])
            known = self.outcome.removed_devices.get(device)
            self.outcome.removed_devices[device] = after if known is None else min(known, after)
            return True
        return True  # a kind from a newer Parley: nothing this version can do with it

    # --- lookups ----------------------------------------------------------------------

    def _exists(self, table: str, item: str) -> bool:
        query = f"SELECT 1 FROM main.{table} WHERE id = ?"
        return self.main.execute(query, (item,)).fetchone() is not None

    def _tombstoned(self, kind: Kind, item: str) -> bool:
        query = "SELECT 1 FROM main.tombstones WHERE kind = ? AND id = ?"
        return self.main.execute(query, (kind.value, item)).fetchone() is not None

    def _written_parent(self, message_id: str) -> tuple[bool, str | None]:
        """(known, parent) of the parent `message_id` was written under."""
        row = self.known.execute(
            "SELECT parent_id FROM messages WHERE id = ?", (message_id,)
        ).fetchone()
        if row is not None:
            return True, row[0]
        row = self.main.execute(
            "SELECT parent_id FROM main.messages WHERE id = ?", (message_id,)
        ).fetchone()
        return (True, row[0]) if row is not None else (False, None)

    def _surviving(self, parent: str | None) -> tuple[bool, str | None]:
        """(ready, the nearest ancestor from `parent` up that no deletion named).
        Not ready while an ancestor is neither here nor deleted: it has not arrived."""
        steps = 0
        while parent is not None and steps < _MAX_DEPTH:
            steps += 1
            if self._tombstoned(Kind.MESSAGE, parent):
                known, parent = self._written_parent(parent)
                if not known:
                    return True, None
                continue
            if self._exists("messages", parent):
                return True, parent
            return False, None
        return True, None

    # --- records ----------------------------------------------------------------------

    def _registers(self, cid: str) -> dict[str, tuple[Any, int, str]]:
        rows = self.known.execute(
            "SELECT field, value, stamp, device FROM registers WHERE conversation_id = ?", (cid,)
        ).fetchall()
        return {row[0]: (json.loads(row[1]), int(row[2]), str(row[3])) for row in rows}

    def _save_register(self, cid: str, name: str, value: Any, stamp: int, device: str) -> None:
        self.known.execute(SAVE_REGISTER_SQL, (cid, name, rec.canonical(value), stamp, device))

    def _conversation(self, record: dict[str, Any]) -> bool:
        cid = str(record["id"])
        registers = self._registers(cid)
        winners: dict[str, Any] = {}
        newest_person_change = 0
        for name, (value, stamp, device) in record["fields"].items():
            if name not in rec.FIELDS:
                continue
            known = registers.get(name)
            if known is None or hlc.newer(stamp, device, known[1], known[2]):
                self._save_register(cid, name, value, stamp, device)
                registers[name] = (value, stamp, device)
                winners[name] = value
                if name in PERSON_SET_COLUMNS:
                    newest_person_change = max(newest_person_change, hlc.wall_ms(stamp))
        if CREATED not in registers:
            created = int(record["created_at"])
            self._save_register(cid, CREATED, created, 0, "")
            registers[CREATED] = (created, 0, "")
        activity = record["updated_at"]
        known_activity = registers.get("updated_at")
        if known_activity is None or int(activity[0]) > int(known_activity[0]):
            self._save_register(cid, "updated_at", activity[0], activity[1], activity[2])
        if self._exists("conversations", cid):
            self._update_conversation(cid, winners, int(activity[0]), newest_person_change)
        elif not self._tombstoned(Kind.CONVERSATION, cid):
            self._insert_conversation(cid, registers)
        return True

    def _update_conversation(
        self, cid: str, winners: dict[str, Any], activity: int, person_change: int
    ) -> None:
        values = {name: _column_value(name, value) for name, value in winners.items()}
        sets = [f"{name} = ?" for name in values]
        params: list[Any] = list(values.values())
        sets.append("updated_at = MAX(updated_at, ?)")
        params.append(activity)
        if person_change:
            sets.append("changed_at = MAX(COALESCE(changed_at, 0), ?)")
            params.append(person_change)
        self.main.execute(
            f"UPDATE main.conversations SET {', '.join(sets)} WHERE id = ?", (*params, cid)
        )

    def _insert_conversation(self, cid: str, registers: dict[str, tuple[Any, int, str]]) -> None:
        created_at = int(registers[CREATED][0])
        values: dict[str, Any] = {
            name: _column_value(name, registers[name][0])
            for name in rec.FIELDS
            if name in registers
        }
        values.setdefault("title", "")
        values["pinned"] = values.get("pinned") or 0
        values["archived"] = values.get("archived") or 0
        activity = registers.get("updated_at")
        values["updated_at"] = int(activity[0]) if activity is not None else created_at
        values["created_at"] = created_at
        person = [registers[name][1] for name in PERSON_SET_COLUMNS if name in registers]
        values["changed_at"] = hlc.wall_ms(max(person)) if person else None
        names = ", ".join(["id", *values])
        marks = ", ".join("?" for _ in range(len(values) + 1))
        self.main.execute(
            f"INSERT INTO main.conversations ({names}) VALUES ({marks})", (cid, *values.values())
        )

    def _message(self, record: dict[str, Any]) -> bool:
        mid, cid = str(record["id"]), str(record["conversation_id"])
        parent = record.get("parent_id")
        data = record["row"]
        stamp, device = int(record["stamp"]), str(record["device"])
        digest = rec.digest([cid, data])
        if self._tombstoned(Kind.MESSAGE, mid):
            self._know_message(mid, cid, parent, digest, stamp, device, replace=False)
            return True
        if self._exists("messages", mid):
            row = self.known.execute(
                "SELECT stamp, device FROM messages WHERE id = ?", (mid,)
            ).fetchone()
            known = (int(row[0]), str(row[1])) if row is not None else (0, "")
            if hlc.newer(stamp, device, *known):
                self._write_message(mid, cid, None, data, insert=False)
                self._know_message(mid, cid, parent, digest, stamp, device, replace=True)
            return True
        if not self._exists("conversations", cid):
            if not self._tombstoned(Kind.CONVERSATION, cid):
                return False
            registers = self._registers(cid)
            if "title" not in registers or CREATED not in registers:
                return False
            self._insert_conversation(cid, registers)
            self.outcome.revived.append(cid)
        ready, effective = self._surviving(parent)
        if not ready:
            return False
        self._write_message(mid, cid, effective, data, insert=True)
        self._know_message(mid, cid, parent, digest, stamp, device, replace=True)
        at_ms = int(data["created_at"])
        self.activity[cid] = max(at_ms, self.activity.get(cid, at_ms))
        return True

    def _raise_activity(self, cid: str, at_ms: int) -> None:
        """A new message is activity: the conversation's time moves up to it, and so
        does its register (a maximum), so this is not taken for a change made here."""
        self.main.execute(
            "UPDATE main.conversations SET updated_at = MAX(updated_at, ?) WHERE id = ?",
            (at_ms, cid),
        )
        row = self.main.execute(
            "SELECT updated_at FROM main.conversations WHERE id = ?", (cid,)
        ).fetchone()
        if row is None:  # deleted later in the same batch
            return
        now = row[0]
        known = self._registers(cid).get("updated_at")
        if known is None or int(known[0]) < int(now):
            stamp, device = (known[1], known[2]) if known is not None else (0, "")
            self._save_register(cid, "updated_at", int(now), stamp, device)

    def _write_message(
        self, mid: str, cid: str, parent: str | None, data: dict[str, Any], *, insert: bool
    ) -> None:
        values = {name: data.get(name) for name in rec.MESSAGE_COLUMNS}
        text = (
            mapping.MessageReader()
            .read((mid, cid, parent, *(values[name] for name in rec.MESSAGE_COLUMNS)))
            .text
        )
        values["search_text"] = text
        if insert:
            values = {"id": mid, "conversation_id": cid, "parent_id": parent, **values}
            names = ", ".join(values)
            marks = ", ".join("?" for _ in values)
            self.main.execute(
                f"INSERT INTO main.messages ({names}) VALUES ({marks})", tuple(values.values())
            )
        else:
            sets = ", ".join(f"{name} = ?" for name in values)
            self.main.execute(
                f"UPDATE main.messages SET {sets} WHERE id = ?", (*values.values(), mid)
            )

    def _know_message(
        self,
        mid: str,
        cid: str,
        parent: str | None,
        digest: str | None,
        stamp: int,
        device: str,
        *,
        replace: bool,
    ) -> None:
        """Record a message as received; with `replace`, as now stored here (its
        summary too, so the next look for changes made here passes over it)."""
        signature = None
        if replace:
            found = self.main.execute(
                f"SELECT {SIGNATURE_SQL} FROM main.messages WHERE id = ?", (mid,)
            ).fetchone()
            signature = found[0] if found is not None else None
        verb = (
            " ON CONFLICT (id) DO UPDATE SET sig = excluded.sig, digest = excluded.digest,"
            " stamp = excluded.stamp, device = excluded.device"
            if replace
            else " ON CONFLICT (id) DO NOTHING"
        )
        self.known.execute(
            "INSERT INTO messages (id, conversation_id, parent_id, sig, digest, stamp, device)"
            f" VALUES (?, ?, ?, ?, ?, ?, ?){verb}",
            (mid, cid, parent, signature, digest, stamp, device),
        )

    def _delete(self, record: dict[str, Any]) -> bool:
        cid = str(record["conversation_id"])
        named: dict[str, str | None] = dict(record.get("messages") or {})
        whole = record.get("kind") == "conversation"
        for mid, parent in named.items():
            self._know_message(mid, cid, parent, None, 0, "", replace=False)
        record_tombstones(self.conn, Kind.MESSAGE, named, self.now_ms)
        sent = [("message", mid) for mid in named]
        if whole:
            record_tombstones(self.conn, Kind.CONVERSATION, [cid], self.now_ms)
            sent.append(("conversation", cid))
        # Received deletions are not this device's to send again.
        if sent:
            self.known.executemany(
                "INSERT OR IGNORE INTO tombstones (kind, id) VALUES (?, ?)", sent
            )
        present = [mid for mid in named if self._exists("messages", mid)]
        if present:
            self._reattach_children(present, set(named))
            for start in range(0, len(present), _BATCH):
                batch = present[start : start + _BATCH]
                marks = ", ".join("?" for _ in batch)
                # Unlinked first, so no cascade runs down a long chain.
                self.main.execute(
                    f"UPDATE main.messages SET parent_id = NULL WHERE id IN ({marks})", tuple(batch)
                )
                self.main.execute(f"DELETE FROM main.messages WHERE id IN ({marks})", tuple(batch))
        if whole and self._exists("conversations", cid):
            left = self.main.execute(
                "SELECT 1 FROM main.messages WHERE conversation_id = ? LIMIT 1", (cid,)
            ).fetchone()
            if left is None:
                self.main.execute("DELETE FROM main.conversations WHERE id = ?", (cid,))
                # Deleted elsewhere: not a deletion of this device's to send.
                self.known.execute("DELETE FROM live WHERE id = ?", (cid,))
        return True

    def _reattach_children(self, doomed: list[str], named: set[str]) -> None:
        for start in range(0, len(doomed), _BATCH):
            batch = doomed[start : start + _BATCH]
            marks = ", ".join("?" for _ in batch)
            children = self.main.execute(
                f"SELECT id, parent_id FROM main.messages WHERE parent_id IN ({marks})",
                tuple(batch),
            ).fetchall()
            for child, _parent in children:
                if child in named:
                    continue
                known, written = self._written_parent(child)
                _ready, survivor = self._surviving(written if known else None)
                self.main.execute(
                    "UPDATE main.messages SET parent_id = ? WHERE id = ?", (survivor, child)
                )

    def _memory(self, record: dict[str, Any]) -> bool:
        mid = str(record["id"])
        data = record["row"]
        stamp, device = int(record["stamp"]), str(record["device"])
        row = self.known.execute(
            "SELECT stamp, device FROM memories WHERE id = ?", (mid,)
        ).fetchone()
        exists = self._exists("memories", mid)
        if exists and row is not None and not hlc.newer(stamp, device, int(row[0]), str(row[1])):
            return True
        values = {name: data.get(name) for name in rec.MEMORY_COLUMNS}
        if exists:
            sets = ", ".join(f"{name} = ?" for name in values)
            self.main.execute(
                f"UPDATE main.memories SET {sets}, embedding = NULL, model_key = NULL WHERE id = ?",
                (*values.values(), mid),
            )
        else:
            names = ", ".join(["id", *values])
            marks = ", ".join("?" for _ in range(len(values) + 1))
            self.main.execute(
                f"INSERT INTO main.memories ({names}) VALUES ({marks})", (mid, *values.values())
            )
        rowid = self.main.execute(
            "SELECT rowid FROM main.memories WHERE id = ?", (mid,)
        ).fetchone()[0]
        index_memory_words(self.conn, [(int(rowid), str(values["text"]))])
        self.known.execute(
            "INSERT INTO memories (id, digest, stamp, device) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (id) DO UPDATE SET digest = excluded.digest,"
            " stamp = excluded.stamp, device = excluded.device",
            (mid, rec.digest(values), stamp, device),
        )
        return True

    def _attachment(self, record: dict[str, Any]) -> bool:
        row = {name: record["row"].get(name) for name in rec.ATTACHMENT_COLUMNS}
        names = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        self.main.execute(
            f"INSERT OR IGNORE INTO main.attachments ({names}) VALUES ({marks})",
            tuple(row.values()),
        )
        self.known.execute("INSERT OR IGNORE INTO attachments (id) VALUES (?)", (row["id"],))
        return True


def _column_value(name: str, value: Any) -> Any:
    if name in ("pinned", "archived"):
        return 1 if value else 0
    if name == "pinned_message_ids":
        return mapping._dumps(list(value)) if value else None
    return value
