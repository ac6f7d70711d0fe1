"""Writing a backup of the live data folder into one encrypted file (opening one is
unpack.py).

The payload (see crypto.py for the file around it) is a tar stream:

    manifest.json                     first, so a backup is described from its start
    parley.db                         a consistent copy of the live database
    settings.json                     as given (the caller strips secrets and
                                      device-local fields)
    attachments/<sha[:2]>/<file>      every stored file and extracted text

Nothing is ever whole in memory, nor in clear on disk except the database copy (which
must be a file for SQLite to write it): tar writes into a pipe that age encrypts from
(streams.py). A backup is written to a temp file beside `out`, fsynced and renamed, so
`out` is either the complete backup or untouched; a failure or a cancel removes the temp.

Synchronous and blocking: callers run these in a worker thread.
"""

from __future__ import annotations

import contextlib
import errno
import io
import logging
import os
import stat
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, Final

import pyrage

from desktop import __version__
from desktop.core.i18n import tr
from desktop.core.models import utc_now
from desktop.engine.backup.crypto import (
    key_block,
    new_identity,
)
from desktop.engine.backup.errors import (
    BackupError,
    cancelled,
    no_space,
    unreadable,
    unwritable,
)
from desktop.engine.backup.manifest import (
    FORMAT,
    BackupCounts,
    BackupManifest,
    manifest_bytes,
)
from desktop.engine.backup.snapshot import StoredFile, database_copy, stored_files
from desktop.engine.backup.streams import Encryptor, RecordingFile
from desktop.storage.database import Database
from desktop.storage.settings_file import fsync_folder

log = logging.getLogger(__name__)

MANIFEST: Final = "manifest.json"
DATABASE: Final = "parley.db"
SETTINGS: Final = "settings.json"
ATTACHMENTS: Final = "attachments"
# What an opened backup may hold beyond the sizes its manifest states: tar's own
# padding is not counted there, and this leaves room for nothing else.
SIZE_SLACK: Final = 1024 * 1024
_PROGRESS_STEP: Final = 1024 * 1024  # progress is reported at most once a MiB

Progress = Callable[[int, int], None]
Cancelled = Callable[[], bool]


class Meter:
    """Progress in bytes, and the cancel check, both called from the caller's thread."""

    def __init__(self, progress: Progress | None, is_cancelled: Cancelled | None, writing: bool):
        self._progress = progress
        self._cancelled = is_cancelled
        self._writing = writing
        self.done = 0
        self.total = 0
        self._next_report = 0

    def check(self) -> None:
        if self._cancelled is not None and self._cancelled():
            raise cancelled(self._writing)

    def advance(self, count: int) -> None:
        """Count `count` more bytes; reported each MiB, and when the total is reached."""
        self.done += count
        if self._progress is not None and (
            self.done >= self._next_report or self.done >= self.total
        ):
            self._next_report = self.done + _PROGRESS_STEP
            self._progress(self.done, self.total)


# --- writing -------------------------------------------------------------------------


