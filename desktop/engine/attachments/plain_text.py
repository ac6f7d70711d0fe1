"""Text, Markdown and source files: decoded to str whatever their encoding.

UTF-8 (with or without a BOM) and BOM-marked UTF-16/32 are decided without guessing;
anything else (Windows-1252 notes, Shift-JIS logs) goes to `charset-normalizer`. Only
as many bytes are read as can hold the capped text, at most 4 bytes a character.
"""

from __future__ import annotations

import codecs
from typing import BinaryIO

from desktop.core.attachments import AttachmentError
from desktop.core.i18n import tr
from desktop.core.limits import MAX_EXTRACTED_CHARS
from desktop.engine.attachments.text_cap import Extracted, TextCap

_WESTERN = "cp1252"
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def extract_plain_text(name: str, stream: BinaryIO, limit: int = MAX_EXTRACTED_CHARS) -> Extracted:
    stream.seek(0)
    data = stream.read(limit * 4 + 4)
    more_follows = bool(stream.read(1))
    text = decode_text(name, data, final=not more_follows)
    cap = TextCap(limit)
    cap.add(text.replace("\r\n", "\n").replace("\r", "\n"))
    if more_follows and not cap.truncated:
        # Cannot happen with a 4-byte-per-character bound, but never claim a full file.
        cap.truncated = True
    return cap.result()


def decode_text(name: str, data: bytes, *, final: bool = True) -> str:
    """`final=False` when `data` is a prefix: a character cut at the end is dropped."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return _decode(data, encoding, final)
    try:
        return _decode(data, "utf-8", final)
    except UnicodeDecodeError:
        pass
    guessed = _guess(data)
    if guessed is None:
        raise AttachmentError(name, tr("could not be read as text (unknown character encoding)"))
    return guessed


def _guess(data: bytes) -> str | None:
    """charset-normalizer's best guess, except that Windows-1252 wins a tie.

    On short Western European text several single-byte code pages decode equally well
    (French in cp1250 gives "fęte"); Windows-1252 is by far the most common of them.
    """
    from charset_normalizer import from_bytes  # 3 MB of tables: on the first file

    results = from_bytes(data)
    best = results.best()
    if best is None:
        return None
    for match in results:
        tied = match.chaos <= best.chaos and match.coherence >= best.coherence
        if match.encoding == _WESTERN and tied:
            return str(match)
    return str(best)


def _decode(data: bytes, encoding: str, final: bool) -> str:
    decoder = codecs.getincrementaldecoder(encoding)("strict")
    return decoder.decode(data, final=final)
