"""markdown-it rules that make rendered markdown inert and fit Qt's rich-text subset.

Two kinds of rule are installed by `install()`:

- core rules that rewrite the token stream after parsing (task-list items, unsafe links,
  images nested in links), so decisions are made once, where the tokens are visible;
- render rules for the token types whose default HTML Qt cannot show (<input>, <img>,
  <section>, styled <pre>) or must never see (raw HTML from any source).

Per-render state (theme, the running copy-link index) travels in ``env["parley"]``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml, unescapeAll
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from desktop.core.i18n import tr
from desktop.render import autolinks, maths
from desktop.render.blocks import code_frame, quote_close, quote_open
from desktop.render.guard import MAX_INLINE_NESTING
from desktop.render.highlight import highlight_code
from desktop.render.images import PENDING_CLASS, is_web_image
from desktop.render.links import is_safe_link
from desktop.render.theme import Palette, palette

ENV_KEY = "parley"
COPYABLE_TYPES = frozenset({"fence", "code_block", "math_block", "math_block_label"})

_TASK_RE = re.compile(r"\[([ xX])\][ \t\n\v\f\r]+")
_ALIGN_RE = re.compile(r"text-align:\s*(left|right|center)")


@dataclass(slots=True)
class RenderContext:
    """What render rules need to know about the render in progress."""

    dark: bool
    next_copy_index: int = 0
    # None: remote images are off. Otherwise the web images already loaded (see `images`).
    images: Collection[str] | None = None
    emphasis_depth: int = 0  # emphasis and strikethrough elements open around the text
    highlight: bool = True  # False: code is shown as escaped text (see `fence_frame`)
    # None: formulas are their source. Otherwise what typesets them (see `maths`).
    maths: maths.MathSource | None = None
    # The numbers of the sources this answer was given: their `[n]` become links.
    citations: frozenset[int] = frozenset()

    @property
    def colours(self) -> Palette:
        return palette(self.dark)

    def take_copy_index(self) -> int:
        index = self.next_copy_index
        self.next_copy_index += 1
        return index


def copy_source(token: Token) -> str:
    """The text a code block's "Copy" link copies (and `code_blocks()` returns)."""
    if token.type.startswith("math_block"):
        return token.content.strip()
    return token.content.removesuffix("\n")


def install(md: MarkdownIt) -> None:
    md.core.ruler.push("parley_tasks", _mark_task_items)
    autolinks.install(md)  # before parley_links, which checks every link's target
    md.core.ruler.push("parley_links", _mark_unsafe_links)
    for name, rule in _RENDER_RULES.items():
        md.add_render_rule(name, rule)


# --- core rules -----------------------------------------------------------------------


def _mark_task_items(state: StateCore) -> None:
    """Turn "- [ ] x" / "- [x] x" items into a checkbox token; linear in the token count.

    (mdit-py-plugins' tasklists emits <input> HTML and looks up each item's list by
    scanning backwards, which took 98 s for 30,000 items.)
    """
    tokens = state.tokens
    open_lists: list[Token] = []
    for index, token in enumerate(tokens):
        if token.type in ("bullet_list_open", "ordered_list_open"):
            open_lists.append(token)
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            open_lists.pop()
        elif (
            token.type == "inline"
            and index > 1
            and tokens[index - 1].type == "paragraph_open"
            and tokens[index - 2].type == "list_item_open"
            and token.children
            and token.children[0].type == "text"
            and (match := _TASK_RE.match(token.content))
            and token.children[0].content.startswith(match.group()[:3])
        ):
            first = token.children[0]
            first.content = first.content[3:]
            checkbox = Token("task_checkbox", "", 0, meta={"checked": match.group(1) != " "})
            token.children.insert(0, checkbox)
            if open_lists:
                open_lists[-1].attrSet("style", "list-style-type: none;")


