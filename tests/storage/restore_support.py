"""What the restore tests share: snapshots taken as a backup takes them, full dumps to
compare before and after, and the memories' word index checked against the rows."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from desktop.core.models import Message, Role, TextPart, new_id
from desktop.storage.database import Database
from desktop.storage.knowledge_index import words_for_index
from desktop.storage.repository import ChatRepository
from desktop.storage.short_index import register_sql_functions

DATA_TABLES = ("conversations", "messages", "attachments", "memories", "tombstones")


def snapshot(db: Database, target: Path) -> Path:
    """A standalone copy of the live database, as the backup archive holds it."""
    source = sqlite3.connect(db.path)
    dest = sqlite3.connect(target)
    try:
        source.backup(dest)
        dest.execute("PRAGMA journal_mode = DELETE")
    finally:
        dest.close()
        source.close()
    return target


def dump(path: Path) -> list[str]:
    """Every statement that would rebuild the database, indexes' shadow tables
    included: equal dumps, equal databases."""
    conn = sqlite3.connect(path)
    register_sql_functions(conn)  # the short-query index reads its text through one
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def rows(db: Database, table: str) -> dict[str, dict[str, Any]]:
    """`table`'s rows by id (tombstones by "kind:id")."""
    with db.read() as conn:
        found = conn.exec_driver_sql(f"SELECT * FROM {table}").mappings().all()
    key = (lambda r: f"{r['kind']}:{r['id']}") if table == "tombstones" else (lambda r: r["id"])
    return {key(r): dict(r) for r in found}


def memory_words_are_consistent(db: Database) -> bool:
    """The word index holds exactly each memory's prepared words, by its rowid."""
    with db.read() as conn:
        wanted = {
            rowid: words_for_index(text)
            for rowid, text in conn.exec_driver_sql("SELECT rowid, text FROM memories")
        }
        held = dict(conn.exec_driver_sql("SELECT rowid, words FROM memories_fts").all())
    return held == wanted


def say(repo: ChatRepository, conversation_id: str, parent: str | None, text: str) -> Message:
    role = Role.USER if parent is None or text.endswith("?") else Role.ASSISTANT
    return repo.add_message(Message(new_id(), conversation_id, parent, role, [TextPart(text)]))
