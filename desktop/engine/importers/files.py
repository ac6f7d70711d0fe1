"""The files of an export, whether it is a zip, a folder or one JSON file.

Exports are large and come from elsewhere: a zip is read through the attachment zip
guard with an import-sized budget (`MAX_IMPORT_BYTES`), and every member is looked up by
its name inside the export (a member named "../x" is never a path on this computer).
"""

from __future__ import annotations

import json
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

from desktop.core.attachments import AttachmentError
from desktop.core.i18n import tr
from desktop.engine.attachments.zip_guard import GuardedZip

MAX_IMPORT_BYTES = 1024 * 1024 * 1024  # what a zip may unpack to in all (1 GiB)
MAX_JSON_BYTES = 512 * 1024 * 1024  # one JSON document read whole
MAX_FOLDER_FILES = 100_000  # files in a chosen folder (Jan's threads/ and their files)


# How a damaged member fails: a bad CRC, a cut stream, an unknown compression method,
# an encrypted entry.
_DAMAGE = (
    OSError,
    zipfile.BadZipFile,
    zlib.error,
    EOFError,
    ValueError,
    NotImplementedError,
    RuntimeError,
)


class ExportError(Exception):
    """The export cannot be read at all; the message says why, in words."""


class ExportFiles:
    """Named files of one export. `names` are relative, with "/" separators."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._zip: GuardedZip | None = None
        self._stream = None
        self._known: frozenset[str] | None = None
        if path.is_dir():
            self.names = _listed(path)
        elif _is_zip(path):
            self._stream = path.open("rb")
            try:
                self._zip = GuardedZip(self._stream, path.name, budget=MAX_IMPORT_BYTES)
            except (AttachmentError, OSError, ValueError, zipfile.BadZipFile) as error:
                self._stream.close()
                raise ExportError(
                    tr("{name} is not a readable zip file: {error}").format(
                        name=path.name, error=error
                    )
                ) from error
            self.names = [n for n in self._zip.names if not n.endswith("/")]
        else:
            self.names = [path.name]

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()

    def __enter__(self) -> ExportFiles:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    @property
    def single(self) -> bool:
        """One file chosen on its own (a conversations.json): none of the files the
        export held beside it are here."""
        return self._zip is None and not self.path.is_dir()

    def has(self, name: str) -> bool:
        if self._known is None:
            self._known = frozenset(self.names)
        return name in self._known

    def find(self, name: str) -> str | None:
        """The member called `name` at any depth (an export zipped with its folder), the
        shallowest first; None when there is none."""
        found = [n for n in self.names if PurePosixPath(n).name == name]
        return min(found, key=lambda n: n.count("/")) if found else None

    def read(self, name: str) -> bytes:
        if name not in self.names:
            raise ExportError(tr("The export has no file {name}.").format(name=name))
        if self._zip is not None:
            try:
                return self._zip.read(name)
            except AttachmentError as error:
                raise ExportError(str(error)) from error
        if self.path.is_dir():
            return (self.path / PurePosixPath(name)).read_bytes()
        return self.path.read_bytes()

    def read_at_most(self, name: str, limit: int) -> bytes | None:
        """`name`'s bytes, or None when it proves longer than `limit`: at most `limit` + 1
        bytes are read, whatever the file claims to be. ExportError when the export has
        no such file or it cannot be read (a damaged zip entry)."""
        if not self.has(name):
            raise ExportError(tr("The export has no file {name}.").format(name=name))
        try:
            if self._zip is not None:
                with self._zip.open(name) as stream:
                    data = stream.read(limit + 1)
            else:
                path = self.path / PurePosixPath(name) if self.path.is_dir() else self.path
                with path.open("rb") as file:
                    data = file.read(limit + 1)
        except AttachmentError as error:
            raise ExportError(error.problem) from error
        except _DAMAGE as error:
            raise ExportError(
                tr("it could not be read from the export ({error})").format(error=error)
            ) from error
        return data if len(data) <= limit else None

    def json(self, name: str) -> Any:
        """`name` parsed as JSON (UTF-8, a byte-order mark allowed)."""
        data = self.read(name)
        if len(data) > MAX_JSON_BYTES:
            raise ExportError(tr("{name} is too large to read.").format(name=name))
        try:
            return json.loads(data.decode("utf-8-sig"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
            raise ExportError(
                tr("{name} is not valid JSON: {error}").format(name=name, error=error)
            ) from error

    def lines(self, name: str) -> Iterator[Any]:
        """Each line of a JSON Lines file, parsed; an unreadable line is yielded as None."""
        for line in self.read(name).decode("utf-8-sig", errors="replace").splitlines():
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except (json.JSONDecodeError, RecursionError):
                yield None


def _listed(folder: Path) -> list[str]:
    """The files under `folder` (not following links out of it), or an ExportError when
    there are more than an export holds: a home folder chosen by mistake."""
    names: list[str] = []
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            names.append(path.relative_to(folder).as_posix())
            if len(names) > MAX_FOLDER_FILES:
                raise ExportError(
                    tr("{name} holds more files than an export does; choose its export.").format(
                        name=folder.name
                    )
                )
    return sorted(names)


def _is_zip(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            return file.read(4) == b"PK\x03\x04"
    except OSError:
        return False
