"""The one interface backup and sync write through, whatever holds the files.

Names are relative paths with "/" between folders ("devices/laptop/seg-1.age"); a store
keeps them under its own folder, collection or key prefix and creates sub-folders as
needed. Every failure is a `RemoteError` (errors.py); a malformed name is a ValueError,
a bug in the caller rather than something a person can fix.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Final, Protocol

import httpx

CHUNK: Final = 1024 * 1024
"""Bytes read from or written to disk at a time while streaming a file."""

DEFAULT_TIMEOUT: Final = httpx.Timeout(60.0, connect=15.0)
"""Per request: the shared client's defaults suit model streams, not file transfers."""


@dataclass(frozen=True, slots=True)
class RemoteObject:
    """One entry of a listing. A sub-folder's name ends with "/" (size 0)."""

    name: str
    size: int
    modified: datetime | None

    @property
    def is_folder(self) -> bool:
        return self.name.endswith("/")


class RemoteStore(Protocol):
    description: str
    """Where the files go, for messages (no secrets)."""

    async def check(self) -> None:
        """Reachable, credentials accepted, and the folder exists (made if missing)."""
        ...

    async def list(self, folder: str = "") -> list[RemoteObject]:
        """What is directly in `folder` (names relative to it); [] if it is missing."""
        ...

    async def put_file(self, name: str, path: Path) -> None:
        """Upload `path` as `name`, streamed from disk, replacing what was there."""
        ...

    async def get_file(self, name: str, path: Path) -> None:
        """Download `name` to `path`; `path` appears only once the download is complete."""
        ...

    async def put_bytes(self, name: str, data: bytes, *, create_only: bool = False) -> None:
        """Write `name`; with `create_only`, RemoteError(CONFLICT) if it exists."""
        ...

    async def get_bytes(self, name: str) -> bytes: ...

    async def delete(self, name: str) -> None:
        """Remove `name`; one that is not there is not an error."""
        ...


def check_name(name: str) -> str:
    """`name` if it is a relative path of plain segments, else ValueError.

    No "..", ".", empty segments, absolute paths or backslashes: a name must mean the
    same object on every kind of store and can never reach outside the store's folder.
    """
    if not isinstance(name, str) or not name:
        raise ValueError("a remote name must be a non-empty string")
    if name.startswith("/") or "\\" in name or "\0" in name:
        raise ValueError(f"not a relative remote name: {name!r}")
    if any(segment in ("", ".", "..") for segment in name.split("/")):
        raise ValueError(f"not a plain remote name: {name!r}")
    return name


def check_folder(folder: str) -> str:
    """`folder` without a trailing "/" ("" for the store's own folder); ValueError if
    it is not a plain relative path."""
    folder = folder.rstrip("/") if folder != "/" else folder
    return check_name(folder) if folder else ""


def parent_folders(name: str) -> list[str]:
    """The folders leading to `name`, outermost first: "a/b/c" → ["a", "a/b"]."""
    segments = name.split("/")[:-1]
    return ["/".join(segments[: i + 1]) for i in range(len(segments))]
