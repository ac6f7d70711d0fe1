"""Whether a file may be attached: not empty, within its size limit, of a known type.

The size is checked from the file's length before anything is read beyond the first
bytes: a 2 GiB video dropped by mistake is refused at once, not hashed or parsed.
"""

from __future__ import annotations

from typing import BinaryIO

from desktop.core.attachments import AttachmentError, AttachmentKind
from desktop.core.i18n import tr
from desktop.core.limits import MAX_DOCUMENT_BYTES, MAX_IMAGE_BYTES
from desktop.engine.attachments.formats import claimed_format
from desktop.engine.attachments.sniff import Sniffed, sniff

_MIB = 1024 * 1024
SIZE_LIMITS = {AttachmentKind.IMAGE: MAX_IMAGE_BYTES, AttachmentKind.DOCUMENT: MAX_DOCUMENT_BYTES}


def check_size(name: str, size: int, kind: AttachmentKind) -> None:
    limit = SIZE_LIMITS[kind]
    if size > limit:
        if kind is AttachmentKind.IMAGE:
            problem = tr("larger than the {limit} MiB limit for images")
        else:
            problem = tr("larger than the {limit} MiB limit for documents")
        raise AttachmentError(name, problem.format(limit=_format_mib(limit)))


def validate(name: str, stream: BinaryIO, size: int) -> Sniffed:
    """What the file is; raises `AttachmentError` naming the reason it cannot be attached."""
    if size == 0:
        raise AttachmentError(name, tr("the file is empty"))
    if size > max(SIZE_LIMITS.values()):
        claimed = claimed_format(name)
        check_size(name, size, claimed.kind if claimed else AttachmentKind.DOCUMENT)
    sniffed = sniff(name, stream)
    check_size(name, size, sniffed.kind)
    return sniffed


def _format_mib(limit: int) -> str:
    return f"{limit / _MIB:g}"
