"""Chat Completions answers: SSE chunks and whole `chat.completion` objects as events.

A small stateful translator and pure functions, with no I/O, so every vendor variation
(where reasoning text lives, whether usage arrives, how tool calls are split, errors
inside the stream) is tested without a network.
"""

from __future__ import annotations

import json
from typing import Any

from desktop.core.errors import ProviderError
from desktop.core.events import (
    Finished,
    ReasoningDelta,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageReport,
)
from desktop.core.i18n import tr
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
    reported_error,
    stream_payload,
)


def _reasoning(obj: dict[str, Any]) -> str:
    """DeepSeek/vLLM say `reasoning_content`, OpenRouter and Groq say `reasoning`."""
    return text_or_empty(obj.get("reasoning_content")) or text_or_empty(obj.get("reasoning"))


def parse_usage(raw: Any) -> Usage | None:
    if not isinstance(raw, dict):
        return None
    details = raw.get("completion_tokens_details")
    return Usage(
        input_tokens=count(raw.get("prompt_tokens")),
        output_tokens=count(raw.get("completion_tokens")),
        reasoning_tokens=count(details.get("reasoning_tokens")) if isinstance(details, dict) else 0,
    )


def _payload_usage(payload: dict[str, Any]) -> Usage | None:
    """Usage is top level; Groq nests it under `x_groq`."""
    groq = payload.get("x_groq")
    nested = groq.get("usage") if isinstance(groq, dict) else None
    return parse_usage(payload.get("usage")) or parse_usage(nested)


def _arguments_text(value: Any) -> str:
    """Arguments are JSON text; a few servers send the parsed object instead."""
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return text_or_empty(value)


def _in_stream_error(error: Any, redact: Redactor) -> ProviderError:
    code = error.get("code") if isinstance(error, dict) else None
    return reported_error(redact(trim(error_payload_message(error))), code)


class _ToolCallSlots:
    """Gives each streamed tool call a stable index of our own.

    OpenAI keys the pieces of a call by `index`, sends `id` and `name` on the first one
    and only argument text afterwards. Some compatible servers omit `index`, reuse index
    0 for every call (telling them apart only by `id`), or repeat id and name on every
    piece; all of these come out as the contract says: id and name once, then arguments.
    """

    def __init__(self) -> None:
        self._by_wire: dict[int, int] = {}  # wire index -> our index
        self._ids: list[str | None] = []  # our index -> call id
        self._named: list[bool] = []

    def feed(self, raw: Any) -> list[StreamEvent]:
        if not isinstance(raw, list):
            return []
        events: list[StreamEvent] = []
        for position, piece in enumerate(raw):
            if not isinstance(piece, dict):
                continue
            wire = piece.get("index")
            wire_index = wire if isinstance(wire, int) and not isinstance(wire, bool) else position
            call_id = text_or_empty(piece.get("id")) or None
            function = piece.get("function")
            function = function if isinstance(function, dict) else {}
            name = text_or_empty(function.get("name")) or None
            arguments = _arguments_text(function.get("arguments"))
            index = self._by_wire.get(wire_index)
            if index is None or (call_id and self._ids[index] not in (None, call_id)):
                index = len(self._ids)
                self._by_wire[wire_index] = index
                self._ids.append(None)
                self._named.append(False)
            new_id = call_id if call_id and self._ids[index] is None else None
            if new_id:
                self._ids[index] = new_id
            new_name = name if name and not self._named[index] else None
            if new_name:
                self._named[index] = True
            if new_id or new_name or arguments:
                events.append(ToolCallDelta(index, new_id, new_name, arguments))
        return events


class StreamTranslator:
    """Folds SSE events into stream events. Pure, so every wire quirk is unit-testable.

    Usage is held back and reported once, just before `Finished`, because some servers
    repeat a running total in every chunk.
    """

    def __init__(self, redact: Redactor = no_redaction) -> None:
        self.done = False  # `[DONE]` arrived
        self.finish_reason: str | None = None
        self.usage: Usage | None = None
        self._redact = redact
        self._tool_calls = _ToolCallSlots()

    @property
    def ended(self) -> bool:
        """Nothing more will come: stop reading."""
        return self.done

    @property
    def complete(self) -> bool:
        """The answer is whole (a lost usage chunk or `[DONE]` after it is harmless)."""
        return self.done or self.finish_reason is not None

    def feed(self, sse: ServerSentEvent) -> list[StreamEvent]:
        data = sse.data.strip()
        if data == "[DONE]":
            self.done = True
            return []
        if not data:
            return []
        payload = stream_payload(data, self._redact, "chunk")
        if payload.get("error") or sse.event == "error":
            raise _in_stream_error(payload.get("error") or payload, self._redact)
        # Each field is looked at only when the chunk has it: most chunks carry a few
        # words of content and nothing else, and this runs for every one of them.
        if payload.get("usage") is not None or "x_groq" in payload:
            self.usage = _payload_usage(payload) or self.usage
        choices = payload.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            return []  # e.g. the usage-only final chunk
        choice = choices[0]
        events: list[StreamEvent] = []
        delta = choice.get("delta")
        if isinstance(delta, dict):
            if ("reasoning_content" in delta or "reasoning" in delta) and (
                reasoning := _reasoning(delta)
            ):
                events.append(ReasoningDelta(reasoning))
            if content := text_or_empty(delta.get("content")):
                events.append(TextDelta(content))
            if (calls := delta.get("tool_calls")) is not None:
                events += self._tool_calls.feed(calls)
        if (reason := choice.get("finish_reason")) is not None and (
            reason := text_or_empty(reason)
        ):
            self.finish_reason = reason
        return events

    def finish(self) -> list[StreamEvent]:
        """The closing events: usage (if any), then `Finished` exactly once."""
        return closing_events(self.usage, self.finish_reason)


def _choice_message(payload: Any, redact: Redactor) -> tuple[dict[str, Any], dict[str, Any]]:
    payload = json_object(payload)
    if payload.get("error"):
        raise _in_stream_error(payload["error"], redact)
    choices = payload.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ProviderError(tr("The server's answer contained no choices"))
    choice = choices[0]
    message = choice.get("message")
    return choice, message if isinstance(message, dict) else {}


def parse_completion(payload: Any, redact: Redactor = no_redaction) -> Completion:
    choice, message = _choice_message(payload, redact)
    return Completion(
        text=text_or_empty(message.get("content")),
        reasoning=_reasoning(message),
        usage=_payload_usage(payload),
        finish_reason=text_or_empty(choice.get("finish_reason")) or None,
    )


def completion_events(payload: Any, redact: Redactor = no_redaction) -> list[StreamEvent]:
    """A whole answer as stream events, for servers that ignore `stream: true`."""
    completion = parse_completion(payload, redact)
    _, message = _choice_message(payload, redact)
    events: list[StreamEvent] = []
    if completion.reasoning:
        events.append(ReasoningDelta(completion.reasoning))
    if completion.text:
        events.append(TextDelta(completion.text))
    events += _ToolCallSlots().feed(message.get("tool_calls"))
    if completion.usage:
        events.append(UsageReport(completion.usage))
    events.append(Finished(completion.finish_reason))
    return events
