"""A library file's text, read exactly as an attachment's is: the indexer and the source
panel both call `read_document`, so a passage's character offsets point at the same
text in both (a PDF's pages under "## Page N" headings, slides under their titles).

Blocking (file IO and parsing): call it in a worker thread, never on the GUI thread.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from desktop.core.attachments import AttachmentError, AttachmentKind
from desktop.core.i18n import tr
from desktop.core.limits import MAX_LIBRARY_DOCUMENT_CHARS
from desktop.engine.attachments.extract import extract_text
from desktop.engine.attachments.validate import validate


@dataclass(frozen=True, slots=True)
class DocumentText:
    text: str
    sha256: str  # of the file's bytes: tells whether it changed since it was indexed
    truncated: bool = False  # past the extraction limit: the rest is not indexed


def read_document(path: Path) -> DocumentText:
    """The text of `path`; raises `AttachmentError` saying why it has none (damaged,
    too large, no text layer, not a document Parley reads, unreadable)."""
    name = path.name
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise AttachmentError(name, tr("is not a regular file"))
        with open(path, "rb") as stream:
            sniffed = validate(name, stream, os.fstat(stream.fileno()).st_size)
            if sniffed.kind is not AttachmentKind.DOCUMENT:
                raise AttachmentError(name, tr("is not a document Parley can read"))
            extracted = extract_text(name, sniffed.format, stream, MAX_LIBRARY_DOCUMENT_CHARS)
            stream.seek(0)
            digest = hashlib.sha256()
            for block in iter(lambda: stream.read(1 << 20), b""):
                digest.update(block)
    except FileNotFoundError as exc:
        raise AttachmentError(name, tr("the file no longer exists")) from exc
    except PermissionError as exc:
        raise AttachmentError(name, tr("cannot be read (permission denied)")) from exc
    except OSError as exc:
        raise AttachmentError(name, tr("cannot be read ({reason})").format(reason=exc)) from exc
    return DocumentText(extracted.text, digest.hexdigest(), extracted.truncated)
