"""Text for Qt's layout engine: no unbreakable run too long, plain text in bounded units.

Qt lays out a run of text with no break opportunity in it (a hash, base64 without
``+``/``/``, a line of digits, ``aaaa…``) in time quadratic in the run's length: a
30,000-character run took 57 ms of GUI-thread CPU, 100,000 took 0.5 s and 300,000 took
4.4 s (6-10 s with every core busy), where prose that long takes 30-90 ms. So a
zero-width space (a break opportunity that draws nothing) goes into every run of
non-space characters longer than `SOFT_BREAK_RUN`, every `SOFT_BREAK_RUN` characters:
layout then costs about 0.5 us per character whatever the text. Only the HTML given to
Qt has them: the stored message, "Copy", "Copy all", "Save as file" and export keep the
text as it came, and the views take them out of what a selection copies.

Plain text is cut into units of about `UNIT_CHARS` characters at line ends, each its
own ``<pre>``: a long plain-text reply that streams in then re-imports only its last
unit on each update (see ``ui/views/document_tail.py``), not the whole reply.
"""

from __future__ import annotations

import re
import unicodedata

from markdown_it.common.utils import escapeHtml

SOFT_BREAK = "\u200b"
SOFT_BREAK_RUN = 1_000
UNIT_CHARS = 4_000

PRE_OPEN = '<pre style="white-space: pre-wrap;">'
_MAX_ENTITY = 12  # "&#x10ffff;" and the longest named entities markdown-it writes
_MAX_MARKS = 32  # combining marks kept with their base character, at most

# A run starts where no non-space character precedes it, so the regex never re-scans
# the inside of a run: linear whatever the input.
_LONG_RUN = re.compile(rf"(?<!\S)\S{{{SOFT_BREAK_RUN + 1},}}")
_LONG_HTML_RUN = re.compile(rf"(?<![^\s<>])[^\s<>]{{{SOFT_BREAK_RUN + 1},}}")
_TAG_OR_TEXT = re.compile(r"<[^>]*>|[^<]+")


def break_runs(text: str) -> str:
    """`text` with a `SOFT_BREAK` every `SOFT_BREAK_RUN` characters of a longer run."""
    if len(text) <= SOFT_BREAK_RUN:
        return text
    return _LONG_RUN.sub(_break_match, text)


def break_html_runs(html: str) -> str:
    """The same for the text of `html`: never inside a tag, an entity or a grapheme."""
    if _LONG_HTML_RUN.search(html) is None:
        return html  # the usual case: one pass in C
    return _TAG_OR_TEXT.sub(_break_text_node, html)


def _break_text_node(match: re.Match[str]) -> str:
    node = match.group()
    return node if node.startswith("<") else _LONG_RUN.sub(_break_match, node)


def _break_match(match: re.Match[str]) -> str:
    run = match.group()
    pieces: list[str] = []
    start = 0
    while len(run) - start > SOFT_BREAK_RUN:
        cut = _break_point(run, start + SOFT_BREAK_RUN)
        if cut >= len(run):
            break
        pieces.append(run[start:cut])
        start = cut
    pieces.append(run[start:])
    return SOFT_BREAK.join(pieces)


def _break_point(run: str, cut: int) -> int:
    """`cut`, moved past an entity it would split and past combining marks."""
    amp = run.rfind("&", cut - _MAX_ENTITY, cut)
    if amp != -1:
        semi = run.find(";", amp, amp + _MAX_ENTITY)
        if semi >= cut:
            cut = semi + 1
    for _ in range(_MAX_MARKS):
        if cut >= len(run) or not _joins_previous(run[cut]):
            break
        cut += 1
    return cut


def _joins_previous(char: str) -> bool:
    return unicodedata.category(char) in ("Mn", "Mc", "Me") or char in "\u200c\u200d\ufe0f"


def text_units(text: str) -> list[str]:
    """`text` cut at line ends into pieces of about `UNIT_CHARS` (the newline cut at is
    dropped: each piece becomes a block of its own). Pieces before the last stay the same
    as the text grows, so a streaming reply changes only its last piece."""
    units: list[str] = []
    start = 0
    while True:
        end = text.find("\n", start + UNIT_CHARS)
        if end == -1:
            units.append(text[start:])
            return units
        units.append(text[start:end])
        start = end + 1


def units_html(text: str, open_tag: str, close_tag: str) -> str:
    """`text` as escaped units between `open_tag` and `close_tag`, runs broken for Qt.

    The tags must keep white space (``white-space: pre-wrap``). A newline follows each
    opening tag and ends a unit whose text ends in one, because Qt's importer drops a
    newline just inside either end of such an element.
    """
    if not text:
        return ""
    parts = []
    for unit in text_units(text):
        tail = "\n" if unit.endswith("\n") else ""
        parts.append(f"{open_tag}\n{escapeHtml(break_runs(unit))}{tail}{close_tag}")
    return "\n".join(parts)


def plain_text_html(text: str) -> str:
    """Text shown as it is: escaped, line breaks kept, long lines wrapped."""
    return units_html(text, PRE_OPEN, "</pre>")
