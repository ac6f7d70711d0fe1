"""A backup written from a live data folder opens to the same data."""

from __future__ import annotations

import io
import sqlite3
import tarfile
import threading
from pathlib import Path

import pyrage
import pytest

from desktop import __version__
from desktop.engine.backup.archive import write_backup
from desktop.engine.backup.crypto import MAGIC, passphrase_problem, read_key_block, unlock_identity
from desktop.engine.backup.manifest import FORMAT
from desktop.engine.backup.snapshot import SNAPSHOT_PREFIX
from desktop.engine.backup.unpack import open_backup, read_manifest
from desktop.storage.migrations import SCHEMA_VERSION
from tests.engine.backup.archive_folder import (
    PASSPHRASE,
    SETTINGS,
    DataFolder,
    make_data_folder,
    table_rows,
)
from tests.support.waiting import wait_until


@pytest.fixture
def folder(tmp_path: Path):
    made = make_data_folder(tmp_path / "data")
    try:
        yield made
    finally:
        made.close()


def _write(folder: DataFolder, out: Path, **kwargs):
    return write_backup(
        out,
        db=folder.db,
        attachments_root=folder.attachments_root,
        settings_json=SETTINGS,
        passphrase=PASSPHRASE,
        device="laptop",
        **kwargs,
    )


