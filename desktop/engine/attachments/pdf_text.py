"""PDF text from the text layer, page by page under "## Page N" headings.

A PDF that is only scanned pictures has no text layer; it is refused saying so, rather
than attached as an empty document the model would answer from anyway. A PDF locked
with an owner password only (printing/copying restrictions) opens with the empty
user password, as every viewer does; one that needs a password to open is refused.

pypdf reads leniently: a page whose content cannot be decompressed is logged as a
warning and read as no text rather than raising. A PDF that gives no text while a
stream could not be decoded (or a page failed) is therefore damaged, not a scan, and is
refused as such. pypdf also warns about faults it repairs (a `startxref` a few bytes
off, cross-reference offsets that point beside their objects, as scanners often write):
nothing is lost there, so such a scan still gets "no text layer".
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO

from pypdf import PasswordType, PdfReader
from pypdf.errors import DependencyError

from desktop.core.attachments import AttachmentError
from desktop.core.i18n import tr
from desktop.core.limits import MAX_EXTRACTED_CHARS
from desktop.engine.attachments.damage import damaged
from desktop.engine.attachments.text_cap import Extracted, TextCap

LABEL = "PDF document"


# pypdf's stream decoders: a warning there means content could not be (fully) decoded.
_LOST_CONTENT = "pypdf.filters"


class _Warnings(logging.Handler):
    """What pypdf warns about losing while this thread reads one PDF (several PDFs may
    be read in other worker threads at the same time); warnings about repairs are not
    counted."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self._thread = threading.get_ident()
        self.first: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        lost = record.name == _LOST_CONTENT or record.name.startswith(_LOST_CONTENT + ".")
        if lost and record.thread == self._thread and self.first is None:
            self.first = record.getMessage()


@contextmanager
def _pypdf_warnings() -> Iterator[_Warnings]:
    handler = _Warnings()
    logger = logging.getLogger("pypdf")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


def extract_pdf(name: str, stream: BinaryIO, limit: int = MAX_EXTRACTED_CHARS) -> Extracted:
    with _pypdf_warnings() as warnings:
        return _extract(name, stream, warnings, limit)


def _extract(name: str, stream: BinaryIO, warnings: _Warnings, limit: int) -> Extracted:
    stream.seek(0)
    reader = PdfReader(stream)
    if reader.is_encrypted:
        try:
            opened = reader.decrypt("") != PasswordType.NOT_DECRYPTED
        except DependencyError:
            opened = False
        if not opened:
            raise AttachmentError(name, tr("is protected by a password"))
    cap = TextCap(limit)
    pages = len(reader.pages)
    found_text = False
    first_failure: Exception | None = None
    for number, page in enumerate(reader.pages, start=1):
        try:
            text = (page.extract_text() or "").strip()
        except Exception as exc:  # one damaged page should not lose the others
            first_failure = first_failure or exc
            continue
        if not text:
            continue
        found_text = True
        if not cap.add(f"## Page {number}\n{text}\n\n"):
            break
    if not found_text and first_failure is not None:
        raise damaged(name, LABEL, first_failure)
    if not found_text and warnings.first is not None:
        raise damaged(name, LABEL, warnings.first)
    if not found_text:
        raise AttachmentError(
            name, tr("has no text layer (a scanned PDF?); attach the pages as images instead")
        )
    return cap.result(units=pages)
