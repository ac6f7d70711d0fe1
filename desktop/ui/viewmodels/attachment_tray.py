"""Files on their way into a message (the composer's tray), and files already sent.

The tray keeps one draft per conversation, so files picked for one chat do not follow
the person into another, and come back when they return. A file shows at once, as
"loading", while the attachment service checks and stores it in a worker thread; it
becomes ready, or leaves the tray with a notice naming the file and the reason.

A send takes a `SendBatch`: the files on the tray at that moment. It waits for those
still loading, and takes them off the tray only once the message was saved, so a
failed send keeps them for another try.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QObject, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QImage

from desktop.core.attachments import Attachment, AttachmentKind
from desktop.core.errors import ParleyError
from desktop.core.i18n import joined
from desktop.core.limits import MAX_ATTACHMENTS_PER_MESSAGE
from desktop.core.models import Message
from desktop.ui.image_loader import ImageRejected, decode_image
from desktop.ui.viewmodels.tasks import TaskGroup

if TYPE_CHECKING:
    from desktop.engine.attachments.service import AttachmentService

THUMBNAIL_SIDE = 96  # pixels; chips show them at half that on high-density screens
PASTED_IMAGE_NAME = "Pasted image.png"


@dataclass(frozen=True, slots=True)
class PendingFile:
    """One chip on the tray: `attachment` is None while the file is being added."""

    key: str  # stable for the chip's life, whatever state it is in
    name: str
    attachment: Attachment | None = None

    @property
    def loading(self) -> bool:
        return self.attachment is None


def _png_bytes(image: QImage) -> bytes:
    """A pasted bitmap as a PNG file (any thread)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    # PySide6's stubs say the format is bytes; at run time it must be a str.
    image.save(buffer, "PNG")  # type: ignore[call-overload]
    buffer.close()
    return bytes(data.data())


class AttachmentFiles(QObject):
    """Stored attachments as the views need them: thumbnails, a sent message's files,
    and opening one with the system's viewer. Decoding and copying run off the GUI thread.
    """

    thumbnailReady = Signal(str)  # attachment id
    problem = Signal(str)

    def __init__(
        self,
        service: AttachmentService | None,
        tasks: TaskGroup,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._tasks = tasks
        self._thumbnails: dict[str, QImage | None] = {}  # None: loading or undecodable
        self._sent: dict[str, tuple[str, ...]] = {}  # message id -> attachment ids

    @property
    def available(self) -> bool:
        return self._service is not None

    def note(self, message: Message) -> None:
        """Remember a message's files as the chat shows it (no database read later)."""
        ids = message.context.attachment_ids
        if ids:
            self._sent[message.id] = tuple(ids)

    def of_message(self, message_id: str) -> list[Attachment]:
        ids = self._sent.get(message_id)
        if not ids or self._service is None:
            return []
        return self._service.get_many(ids)

    def lookup(self, ids: Sequence[str]) -> list[Attachment]:
        """Files by id (those a tool returned), in order; unknown ids are skipped."""
        return self._service.get_many(ids) if ids and self._service is not None else []

    def thumbnail(self, attachment: Attachment) -> QImage | None:
        """The image's thumbnail if decoded; otherwise starts decoding it and returns None
        (`thumbnailReady` follows)."""
        if attachment.kind is not AttachmentKind.IMAGE or self._service is None:
            return None
        if attachment.id in self._thumbnails:
            return self._thumbnails[attachment.id]
        self._thumbnails[attachment.id] = None
        self._tasks.start(self._load_thumbnail(attachment), "attachment-thumbnail")
        return None

    async def _load_thumbnail(self, attachment: Attachment) -> None:
        assert self._service is not None
        try:
            data = await self._service.image_bytes(attachment)
            image = await asyncio.to_thread(decode_image, data, max_side=THUMBNAIL_SIDE)
        except (ParleyError, ImageRejected, OSError):
            return  # the chip keeps its file icon
        self._thumbnails[attachment.id] = image
        self.thumbnailReady.emit(attachment.id)

    def open(self, attachment: Attachment) -> None:
        """Show the stored copy in the system's viewer (it opens under its own name)."""
        if self._service is not None:
            self._tasks.start(self._open(attachment), "open-attachment")

    async def _open(self, attachment: Attachment) -> None:
        assert self._service is not None
        try:
            path = await self._service.open_local(attachment)
        except (ParleyError, OSError) as error:
            self.problem.emit(str(error))
            return
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))):
            self.problem.emit(
                self.tr("%1: no application to open it was found.").replace("%1", attachment.name)
            )


