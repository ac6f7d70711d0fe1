"""Anthropic Messages wire format: request bodies and stream translation.

Pure functions and a small stateful translator, with no I/O, so every rule below is
tested without a network.

Choices made here (the rest of Parley relies on them):

- Model families: what a Claude model accepts (thinking style, sampling parameters,
  the largest `max_tokens`) is decided in one place, `claude_family`, from the model id.
  Ids from gateways (`anthropic/claude-3.7-sonnet`, `us.anthropic.claude-sonnet-4-…`,
  `claude-sonnet-4@2025…`) are recognised too; anything else is an unknown family and
  gets no thinking parameters, so an Anthropic-compatible server is never sent something
  it may reject.
- Reasoning effort: budget families get `thinking: {type: enabled, budget_tokens}`
  (`THINKING_BUDGETS`, clamped to leave room for the answer); adaptive families get
  `thinking: {type: adaptive, display: summarized}` and `output_config.effort` named
  after the effort. `off` (or no effort) sends no thinking at all. While thinking is on,
  temperature and top_p are left out: the API rejects them with thinking.
- `max_tokens` is required: the request's `max_output_tokens`, else 8192 plus room for
  the thinking, never above what the family allows. It includes the thinking tokens.
- Tool calls: `ToolCallDelta.index` is the call's ordinal among this answer's
  `tool_use` blocks (0, 1, …), not the content block index, so it means the same as in
  every other adapter.
- Reasoning signature: with one thinking block (the usual case) `ReasoningSignature`
  carries Anthropic's signature as is, and the reasoning text must be stored verbatim
  for it to verify. When an answer has several reasoning blocks, or redacted thinking,
  the signature is `BLOCKS_PREFIX` + the JSON list of those blocks exactly as received,
  sent back unchanged; a later `ReasoningSignature` of the same answer replaces an
  earlier one. A signature may arrive with no reasoning text (redacted or omitted
  thinking).
- Thinking goes back only for the turn in progress (assistant turns after the last user
  turn, i.e. a tool continuation), first in each assistant turn, where the API requires
  it; older turns' thinking is ignored by the API anyway, and leaving it out means a
  signature from another provider or model can never get a conversation rejected.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from desktop.core.capabilities import ReasoningEffort
from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import (
    Finished,
    ReasoningDelta,
    ReasoningSignature,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageReport,
)
from desktop.core.i18n import QT_TR_NOOP, tr
from desktop.core.models import Role, Usage
from desktop.providers.base import ChatRequest, Completion, RequestMessage, ToolCall, ToolResult
from desktop.providers.http_errors import text_or_empty, trim
from desktop.providers.sse import ServerSentEvent, json_data

Redactor = Callable[[str], str]

API_VERSION = "2023-06-01"
DEFAULT_MAX_TOKENS = 8192  # the answer's share when the person set no limit
MIN_THINKING_BUDGET = 1024  # the API's minimum `budget_tokens`
MIN_ANSWER_TOKENS = 1024  # what a clamped budget leaves for the answer
# Thinking budget per effort (budget families), and the room added to the default
# `max_tokens` for it (adaptive families too).
THINKING_BUDGETS: dict[ReasoningEffort, int] = {
    ReasoningEffort.LOW: 2048,
    ReasoningEffort.MEDIUM: 8192,
    ReasoningEffort.HIGH: 16384,
    ReasoningEffort.MAX: 32000,
}
BLOCKS_PREFIX = "anthropic-blocks:"
MISSING_RESULT = "No result was recorded for this call."


# --- model families -----------------------------------------------------------------


class Thinking(Enum):
    NONE = "none"  # no extended thinking
    BUDGET = "budget"  # thinking: {type: enabled, budget_tokens}
    ADAPTIVE = "adaptive"  # thinking: {type: adaptive} + output_config.effort


class Sampling(Enum):
    BOTH = "both"  # temperature and top_p
    ONE = "one"  # either, not both: temperature wins
    NONE = "none"  # neither is accepted


@dataclass(frozen=True, slots=True)
class ClaudeFamily:
    thinking: Thinking = Thinking.NONE
    sampling: Sampling = Sampling.BOTH
    max_output: int | None = None  # the largest `max_tokens` accepted; None = unknown


UNKNOWN_FAMILY = ClaudeFamily()

# claude-3-5-sonnet-2024…, claude-3.7-sonnet (a gateway's spelling)
_OLD_STYLE = re.compile(r"claude-(\d)(?:[-.](\d)(?!\d))?-([a-z]+)", re.IGNORECASE)
# claude-sonnet-4-20250514, claude-opus-4-1, claude-haiku-4.5, claude-fable-5
_NEW_STYLE = re.compile(r"claude-([a-z]+)-(\d)(?:[-.](\d)(?!\d))?(?!\d)", re.IGNORECASE)


def claude_family(model: str) -> ClaudeFamily:
    """What `model` accepts, from its version: the one place that knows model families."""
    if match := _OLD_STYLE.search(model):
        major, minor, tier = match.group(1), match.group(2), match.group(3)
    elif match := _NEW_STYLE.search(model):
        tier, major, minor = match.group(1), match.group(2), match.group(3)
    else:
        return UNKNOWN_FAMILY
    version = (int(major), int(minor or 0))
    opus = tier.lower() == "opus"
    if version < (3, 5):
        return ClaudeFamily(max_output=4096)
    if version < (3, 7):
        return ClaudeFamily(max_output=8192)
    if version < (4, 1):  # claude-3-7-sonnet, claude-sonnet-4, claude-opus-4
        return ClaudeFamily(Thinking.BUDGET, Sampling.BOTH, 32000 if opus else 64000)
    if version < (4, 6):  # opus-4-1, sonnet-4-5, haiku-4-5, opus-4-5
        big = 32000 if opus and version < (4, 5) else 64000
        return ClaudeFamily(Thinking.BUDGET, Sampling.ONE, big)
    if version < (4, 7):  # opus-4-6, sonnet-4-6: budgets deprecated
        return ClaudeFamily(Thinking.ADAPTIVE, Sampling.ONE, 128000 if opus else 64000)
    # opus-4-7 and later accept neither budgets nor sampling parameters.
    return ClaudeFamily(Thinking.ADAPTIVE, Sampling.NONE, 128000 if opus else 64000)


@dataclass(frozen=True, slots=True)
class TokenPlan:
    """`max_tokens` and the thinking to ask for (`thinking` is None when off)."""

    max_tokens: int
    thinking: dict[str, Any] | None = None
    effort: str | None = None  # output_config.effort, adaptive families only


def plan_tokens(request: ChatRequest, family: ClaudeFamily) -> TokenPlan:
    """`max_tokens` and thinking for this request, within the family's limits."""
    effort = request.reasoning_effort
    room = THINKING_BUDGETS.get(effort) if effort and family.thinking != Thinking.NONE else None
    if request.max_output_tokens is not None:
        max_tokens = request.max_output_tokens
    else:
        max_tokens = DEFAULT_MAX_TOKENS + (room or 0)
    if family.max_output is not None:
        max_tokens = min(max_tokens, family.max_output)
    max_tokens = max(1, max_tokens)
    if room is None or effort is None:
        return TokenPlan(max_tokens)
    if family.thinking == Thinking.ADAPTIVE:
        return TokenPlan(max_tokens, {"type": "adaptive", "display": "summarized"}, effort.value)
    budget = min(room, max_tokens - MIN_ANSWER_TOKENS)
    if budget < MIN_THINKING_BUDGET:
        return TokenPlan(max_tokens)  # the person's limit leaves no room to think
    return TokenPlan(max_tokens, {"type": "enabled", "budget_tokens": budget})


