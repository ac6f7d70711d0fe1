"""Telling a full disk from a damaged file, and saying where the space ran out.

SQLite reports a full disk in more than one way. A write that finds no room fails with
SQLITE_FULL ("database or disk is full"), but a connection that cannot grow the WAL's
shared-memory file (`-shm`, needed even to read a WAL database) fails with an I/O error
("disk I/O error"), which used to be reported as a database that "may be damaged". So an
I/O error counts as a full disk too when the disk holding the file is (nearly) out of
space. Files written by Python fail with ENOSPC (or EDQUOT: a quota is full).
"""

from __future__ import annotations

import errno
import shutil
import sqlite3
from pathlib import Path
from typing import Final

from desktop.core.i18n import tr
from desktop.storage.errors import DiskFullError

# An I/O error with less than this left on the disk is taken for a full disk: SQLite
# needs 32 KiB for the shared-memory index alone, and a transaction a page per table it
# touches, so with this little left writes fail for want of space.
LOW_SPACE_BYTES: Final = 1024 * 1024
_STEP: Final = 1024  # from one unit to the next
_WHOLE_FROM: Final = 10  # "1.5 KB", but "15 KB"

_SQLITE_FULL: Final = 13
_SQLITE_IOERR: Final = 10
_SQLITE_CANTOPEN: Final = 14


def free_bytes(path: Path) -> int | None:
    """Free space for Parley on the disk holding `path` (or its nearest existing parent)."""
    for candidate in (path, *path.parents):
        if candidate.exists():
            try:
                return shutil.disk_usage(candidate).free
            except OSError:
                return None
    return None


def is_disk_full(error: BaseException | None, path: Path) -> bool:
    """Whether `error` (an OSError, a sqlite3 error, or SQLAlchemy's wrapper of one)
    happened because the disk holding `path` is full."""
    error = getattr(error, "orig", None) or error
    if isinstance(error, OSError):
        return error.errno in (errno.ENOSPC, errno.EDQUOT)
    if not isinstance(error, sqlite3.Error):
        return False
    code = getattr(error, "sqlite_errorcode", None)
    if code is None:  # older bindings: only the message tells
        message = str(error).lower()
        if "disk is full" in message:
            return True
        io_error = "disk i/o error" in message or "unable to open" in message
    else:
        if code & 0xFF == _SQLITE_FULL:
            return True
        io_error = code & 0xFF in (_SQLITE_IOERR, _SQLITE_CANTOPEN)
    space = free_bytes(path)
    return io_error and space is not None and space < LOW_SPACE_BYTES


def size_text(size: int) -> str:
    """1536 -> "1.5 KB": how much space, for people (powers of 1024, like file managers
    on most systems show)."""
    if size < _STEP:
        return tr("{size} bytes").format(size=size)
    value = float(size)
    for unit in ("KB", "MB", "GB", "TB"):
        value /= _STEP
        if value < _STEP or unit == "TB":
            return f"{value:.1f} {unit}" if value < _WHOLE_FROM else f"{value:.0f} {unit}"
    raise AssertionError("unreachable")


def disk_full_error(path: Path, what: str, then: str) -> DiskFullError:
    """E.g. "Parley could not open its database: the disk holding /home/ann/.local/share/
    parley is full (0 bytes free). Free some space there and start Parley again; ...".

    `path` is the file or folder Parley was writing; `what` says what failed, `then`
    what the person can do and what became of their data.
    """
    folder = path if path.is_dir() else path.parent
    free = free_bytes(folder)
    if free is not None:
        text = tr("{what}: the disk holding {folder} is full ({free} free). {then}").format(
            what=what, folder=folder, free=size_text(free), then=then
        )
    else:
        text = tr("{what}: the disk holding {folder} is full. {then}").format(
            what=what, folder=folder, then=then
        )
    return DiskFullError(text, folder, free)
