"""What in-chat find searches in a message it has not laid out: the text a person would
read, approximated from the message's source, and how many times a query occurs in it.

A message on screen is counted on its rendered document instead (see
``views/find_highlights.py``), which is exact; this only has to say which of thousands of
messages hold the query and about how often, cheaply. So it strips the Markdown a reader
never sees (`core.plain_markdown`, as search snippets do) rather than rendering
anything, and treats every run of white space as one space, as the rendered text does.
The person's own messages are shown as typed, so only their white space is folded.
"""

from __future__ import annotations

import re

from desktop.core.plain_markdown import plain_from_markdown
from desktop.render.guard import MAX_SHOWN_CHARS

_SPACE = re.compile(r"\s+")


def plain_text(source: str, *, markdown: bool) -> str:
    """The text of a message as a reader sees it, white space folded; at most as much of
    it as a view shows (``MAX_SHOWN_CHARS``): find never points at text not shown."""
    text = source[:MAX_SHOWN_CHARS]
    if markdown:
        text = plain_from_markdown(text)
    return _SPACE.sub(" ", text)


def needle(query: str) -> str:
    """The query as it is searched for: white space folded like the text's ("" for a
    query of white space only: it would match between every two words)."""
    return _SPACE.sub(" ", query) if query.strip() else ""


def count(text: str, query: str, *, case_sensitive: bool) -> int:
    """How many times `query` occurs in `text` (both as `plain_text` / `needle` give them),
    not overlapping, as a find moving from one match to the next sees them."""
    if not query:
        return 0
    if case_sensitive:
        return text.count(query)
    return text.lower().count(query.lower())
