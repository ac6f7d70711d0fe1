"""Token estimates good enough to decide when to summarise, without a tokenizer.

Real tokenizers differ per model; what matters here is not being wildly off for the
texts people actually send. CJK scripts (and kana, Hangul) cost about one token per
character, Latin prose about four characters per token, and code or other symbol-dense
text about three. Each character class gets a weight and the sum is the estimate, so a
mixed message is estimated part by part. Counting uses `bytes.translate` and a plain
character-class regex: linear, no backtracking, fast on long chats.

An image costs what OpenAI's vision models charge for it at full detail (85 tokens,
plus 170 per 512-pixel tile once it is scaled into 2048 × 2048 with its short side at
most 768): Anthropic's and Gemini's counts for the same picture are of the same order.
"""

from __future__ import annotations

import json
import math
import re
import string

from desktop.core.models import Message, ReasoningPart, TextPart, ToolCallPart
from desktop.providers.base import ChatRequest, ImageInput, RequestMessage

MESSAGE_OVERHEAD = 4  # role markers and separators every wire adds per message
TOOL_CALL_OVERHEAD = 8  # the call's id, name and result framing
TOOL_SPEC_OVERHEAD = 8  # a tool definition's framing around its JSON
IMAGE_BASE, IMAGE_TILE, TILE_SIDE = 85, 170, 512
UNKNOWN_IMAGE_SIZE = (1024, 768)  # an image whose size was not recorded

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


def image_tokens(width: int | None, height: int | None) -> int:
    """Estimated tokens of one image of `width` × `height` pixels (see the module
    docstring); a typical photo's when the size is not known."""
    if not width or not height:
        width, height = UNKNOWN_IMAGE_SIZE
    scale = min(1.0, 2048 / max(width, height))
    scale *= min(1.0, 768 / (min(width, height) * scale))
    tiles = math.ceil(width * scale / TILE_SIDE) * math.ceil(height * scale / TILE_SIDE)
    return IMAGE_BASE + IMAGE_TILE * tiles


def _image(image: ImageInput) -> int:
    return image_tokens(image.width, image.height)


def _turn_tokens(message: RequestMessage) -> int:
    total = MESSAGE_OVERHEAD + estimate_tokens(message.text)
    total += estimate_tokens(message.reasoning or "")
    total += sum(_image(image) for image in message.images)
    for call in message.tool_calls:
        total += TOOL_CALL_OVERHEAD + estimate_tokens(call.name) + estimate_tokens(call.arguments)
    total += sum(estimate_tokens(result.content) for result in message.tool_results)
    return total


def request_tokens(request: ChatRequest) -> int:
    """What a whole request costs: the system text, every turn with its images, calls
    and results, and the definitions of the tools it offers."""
    total = MESSAGE_OVERHEAD + estimate_tokens(request.system) if request.system else 0
    total += sum(_turn_tokens(message) for message in request.messages)
    for spec in request.tools:
        definition = {
            "name": spec.name,
            "description": spec.description,
            "parameters": spec.parameters,
        }
        total += TOOL_SPEC_OVERHEAD + estimate_tokens(json.dumps(definition))
    return total
