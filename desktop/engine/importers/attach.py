"""Bringing an export's images and files into the attachment store, and onto the
messages they belonged to, as they would be had they been attached in Parley.

A file the person attached goes in the message's `context.attachment_ids` (where a send
records the tray's files, shown as chips in the bubble and sent again with a
regenerate); an image a tool made (a DALL·E picture) goes on its call's card
(`ToolCallPart.attachment_ids`), where Parley shows the images its own tools return.

Each file is read from the export only now, one at a time and never past the largest
size Parley attaches, then checked like a file dropped on the window (its content says
what it is; the size limits of `core.limits` hold) and stored. The attachment's id
derives from the message's and the source's file id, so importing the same export again
finds the file already stored and reads nothing. A file that is missing, damaged, too
large or of a kind Parley cannot attach is left out with its reason, and a notice on the
message says so; the rest of the conversation is imported all the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from io import BytesIO
from pathlib import Path, PurePosixPath

from desktop.core.attachments import Attachment, AttachmentError, AttachmentKind
from desktop.core.i18n import tr
from desktop.core.limits import MAX_ATTACHMENTS_PER_MESSAGE
from desktop.core.models import Message, NoticePart, Part, ToolCallPart
from desktop.engine.attachments.formats import IMAGE_FORMATS, FileFormat, claimed_format
from desktop.engine.attachments.service import prepare
from desktop.engine.attachments.validate import SIZE_LIMITS, check_size
from desktop.engine.importers.files import ExportError, ExportFiles
from desktop.engine.importers.model import ImportedFile
from desktop.storage.attachments import AttachmentStore

READ_LIMIT = max(SIZE_LIMITS.values())  # no file larger than this is ever read whole
_SUFFIXES = {FileFormat.PNG: ".png", FileFormat.JPEG: ".jpg", FileFormat.WEBP: ".webp"}


@dataclass(slots=True)
class Attached:
    """One conversation's messages with their files, and what became of the files."""

    messages: list[Message]
    added: int = 0  # files stored now (not those stored by an earlier import)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (file name, reason)


class ExportAttacher:
    """Attaches the files of one export; open it for the length of the import."""

    def __init__(self, store: AttachmentStore | None, path: Path) -> None:
        self._store = store
        self._path = path
        self._files: ExportFiles | None = None
        self._unreadable: str | None = None  # why the export could not be opened again

    def close(self) -> None:
        if self._files is not None:
            self._files.close()
            self._files = None

    def __enter__(self) -> ExportAttacher:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def attach(
        self, messages: Sequence[Message], files: Sequence[ImportedFile], present: set[str]
    ) -> Attached:
        """`messages` with `files` attached. Messages in `present` are already in Parley
        (an earlier import) and are left as they are: nothing of theirs is read."""
        by_message: dict[str, list[ImportedFile]] = {}
        for file in files:
            if file.message_id not in present:
                by_message.setdefault(file.message_id, []).append(file)
        result = Attached([])
        for message in messages:
            wanted = by_message.get(message.id)
            result.messages.append(self._message(message, wanted, result) if wanted else message)
        return result

    def _message(self, message: Message, files: list[ImportedFile], result: Attached) -> Message:
        own = list(message.context.attachment_ids)
        on_calls: dict[str, list[str]] = {}
        notices: list[Part] = []
        for file in files:
            if file.call_id is None and len(own) >= MAX_ATTACHMENTS_PER_MESSAGE:
                problem = tr("a message can carry at most {count} files").format(
                    count=MAX_ATTACHMENTS_PER_MESSAGE
                )
            else:
                try:
                    attachment, stored = self._stored(file)
                except AttachmentError as error:
                    problem = error.problem
                except ExportError as error:
                    problem = str(error)
                else:
                    result.added += stored
                    if file.call_id is None:
                        own.append(attachment.id)
                    else:
                        on_calls.setdefault(file.call_id, []).append(attachment.id)
                    continue
            result.skipped.append((file.name, problem))
            notices.append(
                NoticePart(
                    tr(
                        "The file {name} was attached here; it could not be imported: {problem}."
                    ).format(name=file.name, problem=problem.rstrip("."))
                )
            )
        parts: list[Part] = [
            replace(p, attachment_ids=(*p.attachment_ids, *on_calls.pop(p.call_id)))
            if isinstance(p, ToolCallPart) and p.call_id in on_calls
            else p
            for p in message.parts
        ]
        own += [i for ids in on_calls.values() for i in ids]  # its call is not there
        return replace(
            message,
            parts=parts + notices,
            context=replace(message.context, attachment_ids=tuple(own)),
        )

    def _stored(self, file: ImportedFile) -> tuple[Attachment, int]:
        """The file's attachment, and 1 if it was stored now (0: an earlier import did)."""
        if self._store is None:
            raise AttachmentError(file.name, tr("files cannot be kept in this window"))
        found = self._store.get(file.attachment_id)
        if found is not None:
            return found, 0
        data = self._export().read_at_most(file.member, READ_LIMIT)
        if data is None:
            claimed = claimed_format(file.name)
            kind = claimed.kind if claimed is not None else AttachmentKind.DOCUMENT
            check_size(file.name, READ_LIMIT + 1, kind)
            raise AttachmentError(file.name, tr("too large"))  # check_size raised already
        prepared = prepare(file.name, BytesIO(data), len(data))
        sniffed, extracted = prepared.sniffed, prepared.extracted
        attachment = self._store.put_bytes(
            data,
            name=_named(file.name, sniffed.format),
            mime=sniffed.mime,
            kind=sniffed.kind,
            width=sniffed.width,
            height=sniffed.height,
            attachment_id=file.attachment_id,
        )
        if extracted is not None:
            attachment = self._store.save_text(attachment, extracted.text, extracted.truncated)
        return attachment, 1

    def _export(self) -> ExportFiles:
        if self._files is None:
            if self._unreadable is not None:
                raise ExportError(self._unreadable)
            try:
                self._files = ExportFiles(self._path)
            except (ExportError, OSError) as error:
                self._unreadable = tr("the export could not be opened again ({error})").format(
                    error=error
                )
                raise ExportError(self._unreadable) from error
        return self._files


def _named(name: str, found: FileFormat) -> str:
    """An image keeps its name with the suffix of what it is (ChatGPT's newest exports
    name every file `<id>.dat`)."""
    if found not in IMAGE_FORMATS or claimed_format(name) in IMAGE_FORMATS:
        return name
    return PurePosixPath(name).stem + _SUFFIXES[found]
