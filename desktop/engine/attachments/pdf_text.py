"""PDF text from the text layer, page by page under "## Page N" headings.

A PDF that is only scanned pictures has no text layer; it is refused saying so, rather
than attached as an empty document the model would answer from anyway. A PDF locked
with an owner password only (printing/copying restrictions) opens with the empty
user password, as every viewer does; one that needs a password to open is refused.
"""

from __future__ import annotations

from typing import BinaryIO

from pypdf import PasswordType, PdfReader
from pypdf.errors import DependencyError

from desktop.core.attachments import AttachmentError
from desktop.engine.attachments.text_cap import Extracted, TextCap


def extract_pdf(name: str, stream: BinaryIO) -> Extracted:
    stream.seek(0)
    reader = PdfReader(stream)
    if reader.is_encrypted:
        try:
            opened = reader.decrypt("") != PasswordType.NOT_DECRYPTED
        except DependencyError:
            opened = False
        if not opened:
            raise AttachmentError(name, "is protected by a password")
    cap = TextCap()
    pages = len(reader.pages)
    found_text = False
    unreadable = 0
    for number, page in enumerate(reader.pages, start=1):
        try:
            text = (page.extract_text() or "").strip()
        except Exception:  # one damaged page should not lose the others
            unreadable += 1
            continue
        if not text:
            continue
        found_text = True
        if not cap.add(f"## Page {number}\n{text}\n\n"):
            break
    if not found_text and unreadable:
        raise AttachmentError(name, "could not be read as a PDF document (damaged pages)")
    if not found_text:
        raise AttachmentError(
            name, "has no text layer (a scanned PDF?); attach the pages as images instead"
        )
    return cap.result(units=pages)
