"""Colours and the small document stylesheet for Qt's rich-text engine.

Qt honours only a subset of CSS, and class selectors on generated markup are fragile,
so the renderer writes the important colours inline (from `palette()`) and
`document_css()` only sets spacing and link colour by tag. Fonts are left to Qt, which
follows the person's system font and size.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Palette:
    """Colours used inline in rendered HTML, as #rrggbb (Qt ignores rgba in many places)."""

    muted_text: str
    border: str
    code_background: str
    code_header_background: str
    inline_code_background: str
    table_header_background: str
    quote_bar: str
    link: str
    formula_error: str  # a formula that could not be typeset (its source, marked)


LIGHT = Palette(
    muted_text="#57606a",
    border="#d0d7de",
    code_background="#f6f8fa",
    code_header_background="#eaeef2",
    inline_code_background="#eff1f3",
    table_header_background="#f6f8fa",
    quote_bar="#d0d7de",
    link="#0969da",
    formula_error="#9a3412",
)

DARK = Palette(
    muted_text="#8b949e",
    border="#30363d",
    code_background="#161b22",
    code_header_background="#21262d",
    inline_code_background="#343942",
    table_header_background="#161b22",
    quote_bar="#3d444d",
    link="#4493f8",
    formula_error="#f0a070",
)


def palette(dark: bool) -> Palette:
    return DARK if dark else LIGHT


def document_css(dark: bool) -> str:
    """A default stylesheet for the message document (`QTextDocument.setDefaultStyleSheet`).

    Only tag selectors and properties Qt supports; no font-family, so the system font
    applies.
    """
    colours = palette(dark)
    return (
        "p { margin-top: 0px; margin-bottom: 8px; }\n"
        "h1, h2, h3, h4, h5, h6 { margin-top: 12px; margin-bottom: 6px; }\n"
        "ul, ol { margin-top: 0px; margin-bottom: 8px; }\n"
        "li { margin-top: 1px; margin-bottom: 1px; }\n"
        "pre { margin-top: 0px; margin-bottom: 0px; }\n"
        f"code {{ background-color: {colours.inline_code_background}; }}\n"
        f"a {{ color: {colours.link}; }}\n"
        f"hr {{ color: {colours.border}; }}\n"
    )


def document_html(body: str, *, dark: bool) -> str:
    """Wrap rendered message HTML in a document that carries `document_css()`."""
    return f"<html><head><style>\n{document_css(dark)}</style></head><body>\n{body}</body></html>"
