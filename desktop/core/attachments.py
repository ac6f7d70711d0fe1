"""Attachments: files the person sent with a message, as plain data.

The file itself lives in the content-addressed store (`storage/attachments.py`), keyed
by its sha256, so two messages sending the same file share one copy and the
conversation keeps working after the original moves. An `Attachment` is one sending of
such a file: its own id (the message's context snapshot lists these ids), the name it
had, and what Parley found it to be.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from desktop.core.errors import ParleyError
from desktop.core.i18n import tr
from desktop.core.models import utc_now


class AttachmentKind(StrEnum):
    IMAGE = "image"  # goes to a model with vision as an image, otherwise through OCR
    DOCUMENT = "document"  # goes to the model as its extracted text


@dataclass(frozen=True, slots=True)
class Attachment:
    """One attached file.

    `text_chars` is the length of a document's extracted text (stored beside the file so
    a regenerate does not parse it again) and `truncated` whether that text was cut at
    the cap. Images carry their decoded pixel size.
    """

    id: str
    sha256: str
    name: str
    mime: str
    size: int
    kind: AttachmentKind
    created_at: datetime = field(default_factory=utc_now)
    text_chars: int | None = None
    truncated: bool = False
    width: int | None = None
    height: int | None = None


class AttachmentError(ParleyError):
    """A file that cannot be attached; the message names the file and the reason."""

    def __init__(self, name: str, problem: str):
        super().__init__(tr("{name}: {problem}").format(name=name, problem=problem))
        self.name = name
        self.problem = problem
