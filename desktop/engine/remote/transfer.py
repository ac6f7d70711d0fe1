"""HTTP plumbing shared by the WebDAV and S3 stores: requests whose failures become
RemoteErrors, uploads streamed from a file, downloads streamed into a temporary file.

Files are read and written a chunk at a time in a worker thread, so neither a large
archive in memory nor a slow disk on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import BinaryIO, Self

import httpx

from desktop.engine.remote.base import CHUNK
from desktop.engine.remote.errors import RemoteError, os_error, transport_error

Fail = Callable[[httpx.Response, bytes], RemoteError]
"""Turns an unexpected answer (with its body, read in full) into an error."""


class FileBody:
    """The bytes of a file as an async iterable request body, `size` bytes long.

    Exactly `size` bytes are sent (the size when opened), so a Content-Length sent
    beforehand stays true even if the file grows meanwhile. Use as a context manager:
    the file is closed whether or not the request read it all.
    """

    def __init__(self, handle: BinaryIO, size: int) -> None:
        self._handle = handle
        self.size = size
        self._left = size

    @classmethod
    async def open(cls, path: Path, offset: int = 0, length: int | None = None) -> FileBody:
        """The file from `offset`, `length` bytes of it at most (None: to its end)."""

        def opened() -> FileBody:
            handle = open(path, "rb")  # noqa: SIM115 (closed by __exit__)
            try:
                left = max(0, os.fstat(handle.fileno()).st_size - offset)
                handle.seek(offset)
            except OSError:
                handle.close()
                raise
            return cls(handle, left if length is None else min(length, left))

        return await asyncio.to_thread(opened)

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> bytes:
        if self._left <= 0:
            raise StopAsyncIteration
        chunk = await asyncio.to_thread(self._handle.read, min(CHUNK, self._left))
        if not chunk:
            raise OSError(f"{self._handle.name} became shorter while it was being sent")
        self._left -= len(chunk)
        return chunk

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._handle.close()


async def send(
    client: httpx.AsyncClient,
    method: str,
    url: str,
    where: str,
    *,
    timeouts: httpx.Timeout,
    headers: Mapping[str, str] | None = None,
    content: bytes | FileBody | None = None,
    auth: httpx.Auth | None = None,
) -> httpx.Response:
    """The answer (body read) to one request; RemoteError if there was none."""
    try:
        return await client.request(
            method, url, headers=headers, content=content, auth=auth, timeout=timeouts
        )
    except httpx.TransportError as error:
        raise transport_error(error, where) from error
    except OSError as error:  # reading the file being uploaded
        raise os_error(error, where) from error


async def download(
    client: httpx.AsyncClient,
    url: str,
    where: str,
    path: Path,
    *,
    fail: Fail,
    timeouts: httpx.Timeout,
    headers: Mapping[str, str] | None = None,
    auth: httpx.Auth | None = None,
) -> None:
    """GET `url` into `path`: streamed into a temporary file beside it, which replaces
    `path` only once complete. On any failure `path` is as it was."""
    try:
        handle, temp_name = await asyncio.to_thread(
            tempfile.mkstemp, prefix=".parley-part-", dir=path.parent
        )
    except OSError as error:
        raise os_error(error, str(path.parent)) from error
    temp = Path(temp_name)
    out = await asyncio.to_thread(os.fdopen, handle, "wb")
    try:
        async with client.stream(
            "GET", url, headers=headers, auth=auth, timeout=timeouts
        ) as response:
            if not response.is_success:
                raise fail(response, await response.aread())
            async for chunk in response.aiter_bytes(CHUNK):
                await asyncio.to_thread(out.write, chunk)
        await asyncio.to_thread(_flush_and_close, out)
        await asyncio.to_thread(os.replace, temp, path)
    except httpx.TransportError as error:
        raise transport_error(error, where) from error
    except OSError as error:
        raise os_error(error, str(path.parent)) from error
    finally:
        await asyncio.to_thread(_discard, out, temp)


def _flush_and_close(out: BinaryIO) -> None:
    out.flush()
    os.fsync(out.fileno())
    out.close()


def _discard(out: BinaryIO, temp: Path) -> None:
    """Close and remove the temporary file, if a failure left it behind."""
    with contextlib.suppress(OSError):
        out.close()
    with contextlib.suppress(OSError):
        temp.unlink(missing_ok=True)
