"""A document's text cut into passages: what the index stores, searches and cites.

A passage is small enough that six of them fit in a request beside the conversation,
and large enough to make sense on its own (about 800 characters). Neighbouring
passages overlap by about 100 characters, so a sentence cut at a boundary is still
whole in one of them. Cuts fall at paragraph, line, sentence or word boundaries when
there is one near; text without spaces (Chinese, Japanese) is cut at its sentence marks
or, failing those, anywhere.

Headings start a new passage and give it its `heading_path` ("Setup › Linux"), so a
citation can say where in the document it is. A passage never spans two pages of a PDF
(the reader writes each page under a "## Page N" line) and carries its page number;
slides are passages of their own, under "Slide N › <title>".

Offsets are into exactly the text `documents.read_document` returns: the source panel
highlights `text[char_start:char_end]` there, and it is the passage's text.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from enum import StrEnum

from desktop.engine.attachments.formats import FileFormat, claimed_format, suffix_of

CHUNK_CHARS = 800
OVERLAP_CHARS = 100
HEADING_SEPARATOR = " › "
_TITLE_CHARS = 80  # a slide's first line, as far as its heading path keeps it

_MARKDOWN_SUFFIXES = frozenset({"md", "markdown", "mdown", "mkd"})


class Layout(StrEnum):
    """How a document's text marks its structure (what its reader writes)."""

    PLAIN = "plain"  # code, logs, plain text: a "#" line is a comment, not a heading
    MARKDOWN = "markdown"  # Markdown and Word documents: "#" headings
    PAGES = "pages"  # PDF: a "## Page N" line starts each page
    SLIDES = "slides"  # presentations: a "## Slide N" line starts each slide


@dataclass(frozen=True, slots=True)
class Chunk:
    """One passage; `text == document_text[char_start:char_end]`."""

    ordinal: int
    text: str
    heading_path: str
    page: int | None
    char_start: int
    char_end: int
    text_sha256: str


def layout_for(name: str) -> Layout:
    """The layout of the text `read_document` gives for a file of this name."""
    file_format = claimed_format(name)
    if file_format is FileFormat.PDF:
        return Layout.PAGES
    if file_format in (FileFormat.PPTX, FileFormat.PPT):
        return Layout.SLIDES
    if file_format is FileFormat.DOCX or suffix_of(name) in _MARKDOWN_SUFFIXES:
        return Layout.MARKDOWN
    return Layout.PLAIN


# --- sections: the stretches between headings ------------------------------------------

_HEADING = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_PAGE = re.compile(r"## Page (\d+)")
_SLIDE = re.compile(r"## Slide (\d+)")


@dataclass(frozen=True, slots=True)
class _Section:
    start: int
    end: int
    heading_path: str
    page: int | None
    body_start: int  # after the section's own heading line, if it has one


def _lines(text: str) -> list[tuple[int, int, str]]:
    """(start, end including the newline, line without it) for each line."""
    lines = []
    offset = 0
    for line in text.splitlines(keepends=True):
        lines.append((offset, offset + len(line), line.rstrip("\r\n")))
        offset += len(line)
    return lines


def _sections(text: str, layout: Layout) -> list[_Section]:
    sections: list[_Section] = []
    start, body_start, path, page = 0, 0, "", None
    headings: list[tuple[int, str]] = []  # (level, title) of the open headings
    fence = ""

    def close(end: int) -> None:
        if end > start:
            sections.append(_Section(start, end, path, page, body_start))

    for line_start, line_end, line in _lines(text):
        if layout is Layout.MARKDOWN:
            fenced = _FENCE.match(line)
            if fenced and (not fence or fenced.group(1).startswith(fence)):
                fence = "" if fence else fenced.group(1)[:3]
                continue
            heading = None if fence else _HEADING.fullmatch(line)
            if heading is None:
                continue
            close(line_start)
            level, title = len(heading.group(1)), (heading.group(2) or "").strip()
            while headings and headings[-1][0] >= level:
                headings.pop()
            headings.append((level, title))
            path = HEADING_SEPARATOR.join(t for _, t in headings if t)
            start, body_start = line_start, line_end
        elif layout is Layout.PAGES:
            marker = _PAGE.fullmatch(line)
            if marker is None:
                continue
            close(line_start)
            page = int(marker.group(1))
            start = body_start = line_end
        elif layout is Layout.SLIDES:
            marker = _SLIDE.fullmatch(line)
            if marker is None:
                continue
            close(line_start)
            title = _first_line(text, line_end)
            path = HEADING_SEPARATOR.join(p for p in (f"Slide {marker.group(1)}", title) if p)
            start = body_start = line_end
    close(len(text))
    return sections


