"""`AttachmentService`: files the person attaches, checked, stored and read for the model.

A file is validated and (for a document) its text extracted from the original before
anything is stored, so a refused file leaves nothing behind. All file work and parsing
runs in worker threads (`asyncio.to_thread`): a 25 MiB PDF must not freeze the window.
"""

from __future__ import annotations

import asyncio
import os
import stat
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import BinaryIO

from desktop.core.attachments import Attachment, AttachmentError, AttachmentKind
from desktop.core.errors import ParleyError
from desktop.core.i18n import tr
from desktop.core.limits import MAX_WORKSPACE_FILE_CHARS
from desktop.engine.attachments.extract import Extracted, extract_text
from desktop.engine.attachments.plain_text import extract_plain_text
from desktop.engine.attachments.sniff import Sniffed, sniff
from desktop.engine.attachments.validate import validate
from desktop.storage.attachments import AttachmentStore


@dataclass(frozen=True, slots=True)
class Prepared:
    """A file that passed the checks, with a document's text already extracted."""

    sniffed: Sniffed
    size: int
    extracted: Extracted | None


Fetcher = Callable[[str, Path], Awaitable[bool]]
"""Downloads the file with this SHA-256 to this path; False when it cannot be had."""


class AttachmentService:
    def __init__(self, store: AttachmentStore):
        self._store = store
        self._fetch: Fetcher | None = None

    def set_fetcher(self, fetch: Fetcher | None) -> None:
        """Where a file synced from another device is fetched from the first time it
        is needed (its row arrives with the message; the bytes only on demand)."""
        self._fetch = fetch

    async def ensure_local(self, attachment: Attachment) -> None:
        """Fetch the stored copy if this device does not have it yet. A failure to
        fetch is left to the read that follows, which says the copy is missing."""
        if self._fetch is None:
            return
        blob = self._store.blob_path(attachment)
        if await asyncio.to_thread(blob.exists):
            return
        try:
            await self._fetch(attachment.sha256, blob)
        except ParleyError as error:
            raise AttachmentError(attachment.name, str(error)) from error

    async def add_file(self, path: Path) -> Attachment:
        """Raises `AttachmentError` saying why the file cannot be attached."""
        path = Path(path)
        prepared = await asyncio.to_thread(_prepare_file, path)
        attachment = await asyncio.to_thread(
            self._store.put_file,
            path,
            name=path.name,
            mime=prepared.sniffed.mime,
            kind=prepared.sniffed.kind,
            width=prepared.sniffed.width,
            height=prepared.sniffed.height,
        )
        if attachment.size != prepared.size:
            # Still being written (a download in progress): what was checked is not
            # what was stored. The row is left for garbage collection.
            raise AttachmentError(path.name, tr("changed while it was being attached; try again"))
        return await self._keep_text(attachment, prepared.extracted)

    async def add_bytes(self, data: bytes, name: str) -> Attachment:
        """A pasted image (or any pasted file content), checked like a file."""
        prepared = await asyncio.to_thread(prepare, name, BytesIO(data), len(data))
        attachment = await asyncio.to_thread(
            self._store.put_bytes,
            data,
            name=name,
            mime=prepared.sniffed.mime,
            kind=prepared.sniffed.kind,
            width=prepared.sniffed.width,
            height=prepared.sniffed.height,
        )
        return await self._keep_text(attachment, prepared.extracted)

    async def add_files(
        self, paths: Iterable[Path]
    ) -> tuple[list[Attachment], list[AttachmentError]]:
        """Attaches each file in turn; one refused file does not stop the others."""
        added: list[Attachment] = []
        refused: list[AttachmentError] = []
        for path in paths:
            try:
                added.append(await self.add_file(path))
            except AttachmentError as error:
                refused.append(error)
        return added, refused

    async def snapshot_text_file(self, path: Path) -> Attachment:
        """A text file as it is now (the workspace file at a send), kept as a document so
        the message keeps the version it was sent with. At most
        `MAX_WORKSPACE_FILE_CHARS`; `truncated` says when it was cut. Raises
        `AttachmentError` when it cannot be read as text."""
        path = Path(path)
        extracted = await asyncio.to_thread(_read_text_file, path)
        attachment = await asyncio.to_thread(
            self._store.put_bytes,
            extracted.text.encode("utf-8"),
            name=path.name,
            mime="text/plain",
            kind=AttachmentKind.DOCUMENT,
        )
        return await self._keep_text(attachment, extracted)

    def read_text_file(self, path: Path) -> Extracted:
        """A text file as `snapshot_text_file` would keep it now, without keeping it (what
        the next message would send of the workspace file). Blocking: for a worker
        thread. Raises `AttachmentError`."""
        return _read_text_file(Path(path))

    def get_many(self, ids: Sequence[str]) -> list[Attachment]:
        return self._store.get_many(ids)

    def open_path(self, attachment: Attachment) -> Path:
        return self._store.open_copy(attachment)

    async def open_local(self, attachment: Attachment) -> Path:
        """`open_path`, fetching a synced file first if it is not here yet."""
        await self.ensure_local(attachment)
        return await asyncio.to_thread(self._store.open_copy, attachment)

    async def document_text(self, attachment: Attachment) -> str:
        """The saved text; extracted again from the stored copy (and saved again) if the
        text file is gone (or never came: a file synced from another device). For a
        send."""
        if await asyncio.to_thread(self._store.load_text, attachment) is None:
            await self.ensure_local(attachment)
        return await asyncio.to_thread(self._document_text, attachment, keep=True)

    def read_document_text(self, attachment: Attachment) -> str:
        """`document_text`, blocking, for a worker thread, and read-only: a text file
        that is gone is extracted again but not saved (the composer's estimate, which
        must not write the store behind a send's back)."""
        return self._document_text(attachment, keep=False)

    def _document_text(self, attachment: Attachment, *, keep: bool) -> str:
        if attachment.kind is not AttachmentKind.DOCUMENT:
            raise AttachmentError(attachment.name, tr("is an image, not a document"))
        text = self._store.load_text(attachment)
        return text if text is not None else self._extract_again(attachment, keep=keep)

    async def image_bytes(self, attachment: Attachment) -> bytes:
        await self.ensure_local(attachment)
        return await asyncio.to_thread(self._store.read_bytes, attachment)

    async def _keep_text(self, attachment: Attachment, extracted: Extracted | None) -> Attachment:
        if extracted is None:
            return attachment
        return await asyncio.to_thread(
            self._store.save_text, attachment, extracted.text, extracted.truncated
        )

    def _extract_again(self, attachment: Attachment, *, keep: bool) -> str:
        blob = self._store.blob_path(attachment)
        try:
            with open(blob, "rb") as stream:
                found = sniff(attachment.name, stream)
                extracted = extract_text(attachment.name, found.format, stream)
        except OSError as exc:
            raise AttachmentError(attachment.name, _stored_copy_problem(exc)) from exc
        if keep:
            self._store.save_text(attachment, extracted.text, extracted.truncated)
        return extracted.text