# --- request ------------------------------------------------------------------------


def build_body(request: ChatRequest, *, stream: bool) -> dict[str, Any]:
    """The JSON body; optional parameters are sent only when set, so server defaults hold."""
    family = claude_family(request.model)
    plan = plan_tokens(request, family)
    body: dict[str, Any] = {"model": request.model, "max_tokens": plan.max_tokens}
    system = _system_text(request)
    if system:
        body["system"] = system
    body["messages"] = build_messages(request.messages)
    if request.tools:
        body["tools"] = [
            {"name": t.name, "description": t.description, "input_schema": t.parameters}
            for t in request.tools
        ]
    if plan.thinking is not None:
        body["thinking"] = plan.thinking
        if plan.effort is not None:
            body["output_config"] = {"effort": plan.effort}
    else:
        body.update(_sampling(request, family))
    body["stream"] = stream
    return body


def _system_text(request: ChatRequest) -> str:
    """The top-level `system`: the request's, then any system turns (the wire has none)."""
    parts = [request.system or ""]
    parts += [m.text for m in request.messages if m.role is Role.SYSTEM]
    return "\n\n".join(part for part in parts if part.strip())


def _sampling(request: ChatRequest, family: ClaudeFamily) -> dict[str, float]:
    if family.sampling == Sampling.NONE:
        return {}
    params: dict[str, float] = {}
    if request.temperature is not None:
        params["temperature"] = request.temperature
    if request.top_p is not None and not (family.sampling == Sampling.ONE and params):
        params["top_p"] = request.top_p
    return params