def _mark_unsafe_links(state: StateCore) -> None:
    """Flag links whose target is not http/https/mailto, and images inside links."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        open_links: list[Token] = []
        for token in block.children:
            if token.type == "link_open":
                token.meta["unsafe"] = not is_safe_link(str(token.attrGet("href") or ""))
                open_links.append(token)
            elif token.type == "link_close" and open_links:
                token.meta["unsafe"] = open_links.pop().meta["unsafe"]
            elif token.type == "image" and open_links:
                token.meta["in_link"] = True


# --- render rules ---------------------------------------------------------------------

Tokens = Sequence[Token]


def _context(env: Any) -> RenderContext:
    context = env.get(ENV_KEY)
    if not isinstance(context, RenderContext):
        context = env[ENV_KEY] = RenderContext(dark=False)
    return context


def _fence(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    return fence_frame(tokens[idx], _context(env))


def fence_frame(token: Token, context: RenderContext) -> str:
    """A fenced code block in its frame, highlighted when the context allows it.

    Unhighlighted it is the same frame, label and Copy link around the escaped source,
    so it has the same geometry: what a code block costs too much to highlight gets.
    """
    info = unescapeAll(token.info).strip()
    language = info.split(maxsplit=1)[0] if info else ""
    source = copy_source(token)
    if language.lower() == "mermaid":
        label, body = tr("Mermaid"), None
    else:
        label = language or tr("Code")
        highlighted = language and context.highlight
        body = highlight_code(source, language, dark=context.dark) if highlighted else None
    return code_frame(
        label=label,
        body_html=escapeHtml(source) if body is None else body,
        copy_index=context.take_copy_index(),
        colours=context.colours,
    )


def _code_block(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    context = _context(env)
    return code_frame(
        label=tr("Code"),
        body_html=escapeHtml(copy_source(tokens[idx])),
        copy_index=context.take_copy_index(),
        colours=context.colours,
    )


def _math_block(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    context = _context(env)
    label = tr("Math")
    if context.maths is not None:
        formula = context.maths.formula(copy_source(token), True)
        shown = maths.shown_source(token)
        html = maths.display_html(shown, formula, context.next_copy_index, context.colours)
        if html is not None:
            context.take_copy_index()
            return html
        label, title = maths.failed_label(formula)
    else:
        title = ""
    if token.type == "math_block_label" and token.info:
        label = f"{label} ({token.info})"
    return code_frame(
        label=label,
        body_html=escapeHtml(copy_source(token)),
        copy_index=context.take_copy_index(),
        colours=context.colours,
        title=title,
    )


def _code_inline(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    background = _context(env).colours.inline_code_background
    content = escapeHtml(tokens[idx].content)
    return f'<code style="background-color: {background};">{content}</code>'


def _math_inline(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    context = _context(env)
    tex = token.content.strip()
    if context.maths is None:
        return maths.inline_html(maths.shown_source(token), None, context.colours)
    display = token.type == "math_inline_double"
    formula = context.maths.formula(tex, display)
    return maths.inline_html(maths.shown_source(token), formula, context.colours)


def _image(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    """A link to the image, or <img> for a web image the caller has loaded (see `images`).

    Never <img> otherwise: Qt would read local files, and the view fetch remote ones,
    without asking.
    """
    token = tokens[idx]
    alt = self.renderInlineAsText(token.children or [], options, env) or tr("image")
    text = escapeHtml(f"🖼 {alt}")
    src = str(token.attrGet("src") or "")
    if token.meta.get("in_link") or not is_safe_link(src):
        return text
    title = token.attrGet("title")
    title_attr = f' title="{escapeHtml(str(title))}"' if title else ""
    images = _context(env).images
    if images is None or not is_web_image(src):
        return f'<a href="{escapeHtml(src)}"{title_attr}>{text}</a>'
    if src in images:
        return f'<img src="{escapeHtml(src)}" alt="{escapeHtml(alt)}"{title_attr} />'
    return f'<a href="{escapeHtml(src)}" class="{PENDING_CLASS}"{title_attr}>{text}</a>'


def _link_open(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    if tokens[idx].meta.get("unsafe", True):
        return ""
    return str(self.renderToken(tokens, idx, options, env))


def _link_close(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    if tokens[idx].meta.get("unsafe", True):
        return ""
    return "</a>"


def _raw_html(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    """Raw HTML parsing is off; this only guards against a rule that makes such tokens."""
    token = tokens[idx]
    return escapeHtml(token.content) + ("\n" if token.block else "")


def _emphasis_open(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    """Emphasis deeper than MAX_INLINE_NESTING keeps its text but gets no more tags."""
    context = _context(env)
    context.emphasis_depth += 1
    if context.emphasis_depth > MAX_INLINE_NESTING:
        return ""
    return str(self.renderToken(tokens, idx, options, env))


def _emphasis_close(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    context = _context(env)
    context.emphasis_depth -= 1
    if context.emphasis_depth >= MAX_INLINE_NESTING:
        return ""
    return str(self.renderToken(tokens, idx, options, env))


def _task_checkbox(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    return "☑" if tokens[idx].meta.get("checked") else "☐"


def _blockquote_open(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    return quote_open(_context(env).colours)


def _blockquote_close(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    return quote_close()


def _table_open(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    border = _context(env).colours.border
    return (
        '<table border="1" cellspacing="0" cellpadding="6" style="border-collapse: collapse; '
        f'border-style: solid; border-color: {border}; margin-top: 4px; margin-bottom: 8px;">\n'
    )


def _cell_open(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    """Cells with alignment as the `align` attribute, which Qt reads reliably."""
    token = tokens[idx]
    match = _ALIGN_RE.search(str(token.attrGet("style") or ""))
    align = f' align="{match.group(1)}"' if match else ""
    style = ""
    if token.tag == "th":
        style = f' style="background-color: {_context(env).colours.table_header_background};"'
    return f"<{token.tag}{align}{style}>"


def _footnote_ref(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    number = token.meta["id"] + 1
    sub_id = token.meta.get("subId", -1)
    ref_name = f"fnref{number}" + (f":{sub_id}" if sub_id > 0 else "")
    return f'<sup><a href="#fn{number}" name="{ref_name}">[{number}]</a></sup>'


def _footnote_block_open(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    return "<hr />\n<ol>\n"


def _footnote_block_close(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    return "</ol>\n"


def _footnote_open(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    return f'<li><a name="fn{tokens[idx].meta["id"] + 1}"></a>'


def _footnote_anchor(self: Any, tokens: Tokens, idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    sub_id = token.meta.get("subId", -1)
    target = f"fnref{token.meta['id'] + 1}" + (f":{sub_id}" if sub_id > 0 else "")
    return f' <a href="#{target}">\u21a9\ufe0e</a>'


_RENDER_RULES = {
    "fence": _fence,
    "code_block": _code_block,
    "math_block": _math_block,
    "math_block_label": _math_block,
    "code_inline": _code_inline,
    "math_inline": _math_inline,
    "math_inline_double": _math_inline,
    "image": _image,
    "link_open": _link_open,
    "link_close": _link_close,
    "html_inline": _raw_html,
    "html_block": _raw_html,
    "task_checkbox": _task_checkbox,
    "em_open": _emphasis_open,
    "em_close": _emphasis_close,
    "strong_open": _emphasis_open,
    "strong_close": _emphasis_close,
    "s_open": _emphasis_open,
    "s_close": _emphasis_close,
    "blockquote_open": _blockquote_open,
    "blockquote_close": _blockquote_close,
    "table_open": _table_open,
    "th_open": _cell_open,
    "td_open": _cell_open,
    "footnote_ref": _footnote_ref,
    "footnote_block_open": _footnote_block_open,
    "footnote_block_close": _footnote_block_close,
    "footnote_open": _footnote_open,
    "footnote_anchor": _footnote_anchor,
}
