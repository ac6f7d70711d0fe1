"""Markdown source as the words a reader sees: search snippets, and what in-chat find
searches in a message it has not laid out.

Not a renderer: it drops the marks a reader never sees — fences and their language,
heading hashes, quote and list marks, emphasis and strikethrough runs, code ticks, link
and image syntax (the text stays, the address goes), table rules and pipes, HTML tags —
and leaves anything it does not recognise as written ("2 * 3", snake_case). Lines are
kept. Every pattern is linear (classes that stop at the next bracket or line end, no
nested quantifiers, possessive runs of spaces, one-character lookarounds), so a hostile
message of 100,000 characters costs milliseconds. (`engine/plain_line.py` does the same
for one-line titles.)
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"^[ \t]{0,3}(?:`{3,}|~{3,})[^\n]*$", re.MULTILINE)
# Each cell after the first starts at its pipe, so a line is split one way only; the
# quantifiers are possessive, so a long run of spaces is never shared out again.
_TABLE_RULE = re.compile(
    r"^[ \t]*+\|?[ \t]*+:?-++:?[ \t]*+(?:\|[ \t]*+:?-++:?[ \t]*+)*+\|?[ \t]*+$", re.MULTILINE
)
_RULE = re.compile(r"^[ \t]{0,3}(?:[-*_][ \t]*){3,}$", re.MULTILINE)
# Quote marks, then a heading's hashes or a list item's mark (and a task box).
_LINE_MARKS = re.compile(
    r"^[ \t]*(?:>[ \t]?)*(?:#{1,6}[ \t]+|(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?)?",
    re.MULTILINE,
)
# [text](url), ![alt](url), [text][ref]: the text.
_LINK = re.compile(r"!?\[([^\[\]\n]*)\](?:\([^()\n]*\)|\[[^\[\]\n]*\])")
_AUTOLINK = re.compile(r"<((?:https?|mailto|ftp):[^<>\s]*)>")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:[ \t][^<>\n]*)?/?>")
_CODE_TICKS = re.compile(r"(?<!\\)`+")
# Emphasis next to text; a lone "*" between spaces and "_" inside a word are not markup.
_STARS = re.compile(r"(?<!\\)\*+(?=\S)|(?<=[^\s\\])\*+")
_UNDERSCORES = re.compile(r"(?<![^\W_])_+(?=\S)|(?<=\S)_+(?![^\W_])")
_TILDES = re.compile(r"(?<!\\)~~+")
_PIPE = re.compile(r"(?<![ \t])[ \t]*+\|[ \t]*+")  # from the run's start only


def plain_from_markdown(text: str) -> str:
    """`text` without markdown's marks (see the module docstring); lines are kept."""
    text = _FENCE.sub("", text)
    text = _TABLE_RULE.sub("", text)
    text = _RULE.sub("", text)
    text = _LINE_MARKS.sub("", text)
    text = _LINK.sub(r"\1", text)
    text = _AUTOLINK.sub(r"\1", text)
    text = _HTML_TAG.sub("", text)
    text = _CODE_TICKS.sub("", text)
    text = _STARS.sub("", text)
    text = _UNDERSCORES.sub("", text)
    text = _TILDES.sub("", text)
    return _PIPE.sub(" ", text)
