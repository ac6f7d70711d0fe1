"""HTML for the framed blocks Qt has no element for: code blocks and quotes.

Qt's rich text cannot draw a border or background around a <pre> or a <blockquote>,
but it can around table cells, so both are one-column tables with inline styles.
"""

from __future__ import annotations

from markdown_it.common.utils import escapeHtml

from desktop.core.i18n import tr
from desktop.render.icon_refs import inline_icon
from desktop.render.links import copy_href
from desktop.render.theme import Palette

_MAX_LABEL_CHARS = 40


def code_frame(
    *, label: str, body_html: str, copy_index: int, colours: Palette, title: str = ""
) -> str:
    """A labelled, bordered code block with a "Copy" link the chat view intercepts
    (see `copy_link`).

    `label` is plain text (escaped here), and so is `title`, the label's tooltip (ours,
    never the message's); `body_html` must already be escaped.
    """
    if len(label) > _MAX_LABEL_CHARS:
        label = label[: _MAX_LABEL_CHARS - 1] + "…"
    tip = f' title="{escapeHtml(title)}"' if title else ""
    # The header is a borderless two-cell table inside one cell: two cells of the outer
    # table would draw a divider between label and link that Qt cannot switch off.
    return (
        '<table width="100%" cellspacing="0" cellpadding="6" border="1" '
        f'style="border-collapse: collapse; border-style: solid; border-color: {colours.border}; '
        'margin-top: 4px; margin-bottom: 8px;">\n'
        f'<tr><td style="background-color: {colours.code_header_background};">'
        '<table width="100%" cellspacing="0" cellpadding="0" border="0"><tr>'
        f'<td{tip} style="color: {colours.muted_text};"><small>{escapeHtml(label)}</small></td>'
        f'<td align="right"><small>{copy_link(copy_index, colours)}</small></td>'
        "</tr></table></td></tr>\n"
        f'<tr><td style="background-color: {colours.code_background};">'
        f'<pre style="margin: 0px;">{body_html}</pre></td></tr>\n'
        "</table>\n"
    )


def copy_link(copy_index: int, colours: Palette) -> str:
    """The Copy affordance: a copy icon and the word, muted and not underlined, so it
    reads as a quiet button rather than a link in the text; the chat view intercepts it."""
    word = escapeHtml(tr("Copy"))
    return (
        f'<a href="{copy_href(copy_index)}" '
        f'style="color: {colours.muted_text}; text-decoration: none;">'
        f"{inline_icon('copy', colours.muted_text)}&nbsp;{word}</a>"
    )


def quote_open(colours: Palette) -> str:
    """Start of a block quote: a cell with a coloured bar on its left edge."""
    return (
        '<table width="100%" cellspacing="0" cellpadding="0" border="0" '
        'style="margin-top: 4px; margin-bottom: 8px;">\n'
        '<tr><td style="border-left-width: 3px; border-left-style: solid; '
        f"border-left-color: {colours.quote_bar}; padding-left: 10px; "
        f'color: {colours.muted_text};">\n'
    )


def quote_close() -> str:
    return "</td></tr>\n</table>\n"


def note(text: str, colours: Palette) -> str:
    """A small muted line about how what follows is shown; `text` is plain (escaped here)."""
    return f'<p style="color: {colours.muted_text};"><small>{escapeHtml(text)}</small></p>\n'