def build_messages(messages: tuple[RequestMessage, ...]) -> list[dict[str, Any]]:
    """Turns as the wire wants them: alternating roles, tool results in a user turn."""
    last_user = max((i for i, m in enumerate(messages) if m.role is Role.USER), default=-1)
    turns: list[dict[str, Any]] = []
    for position, message in enumerate(messages):
        if message.role is Role.USER:
            _append(turns, "user", _user_blocks(message))
        elif message.role is Role.ASSISTANT:
            _append(turns, "assistant", _assistant_blocks(message, position > last_user))
            if message.tool_calls:
                _append(turns, "user", _result_blocks(message.tool_calls, message.tool_results))
    _trim_final_assistant(turns)
    return turns


def _append(turns: list[dict[str, Any]], role: str, blocks: list[dict[str, Any]]) -> None:
    """Consecutive turns of one role become one; empty turns are left out."""
    if not blocks:
        return
    if turns and turns[-1]["role"] == role:
        turns[-1]["content"].extend(blocks)
    else:
        turns.append({"role": role, "content": blocks})


def _user_blocks(message: RequestMessage) -> list[dict[str, Any]]:
    """Images first, then the text: Anthropic's advice for the best answers."""
    blocks: list[dict[str, Any]] = [
        {
            "type": "image",
            "source": {
                "type": "base64",
                "media_type": image.mime,
                "data": base64.b64encode(image.data).decode("ascii"),
            },
        }
        for image in message.images
    ]
    if message.text.strip():  # the API rejects empty text blocks
        blocks.append({"type": "text", "text": message.text})
    return blocks


def _assistant_blocks(message: RequestMessage, in_progress: bool) -> list[dict[str, Any]]:
    with_thinking = in_progress and bool(message.tool_calls)
    blocks = (
        thinking_blocks(message.reasoning, message.reasoning_signature) if with_thinking else []
    )
    if message.text.strip():
        blocks.append({"type": "text", "text": message.text})
    blocks += [
        {
            "type": "tool_use",
            "id": _tool_id(call.call_id),
            "name": call.name,
            "input": _arguments(call.arguments),
        }
        for call in message.tool_calls
    ]
    return blocks


def thinking_blocks(reasoning: str | None, signature: str | None) -> list[dict[str, Any]]:
    """The reasoning blocks to send back: unsigned reasoning cannot go back at all."""
    if not signature:
        return []
    if signature.startswith(BLOCKS_PREFIX):
        try:
            blocks = json.loads(signature[len(BLOCKS_PREFIX) :])
        except json.JSONDecodeError:
            return []
        if not isinstance(blocks, list):
            return []
        return [b for b in blocks if isinstance(b, dict) and b.get("type") in _REASONING_TYPES]
    return [{"type": "thinking", "thinking": reasoning or "", "signature": signature}]


_REASONING_TYPES = ("thinking", "redacted_thinking")


def _result_blocks(
    calls: tuple[ToolCall, ...], results: tuple[ToolResult, ...]
) -> list[dict[str, Any]]:
    """One result per call, in call order: the API refuses a `tool_use` left unanswered
    and a result for a call it has not seen."""
    by_id = {result.call_id: result for result in results}
    blocks: list[dict[str, Any]] = []
    for call in calls:
        result = by_id.get(call.call_id)
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": _tool_id(call.call_id)}
        content = result.content if result is not None else MISSING_RESULT
        if content:
            block["content"] = content
        if result is None or result.is_error:
            block["is_error"] = True
        blocks.append(block)
    return blocks


_TOOL_ID_UNSAFE = re.compile(r"[^a-zA-Z0-9_-]")


def _tool_id(call_id: str) -> str:
    """Ids must match [a-zA-Z0-9_-]+; a call made through another provider may not."""
    return _TOOL_ID_UNSAFE.sub("_", call_id) or "call"


