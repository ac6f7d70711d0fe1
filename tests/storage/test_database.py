"""The engine's PRAGMAs, transactions and two instances sharing one file."""

from __future__ import annotations

import ast
import threading
from pathlib import Path

import pytest
from sqlalchemy import text

import desktop.storage
from desktop.storage.database import Database
from desktop.storage.errors import DiskFullError, StorageError
from desktop.storage.repository import ChatRepository

_QT = {"PySide6", "qasync"}


def _pragma(db: Database, name: str) -> object:
    with db.read() as conn:
        return conn.exec_driver_sql(f"PRAGMA {name}").scalar_one()


def test_every_connection_has_wal_and_the_other_pragmas(db: Database) -> None:
    assert _pragma(db, "journal_mode") == "wal"
    assert _pragma(db, "foreign_keys") == 1
    assert _pragma(db, "synchronous") == 1  # NORMAL
    assert _pragma(db, "busy_timeout") == 5000


def test_wal_files_exist_next_to_the_database(db: Database, db_path: Path) -> None:
    with db.write() as conn:
        conn.execute(text("CREATE TABLE scratch (x)"))
    assert db_path.with_name("parley.db-wal").exists()


def test_two_databases_on_one_file_see_each_others_writes(db_path: Path) -> None:
    first = Database.open(db_path)
    second = Database.open(db_path)
    try:
        repo_a, repo_b = ChatRepository(first), ChatRepository(second)
        created = repo_a.create_conversation("from A")
        assert repo_b.get_conversation(created.id) == created
        repo_b.rename_conversation(created.id, "renamed by B")
        got = repo_a.get_conversation(created.id)
        assert got is not None and got.title == "renamed by B"
    finally:
        first.close()
        second.close()


def test_a_reader_keeps_its_snapshot_while_another_instance_writes(db_path: Path) -> None:
    first = Database.open(db_path)
    second = Database.open(db_path)
    try:
        repo_b = ChatRepository(second)
        with first.read() as conn:
            before = conn.exec_driver_sql("SELECT count(*) FROM conversations").scalar_one()
            repo_b.create_conversation("written meanwhile")  # WAL: not blocked by the reader
            during = conn.exec_driver_sql("SELECT count(*) FROM conversations").scalar_one()
        assert before == during == 0
        assert len(ChatRepository(first).list_conversations()) == 1
    finally:
        first.close()
        second.close()


def test_a_failed_write_block_rolls_back(db: Database) -> None:
    with pytest.raises(RuntimeError), db.write() as conn:
        conn.execute(
            text(
                "INSERT INTO conversations (id, title, created_at, updated_at)"
                " VALUES ('c', 't', 1, 1)"
            )
        )
        raise RuntimeError("boom")
    with db.read() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM conversations").scalar_one() == 0


def test_missing_folder_is_a_clear_storage_error(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="Could not open the database"):
        Database.open(tmp_path / "no-such-folder" / "parley.db")


def test_a_file_that_is_not_a_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "parley.db"
    path.write_bytes(b"not a database at all " * 100)
    before = path.read_bytes()
    with pytest.raises(StorageError, match="could not be opened as a Parley database"):
        Database.open(path)
    assert path.read_bytes() == before


def test_storage_never_imports_qt() -> None:
    """Layer rule: storage runs and is tested without a display."""
    package = Path(desktop.storage.__file__).parent
    offenders = []
    for source in package.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            offenders += [f"{source.name}: {n}" for n in names if n.split(".")[0] in _QT]
    assert offenders == []


def test_instances_starting_at_the_same_moment_all_open_the_new_file(db_path: Path) -> None:
    """Two app instances launched together race to create and migrate the file."""
    errors: list[BaseException] = []

    def start_instance() -> None:
        try:
            with Database.open(db_path) as db:
                ChatRepository(db).create_conversation("hello")
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=start_instance) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    with Database.open(db_path) as db:
        assert len(ChatRepository(db).list_conversations()) == 4


# --- a full disk (a real one: tests/support/full_disk.py) ----------------------------


def test_opening_an_existing_database_on_a_full_disk_says_the_disk_is_full(small_disk) -> None:
    path = small_disk.root / "parley.db"
    with Database.open(path) as db:
        ChatRepository(db).create_conversation("kept")
    before = path.read_bytes()
    small_disk.fill()

    with pytest.raises(DiskFullError) as caught:
        Database.open(path)

    message = str(caught.value)
    assert f"the disk holding {small_disk.root} is full (0 bytes free)" in message
    assert "damaged" not in message and "left unchanged" in message
    assert caught.value.folder == small_disk.root and caught.value.free_bytes == 0
    assert path.read_bytes() == before
    small_disk.release()
    with Database.open(path) as db:
        assert [c.title for c in ChatRepository(db).list_conversations()] == ["kept"]


def test_creating_a_database_on_a_full_disk_says_the_disk_is_full(small_disk) -> None:
    small_disk.fill()
    with pytest.raises(DiskFullError, match=r"is full \(0 bytes free\)"):
        Database.open(small_disk.root / "parley.db")


def test_a_write_that_does_not_fit_fails_as_disk_full_and_changes_nothing(small_disk) -> None:
    with Database.open(small_disk.root / "parley.db") as db:
        repo = ChatRepository(db)
        kept = repo.create_conversation("before")
        small_disk.fill()
        with pytest.raises(DiskFullError, match="could not save to its database") as caught:
            for _ in range(50):  # the WAL may hold a few pages already
                repo.rename_conversation(kept.id, "x" * 100_000)
        assert str(small_disk.root) in str(caught.value)
        small_disk.release()
        assert repo.get_conversation(kept.id) is not None
        assert repo.rename_conversation(kept.id, "after").title == "after"