@pytest.mark.usefixtures("real_scrypt")  # the passphrase path itself, nothing remembered
def test_a_backup_opens_to_the_same_rows_files_and_settings(folder, tmp_path):
    out = tmp_path / "backups" / "parley.backup"
    out.parent.mkdir()
    reports: list[tuple[int, int]] = []
    manifest = _write(folder, out, progress=lambda done, total: reports.append((done, total)))

    opened = open_backup(out, PASSPHRASE, tmp_path / "opened")

    live = folder.db.path
    for table in ("conversations", "messages", "memories", "attachments", "tombstones"):
        assert table_rows(opened.db_path, table) == table_rows(live, table), table
    assert table_rows(opened.db_path, "tombstones")  # what was deleted stays known
    extracted = {
        path.relative_to(opened.attachments_dir).as_posix(): path.read_bytes()
        for path in opened.attachments_dir.rglob("*")
        if path.is_file()
    }
    assert extracted == folder.stored_files()
    assert len(extracted) == 5  # image, document + text, README + text
    assert opened.settings_json == SETTINGS
    assert opened.manifest == manifest
    counts = manifest.counts
    assert (counts.conversations, counts.messages, counts.memories) == (3, 13, 2)
    assert counts.attachments == 5
    assert counts.bytes == (
        opened.db_path.stat().st_size + len(SETTINGS) + sum(map(len, extracted.values()))
    )
    assert manifest.format == FORMAT
    assert manifest.device == "laptop"
    assert manifest.app_version == __version__
    assert manifest.schema_version == SCHEMA_VERSION
    assert manifest.created_at.utcoffset() is not None
    # Progress rises to the whole, counted in the bytes the manifest states.
    assert reports and reports[-1] == (counts.bytes, counts.bytes)
    assert [done for done, _ in reports] == sorted(done for done, _ in reports)
    # Nothing is left beside the backup, nor beside the database.
    assert sorted(p.name for p in out.parent.iterdir()) == ["parley.backup"]
    assert not list(folder.root.glob(f"{SNAPSHOT_PREFIX}*"))
    # The copy stands alone: no WAL, and it opens cleanly.
    with sqlite3.connect(opened.db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_reading_the_manifest_gives_what_writing_returned(folder, tmp_path):
    out = tmp_path / "parley.backup"
    manifest = _write(folder, out)
    assert read_manifest(out, PASSPHRASE) == manifest


def test_the_file_is_age_all_the_way_and_the_manifest_comes_first(folder, tmp_path):
    """Given the passphrase, the standard age format opens the key and then the tar:
    no Parley code is needed to get the data back."""
    out = tmp_path / "parley.backup"
    _write(folder, out)
    with out.open("rb") as handle:
        assert handle.read(len(MAGIC)) == MAGIC
        handle.seek(0)
        block = read_key_block(handle, out)
        locked_key = pyrage.passphrase.decrypt(block, PASSPHRASE).decode().strip()
        assert locked_key.startswith("AGE-SECRET-KEY-1")
        identity = pyrage.x25519.Identity.from_str(locked_key)
        assert str(identity) == str(unlock_identity(block, PASSPHRASE))
        plain = io.BytesIO()
        pyrage.decrypt_io(handle, plain, [identity])
    with tarfile.open(fileobj=io.BytesIO(plain.getvalue())) as tar:
        names = tar.getnames()
    assert names[:3] == ["manifest.json", "parley.db", "settings.json"]
    assert all(name.startswith("attachments/") for name in names[3:])
    assert not any("/tmp/" in name or "/open/" in name for name in names)


def test_the_database_copy_is_consistent_while_messages_keep_being_written(folder, tmp_path):
    conversation = folder.conversation_ids[0]
    written = [0]
    stop = threading.Event()
    failures: list[BaseException] = []

    def keep_writing() -> None:
        try:
            while not stop.is_set():
                folder.add_message(conversation, f"written during the backup {written[0]}")
                written[0] += 1
        except BaseException as exc:
            failures.append(exc)

    writer = threading.Thread(target=keep_writing)
    writer.start()
    try:
        wait_until(lambda: written[0] >= 20 or bool(failures), "messages being written")
        before = written[0]
        manifest = _write(folder, tmp_path / "parley.backup")
        wait_until(lambda: written[0] >= before + 40 or bool(failures), "more messages")
    finally:
        stop.set()
        writer.join()
    assert not failures

    opened = open_backup(tmp_path / "parley.backup", PASSPHRASE, tmp_path / "opened")
    with sqlite3.connect(opened.db_path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        copied = conn.execute("SELECT count(*) FROM messages").fetchone()[0]
        # Every conversation's active leaf is a message of the copy: each message and
        # the leaf moved onto it were saved in one transaction, and the copy has both.
        leaves = conn.execute(
            "SELECT count(*) FROM conversations WHERE active_leaf_id IS NOT NULL "
            "AND active_leaf_id NOT IN (SELECT id FROM messages)"
        ).fetchone()[0]
        assert leaves == 0
        newest = conn.execute(
            "SELECT c.active_leaf_id = (SELECT id FROM messages WHERE conversation_id = c.id "
            "ORDER BY rowid DESC LIMIT 1) FROM conversations AS c WHERE c.id = ?",
            (conversation,),
        ).fetchone()[0]
        assert newest == 1
    assert copied == manifest.counts.messages
    live = len(table_rows(folder.db.path, "messages"))
    assert 13 + before <= copied < live


def test_an_existing_empty_folder_may_receive_the_backup(folder, tmp_path):
    out = tmp_path / "parley.backup"
    _write(folder, out)
    into = tmp_path / "opened"
    into.mkdir()
    opened = open_backup(out, PASSPHRASE, into)
    assert opened.db_path == into / "parley.db" and opened.db_path.is_file()
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "mine.txt").write_text("keep me")
    with pytest.raises(ValueError, match="empty folder"):
        open_backup(out, PASSPHRASE, tmp_path / "busy")
    assert (tmp_path / "busy" / "mine.txt").read_text() == "keep me"


def test_writing_over_an_older_backup_replaces_it_whole(folder, tmp_path):
    out = tmp_path / "parley.backup"
    _write(folder, out)
    folder.chat("Added later", 2)
    manifest = _write(folder, out)
    assert manifest.counts.conversations == 4
    assert read_manifest(out, PASSPHRASE).counts.conversations == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "parley.backup"]


@pytest.mark.parametrize(
    ("passphrase", "weak"),
    [
        ("", True),
        ("        ", True),
        ("short", True),
        ("1234567", True),
        ("aaaaaaaaaaaa", True),
        ("abababababab", True),
        ("correct horse", False),
        ("violet staircase", False),
        ("紫色的楼梯和雨伞", False),
    ],
)
def test_a_weak_new_passphrase_is_explained(passphrase, weak):
    problem = passphrase_problem(passphrase)
    if weak:
        assert problem and problem.endswith(".")
    else:
        assert problem is None
