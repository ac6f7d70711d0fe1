"""PowerPoint 97-2003 .ppt text, read from the "PowerPoint Document" stream.

The stream is a tree of records, each with an 8-byte header: a little-endian uint16
holding recVer (low 4 bits) and recInstance, a uint16 recType and a uint32 length.
recVer 0xF marks a container whose body is more records. Text sits in TextCharsAtom
(UTF-16LE) and TextBytesAtom (one byte a character, latin-1) records ([MS-PPT] 2.9).

Placeholder text (titles, bullet points) lives in the document's SlideListWithText,
where a SlidePersistAtom starts each slide: those give the "## Slide N" headings.
Text boxes drawn on slides and speaker notes live elsewhere and follow under their own
headings. Master slides are skipped: their text is PowerPoint's "Click to edit" prompts.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

import olefile

from desktop.core.limits import MAX_EXTRACTED_CHARS
from desktop.engine.attachments.damage import damaged
from desktop.engine.attachments.text_cap import Extracted, TextCap

STREAM = "PowerPoint Document"
LABEL = "PowerPoint presentation"
CONTAINER_VERSION = 0xF
RT_DOCUMENT = 0x03E8
RT_NOTES = 0x03F0
RT_SLIDE_PERSIST_ATOM = 0x03F3
RT_MAIN_MASTER = 0x03F8
RT_SLIDE_LIST_WITH_TEXT = 0x0FF0
RT_TEXT_CHARS_ATOM = 0x0FA0
RT_TEXT_BYTES_ATOM = 0x0FA8
_HEADER = struct.Struct("<HHI")
_MAX_DEPTH = 32
_SLIDES_INSTANCE, _NOTES_INSTANCE = 0, 2


@dataclass(frozen=True, slots=True)
class _Found:
    """A text atom, or (text None) the start of a slide in the slide list."""

    text: str | None
    section: str  # "slides", "notes", "other"


def extract_ppt(name: str, stream: BinaryIO, limit: int = MAX_EXTRACTED_CHARS) -> Extracted:
    stream.seek(0)
    with olefile.OleFileIO(stream) as ole:
        if not ole.exists(STREAM):
            raise damaged(name, LABEL)
        declared = ole.get_size(STREAM)
        data = ole.openstream(STREAM).read()
    if len(data) < declared:
        # olefile hands out what is there of a cut-off file without a word: the
        # stream's directory entry says how long it should be.
        raise damaged(name, LABEL, EOFError(f"stream has {len(data)} of {declared} bytes"))
    lines: dict[str, list[str]] = {"slides": [], "notes": [], "other": []}
    slide_count = 0
    for found in _walk(data, 0, len(data), depth=0, section="other"):
        if found.text is None:
            slide_count += 1
            gap = "\n" if slide_count > 1 else ""
            lines["slides"].append(f"{gap}## Slide {slide_count}")
        elif found.text:
            lines[found.section].append(found.text)
    cap = TextCap(limit)
    headings = {"slides": "", "notes": "## Speaker notes\n", "other": "## Text boxes\n"}
    for section, heading in headings.items():
        if lines[section] and not cap.add(heading + "\n".join(lines[section]) + "\n\n"):
            break
    return cap.result(units=slide_count)


def _walk(data: bytes, start: int, end: int, *, depth: int, section: str) -> Iterator[_Found]:
    offset = start
    while offset + _HEADER.size <= end:
        ver_instance, rec_type, length = _HEADER.unpack_from(data, offset)
        body = offset + _HEADER.size
        stop = min(body + length, end)  # a damaged length never reads past the parent
        version, instance = ver_instance & 0xF, ver_instance >> 4
        if version == CONTAINER_VERSION:
            inner = _section(rec_type, instance, section)
            if inner is not None and depth < _MAX_DEPTH:
                yield from _walk(data, body, stop, depth=depth + 1, section=inner)
        elif rec_type == RT_SLIDE_PERSIST_ATOM and section == "slides":
            yield _Found(None, section)
        elif rec_type == RT_TEXT_CHARS_ATOM:
            yield _Found(_clean(data[body:stop].decode("utf-16-le", "replace")), section)
        elif rec_type == RT_TEXT_BYTES_ATOM:
            yield _Found(_clean(data[body:stop].decode("latin-1")), section)
        offset = body + length


def _section(rec_type: int, instance: int, parent: str) -> str | None:
    """Which heading a container's text goes under; None to skip it."""
    if rec_type == RT_MAIN_MASTER:
        return None
    if rec_type == RT_SLIDE_LIST_WITH_TEXT:
        return {_SLIDES_INSTANCE: "slides", _NOTES_INSTANCE: "notes"}.get(instance)
    if rec_type == RT_NOTES:
        return "notes"
    return parent


def _clean(text: str) -> str:
    """PowerPoint ends paragraphs with CR and breaks lines with a vertical tab."""
    return text.replace("\r", "\n").replace("\x0b", "\n").strip()
