"""Render a streaming answer's finished blocks ahead of time, in a worker thread.

An update waits in the pacer (about a tenth of a second, see ``update_pacer``) before it
is shown, and the engine's next one comes about 40 ms later. So its blocks can be rendered
meanwhile: `BlocksAhead.run` does that in a worker thread (its last block under the rules
for a block that may still grow, as the GUI thread would), and when the update is shown
`StreamingRenderer` takes their HTML from `ready` instead of rendering them on the GUI
thread. The GUI thread
renders only what the worker has not reached and the blocks with formulas (rendering a
formula asks the typesetter, a GUI-thread object; such a block is rendered here to find
out, and left to the GUI thread).

What is taken is exactly what the GUI thread would have rendered: the same pure function
(`rendered_fragment`) of the same block source, Copy-link index and options. A result made
under options since changed (the theme, the cited sources) carries an older `generation`
and is never used. Nothing waits for the worker: a block it has not reached is rendered
on the GUI thread as before.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Collection
from dataclasses import dataclass

from desktop.render.guard import GROWING_BLOCK_BUDGET, GROWING_CODE_BUDGET, shown_source
from desktop.render.markdown import rendered_fragment
from desktop.render.maths import PENDING, Formula
from desktop.render.planner import Planner
from desktop.render.splitter import Block, BlockSplitter, CrossBlockReferences, CutShort

log = logging.getLogger(__name__)

BlockKey = tuple[str, int, bool]  # source, index of its first Copy link, highlighted


@dataclass(frozen=True, slots=True)
class AheadOptions:
    """How the answer is rendered (`maths`: whether formulas are typeset) and under which
    `generation` of these options."""

    dark: bool
    images: Collection[str] | None  # never changed once given (see StreamingRenderer)
    maths: bool
    citations: frozenset[int]
    generation: int


class _FormulaProbe:
    """A typesetter that only notes whether it was asked: a block with a formula is the
    GUI thread's to render."""

    def __init__(self) -> None:
        self.asked = False

    def formula(self, tex: str, display: bool) -> Formula:  # noqa: ARG002  (MathSource's signature)
        self.asked = True
        return Formula(PENDING, key="0")

    def waiting(self, key: str) -> bool:  # noqa: ARG002  (MathSource's signature)
        return True

    def known(self, key: str) -> Formula | None:  # noqa: ARG002  (MathSource's signature)
        return None


def opens_display_maths(block: Block) -> bool:
    """A paragraph that starts with ``$$`` or ``\\[``: a display formula not yet closed."""
    return block.kind == "paragraph_open" and block.source.lstrip().startswith(("$$", "\\["))


def growing_highlight(block: Block, cost: float, maths: bool) -> bool | None:
    """How a last block that may still grow is rendered as markdown: highlighted or not
    (a code block over its budget); None when it is not (shown cheaper until complete,
    see `StreamingRenderer`)."""
    if block.kind == "fence":
        return cost <= GROWING_CODE_BUDGET
    if (maths and opens_display_maths(block)) or cost > GROWING_BLOCK_BUDGET:
        return None
    return True


def render_block(key: BlockKey, options: AheadOptions) -> str | None:
    """The block's HTML as the GUI thread renders it; None when it holds a formula (or
    markdown-it would cut it short)."""
    source, copy_index, highlight = key
    probe = _FormulaProbe() if options.maths else None
    fragment = rendered_fragment(
        source,
        dark=options.dark,
        first_copy_index=copy_index,
        images=options.images,
        highlight=highlight,
        maths=probe,
        citations=options.citations,
    )
    if fragment is None or (probe is not None and probe.asked):
        return None
    return fragment[0]


class BlocksAhead:
    """One streaming answer's blocks rendered ahead.

    The GUI thread calls `want` with each new text and starts `run` in the worker when
    it says so; `run` renders the newest text wanted until no newer one comes. Its
    splitter, planner and the keys of the newest text's blocks are the worker's alone;
    `ready` (key -> generation and HTML) holds that text's blocks, filled by the worker
    and taken by the GUI thread, one dict operation at a time, and `split` that text
    with its blocks (the GUI thread's splitter adopts them rather than parse it again).
    """

    def __init__(self) -> None:
        self.ready: dict[BlockKey, tuple[int, str]] = {}
        self.split: tuple[str, list[Block]] = ("", [])  # the newest text split, its blocks
        self._lock = threading.Lock()  # for `_wanted` and `_busy` together
        self._wanted: tuple[str, AheadOptions] | None = None
        self._busy = False  # a job is queued or running
        self._failed = False  # a job failed: this answer is rendered on the GUI thread
        self._splitter = BlockSplitter()
        self._planner = Planner()
        self._done: set[BlockKey] = set()
        self._generation = -1

    def want(self, text: str, options: AheadOptions) -> bool:
        """Note the newest text; True when a job must be started for it (none is queued
        or running; one that is picks it up)."""
        with self._lock:
            self._wanted = (text, options)
            if self._busy or self._failed:
                return False
            self._busy = True
            return True

    def run(self) -> None:
        """In the worker: render the blocks of the newest text wanted, until none newer
        is. A failure (a bug) is logged once and ends rendering ahead for this answer."""
        done = None
        while True:
            with self._lock:
                wanted = self._wanted
                if wanted is None or wanted is done:
                    self._busy = False
                    return
            try:
                self._render(*wanted)
            except Exception:
                log.exception("rendering ahead failed; this answer is rendered as it is shown")
                with self._lock:
                    self._failed, self._busy = True, False
                return
            done = wanted

    def _render(self, text: str, options: AheadOptions) -> None:
        source = shown_source(text)
        if options.generation != self._generation:
            self._done.clear()
            self._generation = options.generation
        fits, reason = self._planner.fitting(source)
        if reason is not None or fits < len(source):
            return  # over the formatting budget: the GUI thread's plan applies
        try:
            blocks = self._splitter.split(source)
        except (CutShort, CrossBlockReferences):
            self._splitter.reset()
            return
        self.split = (source, blocks)  # one assignment: the GUI thread reads it whole
        scanner = self._planner.scanner
        keys: set[BlockKey] = set()
        copy_index = 0
        for number, block in enumerate(blocks):
            highlight: bool | None = True
            if number == len(blocks) - 1:
                cost = scanner.fitted_cost - scanner.cost_before(block.first_line)
                highlight = growing_highlight(block, cost, options.maths)
            if highlight is None:
                break
            key = (block.source, copy_index, highlight)
            copy_index += block.copyables
            keys.add(key)
            if key in self._done:
                continue
            html = render_block(key, options)
            if html is not None:
                self.ready[key] = (options.generation, html)
        self._done = keys
        for key in list(self.ready):  # the blocks of older texts are not needed any more
            if key not in keys:
                self.ready.pop(key, None)
