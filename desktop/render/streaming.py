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
blocks render. The limits in `guard` apply exactly as in `render_markdown`. An
unterminated code fence renders as a code block running to the end of the text, as
markdown-it closes it at the end of input.
"""

from __future__ import annotations

from collections.abc import Collection

from desktop.render.guard import fallback_reason, normalize_source, plain_text_html
from desktop.render.markdown import render_fragment
from desktop.render.splitter import BlockSplitter, CrossBlockReferences, CutShort


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
        self._cache: dict[tuple[str, int], str] = {}
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

    @property
    def parsed_chars(self) -> int:
        """Characters given to the block parser so far (the tail, not the whole text)."""
        return self._splitter.parsed_chars

    def render(self, text: str) -> str:
        """The HTML for `text`; equal to ``render_markdown(text, dark=..., images=...)``."""
        source = normalize_source(text)
        if fallback_reason(source):
            self._forget()
            return plain_text_html(source)
        try:
            blocks = self._splitter.split(source)
        except CutShort:
            self._forget()
            return plain_text_html(source)
        except CrossBlockReferences:
            self._forget()
            self.full_renders += 1
            return render_fragment(source, dark=self._dark, images=self._images)

        cache: dict[tuple[str, int], str] = {}
        parts: list[str] = []
        copy_index = 0
        for block in blocks:
            key = (block.source, copy_index)
            html = self._cache.get(key)
            if html is None:
                html = render_fragment(
                    block.source, dark=self._dark, first_copy_index=copy_index, images=self._images
                )
                self.block_renders += 1
            cache[key] = html
            parts.append(html)
            copy_index += block.copyables
        self._cache = cache  # keep only what the latest text uses
        return "".join(parts)

    def _forget(self) -> None:
        self._cache.clear()
        self._splitter.reset()
