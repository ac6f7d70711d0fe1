"""Writing a backup of the live data folder into one encrypted file, and opening one.

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

Opening trusts nothing it has not checked: the tar members are read from the decrypted
stream and written by this code alone, only under the names Parley writes (no absolute
paths, "..", links or devices can be expressed by those names), each no larger than the
manifest said the whole backup was. age's check covers every byte, but a truncation is
only known at the end, so the opener reads the stream to its end and waits for that
verdict before returning; on any failure it removes what it wrote.

Synchronous and blocking: callers run these in a worker thread.
"""

from __future__ import annotations

import contextlib
import errno
import io
import logging
import os
import shutil
import stat
import sys
import tarfile
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Final

import pyrage

from desktop import __version__
from desktop.core.i18n import tr
from desktop.core.models import utc_now
from desktop.engine.backup.crypto import (
    key_block,
    new_identity,
    payload_failure,
    read_key_block,
    unlock_identity,
)
from desktop.engine.backup.errors import (
    BackupError,
    badly_laid_out,
    cancelled,
    no_space,
    unreadable,
    unwritable,
)
from desktop.engine.backup.manifest import (
    FORMAT,
    MAX_MANIFEST_BYTES,
    BackupCounts,
    BackupManifest,
    manifest_bytes,
    parse_manifest,
)
from desktop.engine.backup.snapshot import StoredFile, database_copy, is_stored_name, stored_files
from desktop.engine.backup.streams import CHUNK, Decryptor, Encryptor, RecordingFile
from desktop.storage.database import Database

log = logging.getLogger(__name__)

MANIFEST: Final = "manifest.json"
DATABASE: Final = "parley.db"
SETTINGS: Final = "settings.json"
ATTACHMENTS: Final = "attachments"
# What an opened backup may hold beyond the sizes its manifest states: tar's own
# padding is not counted there, and this leaves room for nothing else.
SIZE_SLACK: Final = 1024 * 1024
_EXTRA_MEMBERS: Final = 16
_ATTACHMENT_PARTS: Final = 3  # attachments/<shard>/<file>
_PROGRESS_STEP: Final = 1024 * 1024  # progress is reported at most once a MiB
_FILE_MODE: Final = 0o600  # a decrypted database is as private as the passphrase

Progress = Callable[[int, int], None]
Cancelled = Callable[[], bool]


@dataclass(frozen=True, slots=True)
class OpenedBackup:
    manifest: BackupManifest
    db_path: Path  # the backup's database, as it was backed up (its schema may be older)
    settings_json: bytes
    attachments_dir: Path  # laid out as the attachment store's root; may be empty


class _Meter:
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
    meter = _Meter(progress, cancelled, writing=True)
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
    _fsync_dir(folder)


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


class _MeteredReader:
    """A source file as tar reads it: counts progress, checks for a cancel, and turns
    a read failure into words naming the file (so it is not taken for a write one)."""

    def __init__(self, handle: BinaryIO, path: Path, meter: _Meter) -> None:
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
    tar: tarfile.TarFile, name: str, path: Path, listed_size: int, meter: _Meter, *, optional: bool
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
        tar.addfile(_member(name, info.st_size, info.st_mtime), _MeteredReader(handle, path, meter))


def _add_stored(tar: tarfile.TarFile, stored: StoredFile, meter: _Meter) -> None:
    _add_file(tar, f"{ATTACHMENTS}/{stored.name}", stored.path, stored.size, meter, optional=True)


def _fsync_dir(folder: Path) -> None:
    if sys.platform == "win32":
        return
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# --- opening -------------------------------------------------------------------------


