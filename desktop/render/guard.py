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
    return _checked(text, _Checks(), len(text)).reason


class GrowingGuard:
    """`fallback_reason` for successive versions of a text that grows by appending (a
    streaming answer): only what is new since the last line break is scanned again.

    Every check is one pass from left to right whose state at a line break does not
    depend on what follows it: a nested-markers line ends there, a link destination ends
    at the first space or control character, and a blank line (which resets the bracket
    count) is seen once the next line break is. So the checks' state at the last line
    break of the text seen before is kept, and a text that still starts with the same
    characters up to there is checked from that point on; any other text whole. On every
    streamed update of a 20 KB answer that is 0.006 ms instead of 0.7 ms (1.4 ms at
    40 KB), on the reference machine.
    """

    def __init__(self) -> None:
        self._prefix = ""  # the text checked, up to and including its last line break
        self._done = _Checks()  # the checks' state at that line break

    def reason(self, text: str) -> str | None:
        if not text.startswith(self._prefix):
            self._prefix, self._done = "", _Checks()
        line_break = text.rfind("\n")
        if line_break > self._done.end:
            self._done = _checked(text, self._done, line_break)
            self._prefix = text[: line_break + 1]
        return _checked(text, self._done, len(text)).reason


@dataclass(frozen=True, slots=True)
class _Checks:
    """What the checks found in a text before `end` (0, or the index of a line break)."""

    end: int = 0
    deep_line: bool = False
    link_openers: int = 0
    link_scan: int = 0  # characters from each `](` to where its destination ends
    bracket_depth: int = 0
    brackets_over: bool = False

    @property
    def reason(self) -> str | None:
        if self.deep_line:
            return f"more than {MAX_LINE_NESTING} nested quote or list markers on a line"
        if self.link_openers > MAX_LINK_OPENERS:
            return f"more than {MAX_LINK_OPENERS} links or images"
        if self.link_scan > MAX_LINK_SCAN:
            return f"links that would scan more than {MAX_LINK_SCAN} characters"
        if self.brackets_over:
            return f"more than {MAX_BRACKET_DEPTH} unclosed brackets in a paragraph"
        return None


def _checked(text: str, done: _Checks, stop: int) -> _Checks:
    """The checks carried on from `done` over ``text[done.end:stop]``; `stop` is the end
    of `text` or the index of a line break in it (whose line then ends there)."""
    start = done.end
    deep_line = done.deep_line or _DEEP_LINE_RE.search(text, start, stop) is not None
    link_scan = done.link_scan
    opener = text.find("](", start, stop)
    while opener != -1 and link_scan <= MAX_LINK_SCAN:
        end = _DESTINATION_END_RE.search(text, opener)
        link_scan += (len(text) if end is None else end.start()) - opener
        opener = text.find("](", opener + 2, stop)
    depth, over = done.bracket_depth, done.brackets_over
    # A blank line is one once the next line break is seen: look one character past `stop`.
    for match in () if over else _BRACKET_OR_BLANK_RE.finditer(text, start, stop + 1):
        if match.start() >= stop:
            break
        char = match.group()
        if char == "[":
            depth += 1
            if depth > MAX_BRACKET_DEPTH:
                over = True
                break
        elif char == "]":
            depth = max(depth - 1, 0)
        else:  # a blank line ends the paragraph, and with it any link text
            depth = 0
    openers = done.link_openers + text.count("](", start, stop)
    return _Checks(stop, deep_line, openers, link_scan, depth, over)


@dataclass(frozen=True, slots=True)
class Plan:
    """How the shown part of a message is rendered: ``source[:markdown_end]`` as
    markdown, the rest as plain text; `reason` says why the markdown stops early."""

    markdown_end: int
    reason: str | None = None


def shown_source(text: str) -> str:
    """The part of `text` that is shown at all, normalised for the parser."""
    return normalize_source(text[:MAX_SHOWN_CHARS])
