"""TeX maths in answers: ``$…$`` and ``\\(…\\)`` inline, ``$$…$$`` and ``\\[…\\]`` display.

The parser finds formulas (mdit_py_plugins' dollarmath for the dollars, the rules here
for the backslash forms, which CommonMark would otherwise read as escaped brackets).
Typesetting is not done here: rendering stays pure and fast, and asks a `MathSource`
(the chat view's typesetter, in ``desktop/ui/math_images.py``) what it knows about each
formula. Ready, the formula is an ``<img>`` of the resource the source names; still
being typeset, its source is shown, plain, monospace and muted, with a marker
(`pending_maths` reads it back, so the caller knows what to show again when it is
ready; `with_ready_maths` puts the images in its place); failed, its source is shown
marked, with the reason as a tooltip. ``$$…$$`` inside a sentence is a display formula
in the line.
Without a source (``maths=None``) a formula is its source in a code style, as before.

The source is our own code, and what it returns is ours too: the only text from the
message in the HTML is the TeX, escaped like every other character of it.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from typing import Protocol, cast

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from desktop.core.i18n import tr
from desktop.render.blocks import copy_link
from desktop.render.guard import MAX_FORMULA_BRACES, MAX_FORMULA_CHARS, MAX_MATH_BLOCK_LINES
from desktop.render.theme import Palette

READY = "ready"
PENDING = "pending"
FAILED = "failed"

PENDING_CLASS = "math-wait"
_PENDING_RE = re.compile(rf'<code class="{PENDING_CLASS} ([0-9a-f]+)"')
_PENDING_HTML_RE = re.compile(
    rf'<code class="{PENDING_CLASS} (?P<key>[0-9a-f]+)" style="[^"]*">(?P<shown>[^<]*)</code>'
)
_CLOSERS_KEY = "parley_paren_math_closers"
_BLOCK_CLOSERS_KEY = "parley_bracket_math_closers"
_CODE_INDENT = 4  # columns of indentation that make a line code (CommonMark)


@dataclass(frozen=True, slots=True)
class Formula:
    """What the typesetter says about one formula.

    `key`: its identity (hex), also while pending; `name`: the image resource once
    ready; `width`/`height`: its size in logical pixels; `reason`: why it failed.
    """

    state: str
    key: str = ""
    name: str = ""
    width: int = 0
    height: int = 0
    reason: str = ""


class MathSource(Protocol):
    def formula(self, tex: str, display: bool) -> Formula:
        """What is known of `tex` now; asks for it to be typeset when nothing is yet."""
        ...

    def waiting(self, key: str) -> bool:
        """True while the formula `key` (a pending one's) is still being typeset."""
        ...

    def known(self, key: str) -> Formula | None:
        """What is known now of the formula `key` (one asked about), or None."""
        ...


def formula_problem(tex: str) -> str | None:
    """Why `tex` is not typeset at all (in our own words), or None. Linear in its length.

    The typesetter's layout is exponential in the nesting of groups (10 nested braces
    took 0.5 s, 16 took 55 s) and about linear in the length (1,000 characters 0.45 s).
    """
    if len(tex) > MAX_FORMULA_CHARS:
        return tr("longer than %1 characters").replace("%1", f"{MAX_FORMULA_CHARS:,}")
    depth = deepest = 0
    for char in tex:
        if char == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif char == "}":
            depth -= 1
    if deepest > MAX_FORMULA_BRACES:
        return tr("nested more than %1 levels deep").replace("%1", str(MAX_FORMULA_BRACES))
    return None


def pending_maths(rendered: str) -> list[str]:
    """The keys of the formulas `rendered` (our own HTML) shows as source until ready."""
    if PENDING_CLASS not in rendered:
        return []
    return list(dict.fromkeys(_PENDING_RE.findall(rendered)))


def with_ready_maths(rendered: str, source: MathSource) -> str | None:
    """`rendered` (our own HTML) with each formula it shows as pending that is ready now
    shown as its image: what rendering its markdown again would give, for the price of
    a substitution. None when one has failed instead (shown differently: render again)."""
    failed = False

    def ready(match: re.Match[str]) -> str:
        nonlocal failed
        formula = source.known(match["key"])
        if formula is None or formula.state == PENDING:
            return match[0]
        failed = failed or formula.state == FAILED
        return _image_html(formula, match["shown"])

    shown = _PENDING_HTML_RE.sub(ready, rendered)
    return None if failed else shown


# --- HTML -----------------------------------------------------------------------------


def inline_html(shown: str, formula: Formula | None, colours: Palette) -> str:
    """An inline formula: its image, or `shown` (the source as written) until it is."""
    source = escapeHtml(shown)
    if formula is None:
        return f'<code style="background-color: {colours.inline_code_background};">{source}</code>'
    if formula.state == READY:
        return _image(formula, shown)
    if formula.state == PENDING:
        return (
            f'<code class="{PENDING_CLASS} {formula.key}" '
            f'style="color: {colours.muted_text};">{source}</code>'
        )
    return (
        f'<code title="{escapeHtml(_failed(formula.reason))}" '
        f'style="color: {colours.formula_error}; '
        f'background-color: {colours.inline_code_background};">{source}</code>'
    )


def display_html(shown: str, formula: Formula, copy_index: int, colours: Palette) -> str | None:
    """A display formula centred on its own line with a Copy link; None when it failed
    (the caller shows its source in a code frame instead)."""
    if formula.state == FAILED:
        return None
    if formula.state == READY:
        body = _image(formula, shown)
    else:
        body = (
            f'<code class="{PENDING_CLASS} {formula.key}" '
            f'style="color: {colours.muted_text};">{escapeHtml(shown)}</code>'
        )
    # One centred paragraph, the Copy link after the formula: Qt lays a paragraph out in
    # a fraction of what a table costs, and a streaming answer re-lays its end often.
    return (
        '<p align="center" style="margin-top: 4px; margin-bottom: 8px;">'
        f"{body}&nbsp;&nbsp;<small>{copy_link(copy_index, colours)}</small></p>\n"
    )


def failed_label(formula: Formula) -> tuple[str, str]:
    """The label of a display formula's code frame when it could not be typeset, and its
    tooltip (the reason)."""
    return tr("Math — not typeset"), _failed(formula.reason)


def _failed(reason: str) -> str:
    return tr("Formula not typeset: %1").replace("%1", reason)


def _image(formula: Formula, shown: str) -> str:
    """Centred on the line, as Qt centres images (an inline formula's image is padded so
    that its baseline then meets the text's; a display formula's Copy link sits beside
    its middle). Its source is its tooltip, and what a copied selection holds for it
    (`desktop/ui/views/formula_copy.py`).

    No width or height: the view lays the image out at its own size, which is the
    formula's (the view has it at hand, ready), or smaller when a display formula is
    wider than the column and the view scaled it down to fit; a size written here would
    stretch that one back to beyond the column."""
    return _image_html(formula, escapeHtml(shown))


def _image_html(formula: Formula, escaped_shown: str) -> str:
    return (
        f'<img src="{escapeHtml(formula.name)}" title="{escaped_shown}" '
        'style="vertical-align: middle;" />'
    )


def shown_source(token: Token) -> str:
    """A formula as it was written, delimiters included (what shows until it is typeset)."""
    opener = token.markup or ("$$" if token.type.startswith("math_block") else "$")
    closer = {"\\(": "\\)", "\\[": "\\]"}.get(opener, opener)
    tex = token.content.strip()
    return f"{opener}{tex}{closer}"


# --- \( \) and \[ \] ------------------------------------------------------------------


def install(md: MarkdownIt) -> None:
    """``\\(…\\)`` and ``\\[…\\]`` inline, ``\\[…\\]`` on lines of their own as a block."""
    md.inline.ruler.before("escape", "math_paren", _inline_rule)
    md.block.ruler.before(
        "fence",
        "math_bracket_block",
        _block_rule,
        {"alt": ["paragraph", "reference", "blockquote", "list", "footnote_def"]},
    )


def _closers(state: StateInline) -> dict[str, list[int]]:
    """Positions of ``\\)`` and ``\\]`` in the inline source, found once per source, so
    thousands of unclosed openers cost one bisect each, not a scan each."""
    cached = state.env.get(_CLOSERS_KEY)
    if cached is not None and cached[0] is state.src:
        return cast("dict[str, list[int]]", cached[1])
    src = state.src
    closers: dict[str, list[int]] = {"\\)": [], "\\]": []}
    for match in re.finditer(r"\\[)\]]", src):
        closers[match.group()].append(match.start())
    state.env[_CLOSERS_KEY] = (src, closers)
    return closers


def _inline_rule(state: StateInline, silent: bool) -> bool:
    src, start = state.src, state.pos
    if src[start] != "\\" or start + 1 >= state.posMax:
        return False
    opener = src[start : start + 2]
    if opener not in ("\\(", "\\["):
        return False
    closer = "\\)" if opener == "\\(" else "\\]"
    positions = _closers(state)[closer]
    index = bisect.bisect_left(positions, start + 2)
    if index == len(positions):
        return False
    end = positions[index]
    if end + 2 > state.posMax or not src[start + 2 : end].strip():
        return False
    if not silent:
        token = state.push("math_inline_double" if opener == "\\[" else "math_inline", "math", 0)
        token.content = src[start + 2 : end]
        token.markup = opener
    state.pos = end + 2
    return True


def _block_closer_lines(state: StateBlock) -> list[int]:
    cached = state.env.get(_BLOCK_CLOSERS_KEY)
    if cached is not None and cached[0] is state.src:
        return cast("list[int]", cached[1])
    lines = [n for n, line in enumerate(state.src.split("\n")) if line.rstrip().endswith("\\]")]
    state.env[_BLOCK_CLOSERS_KEY] = (state.src, lines)
    return lines


def _block_rule(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    if state.sCount[start_line] - state.blkIndent >= _CODE_INDENT:
        return False
    begin = state.bMarks[start_line] + state.tShift[start_line]
    if not state.src.startswith("\\[", begin):
        return False
    first = state.src[begin + 2 : state.eMarks[start_line]].rstrip()
    if first.endswith("\\]"):  # \[ x \] on one line
        last, content = start_line, first[:-2]
    else:
        closers = _block_closer_lines(state)
        index = bisect.bisect_right(closers, start_line)
        limit = min(end_line, start_line + MAX_MATH_BLOCK_LINES)
        if index == len(closers) or closers[index] >= limit:
            return False
        last = closers[index]
        for line in range(start_line + 1, last):
            if state.isEmpty(line):
                return False  # TeX has no blank lines in a formula
        body = state.getLines(start_line + 1, last, state.tShift[start_line], True)
        closing = state.src[state.bMarks[last] + state.tShift[last] : state.eMarks[last]]
        content = first + "\n" + body + closing.rstrip()[:-2]
    if not content.strip():
        return False
    if silent:
        return True
    token = state.push("math_block", "math", 0)
    token.block = True
    token.content = content
    token.markup = "\\["
    token.map = [start_line, last + 1]
    state.line = last + 1
    return True
