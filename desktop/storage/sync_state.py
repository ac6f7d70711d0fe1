"""What this device knows of the sync vault: `sync.db`, beside `parley.db`.

Kept out of `parley.db` on purpose. It belongs to this device: a backup must not carry
it (restoring one on another computer would give that computer this device's id and
two writers of one log), and leaving the vault is removing this file. It is also
rebuildable: without it, joining again re-reads every device's log, and the merge is
idempotent, so nothing is duplicated.

The two databases are never in one transaction. Remote changes are written to
`parley.db` first and recorded here after; a crash between the two re-applies the same
segment at the next sync, which changes nothing the second time. Local changes are
marked as sent here only after the storage holds them; a crash before that sends them
again, which the other devices ignore.

Tables:
- `meta`: this device's id and name, its clock, how many segments it has written and
  the hash of the last one.
- `messages`: every message id stamped here or received, with the parent it was written under
  (the nearest surviving ancestor is worked out from these, the same way on every
  device), the digest of what was last sent or received, and its clock stamp.
- `registers`: per conversation and field, the last-writer-wins value and its stamp.
- `memories`: digest and stamp per memory; `attachments`: rows already exchanged;
  `blobs`: attachment files the storage already holds.
- `tombstones`: deletions already sent.
- `devices`: per other device, how far its log has been applied and the hash there.
- `waiting`: received records that cannot apply yet (their parent or conversation is in
  a segment not read yet).
- `outbox`: this device's changes stamped and not yet sent (`sync_collect.py`).
- `live`: the conversations here when changes were last sent: one gone since was
  deleted here, even if a deletion of it was sent (or received) before.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from sqlalchemy import Connection, Engine

from desktop.storage.sqlite_engine import create_sqlite_engine, read_transaction, write_transaction

FILE_NAME: Final = "sync.db"
_VERSION: Final = 1
_SCHEMA: Final = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS messages (id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL,"
    " parent_id TEXT, sig TEXT, digest TEXT, stamp INTEGER NOT NULL DEFAULT 0,"
    " device TEXT NOT NULL DEFAULT '')",
    "CREATE TABLE IF NOT EXISTS registers (conversation_id TEXT NOT NULL, field TEXT NOT NULL,"
    " value TEXT NOT NULL, stamp INTEGER NOT NULL, device TEXT NOT NULL,"
    " PRIMARY KEY (conversation_id, field)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS memories (id TEXT PRIMARY KEY, digest TEXT NOT NULL,"
    " stamp INTEGER NOT NULL, device TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS attachments (id TEXT PRIMARY KEY)",
    "CREATE TABLE IF NOT EXISTS blobs (sha256 TEXT PRIMARY KEY)",
    "CREATE TABLE IF NOT EXISTS tombstones (kind TEXT NOT NULL, id TEXT NOT NULL,"
    " PRIMARY KEY (kind, id)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS devices (device TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '',"
    " applied INTEGER NOT NULL DEFAULT 0, hash TEXT NOT NULL DEFAULT '',"
    " seen_at INTEGER, removed_after INTEGER)",
    "CREATE TABLE IF NOT EXISTS waiting (seq INTEGER PRIMARY KEY, record TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS live (id TEXT PRIMARY KEY) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS outbox (kind TEXT NOT NULL, id TEXT NOT NULL,"
    " stamp INTEGER NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID",
)


@dataclass(frozen=True, slots=True)
class DeviceRow:
    device: str
    name: str
    applied: int  # segments of its log applied here
    hash: str  # hash of its segment `applied` ("" before the first)
    seen_at: int | None  # epoch ms of its newest head read
    removed_after: int | None  # removed from the vault: segments after this are ignored


class SyncState:
    """The open `sync.db` of one data folder."""

    def __init__(self, root: Path) -> None:
        self.path = root / FILE_NAME
        self._engine: Engine = create_sqlite_engine(self.path)
        with write_transaction(self._engine) as conn:
            for statement in _SCHEMA:
                conn.exec_driver_sql(statement)
            conn.exec_driver_sql(f"PRAGMA user_version = {_VERSION}")

    def close(self) -> None:
        self._engine.dispose()

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with read_transaction(self._engine) as conn:
            yield conn

    @contextmanager
    def write(self) -> Iterator[Connection]:
        with write_transaction(self._engine) as conn:
            yield conn

    def get(self, key: str, default: str = "") -> str:
        with self.read() as conn:
            return get_meta(conn, key, default)

    def set(self, key: str, value: str) -> None:
        with self.write() as conn:
            set_meta(conn, key, value)

    def devices(self) -> list[DeviceRow]:
        with self.read() as conn:
            return device_rows(conn)

    def forget_received(self) -> None:
        """Start receiving from the beginning of every device's log, and take every
        row here as new: for when `parley.db` was replaced by a backup's. This
        device's id, its own log's position and the deletions it sent stay."""
        with self.write() as conn:
            for table in (
                "messages",
                "registers",
                "memories",
                "attachments",
                "waiting",
                "outbox",
                "live",
            ):
                conn.exec_driver_sql(f"DELETE FROM {table}")
            conn.exec_driver_sql("UPDATE devices SET applied = 0, hash = ''")


def get_meta(conn: Connection, key: str, default: str = "") -> str:
    row = conn.exec_driver_sql("SELECT value FROM meta WHERE key = ?", (key,)).first()
    return str(row[0]) if row is not None else default


def set_meta(conn: Connection, key: str, value: str) -> None:
    conn.exec_driver_sql(
        "INSERT INTO meta (key, value) VALUES (?, ?)"
        " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def device_rows(conn: Connection) -> list[DeviceRow]:
    rows = conn.exec_driver_sql(
        "SELECT device, name, applied, hash, seen_at, removed_after FROM devices ORDER BY device"
    ).all()
    return [DeviceRow(*row) for row in rows]


def save_device(conn: Connection, row: DeviceRow) -> None:
    conn.exec_driver_sql(
        "INSERT INTO devices (device, name, applied, hash, seen_at, removed_after)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (device) DO UPDATE SET name = excluded.name,"
        " applied = excluded.applied, hash = excluded.hash, seen_at = excluded.seen_at,"
        # A removal is never taken back, and the earliest cut-off wins.
        " removed_after = MIN(COALESCE(excluded.removed_after, devices.removed_after),"
        " COALESCE(devices.removed_after, excluded.removed_after))",
        (row.device, row.name, row.applied, row.hash, row.seen_at, row.removed_after),
    )


def mark_removed(conn: Connection, device: str, after: int) -> None:
    """`device` was taken out of the vault: its segments after `after` are ignored."""
    conn.exec_driver_sql(
        "INSERT INTO devices (device, removed_after) VALUES (?, ?) ON CONFLICT (device)"
        " DO UPDATE SET removed_after = MIN(excluded.removed_after,"
        " COALESCE(devices.removed_after, excluded.removed_after))",
        (device, after),
    )


def add_waiting(conn: Connection, records: list[dict[str, Any]]) -> None:
    if records:
        conn.exec_driver_sql(
            "INSERT INTO waiting (record) VALUES (?)",
            [(json.dumps(record, separators=(",", ":")),) for record in records],
        )


def take_waiting(conn: Connection) -> list[dict[str, Any]]:
    """The waiting records, oldest first, removed from the table (the caller puts back
    those that still cannot apply, in the same transaction)."""
    rows = conn.exec_driver_sql("SELECT record FROM waiting ORDER BY seq").all()
    conn.exec_driver_sql("DELETE FROM waiting")
    return [json.loads(row[0]) for row in rows]
