"""The part of a message past what is formatted: plain text, its code fences in frames.

What the plan (`planner`) leaves unformatted is shown as it came, escaped, after a note
saying so. Its top-level code fences are found by markdown-it's own fence rule, line by
line, without parsing anything else, and each is drawn in the same frame as a formatted
code block, unhighlighted, with a Copy link that copies its whole source: code is never
shown as raw text with its fence markers, and Copy never gives part of a block. Finding
them is linear, whatever the text holds. A frame costs Qt about half a millisecond
however little it holds, so only the first ``MAX_UNFORMATTED_FRAMES`` fences get one;
any after those stay text, whole.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from markdown_it.rules_block import StateBlock
from markdown_it.token import Token

from desktop.core.i18n import tr
from desktop.render.blocks import note
from desktop.render.cost import frame_cost, plain_cost
from desktop.render.guard import MAX_UNFORMATTED_FRAMES
from desktop.render.parser import block_rule, parser
from desktop.render.plain import plain_text_html
from desktop.render.rules import RenderContext, copy_source, fence_frame
from desktop.render.theme import palette

# Where a fence may open: at most three spaces, then three backticks or tildes.
_FENCE_START = re.compile(r"^ {0,3}(?:```|~~~)", re.MULTILINE)


def html(source: str, *, dark: bool, first_copy_index: int, after: bool) -> str:
    """`source` unformatted: plain text and code frames, Copy links numbered from
    `first_copy_index`. `after`: something formatted comes before it (the note says
    "the rest")."""
    context = RenderContext(dark=dark, next_copy_index=first_copy_index, highlight=False)
    parts: list[str] = []
    noted = False
    for piece in _pieces(source):
        if isinstance(piece, Token):
            parts.append(fence_frame(piece, context))
            continue
        if not noted:
            noted = True
            if after or parts:
                said = tr("The rest is shown as plain text: it is too long or complex to format.")
            else:
                said = tr("Shown as plain text: it is too long or complex to format.")
            parts.append(note(said, palette(dark)))
        parts.append(plain_text_html(piece))
    return "".join(parts)


def fence_sources(source: str) -> list[str]:
    """What the Copy link of each code frame in `html(source, ...)` copies, in order."""
    return [copy_source(piece) for piece in _pieces(source) if isinstance(piece, Token)]


def cost(source: str) -> float:
    """The predicted cost of `html(source, ...)` (benchmarks print it beside measured)."""
    return sum(
        frame_cost(piece.content) if isinstance(piece, Token) else plain_cost(piece)
        for piece in _pieces(source)
    )


def _pieces(source: str) -> Iterator[str | Token]:
    """`source` as plain text between top-level fences (their tokens). Blank lines next
    to a fence are left out: the frame has margins of its own."""
    fences = list(_fences(source))
    start = 0
    for offset, end, token in fences:
        text = source[start:offset].rstrip(" \t\n")
        if start:
            text = _without_leading_blank_lines(text)
        if text:
            yield text
        yield token
        start = end
    text = source[start:]
    if start:
        text = _without_leading_blank_lines(text)
    if text:
        yield text


def _fences(source: str) -> Iterator[tuple[int, int, Token]]:
    """(start, end, token) of each top-level fence: markdown-it's fence rule at each line
    that could open one, from where the previous fence ended."""
    first = _FENCE_START.search(source)
    if first is None:
        return  # the usual case: no fence at all
    state = StateBlock(source, parser(), {}, [])
    fence = block_rule("fence")
    line = bisect.bisect_right(state.bMarks, first.start(), hi=state.lineMax) - 1
    while line < state.lineMax and len(state.tokens) < MAX_UNFORMATTED_FRAMES:
        if fence(state, line, state.lineMax, False):
            token = state.tokens[-1]
            begin, line = token.map or (line, state.line)
            yield state.bMarks[begin], _offset(state, line, len(source)), token
        else:
            line += 1
        match = _FENCE_START.search(source, _offset(state, line, len(source)))
        if match is None:
            return
        line = bisect.bisect_right(state.bMarks, match.start(), hi=state.lineMax) - 1


def _offset(state: StateBlock, line: int, length: int) -> int:
    return state.bMarks[line] if line < state.lineMax else length


def _without_leading_blank_lines(text: str) -> str:
    stripped = text.lstrip(" \t\n")
    if not stripped:
        return ""
    return text[text.rfind("\n", 0, len(text) - len(stripped)) + 1 :]
