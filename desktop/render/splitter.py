"""Cut markdown into top-level blocks, re-parsing only the tail while the text grows.

markdown-it's block parser reports each top-level block's line range (``token.map``);
the source of a block is those lines. The block parser walks the input one character
at a time in Python (~0.7 ms per KB), so while a reply streams we parse only the tail:
blocks that are not among the last two, and end more than `SHORT_TAIL_LINES` lines before
the end (`TAIL_LINES` when a ``$$`` is in sight), are taken from the previous split.

Why that matches a full parse: whether a top-level block ends where it does depends only
on the lines just after it (a line that interrupts a paragraph, a table's delimiter row),
on ``$$`` or ``\\[`` math up to ``MAX_MATH_BLOCK_LINES`` ahead, or, for a code fence, on whether it
is ever closed; an unclosed fence runs to the end, so it is always the last block.
`TAIL_LINES` covers all of these. When no ``$$`` or ``\\[`` in that many last lines can
still open a math block (none is there, or each already opened one, whose closer was
found: an answer with display formulas), the few lines of `SHORT_TAIL_LINES` are
enough and a streamed reply re-parses about its last block instead of its last hundred
lines. A split from
scratch is used whenever the new text is not the old text plus more.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from markdown_it.rules_block import StateBlock

from desktop.render.guard import MAX_MATH_BLOCK_LINES
from desktop.render.parser import is_cut_short, parser
from desktop.render.rules import COPYABLE_TYPES

SHORT_TAIL_LINES = 3
TAIL_LINES = MAX_MATH_BLOCK_LINES + SHORT_TAIL_LINES
_KEEP_BACK_BLOCKS = 2


@dataclass(frozen=True, slots=True)
class Block:
    """One top-level block: its source, where it sits, and its number of "Copy" links."""

    source: str
    start: int  # offset of the first character in the whole text
    first_line: int
    end_line: int  # exclusive
    copyables: int
    kind: str = ""  # its first token's type: "fence", "table_open", "paragraph_open"...


class CrossBlockReferences(Exception):
    """The text defines link references or footnotes, which change other blocks."""


class CutShort(Exception):
    """The text nests deeper than markdown-it keeps (see `markdown.is_cut_short`)."""


def split_blocks(source: str, *, start: int = 0, first_line: int = 0) -> list[Block]:
    """Top-level blocks of normalised `source`, positioned as if it began at `start`.

    Raises CrossBlockReferences or CutShort when block-wise rendering cannot match a
    full render.
    """
    md = parser()
    env: dict[str, Any] = {}
    state = StateBlock(source, md, env, [])
    md.block.tokenize(state, state.line, state.lineMax)
    if env.get("references") or env.get("footnotes", {}).get("refs"):
        raise CrossBlockReferences
    if is_cut_short(state.tokens):
        raise CutShort

    def offset(line: int) -> int:
        return state.bMarks[line] if line < state.lineMax else len(source)

    blocks: list[Block] = []
    depth = begin = end = copyables = 0
    kind = ""
    for token in state.tokens:
        if depth == 0:
            if token.map is None:  # no line range: cannot cut it out
                raise CrossBlockReferences
            begin, end = token.map
            copyables = 0
            kind = token.type
        copyables += token.type in COPYABLE_TYPES
        depth += token.nesting
        if depth == 0:
            blocks.append(
                Block(
                    source=source[offset(begin) : offset(end)],
                    start=start + offset(begin),
                    first_line=first_line + begin,
                    end_line=first_line + end,
                    copyables=copyables,
                    kind=kind,
                )
            )
    return blocks


class BlockSplitter:
    """Splits successive versions of a growing text, reusing the stable head.

    `parsed_chars` counts characters given to the block parser (for tests and benches).
    """

    def __init__(self) -> None:
        self._source = ""
        self._blocks: list[Block] = []
        self.parsed_chars = 0

    def reset(self) -> None:
        self._source = ""
        self._blocks = []

    def adopt(self, source: str, blocks: list[Block]) -> None:
        """Take `blocks`, another splitter's split of exactly `source` (the worker's, see
        `ahead`), as this one's latest: the next split goes on from them."""
        self._source, self._blocks = source, blocks

    def split(self, source: str) -> list[Block]:
        kept = self._stable_head(source) if source.startswith(self._source) else []
        resume_at = kept[-1].end_line if kept else 0
        resume_offset = kept[-1].start + len(kept[-1].source) if kept else 0
        tail = source[resume_offset:]
        self.reset()  # if parsing raises, the next call starts from scratch
        self.parsed_chars += len(tail)
        blocks = kept + split_blocks(tail, start=resume_offset, first_line=resume_at)
        self._source, self._blocks = source, blocks
        return blocks

    def _stable_head(self, source: str) -> list[Block]:
        """The previous blocks that appending text cannot change."""
        last_line = source.count("\n")
        keep = self._keep(last_line - TAIL_LINES)
        short = self._keep(last_line - SHORT_TAIL_LINES)
        if not any(_may_open_maths(block) for block in self._blocks[keep:short]):
            keep = short
        return self._blocks[:keep]

    def _keep(self, boundary_line: int) -> int:
        """How many leading blocks end at or before `boundary_line` (the last two never)."""
        keep = max(len(self._blocks) - _KEEP_BACK_BLOCKS, 0)
        while keep and self._blocks[keep - 1].end_line > boundary_line:
            keep -= 1
        return keep


_CLOSED_KINDS = frozenset({"math_block", "math_block_label", "fence", "code_block"})


def _may_open_maths(block: Block) -> bool:
    """True when `block` holds a ``$$`` or ``\\[`` that may still open a display formula
    once its closer arrives. One that did open a formula (a math block: its closer was
    found, and the first closer stays the first however much is appended) or sits in
    code cannot; elsewhere any is taken as a possible opener, which costs only a longer
    re-parse."""
    return block.kind not in _CLOSED_KINDS and ("$$" in block.source or "\\[" in block.source)
