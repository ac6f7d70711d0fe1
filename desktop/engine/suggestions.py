"""Follow-up suggestions: the prompt, and reading the list back tolerantly.

Asked for a JSON list, models still answer with a fenced block, a sentence before it,
or a numbered list; each of those yields the questions, and anything else yields none
(nothing is shown rather than something odd).
"""

from __future__ import annotations

import json
import re

COUNT = 3
MAX_CHARS = 120
_EXCERPT_CHARS = 2000

SYSTEM = (
    "Suggest the three most useful short follow-up questions the user might ask next, "
    "written as the user would type them, in the same language as the conversation. "
    'Reply with a JSON array of three strings only, e.g. ["…", "…", "…"].'
)

_FENCE = re.compile(r"```[a-zA-Z]*\s*(.*?)```", re.DOTALL)
_ARRAY = re.compile(r"\[.*\]", re.DOTALL)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+(.+)$")


def suggestions_prompt(question: str, answer: str) -> str:
    return (
        f"User: {question[:_EXCERPT_CHARS]}\n\n"
        f"Assistant: {answer[-_EXCERPT_CHARS:]}\n\n"
        "Follow-up questions (JSON array):"
    )


def _from_json(text: str) -> list[str] | None:
    match = _ARRAY.search(text)
    if match is None:
        return None
    try:
        value = json.loads(match.group(0))
    except ValueError:
        return None
    if not isinstance(value, list):
        return None
    return [v for v in value if isinstance(v, str)]


def parse_suggestions(raw: str) -> tuple[str, ...]:
    """At most `COUNT` distinct, non-empty, one-line suggestions."""
    fenced = _FENCE.search(raw)
    body = fenced.group(1) if fenced else raw
    items = _from_json(body)
    if items is None:
        bullets = [_BULLET.match(line) for line in body.splitlines()]
        items = [m.group(1) for m in bullets if m]
    found: list[str] = []
    for item in items:
        text = " ".join(item.split()).strip("\"'“”")
        if text and len(text) <= MAX_CHARS and text not in found:
            found.append(text)
    return tuple(found[:COUNT])
