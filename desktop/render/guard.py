"""Limits that keep hostile or huge replies from freezing the GUI thread.

markdown-it-py parses dense markup at roughly 150 KB/s on the machines we target, and a
few inputs make it (or a plugin) quadratic. Rendering runs on the GUI thread while a
reply streams, so every input is checked here, in one linear pass, *before* it is parsed;
anything over a limit is shown as escaped plain text instead. Nothing is lost: the
person still sees (and can copy) every character.

The thresholds, and why (timings on the 2-core reference machine, see
benchmarks/render_bench.py):

- ``MAX_MARKDOWN_CHARS`` (150,000): a long real answer is 5-30 KB, while dense markup
  (``[a](b`` repeated, emphasis runs) parses at ~200 KB/s, so this keeps the worst
  case under about 0.8 s.
- ``MAX_MARKDOWN_LINES`` (10,000): block parsing costs ~35-50 us per line, so 20,000
  short list items would take about a second even under the size limit.
- ``MAX_LINE_NESTING`` (16): container markers (``>``, ``-``, ``*``, ``+``, ``1.``) at
  the start of one line, as in ``> > > > x`` or ``- - - - x``. Deeper nesting is never
  prose, and markdown-it drops content past ``MAX_BLOCK_NESTING`` levels.
- ``MAX_CONTAINER_MARKERS`` (20,000): such markers summed over all lines. Each nested
  list costs markdown-it ~25 us per line, so 8,000 lines of ``- - - - - - - - x`` took
  1.5 s although each is only 8 deep.
- ``MAX_LINK_OPENERS`` (5,000): ``](`` pairs. An unclosed ``![a](b`` costs ~60 us
  (its destination is scanned through up to 32 nested parentheses), so 25,000 of them
  in one line took 1.4 s.
- ``MAX_LINK_SCAN`` (500,000): characters from each ``](`` to the next space, line
  break or control character, summed: how far markdown-it may scan for link
  destinations. 32 unclosed ``![a](b`` before 149,000 letters without a space took
  1.2 s (each is scanned twice, as image and as link).
- ``MAX_BRACKET_DEPTH`` (64): unclosed ``[`` within one paragraph (the count restarts at
  each blank line, since link text never spans paragraphs). Each unclosed ``[`` makes
  markdown-it scan to the end of the paragraph: 50,000 of them take over a second.
- ``MAX_BLOCK_NESTING`` (40): markdown-it's own ``maxNesting``. Past it markdown-it
  silently skips the rest of the nested content, so a parse that reaches it falls back
  to plain text too (checked after parsing, see ``markdown.is_cut_short``).
- ``MAX_MATH_BLOCK_LINES`` (100): a ``$$`` block must close within this many lines.
  Unbounded, every ``$$`` line in a long list scans to the end of the document
  (30,000 such list items took minutes); see ``markdown._bound_math_block_scan``.
"""

from __future__ import annotations

import re

from markdown_it.common.utils import escapeHtml

MAX_MARKDOWN_CHARS = 150_000
MAX_MARKDOWN_LINES = 10_000
MAX_LINE_NESTING = 16
MAX_CONTAINER_MARKERS = 20_000
MAX_LINK_OPENERS = 5_000
MAX_LINK_SCAN = 500_000
MAX_BRACKET_DEPTH = 64
MAX_BLOCK_NESTING = 40
MAX_MATH_BLOCK_LINES = 100

_NEWLINES_RE = re.compile(r"\r\n?")
_MARKER = r"[ \t]*(?:>|(?:[-+*]|[0-9]{1,9}[.)])(?=[ \t]|$))"
_DEEP_LINE_RE = re.compile(f"^(?:{_MARKER}){{{MAX_LINE_NESTING + 1}}}", re.MULTILINE)
_MARKER_RUN_RE = re.compile(f"^(?:{_MARKER})+", re.MULTILINE)
_MARKER_RE = re.compile(_MARKER)
_DESTINATION_END_RE = re.compile(r"[\x00-\x20\x7f]")
_BRACKET_OR_BLANK_RE = re.compile(r"[\[\]]|\n[ \t]*(?=\n)")


def normalize_source(text: str) -> str:
    """Apply markdown-it's own input normalisation up front.

    Line numbers from the block parser then index straight into our string, which the
    streaming renderer relies on to cut the source into blocks.
    """
    return _NEWLINES_RE.sub("\n", text).replace("\0", "\ufffd")


def fallback_reason(text: str) -> str | None:
    """Why `text` must not be parsed as markdown, or None when it is safe to parse."""
    if len(text) > MAX_MARKDOWN_CHARS:
        return f"longer than {MAX_MARKDOWN_CHARS} characters"
    if text.count("\n") >= MAX_MARKDOWN_LINES:
        return f"more than {MAX_MARKDOWN_LINES} lines"
    if _DEEP_LINE_RE.search(text):
        return f"more than {MAX_LINE_NESTING} nested quote or list markers on a line"
    if text.count("](") > MAX_LINK_OPENERS:
        return f"more than {MAX_LINK_OPENERS} links or images"
    if _link_scan_exceeds(text, MAX_LINK_SCAN):
        return f"links that would scan more than {MAX_LINK_SCAN} characters"
    if _container_markers_exceed(text, MAX_CONTAINER_MARKERS):
        return f"more than {MAX_CONTAINER_MARKERS} quote or list markers"
    if _bracket_depth_exceeds(text, MAX_BRACKET_DEPTH):
        return f"more than {MAX_BRACKET_DEPTH} unclosed brackets in a paragraph"
    return None


def _link_scan_exceeds(text: str, limit: int) -> bool:
    total = 0
    start = text.find("](")
    while start != -1:
        end = _DESTINATION_END_RE.search(text, start)
        total += (len(text) if end is None else end.start()) - start
        if total > limit:
            return True
        start = text.find("](", start + 2)
    return False


def _container_markers_exceed(text: str, limit: int) -> bool:
    total = 0
    for run in _MARKER_RUN_RE.finditer(text):
        total += len(_MARKER_RE.findall(run.group()))
        if total > limit:
            return True
    return False


def _bracket_depth_exceeds(text: str, limit: int) -> bool:
    depth = 0
    for match in _BRACKET_OR_BLANK_RE.finditer(text):
        char = match.group()
        if char == "[":
            depth += 1
            if depth > limit:
                return True
        elif char == "]":
            depth = max(depth - 1, 0)
        else:  # a blank line ends the paragraph, and with it any link text
            depth = 0
    return False


def plain_text_html(text: str) -> str:
    """The fallback view: escaped text that keeps its line breaks and wraps long lines."""
    return f'<pre style="white-space: pre-wrap;">{escapeHtml(text)}</pre>\n'
