"""Markdown -> inert HTML for Qt's rich-text engine (pure functions, no Qt).

The parser (`parser.parser`) is CommonMark with tables, strikethrough, task lists,
footnotes and ``$``/``$$`` math; raw HTML is off so model output can never inject
markup.

Bare URLs, ``www.`` names and e-mail addresses become links as on GitHub, by our own
linear rules (`autolinks`). mdit-py-plugins' ``gfm_autolink`` is quadratic on input such
as ``https:`` repeated (24,000 repeats took 48 s); markdown-it's own linkify (with
``linkify-it-py``, which would be a new dependency) took 0.7 s on ``http://`` repeated
up to the size limit and 2.5 s on 8,000 lines each holding a ``www.`` link, where ours
take about 10 ms and 0.3 s.

What is formatted is planned in `planner` before anything is parsed: the top-level
blocks that fit the formatting budget are markdown, the rest of what is shown is
unformatted (`unformatted`: escaped plain text after a note saying so, its code fences
in frames with a working Copy), and so is a document markdown-it would cut short
because it nests deeper than ``MAX_BLOCK_NESTING``. Runs of text too long for Qt's
layout get soft breaks (see `plain`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from desktop.render import unformatted
from desktop.render.citations import TOKEN as CITE_TOKEN
from desktop.render.guard import Plan, shown_source
from desktop.render.maths import MathSource
from desktop.render.parser import is_cut_short, parser
from desktop.render.plain import break_html_runs
from desktop.render.planner import OVER_BUDGET, Planner, formatted_end, plan
from desktop.render.rules import COPYABLE_TYPES, ENV_KEY, RenderContext, copy_source

__all__ = [
    "Rendered",
    "cited_numbers",
    "code_blocks",
    "compose",
    "is_cut_short",
    "parser",
    "render_fragment",
    "render_head",
    "render_markdown",
    "render_message",
    "rendered_fragment",
]


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message's HTML and the plan it was rendered by (the view words what it says)."""

    html: str
    plan: Plan


def render_markdown(
    text: str,
    *,
    dark: bool = False,
    images: Collection[str] | None = None,
    maths: MathSource | None = None,
    citations: Collection[int] = (),
) -> str:
    """Render a message as HTML for a QTextBrowser; inert whatever the input.

    `images`: None while remote images are off (every image is a link); otherwise the
    web images already loaded, shown inline (see `desktop.render.images`). `maths`: what
    typesets formulas (None: they show as their source; see `desktop.render.maths`).
    `citations`: the numbers of the sources the answer was given; its ``[n]`` markers
    for them become ``parley-cite:n`` links (see `desktop.render.citations`).
    """
    return render_message(text, dark=dark, images=images, maths=maths, citations=citations).html


def render_message(
    text: str,
    *,
    dark: bool = False,
    images: Collection[str] | None = None,
    maths: MathSource | None = None,
    citations: Collection[int] = (),
) -> Rendered:
    """`render_markdown`, with the plan that decided how much is markdown."""
    source = shown_source(text)
    fits, reason = Planner().fitting(source)
    if reason is not None:
        return compose(("", 0), source, Plan(0, reason), dark=dark)
    if fits == len(source):
        fragment = rendered_fragment(
            source, dark=dark, images=images, maths=maths, citations=citations
        )
        return compose(fragment, source, Plan(fits), dark=dark)
    end, fragment = render_head(
        source[:fits], dark=dark, images=images, maths=maths, citations=citations
    )
    return compose(fragment, source, Plan(end, OVER_BUDGET), dark=dark)


def render_head(
    head: str,
    *,
    dark: bool,
    images: Collection[str] | None,
    maths: MathSource | None = None,
    citations: Collection[int] = (),
) -> tuple[int, tuple[str, int] | None]:
    """Where the formatted part ends when `head` is what fits the budget (as `plan` says),
    and that part rendered: from the one parse of `head`, leaving out the tokens of its
    last block, unless link references or footnotes tie the blocks together."""
    md = parser()
    context = RenderContext(dark=dark, images=images, maths=maths, citations=frozenset(citations))
    env: dict[str, Any] = {ENV_KEY: context}
    tokens = md.parse(head, env)
    end, first_left_out = formatted_end(head, tokens)
    if end < len(head) and (
        first_left_out is None or env.get("references") or env.get("footnotes")
    ):
        fragment = rendered_fragment(
            head[:end], dark=dark, images=images, maths=maths, citations=citations
        )
        return end, fragment
    kept = tokens if first_left_out is None else tokens[:first_left_out]
    if is_cut_short(kept):
        return end, None
    html = break_html_runs(str(md.renderer.render(kept, md.options, env)))
    return end, (html, context.next_copy_index)


