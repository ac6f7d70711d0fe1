"""Where the formatted part of a message ends: after whole top-level blocks.

`CostScanner` finds how many lines fit the formatting budget. When that is not all of
the text, the formatted part ends before the top-level block those lines end in, since
a block cut at an arbitrary line is not that block: a code fence cut there would be
drawn, and copied, up to that line, with its remaining lines and its closing marker
below as text. What follows is unformatted (see `unformatted`), its code fences in
frames of their own.

When the first block alone is over the budget (a table of thousands of rows, a huge
list) its lines that fit are formatted, as far as the start of any code block among
them that may run on past them; a code fence that is the first block is left whole to
the unformatted part, which frames it. The blocks are those markdown-it finds in the
lines that fit (their parse is within the budget: `render_message` renders from that
same parse).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate

from markdown_it.token import Token

from desktop.render.cost import CostScanner
from desktop.render.guard import FORMAT_BUDGET, GrowingGuard, Plan
from desktop.render.parser import block_tokens

OVER_BUDGET = "more than the formatting budget"
_CODE_TYPES = frozenset({"fence", "code_block"})


class Planner:
    """Plans successive versions of a text that grows by appending (one per streaming
    message): line costs are kept by its `scanner`, the checks for hostile markdown go on
    from where they were (`GrowingGuard`), and where the formatted part ends is kept
    while the lines that fit stay the same."""

    def __init__(self) -> None:
        self.scanner = CostScanner()
        self._guard = GrowingGuard()
        self._ends = ("", 0)  # the lines that fit, and where the formatted part ends

    def fitting(self, source: str) -> tuple[int, str | None]:
        """How much of `source` fits the budget, and why none of it may be formatted
        (None: it may)."""
        fits = self.scanner.fitting(source, FORMAT_BUDGET)
        return fits, self._guard.reason(source[:fits])

    def plan(self, source: str) -> Plan:
        fits, reason = self.fitting(source)
        if reason is not None:
            return Plan(0, reason)
        if fits == len(source):
            return Plan(fits)
        head = source[:fits]
        if head != self._ends[0]:
            self._ends = (head, formatted_end(head, block_tokens(head).tokens)[0])
        return Plan(self._ends[1], OVER_BUDGET)


def plan(source: str, planner: Planner | None = None) -> Plan:
    """What of `source` (from `shown_source`) is formatted; the same text, the same plan.

    ``source[:plan.markdown_end]`` is markdown, the rest unformatted; `planner` keeps the
    costs of a text that grows (the streaming renderer passes one).
    """
    return (planner or Planner()).plan(source)


def formatted_end(head: str, tokens: Sequence[Token]) -> tuple[int, int | None]:
    """Where the formatted part ends when `head` (whole lines; `tokens` are markdown-it's
    for it) is what fits the budget of a longer text, and the index in `tokens` of the
    first token left out (None: the cut is inside the first block).

    Before the last top-level block that starts in `head`, which may go on past it; when
    that is the first block, at the end of `head` or before the first code block in it
    that reaches that end.
    """
    lines = head.count("\n")
    offsets = [0, *accumulate(len(line) + 1 for line in head.split("\n"))]
    starts = [
        (index, token.map[0])
        for index, token in enumerate(tokens)
        if token.level == 0 and token.nesting >= 0 and token.map is not None
    ]
    if len(starts) > 1:
        index, line = starts[-1]
        return offsets[line], index
    if not starts:
        return 0, None
    cut = lines
    for token in tokens:
        if token.type in _CODE_TYPES and token.map is not None and token.map[1] >= lines:
            cut = min(cut, token.map[0])
    return min(offsets[cut], len(head)), None
