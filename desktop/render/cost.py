"""What formatting markdown will cost the GUI thread, predicted from the source alone.

Formatting a reply is markdown-it's parse and render, pygments for code, then Qt's
import, layout and paint of the HTML, all on the GUI thread. The size of a text says
little about that: 70 KB of table rows cost 3 s, 140 KB of prose 0.1 s. So each line is
given a cost from what drives the work, and `CostScanner` finds how many lines fit in a
budget before anything is parsed. Nothing here measures time: the same text always gets
the same answer, in the streaming renderer as in a full render, and in tests.

The weights are microseconds of GUI-thread CPU, measured on the 2-core reference machine
with every core busy (benchmarks/render_bench.py prints predicted beside measured), over
the whole path from markdown to a painted widget:

- every line 34 (markdown-it's block rules, a Qt block), a blank one 6, and every
  character 0.5; each block 35 more (a paragraph, an item), a heading 40 more;
- ASCII punctuation 20 outside code: each may start markup that markdown-it's inline rules
  try (emphasis delimiters are balanced, links scanned) and that Qt gets an element for;
  ``*``, ``_`` and ``~`` 15 more (emphasis), ``<`` 40 more and ``@`` 30 more (links
  found in text), ``|`` 140 more (a table cell, Qt's most expensive layout);
- a quote or list marker at a line start 120: a list item or a quote (a table in Qt),
  plus 0.05 for each marked line just before it (Qt's import of a list is quadratic);
- a code frame (a fence, indented code, a closed ``$$`` or ``\\[`` block) 500, however little it
  holds: Qt lays out a table for it;
- in a fence pygments highlights, 80 for the call, each word, symbol or space between
  them 28 (a token and a styled span), and 25,000 the first time a language appears
  whose lexer the app has not loaded at start-up (pygments imports its module).

`plain_cost` and `frame_cost` predict the unformatted part (see `unformatted`).

Fit on documents, tables, lists, code, links and each hostile input we know of, then
raised so that the prediction is at or above the measured cost for nearly all of them:
the benchmark prints both, and their ratio, for every hostile input.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field

from desktop.render.guard import MARKER_PATTERN, MAX_MATH_BLOCK_LINES
from desktop.render.highlight import COMMON_LANGUAGES, can_highlight, language_key

LINE = 34.0
BLANK = 6.0
CHAR = 0.5
PUNCT = 20.0
EMPHASIS = 15.0
ANGLE = 40.0
AT = 30.0
PIPE = 140.0
MARKER = 120.0
RUN_ITEM = 0.05
PARAGRAPH = 35.0
HEADING = 40.0
FRAME = 500.0
HIGHLIGHT = 80.0
LEXER = 25_000.0
CODE_TOKEN = 28.0
PLAIN_CHAR = 0.4
PLAIN_LINE = 6.0

_CODE_INDENT = 4  # columns of indentation that make a line code (CommonMark); tab stops
_ONE_LINE_MATHS = 4  # more characters than "$$" twice: a formula opened and closed on a line

_DROP_PUNCT = str.maketrans("", "", string.punctuation)
_MARKER_START = frozenset(">-+*0123456789")
_MARKERS = re.compile(MARKER_PATTERN)
_FENCE = re.compile(r"[ \t>]*(?:(?:[-+*]|[0-9]{1,9}[.)])[ \t]+)?(`{3,}|~{3,})(.*)")
_CODE_TOKEN = re.compile(r"\w+|[^\w\s]|(?<=\S)[ \t]+(?=\S)")
_HEADING = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
_MATH_CLOSE = re.compile(r".*(?:\$\$[ \t]*(?:\(.*\)[ \t]*)?|\\\])$")
_PRELOADED = frozenset(COMMON_LANGUAGES)  # the app loads their lexers at start-up


@dataclass(frozen=True, slots=True)
class _Fence:
    marker: str  # the opening run of backticks or tildes
    highlighted: bool


@dataclass(frozen=True, slots=True)
class LineState:
    """What a line's cost depends on from the lines before it."""

    fence: _Fence | None = None  # the code fence open
    run: int = 0  # lines in a row that start with a quote or list marker
    blank: bool = True  # the line before is blank (or there is none)
    indented: bool = False  # in an indented code block (blank lines do not end it)
    math: int = 0  # lines since a ``$$`` line that has not been closed yet (0: none)
    languages: frozenset[str] = field(default_factory=frozenset)  # lexers loaded so far


START = LineState()


