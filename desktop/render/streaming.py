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
blocks render. The plan and limits in `guard` apply exactly as in `render_markdown`: only
the lines within the formatting budget are markdown (their costs are kept between
updates, so each update scans only new lines), and once the shown part is complete an
update costs nothing. An unterminated code fence renders as a code block running to the
end of the text, as markdown-it closes it at the end of input.

One difference, so that no update costs more than ``GROWING_BLOCK_BUDGET``: a last block
that costs more while it still grows is shown as plain text until a block follows it or
the reply is complete (``render(text, final=True)``, which equals `render_markdown`).
"""

from __future__ import annotations

from collections.abc import Collection

from desktop.render.cost import CostScanner
from desktop.render.guard import GROWING_BLOCK_BUDGET, plan, shown_source
from desktop.render.markdown import compose, render_fragment
from desktop.render.plain import plain_text_html
from desktop.render.splitter import Block, BlockSplitter, CrossBlockReferences, CutShort


class StreamingRenderer:
    """Render a growing message repeatedly, re-rendering only blocks that changed.

    Use one instance per message view. `block_renders` counts blocks rendered and
    `full_renders` whole-text renders taken by the fallback, so tests can prove that
    completed blocks are reused.
    """

    def __init__(self, *, dark: bool = False, images: Collection[str] | None = None) -> None:
        self._dark = dark
        self._images = images  # as for render_markdown; fixed: a new set needs a new renderer
        self._splitter = BlockSplitter()
        self._scanner = CostScanner()
        self._cache: dict[tuple[str, int], str] = {}
        self._shown = ("", "")  # the last shown source and its HTML
        # The last markdown part rendered complete (no block left as plain text), its HTML.
        self._formatted: tuple[str, str | None] = ("", "")
        self.block_renders = 0
        self.full_renders = 0

    @property
    def dark(self) -> bool:
        return self._dark

    @dark.setter
    def dark(self, value: bool) -> None:
        if value != self._dark:
            self._dark = value
            self._cache.clear()
            self._shown = self._formatted = ("", "")

    @property
    def parsed_chars(self) -> int:
        """Characters given to the block parser so far (the tail, not the whole text)."""
        return self._splitter.parsed_chars

    def render(self, text: str, *, final: bool = False) -> str:
        """The HTML for `text` so far; `final` (the reply is complete): equal to
        ``render_markdown(text, dark=..., images=...)``, as it is whenever no costly last
        block still grows (see the module's docstring)."""
        source = shown_source(text)
        if source == self._shown[0] and self._shown[1] and not final:
            return self._shown[1]  # e.g. past what is shown: nothing changed on screen
        layout = plan(source, self._scanner)
        growing = not final and layout.markdown_end == len(source)
        region = source[: layout.markdown_end]
        if region == self._formatted[0] and region and not growing:
            markdown = self._formatted[1]  # cut at the budget: only the plain text grows
        else:
            markdown = self._markdown(region, growing=growing)
            self._formatted = ("", "") if growing else (region, markdown)
        html = compose(markdown, source, layout, dark=self._dark).html
        self._shown = (source, html)
        return html

    def _markdown(self, source: str, *, growing: bool) -> str | None:
        """The HTML of `source` as markdown, block by block; None when it is cut short.
        `growing`: the last block may still grow (text is appended right after it)."""
        try:
            blocks = self._splitter.split(source)
        except CutShort:
            self._forget()
            return None
        except CrossBlockReferences:
            self._forget()
            self.full_renders += 1
            return render_fragment(source, dark=self._dark, images=self._images)

        cache: dict[tuple[str, int], str] = {}
        parts: list[str] = []
        copy_index = 0
        if growing and blocks and self._costs_too_much_to_grow(blocks[-1]):
            blocks, last = blocks[:-1], plain_text_html(blocks[-1].source)
        else:
            last = ""
        for block in blocks:
            key = (block.source, copy_index)
            html = self._cache.get(key)
            if html is None:
                html = render_fragment(
                    block.source, dark=self._dark, first_copy_index=copy_index, images=self._images
                )
                if html is None:  # the splitter checked the nesting: cannot happen
                    self._forget()
                    return None
                self.block_renders += 1
            cache[key] = html
            parts.append(html)
            copy_index += block.copyables
        self._cache = cache  # keep only what the latest text uses
        return "".join(parts) + last

    def _costs_too_much_to_grow(self, block: Block) -> bool:
        cost = self._scanner.fitted_cost - self._scanner.cost_before(block.first_line)
        return cost > GROWING_BLOCK_BUDGET

    def _forget(self) -> None:
        self._cache.clear()
        self._splitter.reset()