class SendBatch:
    """The tray's files at the moment Send was pressed."""

    def __init__(self, tray: AttachmentTray, entries: list[PendingFile]) -> None:
        self._tray = tray
        self._keys = [entry.key for entry in entries]
        self.names = [entry.name for entry in entries]

    def __bool__(self) -> bool:
        return bool(self._keys)

    async def ready_ids(self) -> list[str]:
        """The ids of the batch's files, once none is loading; failed or removed ones
        are left out (their notice was shown)."""
        return await self._tray._ready_ids(self._keys)

    def sent(self) -> None:
        """The message was saved: these files leave the tray."""
        self._tray._discard(self._keys)


class AttachmentTray(QObject):
    """The composer's pending files, one draft per conversation."""

    changed = Signal()  # the current draft's files (`entries()`) changed
    problem = Signal(str)  # a file could not be attached: its name and the reason

    def __init__(
        self,
        service: AttachmentService | None,
        tasks: TaskGroup,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._tasks = tasks
        self.files = AttachmentFiles(service, tasks, self)
        self.files.problem.connect(self.problem)
        self._drafts: dict[str, list[PendingFile]] = {}
        self._conversation = ""
        self._carry = False
        self._loading: dict[str, asyncio.Task[Any]] = {}
        self._keys = itertools.count(1)

    @property
    def available(self) -> bool:
        """False when Parley runs without an attachment store (nothing can be attached)."""
        return self._service is not None

    # --- what the composer shows ----------------------------------------------------

    def entries(self) -> list[PendingFile]:
        return list(self._drafts.get(self._conversation, ()))

    def ids(self) -> list[str]:
        """The ready files' attachment ids, in the order they were added."""
        return [e.attachment.id for e in self.entries() if e.attachment is not None]

    def __len__(self) -> int:
        return len(self._drafts.get(self._conversation, ()))

    # --- adding and removing --------------------------------------------------------

    def add_paths(self, paths: Iterable[str | Path]) -> None:
        """Attach files from disk (drop, picker, command line, pasted file URLs)."""
        service = self._service
        chosen = [Path(p) for p in paths]
        for path, key in self._admit([p.name for p in chosen], chosen):
            if service is not None:
                self._start(key, path.name, service.add_file(path))

    def add_image_data(self, data: bytes, name: str = PASTED_IMAGE_NAME) -> None:
        """Attach an image held in memory (an encoded PNG, JPEG or WebP file)."""
        service = self._service
        for _, key in self._admit([name], [data]):
            if service is not None:
                self._start(key, name, service.add_bytes(data, name))

    def add_image(self, image: QImage, name: str = PASTED_IMAGE_NAME) -> None:
        """Attach a pasted bitmap, saved as PNG in a worker thread."""
        service = self._service
        for _, key in self._admit([name], [image]):
            if service is not None:
                self._start(key, name, self._add_bitmap(service, image, name))

    @staticmethod
    async def _add_bitmap(service: AttachmentService, image: QImage, name: str) -> Attachment:
        data = await asyncio.to_thread(_png_bytes, image)
        return await service.add_bytes(data, name)

    def remove(self, key: str) -> None:
        """Take a file off the tray (by its chip key or its attachment id)."""
        draft = self._drafts.get(self._conversation, [])
        kept = [e for e in draft if key not in (e.key, e.attachment and e.attachment.id)]
        if len(kept) != len(draft):
            self._set_draft(self._conversation, kept)

    def clear(self) -> None:
        self._set_draft(self._conversation, [])

    def _admit(self, names: list[str], items: Sequence[Any]) -> list[tuple[Any, str]]:
        """Chips for as many items as the limit allows; the others are named in a notice."""
        if self._service is None:
            self.problem.emit(self.tr("Files cannot be attached in this window."))
            return []
        draft = list(self._drafts.get(self._conversation, ()))
        room = max(0, MAX_ATTACHMENTS_PER_MESSAGE - len(draft))
        admitted = [(item, f"pending-{next(self._keys)}") for item in items[:room]]
        left_out = names[room:]
        if admitted:
            draft += [
                PendingFile(key, name)
                for (_, key), name in zip(admitted, names[:room], strict=True)
            ]
            self._set_draft(self._conversation, draft)
        if left_out:
            self.problem.emit(
                self.tr("Not attached: %1 — a message can carry at most %2 files.")
                .replace("%2", str(MAX_ATTACHMENTS_PER_MESSAGE))
                .replace("%1", joined(left_out))
            )
        return admitted

    def _start(self, key: str, name: str, adding: Any) -> None:
        self._loading[key] = self._tasks.start(self._finish(key, name, adding), "attach-file")

    async def _finish(self, key: str, name: str, adding: Any) -> None:
        try:
            attachment: Attachment = await adding
        except ParleyError as error:
            self._discard([key])
            self.problem.emit(str(error))
            return
        except OSError as error:  # the service names its own failures; this is a safety net
            self._discard([key])
            self.problem.emit(
                self.tr("%1: %2").replace("%1", name).replace("%2", str(error.strerror or error))
            )
            return
        finally:
            self._loading.pop(key, None)
        for conversation, draft in self._drafts.items():
            if any(e.key == key for e in draft):
                updated = [replace(e, attachment=attachment) if e.key == key else e for e in draft]
                self._set_draft(conversation, updated)
                return
        # Removed while it loaded: the stored copy is left for the store's clean-up.

    def _discard(self, keys: Iterable[str]) -> None:
        gone = set(keys)
        for conversation, draft in list(self._drafts.items()):
            kept = [e for e in draft if e.key not in gone]
            if len(kept) != len(draft):
                self._set_draft(conversation, kept)

    def _set_draft(self, conversation: str, draft: list[PendingFile]) -> None:
        if draft:
            self._drafts[conversation] = draft
        else:
            self._drafts.pop(conversation, None)
        if conversation == self._conversation:
            self.changed.emit()

    # --- drafts per conversation ------------------------------------------------------

    def follow(self, conversation_id: str) -> None:
        """The chat switched: show that conversation's draft (or carry this one along)."""
        if conversation_id == self._conversation:
            return
        if self._carry:
            draft = self._drafts.pop(self._conversation, [])
            if draft:
                self._drafts[conversation_id] = self._drafts.get(conversation_id, []) + draft
        self._conversation = conversation_id
        self.changed.emit()

    @contextmanager
    def carrying(self) -> Iterator[None]:
        """Within this block a conversation switch takes the draft along: a new chat
        gets its id on its first send, and the files picked for it go with it."""
        self._carry = True
        try:
            yield
        finally:
            self._carry = False

    # --- sending --------------------------------------------------------------------

    def batch(self) -> SendBatch:
        return SendBatch(self, self.entries())

    async def _ready_ids(self, keys: list[str]) -> list[str]:
        waiting = [self._loading[k] for k in keys if k in self._loading]
        if waiting:
            await asyncio.gather(*waiting, return_exceptions=True)
        found = {
            e.key: e.attachment.id
            for draft in self._drafts.values()
            for e in draft
            if e.attachment is not None
        }
        return [found[k] for k in keys if k in found]