def line_cost(line: str, state: LineState) -> tuple[float, LineState]:
    """The cost of one line (without its newline), and the state after it."""
    cost = LINE + CHAR * len(line)
    fence = state.fence
    if "``" in line or "~~" in line:
        match = _FENCE.match(line)
        if match is not None:
            marker, rest = match.groups()
            if fence is None and not (marker[0] == "`" and "`" in rest):
                return _fence_opened(cost, marker, rest, state)
            if (
                fence is not None
                and marker[0] == fence.marker[0]
                and len(marker) >= len(fence.marker)
                and not rest.strip()
            ):
                return cost, LineState(blank=False, languages=state.languages)
    if fence is not None:
        if fence.highlighted:
            cost += CODE_TOKEN * len(_CODE_TOKEN.findall(line))
        return cost, state
    content = line.lstrip(" \t")
    if not content:  # a blank line ends a paragraph, a list's run and any ``$$`` block
        cost += BLANK - LINE
        return cost, LineState(indented=state.indented, languages=state.languages)
    indented = False
    indent = len(line.expandtabs(_CODE_INDENT)) - len(content.expandtabs(_CODE_INDENT))
    if indent >= _CODE_INDENT and (state.blank or state.indented):
        indented = True  # an indented code block (or a list item's indented paragraph)
        cost += 0.0 if state.indented else FRAME
    if state.blank:
        cost += PARAGRAPH  # a new block
    punctuation = len(line) - len(line.translate(_DROP_PUNCT))
    cost += PUNCT * punctuation + PIPE * line.count("|") + ANGLE * line.count("<")
    cost += AT * line.count("@")
    cost += EMPHASIS * (line.count("*") + line.count("_") + line.count("~"))
    if content[0] == "#" and _HEADING.match(line):
        cost += HEADING
    markers = end = 0
    if content[0] in _MARKER_START:
        markers, end = _markers(line)
        # Qt's import of a list is quadratic in its length: each item costs more than the last.
        cost += MARKER * markers + RUN_ITEM * state.run
    math = state.math
    if "$$" in line or "\\[" in line or (math and "\\]" in line):
        cost, math = _math(line[end:].strip(), cost, math)
    elif math:
        math = 0 if math >= MAX_MATH_BLOCK_LINES else math + 1
    run = state.run + 1 if markers else 0
    return cost, LineState(None, run, False, indented, math, state.languages)


def _fence_opened(cost: float, marker: str, rest: str, state: LineState) -> tuple[float, LineState]:
    """A code frame, and for a language pygments knows a highlight call (and, the first
    time in the text, loading its lexer, unless the app loaded it at start-up)."""
    words = rest.split(maxsplit=1)
    language = language_key(words[0]) if words else ""
    highlighted = language != "mermaid" and can_highlight(language)
    cost += FRAME
    languages = state.languages
    if highlighted:
        cost += HIGHLIGHT
        if language not in _PRELOADED and language not in languages:
            cost += LEXER
            languages = languages | {language}
    return cost, LineState(_Fence(marker, highlighted), blank=False, languages=languages)


def _math(content: str, cost: float, math: int) -> tuple[float, int]:
    """A ``$$`` block is a frame once it closes (a ``$$`` line left open is only text)."""
    closes = _MATH_CLOSE.match(content) is not None
    if math and closes:
        return cost + FRAME, 0
    if content.startswith(("$$", "\\[")):
        if len(content) > _ONE_LINE_MATHS and closes:
            return cost + FRAME, 0  # $$x$$ on one line
        return cost, 1
    return cost, 0 if not math or math >= MAX_MATH_BLOCK_LINES else math + 1


def _markers(line: str) -> tuple[int, int]:
    """Container markers at the start of `line` (``> - 1.`` are three), and where they end."""
    count = end = 0
    while (match := _MARKERS.match(line, end)) is not None and match.end() > end:
        count, end = count + 1, match.end()
    return count, end


class CostScanner:
    """How much of a text fits in a cost budget, for texts that grow by appending.

    The costs of complete lines are kept, so a streaming reply scans only its new lines;
    once a complete line has gone over the budget the answer is final for that text.
    A text that is not the previous one plus more is scanned from the start.
    """

    def __init__(self) -> None:
        self._reset(0.0)

    def _reset(self, budget: float) -> None:
        self._budget = budget
        self._prefix = ""  # the complete lines scanned so far
        self._before = [0.0]  # [n]: the cost of the first n of those lines
        self._state = START  # what the next line's cost depends on
        self._cut: int | None = None  # where the budget ran out, once it has
        self._fitted = 0.0

    @property
    def fitted_cost(self) -> float:
        """The cost of what the last `fitting()` call said fits."""
        return self._fitted

    def cost_before(self, line: int) -> float:
        """The cost of the lines before line number `line` (0-based) of what fits."""
        return self._before[min(line, len(self._before) - 1)]

    def fitting(self, source: str, budget: float) -> int:
        """The length of the longest run of whole lines at the start of `source` whose
        cost is within `budget`: ``len(source)`` when all of it fits."""
        if budget != self._budget or not source.startswith(self._prefix):
            self._reset(budget)
        if self._cut is not None:
            return self._cut
        position, state, before = len(self._prefix), self._state, self._before
        total = before[-1]
        fits = len(source)
        while position < len(source):
            newline = source.find("\n", position)
            end = len(source) if newline == -1 else newline
            cost, after = line_cost(source[position:end], state)
            if total + cost > budget:
                fits = position
                if newline != -1:  # a complete line: more text cannot change this
                    self._cut = position
                break
            if newline == -1:
                total += cost  # the last line may still grow: scanned again next time
                break
            position, state = end + 1, after
            total += cost
            before.append(total)
        self._prefix, self._state, self._fitted = source[:position], state, total
        if self._cut is not None:
            self._prefix = source[: source.find("\n", self._cut) + 1]
        return fits


def text_cost(source: str) -> float:
    """The predicted cost of formatting all of `source` (benchmarks print it)."""
    total, state = 0.0, START
    lines = source.split("\n")
    if not lines[-1]:
        lines.pop()  # a text ending in a newline has no line after it yet
    for line in lines:
        cost, state = line_cost(line, state)
        total += cost
    return total


def plain_cost(text: str) -> float:
    """The predicted cost of showing `text` as plain text (see `plain.units_html`)."""
    return PLAIN_CHAR * len(text) + PLAIN_LINE * text.count("\n")


def frame_cost(code: str) -> float:
    """The predicted cost of a code frame around `code`, unhighlighted."""
    return FRAME + LINE * (code.count("\n") + 1) + CHAR * len(code)
