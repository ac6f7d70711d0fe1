"""A real, small filesystem that tests can fill up: a tmpfs mounted for one test.

Faking ENOSPC would test our guess of what a full disk does; a real one shows what
SQLite, Python and Qt actually do (SQLite, say, fails to read a WAL database with an
I/O error when it cannot grow its `-shm` file). Mounting needs root (or CAP_SYS_ADMIN):
where it is not allowed the test is skipped and says why.
"""

from __future__ import annotations

import contextlib
import errno
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

BLOCK = 4096


class SmallDisk:
    """`root` is an empty tmpfs of `size` bytes; `fill()` takes every free byte,
    `release()` gives them back."""

    def __init__(self, root: Path, size: int) -> None:
        self.root = root
        self.size = size
        self._filler = root / "filler.bin"

    @classmethod
    @contextlib.contextmanager
    def mounted(cls, where: Path, size: int = 2 * 1024 * 1024) -> Iterator[SmallDisk]:
        if not sys.platform.startswith("linux") or shutil.which("mount") is None:
            pytest.skip("a full disk is made with a tmpfs mount, which needs Linux")
        where.mkdir(parents=True, exist_ok=True)
        result = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(where)],
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            pytest.skip(f"cannot mount a small tmpfs here: {result.stderr.strip()}")
        try:
            yield cls(where, size)
        finally:
            # Lazily, should a file still be open (the test failed half-way).
            subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)

    @property
    def free(self) -> int:
        return shutil.disk_usage(self.root).free

    def fill(self, leave: int = 0) -> None:
        """Write until the disk refuses, or until only `leave` bytes are free."""
        block = b"\0" * BLOCK
        with open(self._filler, "ab", buffering=0) as handle:
            while self.free > leave:
                try:
                    handle.write(block)
                except OSError as error:
                    if error.errno != errno.ENOSPC:
                        raise
                    break
        if leave == 0:
            # A partial block may still fit: take it too.
            with contextlib.suppress(OSError), open(self._filler, "ab", buffering=0) as handle:
                handle.write(b"\0" * 512)
            assert self.free == 0

    def release(self) -> None:
        self._filler.unlink(missing_ok=True)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[SmallDisk]:
    """An empty 2 MiB tmpfs at `tmp_path / "disk"`; `.fill()` makes it full."""
    with SmallDisk.mounted(tmp_path / "disk") as disk:
        yield disk
