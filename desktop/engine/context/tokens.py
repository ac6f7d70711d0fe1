"""Token estimates good enough to decide when to summarise, without a tokenizer.

Real tokenizers differ per model; what matters here is not being wildly off for the
texts people actually send. CJK scripts (and kana, Hangul) cost about one token per
character, Latin prose about four characters per token, and code or other symbol-dense
text about three. Each character class gets a weight and the sum is the estimate, so a
mixed message is estimated part by part. Counting uses `bytes.translate` and a plain
character-class regex: linear, no backtracking, fast on long chats.
"""

from __future__ import annotations

import math
import re
import string

from desktop.core.models import Message, ReasoningPart, TextPart, ToolCallPart

MESSAGE_OVERHEAD = 4  # role markers and separators every wire adds per message
TOOL_CALL_OVERHEAD = 8  # the call's id, name and result framing

_CJK = re.compile(
    "[\u1100-\u11ff\u2e80-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe30-\ufe4f"
    "\uff00-\uffef\U00020000-\U0003ffff]"
)
# ASCII punctuation and symbols: code is dense with them, prose is not.
_SYMBOLS = string.punctuation.encode("ascii")

_WORD_WEIGHT = 1 / 4  # letters, digits, whitespace of Latin prose
_SYMBOL_WEIGHT = 1 / 2  # brackets, operators: often a token each, sometimes merged
_CJK_WEIGHT = 1.0
_OTHER_WEIGHT = 2 / 5  # other scripts (Cyrillic, Greek, accented Latin…) split finer


def estimate_tokens(text: str) -> int:
    """Estimated tokens of `text` (0 for empty text)."""
    if not text:
        return 0
    ascii_bytes = text.encode("ascii", "ignore")
    symbols = len(ascii_bytes) - len(ascii_bytes.translate(None, _SYMBOLS))
    words = len(ascii_bytes) - symbols
    non_ascii = len(text) - len(ascii_bytes)
    cjk = len(_CJK.findall(text)) if non_ascii else 0
    other = non_ascii - cjk
    total = (
        words * _WORD_WEIGHT + symbols * _SYMBOL_WEIGHT + cjk * _CJK_WEIGHT + other * _OTHER_WEIGHT
    )
    return math.ceil(total)


def message_tokens(message: Message) -> int:
    """What a message costs in a request: its text, tool calls and results, plus a
    small per-message overhead. Reasoning counts only beside tool calls: that is the
    only time it is sent back."""
    total = MESSAGE_OVERHEAD
    has_calls = any(isinstance(p, ToolCallPart) for p in message.parts)
    for part in message.parts:
        if isinstance(part, TextPart) or (has_calls and isinstance(part, ReasoningPart)):
            total += estimate_tokens(part.text)
        elif isinstance(part, ToolCallPart):
            total += TOOL_CALL_OVERHEAD + estimate_tokens(part.name)
            total += estimate_tokens(part.arguments) + estimate_tokens(part.result or "")
    return total
