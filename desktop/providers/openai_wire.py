"""OpenAI Chat Completions wire format: request bodies and response translation.

Pure functions and a small stateful translator, with no I/O, so every vendor variation
(where reasoning text lives, whether usage arrives, errors inside the stream) is tested
without a network.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import Finished, ReasoningDelta, StreamEvent, TextDelta, UsageReport
from desktop.core.models import Role, Usage
from desktop.providers.base import ChatRequest, Completion
from desktop.providers.http_errors import error_payload_message, text_or_empty, trim
from desktop.providers.sse import ServerSentEvent

Redactor = Callable[[str], str]

# --- request ------------------------------------------------------------------------


def build_body(request: ChatRequest, *, stream: bool) -> dict[str, Any]:
    """The JSON body; optional parameters are sent only when set, so server defaults hold."""
    messages: list[dict[str, Any]] = []
    for message in request.messages:
        item: dict[str, Any] = {"role": message.role.value, "content": message.text}
        if message.reasoning and message.role is Role.ASSISTANT:
            item["reasoning_content"] = message.reasoning  # DeepSeek needs it on tool turns
        messages.append(item)
    body: dict[str, Any] = {"model": request.model, "messages": messages, "stream": stream}
    if stream:
        body["stream_options"] = {"include_usage": True}
    if request.temperature is not None:
        body["temperature"] = request.temperature
    if request.top_p is not None:
        body["top_p"] = request.top_p
    if request.max_output_tokens is not None:
        body["max_tokens"] = request.max_output_tokens
    return body


# --- response translation (pure) ---------------------------------------------------


def _reasoning(obj: dict[str, Any]) -> str:
    """DeepSeek/vLLM say `reasoning_content`, OpenRouter says `reasoning`."""
    return text_or_empty(obj.get("reasoning_content")) or text_or_empty(obj.get("reasoning"))


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def parse_usage(raw: Any) -> Usage | None:
    if not isinstance(raw, dict):
        return None
    details = raw.get("completion_tokens_details")
    return Usage(
        input_tokens=_count(raw.get("prompt_tokens")),
        output_tokens=_count(raw.get("completion_tokens")),
        reasoning_tokens=_count(details.get("reasoning_tokens"))
        if isinstance(details, dict)
        else 0,
    )


def _payload_usage(payload: dict[str, Any]) -> Usage | None:
    """Usage is top level; Groq nests it under `x_groq`."""
    groq = payload.get("x_groq")
    nested = groq.get("usage") if isinstance(groq, dict) else None
    return parse_usage(payload.get("usage")) or parse_usage(nested)


def _in_stream_error(error: Any, redact: Redactor) -> ProviderError:
    code = error.get("code") if isinstance(error, dict) else None
    status = code if isinstance(code, int) and not isinstance(code, bool) else None
    retryable = status is not None and (status in (408, 409, 429) or status >= 500)
    message = redact(trim(error_payload_message(error)))
    return ProviderError(
        f"The server reported an error: {message}", status_code=status, retryable=retryable
    )


class StreamTranslator:
    """Folds SSE events into stream events. Pure, so every wire quirk is unit-testable.

    Usage is held back and reported once, just before `Finished`, because some servers
    repeat a running total in every chunk.
    """

    def __init__(self, redact: Redactor = lambda text: text) -> None:
        self.done = False  # `[DONE]` arrived
        self.finish_reason: str | None = None
        self.usage: Usage | None = None
        self._redact = redact

    def feed(self, sse: ServerSentEvent) -> list[StreamEvent]:
        data = sse.data.strip()
        if data == "[DONE]":
            self.done = True
            return []
        if not data:
            return []
        try:
            payload = json.loads(data)
        except json.JSONDecodeError:
            preview = self._redact(trim(data, 120))
            raise StreamBrokenError(
                f"The server sent a malformed stream chunk (not JSON): {preview}"
            ) from None
        if not isinstance(payload, dict):
            raise StreamBrokenError("The server sent a malformed stream chunk (not an object)")
        if payload.get("error") or sse.event == "error":
            raise _in_stream_error(payload.get("error") or payload, self._redact)
        self.usage = _payload_usage(payload) or self.usage
        choices = payload.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            return []  # e.g. the usage-only final chunk
        choice = choices[0]
        events: list[StreamEvent] = []
        delta = choice.get("delta")
        if isinstance(delta, dict):
            if reasoning := _reasoning(delta):
                events.append(ReasoningDelta(reasoning))
            if content := text_or_empty(delta.get("content")):
                events.append(TextDelta(content))
        if reason := text_or_empty(choice.get("finish_reason")):
            self.finish_reason = reason
        return events

    def finish(self) -> list[StreamEvent]:
        """The closing events: usage (if any), then `Finished` exactly once."""
        events: list[StreamEvent] = [UsageReport(self.usage)] if self.usage else []
        events.append(Finished(self.finish_reason))
        return events


def parse_completion(payload: Any, redact: Redactor = lambda text: text) -> Completion:
    if not isinstance(payload, dict):
        raise ProviderError("The server's answer was not a JSON object")
    if payload.get("error"):
        raise _in_stream_error(payload["error"], redact)
    choices = payload.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ProviderError("The server's answer contained no choices")
    choice = choices[0]
    raw_message = choice.get("message")
    message: dict[str, Any] = raw_message if isinstance(raw_message, dict) else {}
    return Completion(
        text=text_or_empty(message.get("content")),
        reasoning=_reasoning(message),
        usage=_payload_usage(payload),
        finish_reason=text_or_empty(choice.get("finish_reason")) or None,
    )


def completion_events(completion: Completion) -> list[StreamEvent]:
    """A whole answer as stream events, for servers that ignore `stream: true`."""
    events: list[StreamEvent] = []
    if completion.reasoning:
        events.append(ReasoningDelta(completion.reasoning))
    if completion.text:
        events.append(TextDelta(completion.text))
    if completion.usage:
        events.append(UsageReport(completion.usage))
    events.append(Finished(completion.finish_reason))
    return events
