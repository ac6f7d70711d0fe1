"""Responses API answers: SSE events and whole `response` objects as stream events.

A stateful translator and pure functions with no I/O. Each reasoning item with
encrypted content becomes a `ReasoningSignature` (see `request` for where it goes back).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
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
from desktop.providers.base import Completion
from desktop.providers.http_errors import error_payload_message, text_or_empty, trim
from desktop.providers.sse import ServerSentEvent
from desktop.providers.wire_common import (
    Redactor,
    closing_events,
    count,
    json_object,
    no_redaction,
    stream_payload,
)

# Error codes worth another try when they arrive before any answer did.
_RETRYABLE_CODES = frozenset(
    {"rate_limit_exceeded", "server_error", "server_is_overloaded", "slow_down", "timeout"}
)


_INCOMPLETE = {
    "max_output_tokens": QT_TR_NOOP("it reached the output token limit (max_output_tokens)"),
    "content_filter": QT_TR_NOOP("the content filter stopped it"),
}


def parse_usage(raw: Any) -> Usage | None:
    if not isinstance(raw, dict):
        return None
    details = raw.get("output_tokens_details")
    return Usage(
        input_tokens=count(raw.get("input_tokens")),
        output_tokens=count(raw.get("output_tokens")),
        reasoning_tokens=count(details.get("reasoning_tokens")) if isinstance(details, dict) else 0,
    )


def _error(error: Any, prefix: str, redact: Redactor) -> ProviderError:
    code = text_or_empty(error.get("code")) if isinstance(error, dict) else ""
    message = redact(trim(error_payload_message(error)))
    return ProviderError(
        tr("{words}: {message}").format(words=prefix, message=message),
        retryable=code in _RETRYABLE_CODES,
    )


def _incomplete_error(response: dict[str, Any]) -> ProviderError:
    details = response.get("incomplete_details")
    reason = text_or_empty(details.get("reason")) if isinstance(details, dict) else ""
    if reason in _INCOMPLETE:
        why = tr(_INCOMPLETE[reason])
    else:
        why = tr("the server stopped it ({reason})").format(reason=reason or tr("no reason given"))
    return ProviderError(tr("The answer was cut short: {reason}").format(reason=why))


def _kept_reasoning(item: dict[str, Any]) -> dict[str, Any] | None:
    """What of a reasoning output item goes back in `input`; None if it cannot (without
    encrypted content, a reasoning item of an unstored response is useless)."""
    encrypted = item.get("encrypted_content")
    if not isinstance(encrypted, str) or not encrypted:
        return None
    kept: dict[str, Any] = {"type": "reasoning"}
    if isinstance(item.get("id"), str):
        kept["id"] = item["id"]
    summary = item.get("summary")
    kept["summary"] = summary if isinstance(summary, list) else []
    kept["encrypted_content"] = encrypted
    return kept


@dataclass(slots=True)
class _Call:
    index: int
    arguments: str = ""
    announced: bool = False


class ResponsesStreamTranslator:
    """Folds Responses SSE events into stream events.

    Function calls get indexes 0, 1, ... in the order their items appear. Each
    `ReasoningSignature` carries every reasoning item of the response so far (a JSON
    list), so keeping the last one is enough to continue the conversation.
    """

    def __init__(self, redact: Redactor = no_redaction) -> None:
        self.terminal = False  # response.completed arrived
        self.status: str | None = None
        self.usage: Usage | None = None
        self._redact = redact
        self._calls: dict[str | int, _Call] = {}  # item id and output index -> call
        self._call_count = 0
        self._last_call: _Call | None = None
        self._reasoning: list[dict[str, Any]] = []
        self._summary_key: tuple[Any, Any] | None = None

    @property
    def ended(self) -> bool:
        return self.terminal

    @property
    def complete(self) -> bool:
        return self.terminal

    def feed(self, sse: ServerSentEvent) -> list[StreamEvent]:
        data = sse.data.strip()
        if not data or data == "[DONE]":
            return []
        payload = stream_payload(data, self._redact, "event")
        kind = text_or_empty(payload.get("type")) or sse.event
        handler = _HANDLERS.get(kind)
        return handler(self, payload) if handler else []

    def finish(self) -> list[StreamEvent]:
        return closing_events(self.usage, self.status)

    # --- handlers -------------------------------------------------------------------

    def _text(self, payload: dict[str, Any]) -> list[StreamEvent]:
        delta = text_or_empty(payload.get("delta"))
        return [TextDelta(delta)] if delta else []

    def _reasoning_text(self, payload: dict[str, Any]) -> list[StreamEvent]:
        delta = text_or_empty(payload.get("delta"))
        if not delta:
            return []
        key = (payload.get("item_id"), payload.get("summary_index"))
        if self._summary_key is not None and key != self._summary_key:
            delta = "\n\n" + delta  # a new summary part is a new paragraph
        self._summary_key = key
        return [ReasoningDelta(delta)]

    def _call(self, payload: dict[str, Any], item: dict[str, Any] | None = None) -> _Call:
        keys = [
            key
            for key in (
                (item or {}).get("id"),
                payload.get("item_id"),
                payload.get("output_index"),
            )
            if isinstance(key, str | int) and not isinstance(key, bool)
        ]
        call = next((self._calls[key] for key in keys if key in self._calls), None)
        if call is None and not keys:
            call = self._last_call  # a server that names neither item nor position
        if call is None:
            call = _Call(self._call_count)
            self._call_count += 1
        self._last_call = call
        for key in keys:
            self._calls[key] = call
        return call

    def _announce(self, call: _Call, item: dict[str, Any], arguments: str) -> list[StreamEvent]:
        call_id = text_or_empty(item.get("call_id")) or None
        name = text_or_empty(item.get("name")) or None
        if call.announced or not (call_id or name):
            return [ToolCallDelta(call.index, arguments=arguments)] if arguments else []
        call.announced = True
        return [ToolCallDelta(call.index, call_id, name, arguments)]

    def _catch_up(self, call: _Call, full: str) -> str:
        """The part of the complete arguments not streamed yet (servers that send only
        the `.done` event, or drop a delta); nothing if what was streamed disagrees."""
        if len(full) > len(call.arguments) and full.startswith(call.arguments):
            rest = full[len(call.arguments) :]
            call.arguments = full
            return rest
        return ""

    def _item_added(self, payload: dict[str, Any]) -> list[StreamEvent]:
        item = payload.get("item")
        if not isinstance(item, dict) or item.get("type") != "function_call":
            return []
        call = self._call(payload, item)
        return self._announce(
            call, item, self._catch_up(call, text_or_empty(item.get("arguments")))
        )

    def _arguments_delta(self, payload: dict[str, Any]) -> list[StreamEvent]:
        delta = text_or_empty(payload.get("delta"))
        if not delta:
            return []
        call = self._call(payload)
        call.arguments += delta
        return [ToolCallDelta(call.index, arguments=delta)]

    def _arguments_done(self, payload: dict[str, Any]) -> list[StreamEvent]:
        call = self._call(payload)
        rest = self._catch_up(call, text_or_empty(payload.get("arguments")))
        return [ToolCallDelta(call.index, arguments=rest)] if rest else []

    def _item_done(self, payload: dict[str, Any]) -> list[StreamEvent]:
        item = payload.get("item")
        if not isinstance(item, dict):
            return []
        if item.get("type") == "function_call":
            call = self._call(payload, item)
            return self._announce(
                call, item, self._catch_up(call, text_or_empty(item.get("arguments")))
            )
        if item.get("type") == "reasoning" and (kept := _kept_reasoning(item)):
            self._reasoning.append(kept)
            return [ReasoningSignature(json.dumps(self._reasoning, separators=(",", ":")))]
        return []

    def _completed(self, payload: dict[str, Any]) -> list[StreamEvent]:
        response = payload.get("response")
        response = response if isinstance(response, dict) else {}
        self.usage = parse_usage(response.get("usage")) or self.usage
        self.status = text_or_empty(response.get("status")) or "completed"
        self.terminal = True
        return []

    def _failed(self, payload: dict[str, Any]) -> list[StreamEvent]:
        response = payload.get("response")
        error = response.get("error") if isinstance(response, dict) else None
        raise _error(error or tr("no reason given"), tr("The model failed to answer"), self._redact)

    def _incomplete(self, payload: dict[str, Any]) -> list[StreamEvent]:
        response = payload.get("response")
        raise _incomplete_error(response if isinstance(response, dict) else {})

    def _error_event(self, payload: dict[str, Any]) -> list[StreamEvent]:
        error = payload.get("error") if isinstance(payload.get("error"), dict) else payload
        raise _error(error, tr("The server reported an error"), self._redact)


_Handler = Callable[[ResponsesStreamTranslator, dict[str, Any]], list[StreamEvent]]


_HANDLERS: dict[str, _Handler] = {
    "response.output_text.delta": ResponsesStreamTranslator._text,
    "response.refusal.delta": ResponsesStreamTranslator._text,
    "response.reasoning_summary_text.delta": ResponsesStreamTranslator._reasoning_text,
    "response.reasoning_text.delta": ResponsesStreamTranslator._reasoning_text,
    "response.output_item.added": ResponsesStreamTranslator._item_added,
    "response.function_call_arguments.delta": ResponsesStreamTranslator._arguments_delta,
    "response.function_call_arguments.done": ResponsesStreamTranslator._arguments_done,
    "response.output_item.done": ResponsesStreamTranslator._item_done,
    "response.completed": ResponsesStreamTranslator._completed,
    "response.failed": ResponsesStreamTranslator._failed,
    "response.incomplete": ResponsesStreamTranslator._incomplete,
    "error": ResponsesStreamTranslator._error_event,
}


def _checked_response(payload: Any, redact: Redactor) -> dict[str, Any]:
    answer = json_object(payload)
    if answer.get("error") and answer.get("status") != "failed":
        raise _error(answer["error"], tr("The server reported an error"), redact)
    if answer.get("status") == "failed":
        raise _error(
            answer.get("error") or tr("no reason given"), tr("The model failed to answer"), redact
        )
    return answer


def _output_items(payload: dict[str, Any]) -> list[dict[str, Any]]:
    output = payload.get("output")
    return [item for item in output if isinstance(item, dict)] if isinstance(output, list) else []


def _texts(parts: Any, kind: str) -> list[str]:
    if not isinstance(parts, list):
        return []
    return [
        text_or_empty(part.get("text"))
        for part in parts
        if isinstance(part, dict) and part.get("type") == kind
    ]


def parse_response(payload: Any, redact: Redactor = no_redaction) -> Completion:
    """A whole `response` object. An incomplete one still returns what it has, with
    the reason as `finish_reason` (a title cut short is better than none)."""
    response = _checked_response(payload, redact)
    items = _output_items(response)
    text = "".join(
        piece
        for item in items
        if item.get("type") == "message"
        for piece in _texts(item.get("content"), "output_text")
    )
    reasoning = "\n\n".join(
        piece
        for item in items
        if item.get("type") == "reasoning"
        for piece in _texts(item.get("summary"), "summary_text")
        if piece
    )
    status = text_or_empty(response.get("status")) or None
    details = response.get("incomplete_details")
    if status == "incomplete" and isinstance(details, dict):
        status = text_or_empty(details.get("reason")) or status
    return Completion(
        text=text,
        reasoning=reasoning,
        usage=parse_usage(response.get("usage")),
        finish_reason=status,
    )


def response_events(payload: Any, redact: Redactor = no_redaction) -> list[StreamEvent]:
    """A whole response as stream events, for a server that answered `stream: true`
    with one JSON object."""
    response = _checked_response(payload, redact)
    if response.get("status") == "incomplete":
        raise _incomplete_error(response)
    completion = parse_response(response, redact)
    events: list[StreamEvent] = []
    if completion.reasoning:
        events.append(ReasoningDelta(completion.reasoning))
    if completion.text:
        events.append(TextDelta(completion.text))
    kept = [k for item in _output_items(response) if (k := _kept_reasoning(item))]
    if kept:
        events.append(ReasoningSignature(json.dumps(kept, separators=(",", ":"))))
    calls = [item for item in _output_items(response) if item.get("type") == "function_call"]
    events += [
        ToolCallDelta(
            index,
            text_or_empty(call.get("call_id")) or None,
            text_or_empty(call.get("name")) or None,
            text_or_empty(call.get("arguments")),
        )
        for index, call in enumerate(calls)
    ]
    if completion.usage:
        events.append(UsageReport(completion.usage))
    events.append(Finished(completion.finish_reason))
    return events
