"""PowerPoint .pptx text: each slide's text under a "## Slide N" heading, with its notes.

Slides are taken in the numeric order of `ppt/slides/slideN.xml`. A slide's speaker
notes are found through its relationships (the notes part's number need not match the
slide's), and only the notes' body placeholder is read: the rest of a notes page is
the slide picture and a slide number.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import BinaryIO

from desktop.core.limits import MAX_EXTRACTED_CHARS
from desktop.engine.attachments.ooxml import parse_xml, related_parts
from desktop.engine.attachments.text_cap import Extracted, TextCap
from desktop.engine.attachments.zip_guard import GuardedZip

_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
_SLIDE = re.compile(r"^ppt/slides/slide(\d+)\.xml$")
_NOTES_REL = "/notesSlide"


def extract_pptx(name: str, stream: BinaryIO, limit: int = MAX_EXTRACTED_CHARS) -> Extracted:
    with GuardedZip(stream, name) as archive:
        slides = sorted(
            (int(match.group(1)), part) for part in archive.names if (match := _SLIDE.match(part))
        )
        cap = TextCap(limit)
        for index, (_number, part) in enumerate(slides, start=1):
            text = "\n".join(_paragraphs(parse_xml(archive.read(part))))
            section = f"## Slide {index}\n{text}\n".rstrip("\n") + "\n\n"
            notes = [p for p in related_parts(archive, part, _NOTES_REL) if archive.has(p)]
            for notes_part in notes:
                note_text = "\n".join(_notes_paragraphs(parse_xml(archive.read(notes_part))))
                if note_text:
                    section += f"Notes:\n{note_text}\n\n"
            if not cap.add(section):
                break
    return cap.result(units=len(slides))


def _paragraphs(root: ET.Element) -> list[str]:
    lines = []
    for paragraph in root.iter(f"{_A}p"):
        parts = []
        for element in paragraph.iter():
            if element.tag == f"{_A}t" and element.text:
                parts.append(element.text)
            elif element.tag == f"{_A}br":
                parts.append("\n")
        line = "".join(parts).strip()
        if line:
            lines.append(line)
    return lines


def _notes_paragraphs(root: ET.Element) -> list[str]:
    lines = []
    for shape in root.iter(f"{_P}sp"):
        placeholder = shape.find(f"{_P}nvSpPr/{_P}nvPr/{_P}ph")
        if placeholder is not None and placeholder.get("type") == "body":
            lines.extend(_paragraphs(shape))
    return lines
