"""Markdown -> inert HTML for Qt's rich-text engine (pure functions, no Qt).

One configured markdown-it parser: CommonMark with tables, strikethrough, task lists,
footnotes and ``$``/``$$`` math; raw HTML is off so model output can never inject
markup.

Bare URLs, ``www.`` names and e-mail addresses become links as on GitHub, by our own
linear rules (`autolinks`). mdit-py-plugins' ``gfm_autolink`` is quadratic on input such
as ``https:`` repeated (24,000 repeats took 48 s); markdown-it's own linkify (with
``linkify-it-py``, which would be a new dependency) took 0.7 s on ``http://`` repeated
up to the size limit and 2.5 s on 8,000 lines each holding a ``www.`` link, where ours
take about 10 ms and 0.3 s.

What is formatted is planned in `guard` before anything is parsed: the lines that fit
the formatting budget are markdown, the rest of what is shown is escaped plain text
after a note saying so (see that module for the limits), and so is a document
markdown-it would cut short because it nests deeper than ``MAX_BLOCK_NESTING``. Runs
of text too long for Qt's layout get soft breaks (see `plain`).
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.token import Token
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin

from desktop.core.i18n import tr
from desktop.render import rules
from desktop.render.blocks import note
from desktop.render.guard import MAX_BLOCK_NESTING, MAX_MATH_BLOCK_LINES, Plan, plan, shown_source
from desktop.render.plain import break_html_runs, plain_text_html
from desktop.render.rules import COPYABLE_TYPES, ENV_KEY, RenderContext, copy_source
from desktop.render.theme import palette

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
    md.use(dollarmath_plugin, allow_space=False, allow_digits=False, allow_blank_lines=False)
    _bound_math_block_scan(md)
    rules.install(md)
    return md


def _accept_any_link(url: str) -> bool:
    return True


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
        return cached[1]
    closers = []
    for number, line in enumerate(state.src.split("\n")):
        line = line.rstrip()
        if line.endswith("$$") or (line.endswith(")") and "$$" in line):
            closers.append(number)
    state.env[_MATH_CLOSERS_KEY] = (state.src, closers)
    return closers


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message's HTML and the plan it was rendered by (the view words what it says)."""

    html: str
    plan: Plan


def render_markdown(text: str, *, dark: bool = False, images: Collection[str] | None = None) -> str:
    """Render a message as HTML for a QTextBrowser; inert whatever the input.

    `images`: None while remote images are off (every image is a link); otherwise the
    web images already loaded, shown inline (see `desktop.render.images`).
    """
    return render_message(text, dark=dark, images=images).html


def render_message(
    text: str, *, dark: bool = False, images: Collection[str] | None = None
) -> Rendered:
    """`render_markdown`, with the plan that decided how much is markdown."""
    source = shown_source(text)
    layout = plan(source)
    markdown = render_fragment(source[: layout.markdown_end], dark=dark, images=images)
    return compose(markdown, source, layout, dark=dark)


def compose(markdown: str | None, source: str, layout: Plan, *, dark: bool) -> Rendered:
    """The markdown part's HTML (None: cut short) and the rest of `source` as plain text."""
    if markdown is None:
        markdown, layout = "", Plan(0, "nested deeper than markdown keeps")
    end = layout.markdown_end
    if end >= len(source):
        return Rendered(markdown, layout)
    if end:
        said = tr("The rest is shown as plain text: it is too long or complex to format.")
    else:
        said = tr("Shown as plain text: it is too long or complex to format.")
    plain = note(said, palette(dark)) + plain_text_html(source[end:])
    return Rendered(markdown + plain, layout)


def render_fragment(
    source: str,
    *,
    dark: bool,
    first_copy_index: int = 0,
    images: Collection[str] | None = None,
) -> str | None:
    """Render already-normalised `source` as markdown, whatever it costs (the plan has
    decided it may); None when markdown-it would cut it short. Copy links are numbered
    from `first_copy_index`.

    The streaming renderer calls this per top-level block, so its output for a block
    must not depend on anything outside the block except that index (and `images`).
    """
    if not source:
        return ""
    md = parser()
    context = RenderContext(dark=dark, next_copy_index=first_copy_index, images=images)
    env: dict[str, Any] = {ENV_KEY: context}
    tokens = md.parse(source, env)
    if is_cut_short(tokens):
        return None
    return break_html_runs(str(md.renderer.render(tokens, md.options, env)))


def is_cut_short(tokens: list[Token]) -> bool:
    """True when nesting reached markdown-it's limit, past which it drops content."""
    return any(token.level >= MAX_BLOCK_NESTING - 1 for token in tokens)


def code_blocks(text: str) -> list[str]:
    """The source of each copyable block, indexed like the "Copy" links in the HTML.

    Fenced and indented code, mermaid and ``$$`` math, in document order (footnote
    contents last, where they are rendered). Only the part formatted as markdown has any.
    """
    source = shown_source(text)
    source = source[: plan(source).markdown_end]
    tokens = parser().parse(source, {ENV_KEY: RenderContext(dark=False)})
    if is_cut_short(tokens):
        return []
    return [copy_source(token) for token in tokens if token.type in COPYABLE_TYPES]
