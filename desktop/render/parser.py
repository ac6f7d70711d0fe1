"""The one configured markdown-it parser, and what its output says about nesting.

CommonMark with tables, strikethrough, task lists, footnotes and ``$``/``$$`` math; raw
HTML is off so model output can never inject markup. Built on first use, not at import.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable
from typing import cast

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin

from desktop.render import citations, maths, rules
from desktop.render.guard import MAX_BLOCK_NESTING, MAX_MATH_BLOCK_LINES

_MATH_CLOSERS_KEY = "parley_math_closers"


@functools.cache
def parser() -> MarkdownIt:
    """The shared parser, built on first use (not at import time)."""
    md = MarkdownIt(
        "commonmark",
        {"html": False, "typographer": False, "maxNesting": MAX_BLOCK_NESTING},
    )
    md.enable(["table", "strikethrough"])
    # Every link and image target is checked against our allow-list by a core rule
    # (rules._mark_unsafe_links), which keeps the text of a rejected link. markdown-it's
    # own deny-list would instead leave "[text](javascript:...)" as literal markdown.
    md.validateLink = _accept_any_link  # type: ignore[method-assign]
    # Inline footnotes (^[...]) are off: they number across blocks from inline content,
    # which the streaming renderer cannot see without a full parse.
    md.use(footnote_plugin, inline=False)
    # No "$5 and $10" as math: no digits or spaces just inside the dollars.
    md.use(
        dollarmath_plugin,
        allow_space=False,
        allow_digits=False,
        allow_blank_lines=False,
        double_inline=True,  # "$$x$$" inside a sentence, as models write it
    )
    _bound_math_block_scan(md)
    maths.install(md)  # \( \) and \[ \]
    rules.install(md)
    citations.install(md)  # [n] markers, for the numbers a render is given
    # Each ruler builds its rule lists on first use, emptying them before filling them;
    # built here, before any thread has the parser, two threads parsing at once (the GUI
    # thread and the worker that renders ahead) never see them half built.
    for ruler in (md.core.ruler, md.block.ruler, md.inline.ruler, md.inline.ruler2):
        ruler.getRules("")
    return md


def _accept_any_link(url: str) -> bool:  # noqa: ARG001  (named as MarkdownIt.validateLink)
    return True


BlockRule = Callable[[StateBlock, int, int, bool], bool]


def block_rule(name: str) -> BlockRule:
    """markdown-it's block rule `name` (e.g. "fence"), to run on a `StateBlock` directly."""
    ruler = parser().block.ruler
    return ruler.__rules__[ruler.__find__(name)].fn


def _bound_math_block_scan(md: MarkdownIt) -> None:
    """Keep dollarmath's ``$$`` block rule linear on hostile input.

    The plugin's rule scans forward from every line starting with ``$$`` for a closing
    line, to the end of the document. We look at most MAX_MATH_BLOCK_LINES lines ahead,
    and skip the scan entirely when no line in that range could close the block (from
    an index of candidate lines built once per parse). Neither changes the result for a
    block that closes within the bound.
    """
    scan = md.block.ruler.__rules__[md.block.ruler.__find__("math_block")].fn

    def bounded(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
        if not state.src.startswith("$$", state.bMarks[start_line] + state.tShift[start_line]):
            return False
        end_line = min(end_line, start_line + MAX_MATH_BLOCK_LINES)
        closers = _math_closer_lines(state)
        next_closer = bisect.bisect_left(closers, start_line)
        if next_closer == len(closers) or closers[next_closer] >= end_line:
            return False
        return scan(state, start_line, end_line, silent)

    md.block.ruler.at("math_block", bounded)


def _math_closer_lines(state: StateBlock) -> list[int]:
    """Lines that could end a ``$$`` block (``...$$`` or ``...$$ (label)``), cached per parse."""
    cached = state.env.get(_MATH_CLOSERS_KEY)
    if cached is not None and cached[0] is state.src:
        return cast("list[int]", cached[1])
    closers: list[int] = []
    for number, raw in enumerate(state.src.split("\n")):
        line = raw.rstrip()
        if line.endswith("$$") or (line.endswith(")") and "$$" in line):
            closers.append(number)
    state.env[_MATH_CLOSERS_KEY] = (state.src, closers)
    return closers


def is_cut_short(tokens: list[Token]) -> bool:
    """True when nesting reached markdown-it's limit, past which it drops content."""
    return any(token.level >= MAX_BLOCK_NESTING - 1 for token in tokens)


def block_tokens(source: str) -> StateBlock:
    """`source` through markdown-it's block rules only (no inline parsing): the state,
    with its top-level and nested block tokens and its line offsets."""
    md = parser()
    state = StateBlock(source, md, {}, [])
    md.block.tokenize(state, state.line, state.lineMax)
    return state
