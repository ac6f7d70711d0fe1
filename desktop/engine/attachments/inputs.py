"""Reading a branch's attached files for one request: images for a model with vision,
OCR transcriptions for one without, documents as their stored text.

Runs once at the start of a generation (every later tool step reuses the result), off
the GUI thread: the store and the OCR engines do their file work in worker threads or
processes. A model that cannot see and no OCR to read for it is an error before
anything is sent: an image is never silently dropped.

`preview` gives the same inputs for a request that is only being estimated (the
composer's meter), blocking, in the worker thread the estimate runs in: no image is
read and no OCR runs. Images for a model with vision carry only their size; for a
model without, what OCR read in them before stands in, and an image not read yet
counts for nothing until it is.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from desktop.core.attachments import Attachment, AttachmentError, AttachmentKind
from desktop.core.i18n import tr
from desktop.core.models import ContextSnapshot, Message, NoticePart, Role
from desktop.engine.attachments.text import AttachmentInput
from desktop.engine.attachments.text_cap import Extracted
from desktop.engine.ocr.service import OcrImage, OcrOutcome, OcrUnavailable
from desktop.providers.base import ImageInput

log = logging.getLogger(__name__)


class AttachmentSource(Protocol):
    def get_many(self, ids: Sequence[str]) -> list[Attachment]: ...

    async def snapshot_text_file(self, path: Path) -> Attachment: ...

    def read_text_file(self, path: Path) -> Extracted: ...

    def read_document_text(self, attachment: Attachment) -> str: ...

    async def document_text(self, attachment: Attachment) -> str: ...

    async def image_bytes(self, attachment: Attachment) -> bytes: ...


class ImageReader(Protocol):
    async def transcribe(self, images: Sequence[OcrImage]) -> OcrOutcome: ...

    def known(self, hashes: Sequence[str]) -> list[str | None]: ...


@dataclass(frozen=True, slots=True)
class PreparedFiles:
    """What a request carries for the branch's files, and what the answer should say
    about how they were read."""

    inputs: dict[str, AttachmentInput]
    notices: tuple[NoticePart, ...] = ()


def attachment_ids(path: Sequence[Message]) -> list[str]:
    """Every file the person attached on the branch, once, in order, then the copy of
    the workspace file sent with the question being answered."""
    ids = [i for m in path if m.role is Role.USER for i in m.context.attachment_ids]
    question = _question(path)
    if question is not None and question.context.workspace_snapshot_id:
        ids.append(question.context.workspace_snapshot_id)
    return list(dict.fromkeys(ids))


def _question(path: Sequence[Message]) -> Message | None:
    return next((m for m in reversed(path) if m.role is Role.USER), None)


WORKSPACE_PREVIEW_ID = "workspace-file-now"  # the stand-in for a workspace copy not made


class AttachmentReader:
    def __init__(self, files: AttachmentSource, ocr: ImageReader | None = None) -> None:
        self._files = files
        self._ocr = ocr

    async def capture(self, workspace_file: str | None, base: ContextSnapshot) -> ContextSnapshot:
        """`base` with the workspace file as it is now: a copy of its content, or why it
        could not be read. No file is recorded too, so a later regenerate never reaches
        for whatever file is bound by then."""
        if not workspace_file:
            return replace(base, context_captured=True)
        try:
            copy = await self._files.snapshot_text_file(Path(workspace_file))
        except AttachmentError as error:
            log.info("workspace file not read at send: %s", error.problem)
            return replace(
                base,
                workspace_file=workspace_file,
                workspace_error=str(error),
                context_captured=True,
            )
        return replace(
            base,
            workspace_file=workspace_file,
            workspace_snapshot_id=copy.id,
            context_captured=True,
        )

    async def prepare(
        self,
        path: Sequence[Message],
        vision: bool,
        reading: Callable[[int], None] | None = None,
    ) -> PreparedFiles:
        """`reading(n)` is told before n images are handed to OCR (it may take seconds).

        Raises `OcrUnavailable` (or the OCR engine's error) when images need reading
        and nothing can read them: the caller fails the answer before any request."""
        ids = attachment_ids(path)
        question = _question(path)
        notices: list[NoticePart] = _workspace_notices(question)
        if not ids:
            return PreparedFiles({}, tuple(notices))
        found = {a.id: a for a in self._files.get_many(ids)}
        workspace_id = question.context.workspace_snapshot_id if question else None
        inputs: dict[str, AttachmentInput] = {}
        to_read: list[tuple[Attachment, bytes]] = []
        for attachment_id in ids:
            attachment = found.get(attachment_id)
            if attachment is None:
                continue  # removed from the store by hand: nothing to show or send
            try:
                if attachment.kind is AttachmentKind.DOCUMENT:
                    text = await self._files.document_text(attachment)
                    workspace = attachment.id == workspace_id
                    inputs[attachment.id] = AttachmentInput(
                        attachment, text=text, workspace=workspace
                    )
                    continue
                data = await self._files.image_bytes(attachment)
            except (OSError, ValueError) as error:
                log.warning("attachment %s could not be read: %s", attachment.id, error)
                inputs[attachment.id] = _unreadable(attachment)
                notices.append(_unreadable_notice(attachment))
                continue
            if vision:
                inputs[attachment.id] = AttachmentInput(attachment, image=_image(attachment, data))
            else:
                to_read.append((attachment, data))
        if to_read:
            if reading is not None:
                reading(len(to_read))
            inputs.update(await self._transcribe(to_read, path, notices))
        return PreparedFiles(inputs, tuple(notices))

    def workspace_preview(self, workspace_file: str | None) -> AttachmentInput | None:
        """The workspace file as the next message would send it (`capture` then
        `prepare`), read now and kept nowhere; None when it cannot be read (the send
        would say why instead)."""
        if not workspace_file:
            return None
        path = Path(workspace_file)
        try:
            extracted = self._files.read_text_file(path)
        except AttachmentError:
            return None
        copy = Attachment(
            id=WORKSPACE_PREVIEW_ID,
            sha256="",
            name=path.name,
            mime="text/plain",
            size=len(extracted.text),
            kind=AttachmentKind.DOCUMENT,
            text_chars=len(extracted.text),
            truncated=extracted.truncated,
        )
        return AttachmentInput(copy, text=extracted.text, workspace=True)

    def preview(
        self,
        path: Sequence[Message],
        vision: bool,
        *,
        workspace: AttachmentInput | None = None,
        texts: MutableMapping[str, str] | None = None,
    ) -> dict[str, AttachmentInput]:
        """What `prepare` gives for `path`, without reading an image (see the module
        docstring). `workspace` is the question's workspace file (`workspace_preview`);
        `texts` keeps documents' text by attachment id between calls (it never changes)."""
        texts = {} if texts is None else texts
        ids = [i for i in attachment_ids(path) if i != WORKSPACE_PREVIEW_ID]
        found = {a.id: a for a in self._files.get_many(ids)}
        inputs: dict[str, AttachmentInput] = {}
        unread: list[Attachment] = []
        for attachment_id in ids:
            attachment = found.get(attachment_id)
            if attachment is None:
                continue
            if attachment.kind is AttachmentKind.DOCUMENT:
                if attachment.id not in texts:
                    try:
                        texts[attachment.id] = self._files.read_document_text(attachment)
                    except (OSError, ValueError, AttachmentError):
                        inputs[attachment.id] = _unreadable(attachment)
                        continue
                inputs[attachment.id] = AttachmentInput(attachment, text=texts[attachment.id])
            elif vision:  # the size is what its estimate needs; the bytes are never sent
                inputs[attachment.id] = AttachmentInput(attachment, image=_image(attachment, b""))
            else:
                unread.append(attachment)
        if unread and self._ocr is not None:
            known = self._ocr.known([a.sha256 for a in unread])
            for attachment, text in zip(unread, known, strict=True):
                if text is not None:
                    inputs[attachment.id] = AttachmentInput(attachment, text=text, transcribed=True)
        if workspace is not None:
            inputs[workspace.attachment.id] = workspace
        return inputs

    async def _transcribe(
        self,
        images: list[tuple[Attachment, bytes]],
        path: Sequence[Message],
        notices: list[NoticePart],
    ) -> dict[str, AttachmentInput]:
        if self._ocr is None:
            raise OcrUnavailable()
        outcome = await self._ocr.transcribe(
            [OcrImage(a.sha256, a.name, a.mime, data) for a, data in images]
        )
        read = [(a, text) for (a, _), text in zip(images, outcome.texts, strict=True)]
        inputs = {a.id: AttachmentInput(a, text=text, transcribed=True) for a, text in read}
        # The notice speaks of the images sent with the question being answered;
        # earlier ones were read (from the cache) the same way and said so then.
        question = next((m for m in reversed(path) if m.role is Role.USER), None)
        latest = set(question.context.attachment_ids) if question else set()
        read_now = [(a, text) for a, text in read if a.id in latest]
        if read_now:
            notices.append(_ocr_notice(read_now, outcome.engine))
        return inputs


def _workspace_notices(question: Message | None) -> list[NoticePart]:
    """Why the workspace file bound at the send did not go with it."""
    error = question.context.workspace_error if question is not None else None
    if not error:
        return []
    text = tr("The workspace file was not sent: {error}")
    return [NoticePart(text.format(error=error))]


def _image(attachment: Attachment, data: bytes) -> ImageInput:
    return ImageInput(attachment.mime, data, attachment.width, attachment.height)


def _unreadable(attachment: Attachment) -> AttachmentInput:
    note = f"[The file {attachment.name} could not be read, so its content is not included.]"
    return AttachmentInput(attachment, text=note, missing=True)


def _unreadable_notice(attachment: Attachment) -> NoticePart:
    text = tr("{name} could not be read from Parley's attachment store and was not sent.")
    return NoticePart(text.format(name=attachment.name))


def _ocr_notice(read: list[tuple[Attachment, str]], engine: str) -> NoticePart:
    text = tr("%n image(s) were read with OCR — {engine}", "", len(read)).format(engine=engine)
    none = tr("(no text found)")
    detail = "\n\n".join(f"{a.name}\n{body.strip() or none}" for a, body in read)
    return NoticePart(text, detail=detail)
