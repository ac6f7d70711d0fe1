"""Reading members of a zip-based document without letting a zip bomb unpack.

Two checks, because each alone can be fooled: before anything is decompressed the
declared sizes are summed and compared with the compressed ones (a 100 KiB file that
claims 100 MiB is refused on sight); and while decompressing, the bytes actually
produced are counted against the same budget, since declared sizes can lie.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from typing import IO, BinaryIO

from desktop.core.attachments import AttachmentError
from desktop.core.i18n import tr
from desktop.core.limits import MAX_DECOMPRESSED_BYTES

_MIB = 1024 * 1024
# Office XML compresses well (20-50x is common); beyond this ratio a member is a bomb.
MAX_COMPRESSION_RATIO = 200
# Small members may legitimately compress by any ratio (a run of spaces); only judge
# the ratio of members that would expand to something sizeable.
_RATIO_FLOOR_BYTES = 1 * _MIB
_CHUNK = 64 * 1024


class GuardedZip:
    """A zip opened after its declared sizes passed the budget; reads stay within it."""

    def __init__(self, stream: BinaryIO, name: str, budget: int = MAX_DECOMPRESSED_BYTES):
        self._name = name
        self._budget = budget
        self._archive = zipfile.ZipFile(stream)
        try:
            self._check_declared_sizes()
        except AttachmentError:
            self._archive.close()
            raise
        self._read_so_far = 0

    @property
    def names(self) -> list[str]:
        return self._archive.namelist()

    def has(self, member: str) -> bool:
        try:
            self._archive.getinfo(member)
        except KeyError:
            return False
        return True

    def read(self, member: str) -> bytes:
        """Decompresses one member, refusing as soon as the budget is exceeded."""
        with self.open(member) as source:
            return source.read()

    def open(self, member: str) -> io.BufferedReader:
        """A stream of one member whose reads count against the budget as they happen."""
        return io.BufferedReader(_CountingReader(self._archive.open(member), self._count), _CHUNK)

    def _count(self, produced: int) -> None:
        self._read_so_far += produced
        if self._read_so_far > self._budget:
            raise self._too_big()

    def close(self) -> None:
        self._archive.close()

    def __enter__(self) -> GuardedZip:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _check_declared_sizes(self) -> None:
        total = 0
        for info in self._archive.infolist():
            total += info.file_size
            if total > self._budget:
                raise self._too_big()
            ratio = info.file_size / max(info.compress_size, 1)
            if info.file_size > _RATIO_FLOOR_BYTES and ratio > MAX_COMPRESSION_RATIO:
                raise AttachmentError(
                    self._name,
                    tr(
                        "refused: a part of it is compressed {ratio} to 1, "
                        "which only a zip bomb does"
                    ).format(ratio=f"{ratio:,.0f}"),
                )

    def _too_big(self) -> AttachmentError:
        limit = self._budget // _MIB
        return AttachmentError(
            self._name,
            tr("refused: it would unpack to more than the {limit} MiB limit").format(limit=limit),
        )


class _CountingReader(io.RawIOBase):
    """Passes a member's bytes through, charging each read to the archive's budget."""

    def __init__(self, source: IO[bytes], charge: Callable[[int], None]):
        self._source = source
        self._charge = charge

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self._source.read(len(buffer))
        self._charge(len(data))
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self._source.close()
        super().close()
