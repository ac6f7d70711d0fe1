"""A remote store that is a local folder: an external disk, a network share, a folder
another program syncs.

Every write goes to a temporary file beside the target, is flushed to the disk and then
renamed over it, so a crash, a full disk or an unplugged drive leaves the old file or
the new one, never half of one (and a sync client never uploads a half-written file).
The file work blocks, so it runs in a worker thread.
"""

from __future__ import annotations

import asyncio
import errno
import os
import shutil
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO, Final, TypeVar

from desktop.engine.remote.base import CHUNK, RemoteObject, check_folder, check_name
from desktop.engine.remote.errors import (
    RemoteError,
    RemoteProblem,
    already_there,
    missing_object,
    os_error,
)
from desktop.storage.settings_file import fsync_folder

T = TypeVar("T")

TEMP_PREFIX: Final = ".parley-part-"
"""Temporary files start with this; listings leave them out."""


def _write_beside(target: Path, fill: Callable[[BinaryIO], object]) -> Path:
    """A complete, flushed temporary file beside `target`, written by `fill`."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(prefix=TEMP_PREFIX, dir=target.parent)
    temp = Path(temp_name)
    try:
        with open(handle, "wb") as out:
            fill(out)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return temp


def _copy_from(source: Path) -> Callable[[BinaryIO], object]:
    def fill(out: BinaryIO) -> None:
        with open(source, "rb") as handle:
            shutil.copyfileobj(handle, out, CHUNK)

    return fill


def _atomic_write(target: Path, fill: Callable[[BinaryIO], object]) -> None:
    temp = _write_beside(target, fill)
    try:
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    fsync_folder(target.parent)


def _exclusive_write(target: Path, data: bytes) -> bool:
    """Write `data` as `target` only if nothing is there; False if something is.

    A hard link publishes the complete temporary file under the name only if the name
    is free, atomically. File systems without hard links (FAT, exFAT, some shares) fall
    back to creating the name with O_EXCL: still exclusive, though a crash mid-write
    could leave a short file there.
    """
    temp = _write_beside(target, lambda out: out.write(data))
    try:
        try:
            os.link(temp, target)
        except FileExistsError:
            return False
        except OSError as error:
            if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
                raise
            try:
                handle = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except FileExistsError:
                return False
            try:
                with open(handle, "wb") as out:
                    out.write(data)
                    out.flush()
                    os.fsync(out.fileno())
            except BaseException:
                target.unlink(missing_ok=True)  # ours, and not complete
                raise
    finally:
        temp.unlink(missing_ok=True)
    fsync_folder(target.parent)
    return True


class FolderStore:
    def __init__(self, root: Path, description: str | None = None) -> None:
        self.root = root
        self.description = description or str(root)

    def _path(self, name: str) -> Path:
        return self.root.joinpath(*check_name(name).split("/"))

    async def _run(self, work: Callable[[], T]) -> T:
        try:
            return await asyncio.to_thread(work)
        except OSError as error:
            raise os_error(error, self.description) from error

    async def check(self) -> None:
        def probe() -> None:
            self.root.mkdir(parents=True, exist_ok=True)
            temp = _write_beside(self.root / "probe", lambda out: out.write(b"parley"))
            temp.unlink()

        await self._run(probe)

    async def list(self, folder: str = "") -> list[RemoteObject]:
        where = self.root.joinpath(*check_folder(folder).split("/")) if folder else self.root

        def scan() -> list[RemoteObject]:
            found: list[RemoteObject] = []
            try:
                entries = list(os.scandir(where))
            except FileNotFoundError:
                return []
            for entry in entries:
                if entry.name.startswith(TEMP_PREFIX):
                    continue
                try:
                    if entry.is_dir():
                        found.append(RemoteObject(entry.name + "/", 0, None))
                    elif entry.is_file():
                        info = entry.stat()
                        modified = datetime.fromtimestamp(info.st_mtime, UTC)
                        found.append(RemoteObject(entry.name, info.st_size, modified))
                except FileNotFoundError:
                    continue  # removed while listing
            return sorted(found, key=lambda item: item.name)

        return await self._run(scan)

    async def put_file(self, name: str, path: Path) -> None:
        target = self._path(name)
        await self._run(lambda: _atomic_write(target, _copy_from(path)))

    async def get_file(self, name: str, path: Path) -> None:
        source = self._path(name)
        try:
            handle = await self._run(lambda: open(source, "rb"))  # noqa: SIM115 (closed below)
        except RemoteError as error:
            if error.problem is RemoteProblem.NOT_FOUND:
                raise missing_object(self.description, name) from error
            raise
        try:
            with handle:
                await asyncio.to_thread(
                    _atomic_write, path, lambda out: shutil.copyfileobj(handle, out, CHUNK)
                )
        except OSError as error:
            # Writing `path`: the folder to name is the one it goes to.
            raise os_error(error, str(path.parent)) from error

    async def put_bytes(self, name: str, data: bytes, *, create_only: bool = False) -> None:
        target = self._path(name)
        if not create_only:
            await self._run(lambda: _atomic_write(target, lambda out: out.write(data)))
        elif not await self._run(lambda: _exclusive_write(target, data)):
            raise already_there(self.description, name)

    async def get_bytes(self, name: str) -> bytes:
        source = self._path(name)
        try:
            return await self._run(source.read_bytes)
        except RemoteError as error:
            if error.problem is RemoteProblem.NOT_FOUND:
                raise missing_object(self.description, name) from error
            raise

    async def delete(self, name: str) -> None:
        target = self._path(name)
        await self._run(lambda: target.unlink(missing_ok=True))
