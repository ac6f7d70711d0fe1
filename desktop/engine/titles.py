"""Titles written by a model: the prompt, and cleaning what comes back.

Models wrap titles in quotes, prefix "Title:", end them with a full stop or run on for
a sentence; the cleaning keeps one short line so the sidebar reads like a list of
topics, in whatever language the conversation is in.
"""

from __future__ import annotations

import re

from desktop.core.limits import TITLE_MAX_CHARS

MAX_WORDS = 6
_EXCERPT_CHARS = 1500

SYSTEM = (
    "You name conversations. Reply with a title of at most 6 words that says what the "
    "conversation is about, written in the same language as the conversation. Reply "
    "with the title only: no quotes, no trailing punctuation, no explanation."
)

_PREFIX = re.compile(r"^\s*(title|titre|titel|título|标题|標題|タイトル)\s*[:：]\s*", re.IGNORECASE)
_QUOTES = "\"'`“”‘’«»「」『』*#"
_TRAILING = " .。!！?？,，;；:：-—…"


def title_prompt(question: str, answer: str) -> str:
    return (
        f"Conversation:\n\nUser: {question[:_EXCERPT_CHARS]}\n\n"
        f"Assistant: {answer[:_EXCERPT_CHARS]}\n\nTitle:"
    )


def clean_title(raw: str) -> str:
    """One line of at most `MAX_WORDS` words (and `TITLE_MAX_CHARS` characters, for
    scripts written without spaces); "" when nothing usable came back."""
    line = next((ln.strip() for ln in raw.splitlines() if ln.strip()), "")
    line = _PREFIX.sub("", line).strip().strip(_QUOTES).strip()
    words = line.split()
    if len(words) > MAX_WORDS:
        line = " ".join(words[:MAX_WORDS])
    if len(line) > TITLE_MAX_CHARS:
        line = line[:TITLE_MAX_CHARS]
    return line.rstrip(_TRAILING + _QUOTES).strip()
