"""Titles written by a model: the prompt, and cleaning what comes back.

Models wrap titles in quotes, prefix "Title:", end them with a full stop, run on for
a sentence or dress them in Markdown (which the sidebar would show as asterisks); the
cleaning keeps one short line of plain text so the sidebar reads like a list of topics,
in whatever language the conversation is in.
"""

from __future__ import annotations

import re

from desktop.core.limits import TITLE_MAX_CHARS
from desktop.engine.plain_line import MAX_INPUT_CHARS, plain_line

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
# A star or hash the model escaped is text, not Markdown: it stands in as a private-use
# character while the markup is taken off and the ends are trimmed, then comes back.
_ESCAPED = re.compile(r"\\([\\*#])")
_KEPT = {"*": "\ue000", "#": "\ue001"}


def title_prompt(question: str, answer: str) -> str:
    return (
        f"Conversation:\n\nUser: {question[:_EXCERPT_CHARS]}\n\n"
        f"Assistant: {answer[:_EXCERPT_CHARS]}\n\nTitle:"
    )


def clean_title(raw: str) -> str:
    """One line of plain text, at most `MAX_WORDS` words (and `TITLE_MAX_CHARS`
    characters, for scripts written without spaces): the first line that still says
    something once its Markdown is gone (a code fence or a lone "**" does not);
    "" when nothing usable came back."""
    line = ""
    for candidate in raw[: 4 * MAX_INPUT_CHARS].splitlines():
        line = _PREFIX.sub("", plain_line(_protect(candidate))).strip().strip(_QUOTES).strip()
        if line.rstrip(_TRAILING):
            break
    words = line.split()
    if len(words) > MAX_WORDS:
        line = " ".join(words[:MAX_WORDS])
    if len(line) > TITLE_MAX_CHARS:
        line = line[:TITLE_MAX_CHARS]
    line = line.rstrip(_TRAILING + _QUOTES).strip()
    return line.replace(_KEPT["*"], "*").replace(_KEPT["#"], "#")


def _protect(line: str) -> str:
    """`line` with its escaped stars and hashes as their stand-ins (an escaped
    backslash stays one: the star after it is markup)."""
    line = line.replace(_KEPT["*"], "").replace(_KEPT["#"], "")
    return _ESCAPED.sub(lambda m: _KEPT.get(m.group(1), m.group(0)), line)
