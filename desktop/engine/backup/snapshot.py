"""What goes into a backup: a consistent copy of the live database, and the stored files.

The database is copied with SQLite's online backup API in a single step, which reads
one snapshot of the file under a read transaction: in WAL mode Parley keeps writing
meanwhile, and the copy holds either all or none of each of its transactions (the same
way `storage.migrations.backup_database` copies it before an upgrade). The copy is a
temp file beside the database, switched to journal_mode DELETE so it opens without -wal
or -shm companions, counted, put in the archive and removed.

Attachment files are listed once, right after the copy: the content-addressed blobs
(`<root>/<sha[:2]>/<sha><ext>`) and the extracted texts beside them. The store's temp
folder (writes in flight) and its open-copy folder (hard links handed to other programs)
are not data and stay out. A file the collector removes between the listing and its
turn is left out of the archive: it was one no message refers to.
"""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from desktop.core.i18n import tr
from desktop.engine.backup.errors import no_space, unreadable
from desktop.storage.database import Database
from desktop.storage.disk_space import is_disk_full
from desktop.storage.tables import conversations, memories, messages

SNAPSHOT_PREFIX: Final = ".backup-snapshot-"
SHARD: Final = re.compile(r"[0-9a-f]{2}")
# A blob (`<sha><ext>`) or its text (`<sha><ext>.txt`, `<sha>._.txt`); the extension is
# short and plain (AttachmentStore.blob_extension). Also what an opener accepts.
STORED_FILE: Final = re.compile(r"[0-9a-f]{64}(?:\.[A-Za-z0-9_]{1,16}){0,3}")


@dataclass(frozen=True, slots=True)
class DatabaseCopy:
    path: Path
    size: int
    schema_version: int
    conversations: int
    messages: int
    memories: int  # those not deleted


@dataclass(frozen=True, slots=True)
class StoredFile:
    name: str  # relative to the attachment root, with "/" ("ab/ab12...png")
    path: Path
    size: int


@contextlib.contextmanager
def database_copy(db: Database) -> Iterator[DatabaseCopy]:
    """A consistent copy of `db` in its own folder, removed when the block ends.

    Raises `BackupError` NO_SPACE when the data folder's disk cannot hold the copy, or
    UNREADABLE when the database cannot be read.
    """
    folder = db.path.parent
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=SNAPSHOT_PREFIX, suffix=".db")
        os.close(fd)
    except OSError as exc:
        raise _copy_failed(exc, db.path) from exc
    path = Path(name)
    try:
        try:
            copy = _copy(db, path)
        except (OSError, sqlite3.Error) as exc:
            raise _copy_failed(exc, db.path) from exc
        yield copy
    finally:
        for leftover in (path, path.with_name(path.name + "-journal")):
            with contextlib.suppress(OSError):
                leftover.unlink()


def _copy(db: Database, path: Path) -> DatabaseCopy:
    with db.engine.connect() as conn:
        source = conn.connection.dbapi_connection
        assert source is not None
        dest = sqlite3.connect(path)
        try:
            source.backup(dest)  # pages=-1: one step, one consistent snapshot
            dest.execute("PRAGMA journal_mode = DELETE")
            counts = [
                int(dest.execute(sql).fetchone()[0])
                for sql in (
                    "PRAGMA user_version",
                    f"SELECT count(*) FROM {conversations.name}",
                    f"SELECT count(*) FROM {messages.name}",
                    f"SELECT count(*) FROM {memories.name} WHERE deleted_at IS NULL",
                )
            ]
        finally:
            dest.close()
    version, conversation_count, message_count, memory_count = counts
    return DatabaseCopy(
        path, path.stat().st_size, version, conversation_count, message_count, memory_count
    )


def _copy_failed(exc: BaseException, db_path: Path) -> Exception:
    if is_disk_full(exc, db_path):
        return no_space(db_path.parent, tr("copy the database for the backup"))
    return unreadable(db_path, str(exc))


def stored_files(root: Path) -> list[StoredFile]:
    """Every stored blob and extracted text under `root`, in a stable order.

    Symbolic links and anything not named as the store names its files are left out:
    the store never makes them, and a backup must not follow a link out of the folder.
    """
    found: list[StoredFile] = []
    for shard in _entries(root):
        if not SHARD.fullmatch(shard.name) or not shard.is_dir(follow_symlinks=False):
            continue
        for entry in _entries(Path(shard.path)):
            if not (
                is_stored_name(shard.name, entry.name) and entry.is_file(follow_symlinks=False)
            ):
                continue
            try:
                size = entry.stat(follow_symlinks=False).st_size
            except FileNotFoundError:
                continue  # collected meanwhile
            except OSError as exc:
                raise unreadable(Path(entry.path), exc.strerror or type(exc).__name__) from exc
            found.append(StoredFile(f"{shard.name}/{entry.name}", Path(entry.path), size))
    return found


def is_stored_name(shard: str, name: str) -> bool:
    return bool(SHARD.fullmatch(shard) and STORED_FILE.fullmatch(name) and name[:2] == shard)


def _entries(folder: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as it:
            return sorted(it, key=lambda e: e.name)
    except FileNotFoundError:
        return []  # no attachment was ever stored
    except OSError as exc:
        raise unreadable(folder, exc.strerror or type(exc).__name__) from exc
