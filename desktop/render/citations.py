"""Citation markers: the answer's ``[n]`` that point at the sources it was given.

A marker is ``[n]`` or a list ``[n, m]`` / ``[n,m]`` of numbers without leading zeros,
found where markdown-it reads ordinary text (an inline rule ahead of its link rule), so
nothing is a citation inside code spans, fences, maths, a link's text or target, an
image's description, or after a backslash (``\\[1]`` is an escaped bracket, ``\\[1\\]``
a formula). A run ``[1][2]`` is two markers side by side.

Only the numbers the caller knows (`RenderContext.citations`: the sources this answer was
given) become links (`links.cite_href`); a marker with none of them is left to markdown-it,
which keeps it as text; in a list, an unknown number stays text beside the known ones.
A marker is left to markdown-it too where it would make a link of it: ``[1](url)``, and
``[1]`` when the text defines a reference ``[1]: url``.

The view-model finds which numbers an answer cites, in first-citation order, from the
rendered HTML (`cited_in_html`); `markdown.cited_numbers` finds the same from the text.
"""

from __future__ import annotations

import re
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml, normalizeReference
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from desktop.render.links import CITE_SCHEME, cite_href
from desktop.render.rules import ENV_KEY, RenderContext

TOKEN = "parley_cite"
_NUMBER = r"[1-9][0-9]{0,5}"
_MARKER_RE = re.compile(rf"\[({_NUMBER}(?:[ \t]*,[ \t]*{_NUMBER})*)\]")
_DIGITS_RE = re.compile(r"[0-9]+")
_CITED_RE = re.compile(rf'<a href="{CITE_SCHEME}:([0-9]+)"')  # as `_link` writes it
# How far back a marker looks for the "www." of a link it would end (see `_ends_www`).
_WWW_LOOKBACK = 512


def install(md: MarkdownIt) -> None:
    md.inline.ruler.before("link", TOKEN, _marker)
    md.core.ruler.push("parley_cites_in_images", _unmark_in_images)
    md.add_render_rule(TOKEN, _render)


def _known(env: Any) -> frozenset[int]:
    context = env.get(ENV_KEY) if isinstance(env, dict) else None
    return context.citations if isinstance(context, RenderContext) else frozenset()


def _marker(state: StateInline, silent: bool) -> bool:
    """At ``[``: a marker with at least one known number becomes a `parley_cite` token.

    Never in silent mode: markdown-it uses it to find where a link's text ends, and a
    marker taken as one token there would make ``[see [1]](url)`` a link inside a link.
    Inside link text (`linkLevel`) a marker is part of the link.
    """
    if silent or state.linkLevel > 0 or state.src[state.pos] != "[":
        return False
    known = _known(state.env)
    if not known:
        return False
    match = _MARKER_RE.match(state.src, state.pos, state.posMax)
    if match is None:
        return False
    end = match.end()
    after = state.src[end] if end < state.posMax else ""
    if after == "(":
        return False  # [1](url): a link
    references = state.env.get("references")
    if references and (normalizeReference(match.group(1)) in references or after == "["):
        return False  # a reference link the text defines
    numbers = [int(n) for n in _DIGITS_RE.findall(match.group(1))]
    if not any(number in known for number in numbers) or _ends_www(state.pending):
        return False
    token = state.push(TOKEN, "", 0)
    token.content = match.group()
    token.meta = {"numbers": numbers}
    state.pos = end
    return True


def _ends_www(pending: str) -> bool:
    """True when the text before the marker is a ``www.`` name without a space since:
    the autolink takes the marker into its address (see `autolinks`)."""
    start = len(pending)
    floor = max(0, start - _WWW_LOOKBACK)
    while start > floor and not pending[start - 1].isspace():
        start -= 1
    return "www." in pending[start:]


def _unmark_in_images(state: StateCore) -> None:
    """An image's description is shown as text: a marker in it is text again."""
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        for token in block.children:
            if token.type == "image" and token.children:
                for child in token.children:
                    if child.type == TOKEN:
                        child.type, child.meta = "text", {}


def _render(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:  # noqa: ARG001
    """``[1]`` as one link; a list as its brackets and commas around a link per known
    number (an unknown one stays text)."""
    token = tokens[idx]
    known = _known(env)
    numbers: list[int] = token.meta["numbers"]
    if len(numbers) == 1:
        return _link(numbers[0], token.content)
    html: list[str] = []
    done = 0
    for match in _DIGITS_RE.finditer(token.content):
        html.append(escapeHtml(token.content[done : match.start()]))
        number = int(match.group())
        html.append(_link(number, match.group()) if number in known else match.group())
        done = match.end()
    html.append(escapeHtml(token.content[done:]))
    return "".join(html)


def _link(number: int, text: str) -> str:
    # Not underlined: a number beside a claim, set apart from the words by its colour.
    return f'<a href="{cite_href(number)}" style="text-decoration: none;">{escapeHtml(text)}</a>'


def cited_in_html(html: str) -> tuple[int, ...]:
    """The numbers of the citation links in rendered HTML, in order, each once.

    Only the render rule above writes such a link: a model's ``[x](parley-cite:1)`` loses
    its link (`links.is_safe_link`) and text is escaped, so the HTML cannot fake one.
    """
    return tuple(dict.fromkeys(int(n) for n in _CITED_RE.findall(html)))
