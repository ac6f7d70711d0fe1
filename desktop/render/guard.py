"""Limits that keep hostile or huge replies from freezing the GUI thread.

Rendering runs on the GUI thread while a reply streams, so what is formatted is decided
before anything is parsed, by `planner.plan()`, from these limits:

- ``MAX_SHOWN_CHARS`` (100,000): at most this much of a message is shown at all (Qt's
  layout of plain text costs about 0.5 us a character; 10 MB would take seconds). The
  view says so and offers the whole text to copy or save; storage, "Copy" and export
  always have all of it.
- ``FORMAT_BUDGET``: the whole top-level blocks that fit in this predicted cost (see
  `cost`; 0.42 s of GUI-thread CPU on the 2-core reference machine, about what an
  ordinary 40 KB answer of some 10,000 tokens costs) are formatted as markdown, the
  rest of what is shown is unformatted (see `unformatted`). The transcript lays a
  message out again when its width changes, so opening one costs up to about twice
  that; 5,000 table rows or 20,000 ``*a **a`` runs would otherwise take 3-4 s.
- ``MAX_UNFORMATTED_FRAMES`` (100): code fences in the unformatted part get a frame
  and a Copy link, up to this many (a frame costs Qt about half a millisecond).
- ``GROWING_BLOCK_BUDGET`` and ``GROWING_CODE_BUDGET``: while a reply streams, its last
  block is rendered again on every update. A code block that costs more than the
  second keeps its frame, label and Copy link but is not highlighted until it is
  complete (a Python file of about 200 lines is highlighted on every update, a longer
  one from then on only once); any other block that costs more than the first (a table
  of some 170 rows of six cells, a list of some 1,100 items) is plain text until it is
  complete, then formatted once.

Then, because a few inputs make markdown-it (or a plugin) superlinear, the markdown part
is checked in one linear pass and shown as plain text when over one of these limits
(timings on the reference machine, see benchmarks/render_bench.py):

- ``MAX_LINE_NESTING`` (16): container markers (``>``, ``-``, ``*``, ``+``, ``1.``) at
  the start of one line, as in ``> > > > x`` or ``- - - - x``. Deeper nesting is never
  prose, and markdown-it drops content past ``MAX_BLOCK_NESTING`` levels.
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
  to plain text too (checked after parsing, see ``parser.is_cut_short``).
- ``MAX_MATH_BLOCK_LINES`` (100): a ``$$`` block must close within this many lines.
  Unbounded, every ``$$`` line in a long list scans to the end of the document
  (30,000 such list items took minutes); see ``parser._bound_math_block_scan``.

Formulas are typeset off the GUI thread (see ``maths`` and ``desktop/ui/math_images``),
whose layout is linear in a formula's length and exponential in how deeply its groups
nest, so a formula over one of these is shown as its source, marked, and never typeset:

- ``MAX_FORMULA_CHARS`` (1,000): 1,000 characters take the typesetter about 0.45 s.
- ``MAX_FORMULA_BRACES`` (8): ``{`` nested 8 deep took 0.2 s, 10 deep 0.5 s, 16 deep 55 s.

Emphasis nested deeper than ``MAX_INLINE_NESTING`` (``_`` x 5,000, ``a``, ``_`` x 5,000)
keeps its text but no more tags (see ``rules``): Qt's HTML import is quadratic in the
depth of nested elements.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_SHOWN_CHARS = 100_000
FORMAT_BUDGET = 420_000.0
GROWING_BLOCK_BUDGET = 250_000.0
GROWING_CODE_BUDGET = 100_000.0
MAX_LINE_NESTING = 16
MAX_LINK_OPENERS = 5_000
MAX_LINK_SCAN = 500_000
MAX_BRACKET_DEPTH = 64
MAX_BLOCK_NESTING = 40
MAX_MATH_BLOCK_LINES = 100
MAX_UNFORMATTED_FRAMES = 100
MAX_INLINE_NESTING = 8
MAX_FORMULA_CHARS = 1_000
MAX_FORMULA_BRACES = 8

# A container marker at a line start: a quote, or a list item's bullet or number.
MARKER_PATTERN = r"[ \t]*(?:>|(?:[-+*]|[0-9]{1,9}[.)])(?=[ \t]|$))"

_NEWLINES_RE = re.compile(r"\r\n?")
_DEEP_LINE_RE = re.compile(f"^(?:{MARKER_PATTERN}){{{MAX_LINE_NESTING + 1}}}", re.MULTILINE)
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
    if _DEEP_LINE_RE.search(text):
        return f"more than {MAX_LINE_NESTING} nested quote or list markers on a line"
    if text.count("](") > MAX_LINK_OPENERS:
        return f"more than {MAX_LINK_OPENERS} links or images"
    if _link_scan_exceeds(text, MAX_LINK_SCAN):
        return f"links that would scan more than {MAX_LINK_SCAN} characters"
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


@dataclass(frozen=True, slots=True)
class Plan:
    """How the shown part of a message is rendered: ``source[:markdown_end]`` as
    markdown, the rest as plain text; `reason` says why the markdown stops early."""

    markdown_end: int
    reason: str | None = None


def shown_source(text: str) -> str:
    """The part of `text` that is shown at all, normalised for the parser."""
    return normalize_source(text[:MAX_SHOWN_CHARS])
