"""One line of Markdown as the plain text a person reads in it, for titles.

Titles are shown as plain text (the sidebar, the window title, notifications), so a
model's "**Paris** trip" must arrive as "Paris trip", a link as its text and a heading
without its hashes. This is not a Markdown parser: it removes the markup models and
people put in one line, and leaves anything it does not recognise as written.

Every pattern here is linear: character classes that stop at the next bracket, no
nested quantifiers, lookarounds of one character. A line is cut to `MAX_INPUT_CHARS`
before anything else (a title never needs more), so even a hostile model reply costs
microseconds.
"""

from __future__ import annotations

import re
import unicodedata

MAX_INPUT_CHARS = 1_000

# Block markers at the start of a line: a heading, a quote, a list item, a task box.
_BLOCK_PREFIX = re.compile(
    r"[ \t]*(?:#{1,6}(?=[ \t]|$)|>|[-*+](?=[ \t])|\d{1,3}[.)](?=[ \t])|\[[ xX]\](?=[ \t]))"
)
_CLOSING_HASHES = re.compile(r"(?<![ \t])[ \t]+#+[ \t]*$")
# [text](url), ![alt](url), [text][ref]: the text. Brackets and parentheses stop each
# class, so no scan runs past the next one (see the module docstring).
_LINK = re.compile(r"!?\[([^\[\]\n]*)\](?:\([^()\n]*\)|\[[^\[\]\n]*\])")
_AUTOLINK = re.compile(r"<((?:https?|mailto|ftp):[^<>\s]*)>")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*[ \t]*/?>")
_CODE_TICKS = re.compile(r"(?<!\\)`+")
# Emphasis and strikethrough runs next to text; a lone "*" between spaces ("2 * 3") and
# underscores inside a word (snake_case) are not markup.
_STARS = re.compile(r"(?<!\\)\*+(?=\S)|(?<=[^\s\\])\*+")
_UNDERSCORES = re.compile(r"(?<![^\W_])_+|_+(?![^\W_])")
_TILDES = re.compile(r"(?<!\\)~~+")
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_SPACES = re.compile(r"\s+")


def _no_controls(text: str) -> str:
    """Control characters (tabs, escapes, NULs) become spaces: one visible line."""
    return "".join(" " if unicodedata.category(c) == "Cc" else c for c in text)


def _strip_block_prefix(line: str) -> str:
    while match := _BLOCK_PREFIX.match(line):
        line = line[match.end() :]
    return _CLOSING_HASHES.sub("", line)


def plain_line(text: str) -> str:
    """The first line of `text` without its Markdown markup, whitespace collapsed."""
    lines = text[:MAX_INPUT_CHARS].splitlines()
    line = lines[0] if lines else ""
    line = _strip_block_prefix(_no_controls(line))
    line = _LINK.sub(r"\1", line)
    line = _AUTOLINK.sub(r"\1", line)
    line = _HTML_TAG.sub("", line)
    line = _CODE_TICKS.sub("", line)
    line = _STARS.sub("", line)
    line = _UNDERSCORES.sub("", line)
    line = _TILDES.sub("", line)
    line = _ESCAPE.sub(r"\1", line)
    return _SPACES.sub(" ", line).strip()