def _arguments(text: str) -> dict[str, Any]:
    """`input` must be an object; arguments the model garbled are sent as `{}` (the
    tool's error result already told it so)."""
    try:
        value = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _trim_final_assistant(turns: list[dict[str, Any]]) -> None:
    """A final assistant turn is a prefill (Continue): it must not end in whitespace."""
    if not turns or turns[-1]["role"] != "assistant":
        return
    content = turns[-1]["content"]
    if content[-1].get("type") == "text":
        content[-1]["text"] = content[-1]["text"].rstrip()


# --- response translation (pure) ---------------------------------------------------


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass(slots=True)
class _UsageTally:
    """Anthropic counts cached prompt tokens apart; Parley's input is their sum."""

    input_tokens: int = 0
    cache_creation: int = 0
    cache_read: int = 0
    output_tokens: int = 0
    seen: bool = False

    def update(self, raw: Any) -> None:
        """Counts are running totals: the latest value of each wins."""
        if not isinstance(raw, dict):
            return
        for key, attr in (
            ("input_tokens", "input_tokens"),
            ("cache_creation_input_tokens", "cache_creation"),
            ("cache_read_input_tokens", "cache_read"),
            ("output_tokens", "output_tokens"),
        ):
            if (value := _count(raw.get(key))) is not None:
                setattr(self, attr, value)
                self.seen = True

    def usage(self) -> Usage | None:
        if not self.seen:
            return None
        prompt = self.input_tokens + self.cache_creation + self.cache_read
        return Usage(input_tokens=prompt, output_tokens=self.output_tokens)


_ERROR_WORDS: dict[str, tuple[str, int | None, bool]] = {
    # error type: (words, status it stands for, retryable)
    "overloaded_error": (QT_TR_NOOP("The server is overloaded"), 529, True),
    "rate_limit_error": (QT_TR_NOOP("The server is rate limiting requests"), 429, True),
    "api_error": (QT_TR_NOOP("The server had an internal error"), 500, True),
    "timeout_error": (QT_TR_NOOP("The server timed out"), 504, True),
    "authentication_error": (QT_TR_NOOP("The server refused the API key"), 401, False),
    "permission_error": (QT_TR_NOOP("The server denied access"), 403, False),
    "not_found_error": (
        QT_TR_NOOP("The server does not know this address or model"),
        404,
        False,
    ),
    "request_too_large": (QT_TR_NOOP("The request is too large for the server"), 413, False),
    "billing_error": (QT_TR_NOOP("The account has a billing problem"), 402, False),
}


def error_from_payload(error: Any, redact: Redactor) -> ProviderError:
    """An `{"type": "error", "error": {type, message}}` inside a stream or a 200 body."""
    kind = text_or_empty(error.get("type")) if isinstance(error, dict) else ""
    message = text_or_empty(error.get("message")) if isinstance(error, dict) else ""
    message = redact(trim(message or kind or tr("unknown error")))
    words, status, retryable = _ERROR_WORDS.get(
        kind, (QT_TR_NOOP("The server reported an error"), None, False)
    )
    return ProviderError(
        tr("{words}: {message}").format(words=tr(words), message=message),
        status_code=status,
        retryable=retryable,
    )


@dataclass(slots=True)
class _Block:
    """A content block being streamed, by its content index."""

    kind: str
    tool_index: int | None = None  # the call's ordinal, for tool_use blocks
    text: list[str] = field(default_factory=list)  # thinking text
    signature: str = ""
    data: str = ""  # redacted_thinking's opaque payload
    has_arguments: bool = False


