"""Syntax highlighting of fenced code with pygments, as inline-styled spans Qt can show.

Only the language named on the fence is used: no guessing, so the same source always
renders the same way (the streaming cache depends on that) and a wrong guess never
paints prose as code. Names are looked up among the aliases of pygments' own lexers,
read once: pygments' own lookup of a name it does not know searches installed plugins
too (about 0.35 ms a name), which thousands of fences naming a different made-up
language each would pay thousands of times. Plugin lexers are not used.
"""

from __future__ import annotations

import functools
import threading

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.lexers._mapping import LEXERS
from pygments.util import ClassNotFound

LIGHT_STYLE = "default"
DARK_STYLE = "github-dark"
_MAX_LANGUAGE_CHARS = 40


class _PerThread(threading.local):
    """Lexers and formatters of the thread that uses them: answers are highlighted on the
    GUI thread and in the worker that renders ahead (``render/ahead``) at once, and some
    lexers keep what they are in the middle of on the object (pygments' PostgreSQL, HTTP
    and TNT lexers, among others), so one shared by two threads mixes up two fences."""

    def __init__(self) -> None:
        self.lexers: dict[str, Lexer | None] = {}
        self.formatters: dict[bool, HtmlFormatter] = {}


_per_thread = _PerThread()
_MAX_LEXERS = 128  # per thread: a chat of fences each naming a new language stays bounded


def _formatter(dark: bool) -> HtmlFormatter:
    formatters = _per_thread.formatters
    formatter = formatters.get(dark)
    if formatter is None:
        # nowrap: we supply the <pre> ourselves; noclasses: Qt has no reliable class CSS.
        formatter = formatters[dark] = HtmlFormatter(
            style=DARK_STYLE if dark else LIGHT_STYLE, noclasses=True, nowrap=True
        )
    return formatter


def _lexer(language: str) -> Lexer | None:
    lexers = _per_thread.lexers
    if language in lexers:
        return lexers[language]
    if len(lexers) >= _MAX_LEXERS:
        del lexers[next(iter(lexers))]  # the one loaded first
    try:
        # Keep leading/trailing blank lines: what is shown must match what is copied.
        lexer = get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        lexer = None
    lexers[language] = lexer
    return lexer


def highlight_code(code: str, language: str, *, dark: bool) -> str | None:
    """Highlighted, escaped HTML for `code`, or None when pygments does not know `language`."""
    lexer = _lexer_for(language)
    if lexer is None:
        return None
    html: str = highlight(code, lexer, _formatter(dark))  # pygments ships no types
    return html.removesuffix("\n")


def can_highlight(language: str) -> bool:
    """Whether a fence naming `language` is highlighted (`highlight_code` gives HTML)."""
    return _lexer_for(language) is not None


def _lexer_for(language: str) -> Lexer | None:
    language = language_key(language)
    return _lexer(language) if language in _known_languages() else None


def language_key(language: str) -> str:
    """How a fence's language is looked up (and counted by the cost model)."""
    return language.strip().lower()


@functools.cache
def _known_languages() -> frozenset[str]:
    """Every alias of pygments' built-in lexers (read from its table, nothing imported)."""
    return frozenset(
        alias
        for _module, _name, aliases, _files, _types in LEXERS.values()
        for alias in aliases
        if len(alias) <= _MAX_LANGUAGE_CHARS
    )


# The languages answers most often fence; their lexers are loaded ahead of time.
COMMON_LANGUAGES = ("python", "bash", "javascript", "typescript", "json", "c", "java", "sql")


def warm_up(language: str) -> None:
    """Load `language`'s lexer and the styles now, so the first fence in an answer does not
    pay 5-40 ms for imports in the middle of a streaming frame."""
    for dark in (False, True):
        highlight_code("x", language, dark=dark)
