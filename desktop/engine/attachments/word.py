"""Word .docx text: the body's paragraphs and tables in document order.

Read straight from `word/document.xml` with the standard library rather than
python-docx, so the zip-bomb guard controls every byte decompressed. Headings become
Markdown headings, list items "- " lines and table rows "a | b | c" lines: the model
reads structure from the text, and nothing else in Parley renders it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import BinaryIO

from desktop.core.limits import MAX_EXTRACTED_CHARS
from desktop.engine.attachments.ooxml import check_no_doctype, identify_package
from desktop.engine.attachments.text_cap import Extracted, TextCap
from desktop.engine.attachments.zip_guard import GuardedZip

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_DEFAULT_MAIN = "word/document.xml"
_HEADING = re.compile(r"^(?:heading|berschrift|titre|titolo|título)\s*(\d)$", re.IGNORECASE)
_BLOCKS = {f"{_W}p", f"{_W}tbl"}
# Elements whose paragraphs are the document's own blocks (content controls, tracked
# insertions) as opposed to paragraphs inside a table cell or a text box.
_BLOCK_PARENTS = {
    f"{_W}document",
    f"{_W}body",
    f"{_W}sdt",
    f"{_W}sdtContent",
    f"{_W}customXml",
    f"{_W}ins",
    f"{_W}smartTag",
}


def extract_docx(name: str, stream: BinaryIO, limit: int = MAX_EXTRACTED_CHARS) -> Extracted:
    with GuardedZip(stream, name) as archive:
        main = identify_package(archive).main_part or _DEFAULT_MAIN
        with archive.open(main) as source:
            check_no_doctype(source.peek(4096))
            return _read_blocks(source, limit)


def _read_blocks(source: BinaryIO, limit: int) -> Extracted:
    """Streams the XML, handling each body-level paragraph or table as it closes.

    Streaming keeps memory flat on a huge document and stops parsing at the cap.
    """
    cap = TextCap(limit)
    open_tags: list[str] = []
    for event, element in ET.iterparse(source, events=("start", "end")):
        if event == "start":
            open_tags.append(element.tag)
            continue
        open_tags.pop()
        if element.tag not in _BLOCKS or not all(tag in _BLOCK_PARENTS for tag in open_tags):
            continue
        if element.tag == f"{_W}p":
            fits = cap.add(_paragraph(element) + "\n")
        else:
            fits = _table(element, cap)
        element.clear()
        if not fits:
            break
    return cap.result()


def _table(table: ET.Element, cap: TextCap) -> bool:
    for row in table.findall(f"{_W}tr"):
        cells = []
        for cell in row.findall(f"{_W}tc"):
            paragraphs = [_paragraph(p) for p in cell.iter(f"{_W}p")]
            cells.append(" ".join(p for p in paragraphs if p))
        if not cap.add(" | ".join(cells) + "\n"):
            return False
    return cap.add("\n")


def _paragraph(paragraph: ET.Element) -> str:
    parts: list[str] = []
    for element in paragraph.iter():
        tag = element.tag
        if tag == f"{_W}t" and element.text:
            parts.append(element.text)
        elif tag == f"{_W}tab":
            parts.append("\t")
        elif tag in (f"{_W}br", f"{_W}cr"):
            parts.append("\n")
        elif tag == f"{_W}noBreakHyphen":
            parts.append("-")
    text = "".join(parts)
    return _prefix(paragraph) + text if text.strip() else text


def _prefix(paragraph: ET.Element) -> str:
    properties = paragraph.find(f"{_W}pPr")
    if properties is None:
        return ""
    style = properties.find(f"{_W}pStyle")
    style_id = style.get(f"{_W}val", "") if style is not None else ""
    heading = _HEADING.match(style_id)
    if heading:
        return "#" * max(1, min(int(heading.group(1)), 6)) + " "
    if style_id.lower() == "title":
        return "# "
    # List Bullet / List Number carry their numbering in the style, others on the paragraph.
    if style_id.lower().startswith("list") or properties.find(f"{_W}numPr") is not None:
        return "- "
    return ""