class StreamTranslator:
    """Folds SSE events into stream events. Pure, so every wire quirk is unit-testable.

    Usage is reported once, just before `Finished`: `message_start` carries the input
    tokens and `message_delta` the running output total.
    """

    def __init__(self, redact: Redactor = lambda text: text) -> None:
        self.done = False  # `message_stop` arrived
        self.stop_reason: str | None = None
        self._redact = redact
        self._usage = _UsageTally()
        self._blocks: dict[int, _Block] = {}
        self._tool_calls = 0
        self._reasoning: list[dict[str, Any]] = []  # finished reasoning blocks, as received
        self._reasoning_text = False  # some reasoning text went out already

    @property
    def ended(self) -> bool:
        return self.done

    @property
    def complete(self) -> bool:
        """The answer is whole: a stop reason came, or the message ended."""
        return self.done or self.stop_reason is not None

    def feed(self, sse: ServerSentEvent) -> list[StreamEvent]:
        data = sse.data.strip()
        if not data:
            return []
        try:
            payload = json_data(data)
        except json.JSONDecodeError:
            preview = self._redact(trim(data, 120))
            raise StreamBrokenError(
                tr("The server sent a malformed stream event (not JSON): {preview}").format(
                    preview=preview
                )
            ) from None
        if not isinstance(payload, dict):
            raise StreamBrokenError(tr("The server sent a malformed stream event (not an object)"))
        kind = text_or_empty(payload.get("type")) or sse.event
        if kind == "error":
            raise error_from_payload(payload.get("error"), self._redact)
        if kind == "message_start":
            message = payload.get("message")
            if isinstance(message, dict):
                self._usage.update(message.get("usage"))
            return []
        if kind == "content_block_start":
            return self._start(payload)
        if kind == "content_block_delta":
            return self._delta(payload)
        if kind == "content_block_stop":
            return self._stop(payload)
        if kind == "message_delta":
            delta = payload.get("delta")
            if isinstance(delta, dict) and (reason := text_or_empty(delta.get("stop_reason"))):
                self.stop_reason = reason
            self._usage.update(payload.get("usage"))
            return []
        if kind == "message_stop":
            self.done = True
        return []  # ping, and event types added after this was written

    def finish(self) -> list[StreamEvent]:
        """The closing events: usage (if any), then `Finished` exactly once."""
        usage = self._usage.usage()
        events: list[StreamEvent] = [UsageReport(usage)] if usage else []
        events.append(Finished(self.stop_reason))
        return events

    # --- content blocks ------------------------------------------------------------

    def _block(self, payload: dict[str, Any], kind: str) -> _Block:
        """The block at `payload.index`; one never announced is taken as `kind`."""
        index = _count(payload.get("index"))
        key = index if index is not None else -1
        block = self._blocks.get(key)
        if block is None:
            block = _Block(kind)
            if kind == "tool_use":
                block.tool_index = self._tool_calls
                self._tool_calls += 1
            self._blocks[key] = block
        return block

    def _start(self, payload: dict[str, Any]) -> list[StreamEvent]:
        raw = payload.get("content_block")
        start: dict[str, Any] = raw if isinstance(raw, dict) else {}
        kind = text_or_empty(start.get("type"))
        index = _count(payload.get("index"))
        self._blocks.pop(index if index is not None else -1, None)  # a reused index
        block = self._block(payload, kind)
        events: list[StreamEvent] = []
        if kind == "text" and (text := text_or_empty(start.get("text"))):
            events.append(TextDelta(text))
        elif kind == "thinking":
            events += self._thinking_text(block, text_or_empty(start.get("thinking")))
            block.signature = text_or_empty(start.get("signature"))
        elif kind == "redacted_thinking":
            block.data = text_or_empty(start.get("data"))
        elif kind == "tool_use":
            assert block.tool_index is not None
            events.append(
                ToolCallDelta(
                    block.tool_index,
                    call_id=text_or_empty(start.get("id")) or None,
                    name=text_or_empty(start.get("name")) or None,
                )
            )
            given = start.get("input")
            if isinstance(given, dict) and given:  # a server that sends it whole
                block.has_arguments = True
                events.append(ToolCallDelta(block.tool_index, arguments=json.dumps(given)))
        return events

    def _delta(self, payload: dict[str, Any]) -> list[StreamEvent]:
        raw = payload.get("delta")
        delta: dict[str, Any] = raw if isinstance(raw, dict) else {}
        kind = text_or_empty(delta.get("type"))
        if kind == "text_delta":
            self._block(payload, "text")
            text = text_or_empty(delta.get("text"))
            return [TextDelta(text)] if text else []
        if kind == "thinking_delta":
            block = self._block(payload, "thinking")
            return self._thinking_text(block, text_or_empty(delta.get("thinking")))
        if kind == "signature_delta":
            self._block(payload, "thinking").signature += text_or_empty(delta.get("signature"))
            return []
        if kind == "input_json_delta":
            block = self._block(payload, "tool_use")
            fragment = text_or_empty(delta.get("partial_json"))
            if not fragment or block.tool_index is None:
                return []
            block.has_arguments = True
            return [ToolCallDelta(block.tool_index, arguments=fragment)]
        return []  # citations_delta and the like

    def _thinking_text(self, block: _Block, text: str) -> list[StreamEvent]:
        if not text:
            return []
        events: list[StreamEvent] = []
        if not block.text and self._reasoning_text:
            events.append(ReasoningDelta("\n\n"))  # a second thinking block of the answer
        block.text.append(text)
        self._reasoning_text = True
        events.append(ReasoningDelta(text))
        return events

    def _stop(self, payload: dict[str, Any]) -> list[StreamEvent]:
        index = _count(payload.get("index"))
        block = self._blocks.get(index if index is not None else -1)
        if block is None:
            return []
        if block.kind == "tool_use" and not block.has_arguments and block.tool_index is not None:
            block.has_arguments = True
            return [ToolCallDelta(block.tool_index, arguments="{}")]  # a call without input
        if block.kind == "thinking" and block.signature:
            thinking = "".join(block.text)
            self._reasoning.append(
                {"type": "thinking", "thinking": thinking, "signature": block.signature}
            )
            return [ReasoningSignature(self._signature())]
        if block.kind == "redacted_thinking" and block.data:
            self._reasoning.append({"type": "redacted_thinking", "data": block.data})
            return [ReasoningSignature(self._signature())]
        return []

    def _signature(self) -> str:
        return signature_for(self._reasoning)