def _first_line(text: str, start: int) -> str:
    for line in text[start : start + 4 * _TITLE_CHARS].splitlines():
        if line.startswith("## Slide "):
            return ""
        if line.strip():
            title = line.strip()
            return title if len(title) <= _TITLE_CHARS else title[: _TITLE_CHARS - 1] + "…"
    return ""


# --- cutting a section into passages -----------------------------------------------------

# A sentence ends at . ! ? ; (with closing quotes or brackets) before a space, or at a
# full-width mark, which needs no space after it.
_SENTENCE_END = re.compile(r"[.!?;][\"'”’)\]]*(?=\s)|[。！？；…]+[」』”’）]*")
_SPACE = re.compile(r"\s")


def _cut(text: str, lo: int, hi: int) -> int:
    """Where to end a passage that may end anywhere in [lo, hi]: the last paragraph
    break, line break, sentence end or space there, else `hi`."""
    window = text[lo:hi]
    for mark in ("\n\n", "\n"):
        found = window.rfind(mark)
        if found >= 0:
            return lo + found + len(mark)
    ends = [match.end() for match in _SENTENCE_END.finditer(window)]
    if ends:
        return lo + ends[-1]
    for found in range(len(window) - 1, -1, -1):
        if window[found].isspace():
            return lo + found + 1
    return hi


def _resume(text: str, lo: int, hi: int) -> int:
    """Where the next passage starts, given that it may start anywhere in [lo, hi]
    (the overlap): after the first sentence end or line break there, else after the
    first space, else at `lo` (text without spaces)."""
    window = text[lo:hi]
    ends = [m.end() for m in (_SENTENCE_END.search(window),) if m]
    newline = window.find("\n")
    if newline >= 0:
        ends.append(newline + 1)
    if not ends:
        space = _SPACE.search(window)
        if space is not None:
            ends.append(space.end())
    return lo + min(ends) if ends else lo


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _pieces(text: str, start: int, end: int, size: int, overlap: int) -> list[tuple[int, int]]:
    pieces = []
    position = start
    while True:
        if end - position <= size + overlap:
            pieces.append((position, end))
            return pieces
        cut = _cut(text, position + size // 2, position + size)
        pieces.append((position, cut))
        position = max(_resume(text, max(cut - overlap, position + 1), cut), position + 1)


def split_into_chunks(
    text: str, layout: Layout, *, size: int = CHUNK_CHARS, overlap: int = OVERLAP_CHARS
) -> list[Chunk]:
    """The passages of `text`, in order. Whitespace-only stretches and headings with
    nothing under them (before the next heading) make none."""
    if not 0 <= overlap < size // 2:
        raise ValueError("overlap must be less than half the size")
    chunks: list[Chunk] = []
    for section in _sections(text, layout):
        start, end = _trimmed(text, section.start, section.end)
        if start >= end or not text[max(start, section.body_start) : end].strip():
            continue
        for piece_start, piece_end in _pieces(text, start, end, size, overlap):
            a, b = _trimmed(text, piece_start, piece_end)
            if a >= b:
                continue
            passage = text[a:b]
            chunks.append(
                Chunk(
                    ordinal=len(chunks),
                    text=passage,
                    heading_path=section.heading_path,
                    page=section.page,
                    char_start=a,
                    char_end=b,
                    text_sha256=hashlib.sha256(passage.encode("utf-8")).hexdigest(),
                )
            )
    return chunks
