"""How much space is left, said for people; what counts as a full disk."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

from desktop.storage.disk_space import is_disk_full, size_text


def test_sizes_read_as_a_file_manager_shows_them() -> None:
    assert size_text(0) == "0 bytes"
    assert size_text(1023) == "1023 bytes"
    assert size_text(1536) == "1.5 KB"
    assert size_text(200 * 1024) == "200 KB"
    assert size_text(5 * 1024**3) == "5.0 GB"


def test_only_a_full_disk_counts_as_one(tmp_path: Path) -> None:
    assert is_disk_full(OSError(errno.ENOSPC, "No space left on device"), tmp_path)
    assert is_disk_full(OSError(errno.EDQUOT, "Disk quota exceeded"), tmp_path)
    assert not is_disk_full(OSError(errno.EACCES, "Permission denied"), tmp_path)
    assert not is_disk_full(ValueError("no"), tmp_path)
    # An I/O error on a disk with room left is something else (this disk has room).
    assert not is_disk_full(sqlite3.OperationalError("disk I/O error"), tmp_path)