def write_backup(
    out: Path,
    *,
    db: Database,
    attachments_root: Path,
    settings_json: bytes,
    passphrase: str,
    device: str,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> BackupManifest:
    """Write a backup of `db`, the files under `attachments_root` and `settings_json`
    to `out`, encrypted with `passphrase`; returns its manifest.

    `progress(done, total)` counts bytes put into the archive; `cancelled()` is asked
    between chunks. Raises `BackupError` (NO_SPACE, UNWRITABLE, UNREADABLE, CANCELLED);
    then `out` is as it was before and no temp file is left. Check a new passphrase
    with `passphrase_problem` first: this takes any.
    """
    out = Path(out)
    meter = Meter(progress, cancelled, writing=True)
    meter.check()
    identity = new_identity()
    header = key_block(identity, passphrase)  # scrypt: the slow part of a small backup
    meter.check()
    with database_copy(db) as copy:
        files = stored_files(Path(attachments_root))
        counts = BackupCounts(
            conversations=copy.conversations,
            messages=copy.messages,
            memories=copy.memories,
            attachments=len(files),
            bytes=copy.size + len(settings_json) + sum(f.size for f in files),
        )
        manifest = BackupManifest(
            FORMAT, utc_now(), device, __version__, copy.schema_version, counts
        )
        meter.total = counts.bytes

        def fill(tar: tarfile.TarFile) -> None:
            _add_bytes(tar, MANIFEST, manifest_bytes(manifest))
            _add_file(tar, DATABASE, copy.path, copy.size, meter, optional=False)
            _add_bytes(tar, SETTINGS, settings_json)
            meter.advance(len(settings_json))
            for stored in files:
                _add_stored(tar, stored, meter)

        _write_atomically(out, header, identity.to_public(), fill)
    log.info(
        "Wrote a backup to %s: %d conversations, %d messages, %d files, %d bytes",
        out,
        counts.conversations,
        counts.messages,
        counts.attachments,
        out.stat().st_size,
    )
    return manifest


def _write_atomically(
    out: Path,
    header: bytes,
    recipient: pyrage.x25519.Recipient,
    fill: Callable[[tarfile.TarFile], None],
) -> None:
    folder = out.parent
    try:
        fd, temp_name = tempfile.mkstemp(dir=folder, prefix=f".{out.name}.", suffix=".part")
    except OSError as exc:
        raise _write_failed(exc, folder) from exc
    temp = Path(temp_name)
    handle = open(fd, "wb")  # noqa: SIM115 - closed below, quietly after a failure
    sink = RecordingFile(handle)
    try:
        try:
            sink.write(header)
            _encrypt_tar(sink, recipient, fill)
            handle.flush()
            os.fsync(handle.fileno())
        except BaseException:
            with contextlib.suppress(OSError):  # flushing what is left fails the same way
                handle.close()
            raise
        handle.close()
        os.replace(temp, out)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            temp.unlink()
        if isinstance(exc, OSError | pyrage.EncryptError):
            raise _write_failed(sink.error or exc, folder) from exc
        raise
    fsync_folder(folder)


def _encrypt_tar(
    sink: io.RawIOBase, recipient: pyrage.x25519.Recipient, fill: Callable[[tarfile.TarFile], None]
) -> None:
    encryptor = Encryptor(sink, recipient)
    tar: tarfile.TarFile | None = None
    try:
        tar = tarfile.open(fileobj=encryptor.plain, mode="w|", format=tarfile.PAX_FORMAT)  # noqa: SIM115
        fill(tar)
        tar.close()
    except BaseException as exc:
        failure = encryptor.abandon()
        if tar is not None:  # marked closed now, or it flushes into the closed pipe when collected
            with contextlib.suppress(Exception):
                tar.close()
        if failure is not None and isinstance(exc, OSError):
            raise failure from exc  # the encryptor stopped first: its error says why
        raise
    encryptor.finish()


def _write_failed(exc: BaseException, folder: Path) -> BackupError:
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return no_space(folder, tr("write the backup"))
    reason = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
    return unwritable(folder, reason or type(exc).__name__)


def _member(name: str, size: int, mtime: float) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size = size
    info.mtime = int(mtime)
    info.mode = 0o644
    info.type = tarfile.REGTYPE
    return info


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    tar.addfile(_member(name, len(data), utc_now().timestamp()), io.BytesIO(data))


class MeteredReader:
    """A source file as tar reads it: counts progress, checks for a cancel, and turns
    a read failure into words naming the file (so it is not taken for a write one)."""

    def __init__(self, handle: BinaryIO, path: Path, meter: Meter) -> None:
        self._handle = handle
        self._path = path
        self._meter = meter

    def read(self, size: int = -1) -> bytes:
        self._meter.check()
        try:
            data = self._handle.read(size)
        except OSError as exc:
            raise unreadable(self._path, exc.strerror or type(exc).__name__) from exc
        self._meter.advance(len(data))
        return data


def _add_file(
    tar: tarfile.TarFile, name: str, path: Path, listed_size: int, meter: Meter, *, optional: bool
) -> None:
    """Add `path`; an `optional` file that vanished or grew since it was listed is left
    out (the manifest's sizes must stay an upper bound)."""
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below
    except FileNotFoundError as exc:
        if optional:
            log.info("Left %s out of the backup: it was removed meanwhile", name)
            return
        raise unreadable(path, exc.strerror or type(exc).__name__) from exc
    except OSError as exc:
        raise unreadable(path, exc.strerror or type(exc).__name__) from exc
    with handle:
        info = os.fstat(handle.fileno())
        if info.st_size > listed_size or not stat.S_ISREG(info.st_mode):
            if optional:
                log.info("Left %s out of the backup: it changed meanwhile", name)
                return
            raise unreadable(path, tr("it changed while it was being backed up"))
        tar.addfile(_member(name, info.st_size, info.st_mtime), MeteredReader(handle, path, meter))


def _add_stored(tar: tarfile.TarFile, stored: StoredFile, meter: Meter) -> None:
    _add_file(tar, f"{ATTACHMENTS}/{stored.name}", stored.path, stored.size, meter, optional=True)


# --- opening -------------------------------------------------------------------------
