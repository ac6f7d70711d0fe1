"""Anthropic Messages answers: SSE events and whole `message` objects as stream events.

A small stateful translator and pure functions, with no I/O, so every rule below is
tested without a network.

- Tool calls: `ToolCallDelta.index` is the call's ordinal among this answer's
  `tool_use` blocks (0, 1, …), not the content block index, so it means the same as in
  every other adapter.
- Reasoning signature: one thinking block gives its signature as is; several reasoning
  blocks, or redacted thinking, give `BLOCKS_PREFIX` + those blocks (see `request`). A
  later `ReasoningSignature` of the same answer replaces an earlier one. A signature may
  arrive with no reasoning text (redacted or omitted thinking).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from desktop.core.errors import ProviderError
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
from desktop.core.models import Usage
from desktop.providers.anthropic.request import BLOCKS_PREFIX
from desktop.providers.base import Completion
from desktop.providers.http_errors import text_or_empty, trim
from desktop.providers.sse import ServerSentEvent
from desktop.providers.wire_common import (
    Redactor,
    closing_events,
    json_object,
    no_redaction,
    stream_payload,
)


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

    def __init__(self, redact: Redactor = no_redaction) -> None:
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
        payload = stream_payload(data, self._redact, "event")
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
        return closing_events(self._usage.usage(), self.stop_reason)

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


def message_events(payload: Any, redact: Redactor = no_redaction) -> list[StreamEvent]:
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


def parse_completion(payload: Any, redact: Redactor = no_redaction) -> Completion:
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
    answer = json_object(payload)
    if answer.get("type") == "error" or "error" in answer:
        raise error_from_payload(answer.get("error"), redact)
    if not isinstance(answer.get("content"), list):
        raise ProviderError(tr("The server's answer contained no content"))
    return answer