def read_manifest(path: Path, passphrase: str) -> BackupManifest:
    """The manifest of the backup at `path`, decrypting no further than it.

    Raises `BackupError`: WRONG_PASSPHRASE, TAMPERED, NOT_A_BACKUP, TOO_NEW, UNREADABLE.
    Only what precedes the manifest is checked; `open_backup` checks the rest.
    """
    path = Path(path)
    with _opened(path, passphrase) as (source, decryptor):
        try:
            tar = _tar_reader(decryptor)
            manifest, _ = _read_manifest_member(tar)
        except BaseException as exc:
            failure = _open_failure(exc, source, decryptor, path)
            if failure is exc:
                raise
            raise failure from exc
        decryptor.abandon()
        return manifest


def open_backup(
    path: Path,
    passphrase: str,
    into: Path,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> OpenedBackup:
    """Decrypt and check the backup at `path`, unpacking it into the folder `into`
    (made if missing; if it exists it must be empty).

    Returns only once the whole backup passed age's check. Raises `BackupError`
    (WRONG_PASSPHRASE, TAMPERED, NOT_A_BACKUP, TOO_NEW, NO_SPACE, CANCELLED,
    UNREADABLE); then nothing is left in `into`, and `into` is removed if this made it.
    """
    path, into = Path(path), Path(into)
    meter = _Meter(progress, cancelled, writing=False)
    made = _prepare_folder(into)
    try:
        meter.check()
        with _opened(path, passphrase) as (source, decryptor):
            try:
                tar = _tar_reader(decryptor)
                manifest, limit = _read_manifest_member(tar)
                meter.total = manifest.counts.bytes
                settings = _extract(tar, into, manifest, limit, meter)
                decryptor.finish()
            except BaseException as exc:
                failure = _open_failure(exc, source, decryptor, path, into)
                if failure is exc:
                    raise
                raise failure from exc
    except BaseException:
        _empty_folder(into, remove=made)
        raise
    return OpenedBackup(manifest, into / DATABASE, settings, into / ATTACHMENTS)


@contextlib.contextmanager
def _opened(path: Path, passphrase: str) -> Iterator[tuple[RecordingFile, Decryptor]]:
    """The backup at `path` with its key unlocked and its payload being decrypted."""
    try:
        handle = open(path, "rb")  # noqa: SIM115 - the with below closes it
    except OSError as exc:
        raise unreadable(path, exc.strerror or type(exc).__name__) from exc
    with handle:
        try:
            block = read_key_block(handle, path)
        except OSError as exc:
            raise unreadable(path, exc.strerror or type(exc).__name__) from exc
        identity = unlock_identity(block, passphrase)
        source = RecordingFile(handle)
        decryptor = Decryptor(source, identity)
        try:
            yield source, decryptor
        finally:
            decryptor.abandon()


def _open_failure(
    exc: BaseException,
    source: RecordingFile,
    decryptor: Decryptor,
    path: Path,
    into: Path | None = None,
) -> BaseException:
    """What went wrong, in order of what explains the rest: the file could not be
    read; it failed age's check (a truncated stream also looks like a tar ending too
    early); then what the tar side found."""
    if source.error is not None:
        return unreadable(path, source.error.strerror or type(source.error).__name__)
    failure = decryptor.abandon()
    if failure is not None:
        return payload_failure(failure)
    if isinstance(exc, BackupError):
        return exc
    if isinstance(exc, tarfile.TarError):
        return badly_laid_out(tr("it is not a tar archive ({reason})").format(reason=exc))
    if isinstance(exc, OSError) and into is not None:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return no_space(into, tr("open the backup"))
        return unwritable(into, exc.strerror or str(exc))
    return exc


def _tar_reader(decryptor: Decryptor) -> tarfile.TarFile:
    return tarfile.open(fileobj=decryptor.plain, mode="r|")


def _plain_file(member: tarfile.TarInfo) -> bool:
    return member.type in (tarfile.REGTYPE, tarfile.AREGTYPE) and member.sparse is None


def _read_member(tar: tarfile.TarFile, member: tarfile.TarInfo) -> bytes:
    handle = tar.extractfile(member)
    assert handle is not None  # a plain file, checked by the caller
    return handle.read()


def _read_manifest_member(tar: tarfile.TarFile) -> tuple[BackupManifest, int]:
    """The manifest, and how many bytes the members after it may hold in all."""
    first = tar.next()
    if (
        first is None
        or first.name != MANIFEST
        or not _plain_file(first)
        or first.size > MAX_MANIFEST_BYTES
    ):
        raise badly_laid_out(tr("it does not start with its manifest"))
    manifest = parse_manifest(_read_member(tar, first))
    return manifest, manifest.counts.bytes + SIZE_SLACK


def _extract(
    tar: tarfile.TarFile, into: Path, manifest: BackupManifest, limit: int, meter: _Meter
) -> bytes:
    """Write the members after the manifest under `into`; returns settings.json."""
    attachments_dir = into / ATTACHMENTS
    attachments_dir.mkdir()
    most = manifest.counts.attachments + 2 + _EXTRA_MEMBERS
    seen: set[str] = set()
    settings: bytes | None = None
    left = limit
    while (member := tar.next()) is not None:  # iter(tar) would begin again at the manifest
        meter.check()
        name = member.name
        if len(seen) >= most:
            raise badly_laid_out(tr("it holds more files than its manifest lists"))
        if not _plain_file(member):
            raise badly_laid_out(
                tr("it holds something other than a file: {name}").format(name=name)
            )
        if name in seen:
            raise badly_laid_out(tr("it holds {name} twice").format(name=name))
        if member.size > left:
            raise badly_laid_out(tr("{name} is larger than its manifest allows").format(name=name))
        seen.add(name)
        left -= member.size
        if name == SETTINGS:
            settings = _read_member(tar, member)
            meter.advance(len(settings))
        elif name == DATABASE:
            _write_member(tar, member, into / DATABASE, meter)
        elif (target := _attachment_target(name, attachments_dir)) is not None:
            target.parent.mkdir(exist_ok=True)
            _write_member(tar, member, target, meter)
        else:
            raise badly_laid_out(
                tr("it holds a file Parley does not write: {name}").format(name=name)
            )
    if DATABASE not in seen or settings is None:
        raise badly_laid_out(tr("its database or its settings are missing"))
    return settings


def _attachment_target(name: str, attachments_dir: Path) -> Path | None:
    parts = name.split("/")
    if (
        len(parts) == _ATTACHMENT_PARTS
        and parts[0] == ATTACHMENTS
        and is_stored_name(parts[1], parts[2])
    ):
        return attachments_dir / parts[1] / parts[2]
    return None


_CREATE_FLAGS: Final = (
    os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
)


def _write_member(
    tar: tarfile.TarFile, member: tarfile.TarInfo, target: Path, meter: _Meter
) -> None:
    source = tar.extractfile(member)
    assert source is not None  # a plain file, checked by the caller
    with open(os.open(target, _CREATE_FLAGS, _FILE_MODE), "wb") as out:
        while True:
            meter.check()
            chunk = source.read(CHUNK)
            if not chunk:
                return
            out.write(chunk)
            meter.advance(len(chunk))


def _prepare_folder(into: Path) -> bool:
    """Make `into` (True) or accept it empty (False)."""
    try:
        into.mkdir(parents=True)
        return True
    except FileExistsError:
        if not into.is_dir() or any(into.iterdir()):
            raise ValueError(f"{into} must be an empty folder to open a backup into") from None
        return False
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise no_space(into.parent, tr("open the backup")) from exc
        raise unwritable(into.parent, exc.strerror or str(exc)) from exc


def _empty_folder(into: Path, *, remove: bool) -> None:
    if remove:
        shutil.rmtree(into, ignore_errors=True)
        return
    with contextlib.suppress(OSError):
        for child in into.iterdir():
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child, ignore_errors=True)
            else:
                child.unlink(missing_ok=True)
