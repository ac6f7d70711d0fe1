"""A document's text, whatever its format: the one entry point the service calls.

Parsers of untrusted files fail in many ways (zipfile, expat, olefile, pypdf each have
their own exceptions, and damaged input can surface as struct or index errors); every
failure becomes an `AttachmentError` saying that the named file is damaged (the
parser's own message goes to the log, see `damage.py`), so one bad file is a clear
message and never a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import BinaryIO

from desktop.core.attachments import AttachmentError
from desktop.core.i18n import tr
from desktop.core.limits import MAX_EXTRACTED_CHARS
from desktop.engine.attachments.damage import damaged, with_article
from desktop.engine.attachments.formats import FileFormat
from desktop.engine.attachments.ooxml import UnsafeXml, unsafe_xml
from desktop.engine.attachments.text_cap import Extracted

__all__ = ["Extracted", "extract_text"]


def _extractor(file_format: FileFormat) -> Callable[[str, BinaryIO, int], Extracted] | None:
    """Each reader is imported when a file of its kind is first read (in the worker
    thread that reads it): pypdf alone takes half a second, which the first window need
    not wait for. Plain import statements, so that the bundler finds every reader."""
    if file_format is FileFormat.TEXT:
        from desktop.engine.attachments.plain_text import extract_plain_text

        return extract_plain_text
    if file_format is FileFormat.DOCX:
        from desktop.engine.attachments.word import extract_docx

        return extract_docx
    if file_format is FileFormat.PPTX:
        from desktop.engine.attachments.powerpoint import extract_pptx

        return extract_pptx
    if file_format is FileFormat.PPT:
        from desktop.engine.attachments.legacy_ppt import extract_ppt

        return extract_ppt
    if file_format is FileFormat.PDF:
        from desktop.engine.attachments.pdf_text import extract_pdf

        return extract_pdf
    return None


def extract_text(
    name: str, file_format: FileFormat, stream: BinaryIO, limit: int = MAX_EXTRACTED_CHARS
) -> Extracted:
    """The text of a document, cut at `limit` characters (`Extracted.truncated`)."""
    extractor = _extractor(file_format)
    if extractor is None:
        raise AttachmentError(
            name,
            tr("{format} has no text to extract").format(format=with_article(file_format.label)),
        )
    try:
        return extractor(name, stream, limit)
    except AttachmentError:
        raise
    except MemoryError:
        raise AttachmentError(name, tr("too large to read into memory")) from None
    except UnsafeXml:
        raise unsafe_xml(name) from None
    except Exception as exc:  # see the module docstring
        raise damaged(name, file_format.label, exc) from exc
