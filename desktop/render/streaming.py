"""Re-render only the block that is still changing while a reply streams in.

Each call to `StreamingRenderer.render` gets the whole text so far. `BlockSplitter`
cuts it into top-level blocks (re-parsing only the tail); each block's HTML is cached
by its source and by the index its first "Copy" link gets, so a block that stopped
changing is never rendered again and, typically, only the last block is.

Why the output equals `render_markdown(text)` exactly: top-level blocks render
independently (the renderer keeps no state between them except the copy-link counter,
which is passed in), and a block whose extent changes when text is appended
(``Foo`` + ``***`` versus ``Foo`` + ``***x``; a closing ``$$`` that turns paragraphs
into one math block) has a different source, hence a cache miss.

Falls back to a full render while the text holds reference-style link definitions
(``[id]: https://...``) or footnote definitions (``[^1]: ...``): both change how *other*
blocks render. The plan and limits apply exactly as in `render_markdown` (see
`planner`): only the top-level blocks within the formatting budget are markdown (their
costs are kept between updates, so each update scans only new lines), and once the shown
part is complete an update costs nothing. An unterminated code fence renders as a code
block running to the end of the text, as markdown-it closes it at the end of input.

One difference, so that no update costs much: the last block is rendered again on every
update while it grows, so one that would cost more than a growing budget (see `guard`)
is shown more cheaply until a block follows it or the reply is complete
(``render(text, final=True)``, which equals `render_markdown`). A code fence keeps its
frame, label and Copy link, its code escaped but not highlighted (the same geometry:
nothing jumps when it is highlighted at the end); a huge table or list is plain text.

Formulas (with a `MathSource`, see `maths`) show their source until they are typeset. A
block, or a whole rendering, that showed a formula as pending is shown again once the
source no longer says it is (`MathSource.waiting`), and only that block: the images take
the place of the sources in its HTML, and only a block with a formula that failed (shown
otherwise) is rendered again. A display formula still streaming in (a last paragraph
that opens with ``$$`` or ``\\[``) shows as its source, as written, until it is closed.

With `ahead` (something that runs a job in a worker thread), `prefetch` has a text not
yet shown split and its blocks rendered there (see `ahead`): `render` then takes the
split and the blocks it has not cached from there instead of making them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from markdown_it.common.utils import escapeHtml

from desktop.render.ahead import (
    AheadOptions,
    BlockKey,
    BlocksAhead,
    growing_highlight,
    opens_display_maths,
)
from desktop.render.guard import Plan, shown_source
from desktop.render.markdown import compose, render_head, rendered_fragment
from desktop.render.maths import MathSource, pending_maths, with_ready_maths
from desktop.render.plain import plain_text_html
from desktop.render.planner import OVER_BUDGET, Planner
from desktop.render.splitter import Block, BlockSplitter, CrossBlockReferences, CutShort
from desktop.render.theme import palette

Fragment = tuple[str, int]  # HTML and the number of Copy links in it
RunAhead = Callable[[Callable[[], None]], None]  # runs a job in a worker thread


class StreamingRenderer:
    """Render a growing message repeatedly, re-rendering only blocks that changed.

    Use one instance per message view. `block_renders` counts blocks rendered,
    `full_renders` whole-text renders taken by the fallback and `prefetched` blocks
    taken from the worker's, so tests can prove that completed blocks are reused.
    """

    def __init__(
        self,
        *,
        dark: bool = False,
        images: Collection[str] | None = None,
        maths: MathSource | None = None,
        citations: Collection[int] = (),
        ahead: RunAhead | None = None,
    ) -> None:
        self._dark = dark
        self._images = images  # as for render_markdown; fixed: a new set needs a new renderer
        self._maths = maths
        self._citations = frozenset(citations)  # as for render_markdown; see `citations`
        self._splitter = BlockSplitter()
        self._planner = Planner()
        # (source, first copy index, highlighted) -> HTML and the formulas it shows pending
        self._cache: dict[BlockKey, tuple[str, list[str]]] = {}
        self._shown = ("", "")  # the last shown source and its HTML
        # The last text rendered complete (no block shown more cheaply), its HTML.
        self._formatted: tuple[str, Fragment | None] = ("", ("", 0))
        # Over the budget: the lines that fit, where the formatted part ends, its HTML.
        self._head: tuple[str, tuple[int, Fragment | None]] = ("", (0, ("", 0)))
        self._ahead = ahead
        self._blocks_ahead = BlocksAhead()
        self._generation = 0  # of the options above: results made under older ones are void
        self.block_renders = 0
        self.full_renders = 0
        self.prefetched = 0

    @property
    def dark(self) -> bool:
        return self._dark

    @dark.setter
    def dark(self, value: bool) -> None:
        if value != self._dark:
            self._dark = value
            self._clear()

    @property
    def citations(self) -> frozenset[int]:
        """The source numbers whose ``[n]`` are links. Every cached block depends on
        them, so a new set (an answer that searched again mid-stream) renders anew."""
        return self._citations

    @citations.setter
    def citations(self, value: Collection[int]) -> None:
        numbers = frozenset(value)
        if numbers != self._citations:
            self._citations = numbers
            self._clear()

    def _clear(self) -> None:
        self._generation += 1
        self._blocks_ahead.ready.clear()
        self._cache.clear()
        self._shown = ("", "")
        self._formatted = ("", ("", 0))
        self._head = ("", (0, ("", 0)))

    @property
    def parsed_chars(self) -> int:
        """Characters given to the block parser so far (the tail, not the whole text)."""
        return self._splitter.parsed_chars

    def prefetch(self, text: str) -> None:
        """`text` will be rendered soon: have its finished blocks rendered in the worker
        meanwhile (nothing without `ahead`)."""
        if self._ahead is None:
            return
        options = AheadOptions(
            self._dark, self._images, self._maths is not None, self._citations, self._generation
        )
        if self._blocks_ahead.want(text, options):
            self._ahead(self._blocks_ahead.run)

    def render(self, text: str, *, final: bool = False) -> str:
        """The HTML for `text` so far; `final` (the reply is complete): equal to
        ``render_markdown(text, dark=..., images=..., citations=...)``, as it is whenever
        no costly last block still grows (see the module's docstring)."""
        source = shown_source(text)
        if (
            source == self._shown[0]
            and self._shown[1]
            and not final
            and self._current(self._shown[1])
        ):
            return self._shown[1]  # e.g. past what is shown: nothing changed on screen
        fits, reason = self._planner.fitting(source)
        fragment: Fragment | None
        if reason is not None:
            layout, fragment = Plan(0, reason), ("", 0)
        elif fits < len(source):
            # Over the budget: what fits is formatted once, from one parse, as in a full
            # render; only the unformatted rest grows from then on.
            head = source[:fits]
            if head != self._head[0] or not self._current(self._head[1][1]):
                self._head = (
                    head,
                    render_head(
                        head,
                        dark=self._dark,
                        images=self._images,
                        maths=self._maths,
                        citations=self._citations,
                    ),
                )
            end, fragment = self._head[1]
            layout = Plan(end, OVER_BUDGET)
        else:
            layout = Plan(fits)
            growing = not final
            if source == self._formatted[0] and not growing and self._current(self._formatted[1]):
                fragment = self._formatted[1]
            else:
                fragment = self._markdown(source, growing=growing)
                self._formatted = ("", ("", 0)) if growing else (source, fragment)
        html = compose(fragment, source, layout, dark=self._dark).html
        self._shown = (source, html)
        if final:  # the reply is complete: what the worker kept for it is not needed
            self._blocks_ahead = BlocksAhead()
        return html

    def _markdown(self, source: str, *, growing: bool) -> Fragment | None:
        """The HTML of `source` as markdown, block by block; None when it is cut short.
        `growing`: the last block may still grow (text is appended right after it)."""
        try:
            blocks = self._split(source)
        except CutShort:
            self._forget()
            return None
        except CrossBlockReferences:
            self._forget()
            self.full_renders += 1
            return rendered_fragment(
                source,
                dark=self._dark,
                images=self._images,
                maths=self._maths,
                citations=self._citations,
            )

        cache: dict[BlockKey, tuple[str, list[str]]] = {}
        parts: list[str] = []
        copy_index = 0
        maths = self._maths is not None
        for number, block in enumerate(blocks):
            highlight: bool | None = True
            if growing and number == len(blocks) - 1:
                highlight = growing_highlight(block, self._growing_cost(block), maths)
            if highlight is None:  # shown more cheaply until it is complete
                if maths and opens_display_maths(block):
                    parts.append(self._unclosed_maths(block.source))
                else:
                    parts.append(plain_text_html(block.source))
                break
            key = (block.source, copy_index, highlight)
            entry = self._cache.get(key)
            if entry is not None and not self._waiting(entry[1]):
                entry = self._with_ready_maths(entry[0])
            if entry is None:
                entry = self._rendered_ahead(key)
            if entry is None:
                fragment = rendered_fragment(
                    block.source,
                    dark=self._dark,
                    first_copy_index=copy_index,
                    images=self._images,
                    highlight=highlight,
                    maths=self._maths,
                    citations=self._citations,
                )
                if fragment is None:  # the splitter checked the nesting: cannot happen
                    self._forget()
                    return None
                entry = (fragment[0], pending_maths(fragment[0]))
                self.block_renders += 1
            cache[key] = entry
            parts.append(entry[0])
            copy_index += block.copyables
        self._cache = cache  # keep only what the latest text uses
        ready = self._blocks_ahead.ready
        if ready:
            for key in cache:
                ready.pop(key, None)  # rendered here before the worker came to it
        return "".join(parts), copy_index

    def _split(self, source: str) -> list[Block]:
        """`source` in top-level blocks: the worker's split when it made one of this very
        text (the blocks depend on nothing else), otherwise this thread's."""
        split_source, blocks = self._blocks_ahead.split
        if split_source and split_source == source:
            self._splitter.adopt(source, blocks)
            return blocks
        return self._splitter.split(source)

    def _rendered_ahead(self, key: BlockKey) -> tuple[str, list[str]] | None:
        """The block's HTML if the worker rendered it under the current options (it
        holds no formula: the worker leaves those here). A block it rendered as the last
        of a text is the same whether or not another follows it now: the key holds
        whether it was highlighted."""
        done = self._blocks_ahead.ready.pop(key, None)
        if done is None or done[0] != self._generation:
            return None
        self.prefetched += 1
        return done[1], []

    def _waiting(self, keys: list[str]) -> bool:
        """True while every formula in `keys` is still being typeset (nothing to redo)."""
        maths = self._maths
        return maths is None or all(maths.waiting(key) for key in keys)

    def _with_ready_maths(self, html: str) -> tuple[str, list[str]] | None:
        """A cached block whose formulas are (partly) ready, with their images in place
        of their source; None when it must be rendered again."""
        shown = None if self._maths is None else with_ready_maths(html, self._maths)
        return None if shown is None else (shown, pending_maths(shown))

    def _current(self, rendered: Fragment | str | None) -> bool:
        """False when `rendered` shows a formula as pending that no longer is."""
        if self._maths is None or rendered is None:
            return True
        html = rendered if isinstance(rendered, str) else rendered[0]
        return self._waiting(pending_maths(html))

    def _unclosed_maths(self, source: str) -> str:
        """A display formula still streaming in (its closing ``$$`` or ``\\]`` not yet
        seen): its source as it is, monospace and muted, until it is complete."""
        colour = palette(self._dark).muted_text
        return f'<pre style="color: {colour}; margin: 0px;">{escapeHtml(source.rstrip())}</pre>\n'

    def _growing_cost(self, block: Block) -> float:
        scanner = self._planner.scanner
        return scanner.fitted_cost - scanner.cost_before(block.first_line)

    def _forget(self) -> None:
        self._cache.clear()
        self._splitter.reset()
