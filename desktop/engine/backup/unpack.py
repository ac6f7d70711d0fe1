"""Opening a backup written by archive.py into a folder, or reading its manifest.

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
import logging
import os
import shutil
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from desktop.core.i18n import tr
from desktop.engine.backup.archive import (
    ATTACHMENTS,
    DATABASE,
    MANIFEST,
    SETTINGS,
    SIZE_SLACK,
    Cancelled,
    Meter,
    Progress,
)
from desktop.engine.backup.crypto import (
    payload_failure,
    read_key_block,
    unlock_identity,
)
from desktop.engine.backup.errors import (
    BackupError,
    badly_laid_out,
    no_space,
    unreadable,
    unwritable,
)
from desktop.engine.backup.manifest import (
    MAX_MANIFEST_BYTES,
    BackupManifest,
    parse_manifest,
)
from desktop.engine.backup.snapshot import is_stored_name
from desktop.engine.backup.streams import CHUNK, Decryptor, RecordingFile

log = logging.getLogger(__name__)

_EXTRA_MEMBERS: Final = 16
_ATTACHMENT_PARTS: Final = 3  # attachments/<shard>/<file>
_FILE_MODE: Final = 0o600  # a decrypted database is as private as the passphrase


@dataclass(frozen=True, slots=True)
class OpenedBackup:
    manifest: BackupManifest
    db_path: Path  # the backup's database, as it was backed up (its schema may be older)
    settings_json: bytes
    attachments_dir: Path  # laid out as the attachment store's root; may be empty


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
    meter = Meter(progress, cancelled, writing=False)
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
    tar: tarfile.TarFile, into: Path, manifest: BackupManifest, limit: int, meter: Meter
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
    tar: tarfile.TarFile, member: tarfile.TarInfo, target: Path, meter: Meter
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