def signature_for(blocks: list[dict[str, Any]]) -> str:
    """One thinking block: its signature as is; anything more: the blocks themselves."""
    if len(blocks) == 1 and blocks[0]["type"] == "thinking":
        return str(blocks[0]["signature"])
    return BLOCKS_PREFIX + json.dumps(blocks, separators=(",", ":"), ensure_ascii=False)


# --- whole (non-streamed) answers ---------------------------------------------------


def message_events(payload: Any, redact: Redactor = lambda text: text) -> list[StreamEvent]:
    """A whole `message` object as stream events (a server ignoring `stream: true`)."""
    message = _message(payload, redact)
    events: list[StreamEvent] = []
    reasoning: list[dict[str, Any]] = []
    tool_calls = 0
    for block in message.get("content") or ():
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "thinking":
            thinking = text_or_empty(block.get("thinking"))
            if thinking:
                if any(isinstance(e, ReasoningDelta) for e in events):
                    events.append(ReasoningDelta("\n\n"))
                events.append(ReasoningDelta(thinking))
            if signature := text_or_empty(block.get("signature")):
                reasoning.append({"type": "thinking", "thinking": thinking, "signature": signature})
        elif kind == "redacted_thinking" and (data := text_or_empty(block.get("data"))):
            reasoning.append({"type": "redacted_thinking", "data": data})
        elif kind == "text" and (text := text_or_empty(block.get("text"))):
            events.append(TextDelta(text))
        elif kind == "tool_use":
            given = block.get("input")
            arguments = json.dumps(given if isinstance(given, dict) else {})
            events.append(
                ToolCallDelta(
                    tool_calls,
                    call_id=text_or_empty(block.get("id")) or None,
                    name=text_or_empty(block.get("name")) or None,
                    arguments=arguments,
                )
            )
            tool_calls += 1
    if reasoning:
        events.append(ReasoningSignature(signature_for(reasoning)))
    tally = _UsageTally()
    tally.update(message.get("usage"))
    if usage := tally.usage():
        events.append(UsageReport(usage))
    events.append(Finished(text_or_empty(message.get("stop_reason")) or None))
    return events


def parse_completion(payload: Any, redact: Redactor = lambda text: text) -> Completion:
    message = _message(payload, redact)
    text: list[str] = []
    reasoning: list[str] = []
    for block in message.get("content") or ():
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            text.append(text_or_empty(block.get("text")))
        elif block.get("type") == "thinking" and (thinking := text_or_empty(block.get("thinking"))):
            reasoning.append(thinking)
    tally = _UsageTally()
    tally.update(message.get("usage"))
    return Completion(
        text="".join(text),
        reasoning="\n\n".join(reasoning),
        usage=tally.usage(),
        finish_reason=text_or_empty(message.get("stop_reason")) or None,
    )


def _message(payload: Any, redact: Redactor) -> dict[str, Any]:
    if not isinstance(payload, dict):
        raise ProviderError(tr("The server's answer was not a JSON object"))
    if payload.get("type") == "error" or "error" in payload:
        raise error_from_payload(payload.get("error"), redact)
    if not isinstance(payload.get("content"), list):
        raise ProviderError(tr("The server's answer contained no content"))
    return payload
