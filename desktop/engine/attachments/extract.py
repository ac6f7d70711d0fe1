"""A document's text, whatever its format: the one entry point the service calls.

Parsers of untrusted files fail in many ways (zipfile, expat, olefile, pypdf each have
their own exceptions, and damaged input can surface as struct or index errors); every
failure becomes an `AttachmentError` saying that the named file is damaged (the
parser's own message goes to the log, see `damage.py`), so one bad file is a clear
message and never a crash.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import BinaryIO

from desktop.core.attachments import AttachmentError
from desktop.engine.attachments.damage import damaged
from desktop.engine.attachments.formats import FileFormat
from desktop.engine.attachments.ooxml import UnsafeXml, unsafe_xml
from desktop.engine.attachments.text_cap import Extracted

__all__ = ["Extracted", "extract_text"]

# Each reader is imported when a file of its kind is first read (in the worker thread
# that reads it): pypdf alone takes half a second, which the first window need not wait.
_EXTRACTORS: dict[FileFormat, tuple[str, str]] = {
    FileFormat.TEXT: ("plain_text", "extract_plain_text"),
    FileFormat.DOCX: ("word", "extract_docx"),
    FileFormat.PPTX: ("powerpoint", "extract_pptx"),
    FileFormat.PPT: ("legacy_ppt", "extract_ppt"),
    FileFormat.PDF: ("pdf_text", "extract_pdf"),
}


def _extractor(file_format: FileFormat) -> Callable[[str, BinaryIO], Extracted] | None:
    where = _EXTRACTORS.get(file_format)
    if where is None:
        return None
    module, function = where
    return getattr(importlib.import_module(f"desktop.engine.attachments.{module}"), function)


def extract_text(name: str, file_format: FileFormat, stream: BinaryIO) -> Extracted:
    extractor = _extractor(file_format)
    if extractor is None:
        raise AttachmentError(name, f"a {file_format.label} has no text to extract")
    try:
        return extractor(name, stream)
    except AttachmentError:
        raise
    except MemoryError:
        raise AttachmentError(name, "too large to read into memory") from None
    except UnsafeXml:
        raise unsafe_xml(name) from None
    except Exception as exc:  # see the module docstring
        raise damaged(name, file_format.label, exc) from exc