def _prepare_file(path: Path) -> Prepared:
    name = path.name
    try:
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            raise AttachmentError(name, tr("is a folder, not a file"))
        if not stat.S_ISREG(info.st_mode):  # a pipe or device would block or never end
            raise AttachmentError(name, tr("is not a regular file"))
        with open(path, "rb") as stream:
            return prepare(name, stream, os.fstat(stream.fileno()).st_size)
    except OSError as exc:
        raise AttachmentError(name, _read_problem(exc)) from exc


def _read_text_file(path: Path) -> Extracted:
    name = path.name
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise AttachmentError(name, tr("is not a regular file"))
        with open(path, "rb") as stream:
            if b"\0" in stream.read(8192):
                raise AttachmentError(name, tr("is not a text file"))
            return extract_plain_text(name, stream, MAX_WORKSPACE_FILE_CHARS)
    except OSError as exc:
        raise AttachmentError(name, _read_problem(exc)) from exc


def prepare(name: str, stream: BinaryIO, size: int) -> Prepared:
    """Check a file's content as any attachment's (kind, format, size limits) and
    extract a document's text: what a dropped, pasted or imported file goes through."""
    sniffed = validate(name, stream, size)
    extracted = None
    if sniffed.kind is AttachmentKind.DOCUMENT:
        extracted = extract_text(name, sniffed.format, stream)
    return Prepared(sniffed, size, extracted)


def _read_problem(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return tr("the file no longer exists")
    if isinstance(exc, PermissionError):
        return tr("cannot be read (permission denied)")
    return tr("cannot be read ({reason})").format(reason=exc.strerror or exc)


def _stored_copy_problem(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return tr("its stored copy is missing")
    return tr("its stored copy cannot be read ({reason})").format(reason=exc.strerror or exc)