def compose(fragment: tuple[str, int] | None, source: str, layout: Plan, *, dark: bool) -> Rendered:
    """The markdown part's HTML and copy-link count (None: cut short), then the rest of
    `source` unformatted, its code blocks' Copy links numbered on from the markdown's."""
    if fragment is None:
        fragment, layout = ("", 0), Plan(0, "nested deeper than markdown keeps")
    markdown, copies = fragment
    end = layout.markdown_end
    if end >= len(source):
        return Rendered(markdown, layout)
    rest = unformatted.html(source[end:], dark=dark, first_copy_index=copies, after=end > 0)
    return Rendered(markdown + rest, layout)


def render_fragment(
    source: str,
    *,
    dark: bool,
    first_copy_index: int = 0,
    images: Collection[str] | None = None,
    highlight: bool = True,
    maths: MathSource | None = None,
    citations: Collection[int] = (),
) -> str | None:
    """Render already-normalised `source` as markdown, whatever it costs (the plan has
    decided it may); None when markdown-it would cut it short. Copy links are numbered
    from `first_copy_index`; `highlight=False` shows code as escaped text.

    The streaming renderer calls this per top-level block, so its output for a block
    must not depend on anything outside the block except that index (and `images`,
    `citations`).
    """
    fragment = rendered_fragment(
        source,
        dark=dark,
        first_copy_index=first_copy_index,
        images=images,
        highlight=highlight,
        maths=maths,
        citations=citations,
    )
    return None if fragment is None else fragment[0]


def rendered_fragment(
    source: str,
    *,
    dark: bool,
    first_copy_index: int = 0,
    images: Collection[str] | None = None,
    highlight: bool = True,
    maths: MathSource | None = None,
    citations: Collection[int] = (),
) -> tuple[str, int] | None:
    """`render_fragment`, with the number of Copy links in it."""
    if not source:
        return "", 0
    md = parser()
    context = RenderContext(
        dark=dark,
        next_copy_index=first_copy_index,
        images=images,
        highlight=highlight,
        maths=maths,
        citations=frozenset(citations),
    )
    env: dict[str, Any] = {ENV_KEY: context}
    tokens = md.parse(source, env)
    if is_cut_short(tokens):
        return None
    html = break_html_runs(str(md.renderer.render(tokens, md.options, env)))
    return html, context.next_copy_index - first_copy_index


def code_blocks(text: str) -> list[str]:
    """The source of each copyable block, indexed like the "Copy" links in the HTML.

    Fenced and indented code, mermaid and ``$$`` math in the markdown part, in document
    order (footnote contents last, where they are rendered), then the code fences of
    the unformatted rest: every Copy link copies its block's whole source.
    """
    source = shown_source(text)
    end = plan(source).markdown_end
    tokens = parser().parse(source[:end], {ENV_KEY: RenderContext(dark=False)}) if end else []
    if is_cut_short(tokens):
        tokens, end = [], 0
    copied = [copy_source(token) for token in tokens if token.type in COPYABLE_TYPES]
    return copied + unformatted.fence_sources(source[end:])


def cited_numbers(text: str, citations: Collection[int]) -> tuple[int, ...]:
    """The known numbers (`citations`) that `text` cites, in first-citation order, each
    once: the citation links `render_markdown(text, citations=...)` makes, in the order
    they are shown (footnotes last). Markers in the unformatted rest of a message too
    long to format all of are not links, so they are not counted either."""
    known = frozenset(citations)
    source = shown_source(text)
    end = plan(source).markdown_end if known else 0
    if not end:
        return ()
    context = RenderContext(dark=False, citations=known)
    tokens = parser().parse(source[:end], {ENV_KEY: context})
    if is_cut_short(tokens):
        return ()
    cited: dict[int, None] = {}
    for token in tokens:
        for child in token.children or ():
            if child.type == CITE_TOKEN:
                cited.update((n, None) for n in child.meta["numbers"] if n in known)
    return tuple(cited)
