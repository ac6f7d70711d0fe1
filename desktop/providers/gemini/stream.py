"""Gemini answers: `GenerateContentResponse` chunks (and whole answers) as stream events.

A small stateful translator with no I/O, so every Gemini quirk (thought parts, thought
signatures, whole function calls, safety stops) is tested without a network.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import (
    ReasoningDelta,
    ReasoningSignature,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
)
from desktop.core.i18n import QT_TR_NOOP, tr
from desktop.core.models import Usage
from desktop.providers.base import Completion
from desktop.providers.gemini.request import GENERATED_CALL_PREFIX
from desktop.providers.gemini.signatures import signature_value
from desktop.providers.http_errors import BROKEN, text_or_empty, trim
from desktop.providers.sse import ServerSentEvent
from desktop.providers.wire_common import (
    Redactor,
    closing_events,
    count,
    json_object,
    new_call_id,
    no_redaction,
    reported_error,
    stream_payload,
)


def new_gemini_call_id() -> str:
    return new_call_id(GENERATED_CALL_PREFIX)


def parse_usage(raw: Any) -> Usage | None:
    """Gemini counts thoughts apart from the answer; here, as for OpenAI, output tokens
    include the reasoning tokens."""
    if not isinstance(raw, dict):
        return None
    thoughts = count(raw.get("thoughtsTokenCount"))
    return Usage(
        input_tokens=count(raw.get("promptTokenCount")),
        output_tokens=count(raw.get("candidatesTokenCount")) + thoughts,
        reasoning_tokens=thoughts,
    )


def error_from_payload(error: Any, redact: Redactor) -> ProviderError:
    """An `{"error": {"code", "message", "status"}}` object sent inside a 200 stream."""
    code = error.get("code") if isinstance(error, dict) else None
    if isinstance(error, dict):
        message = text_or_empty(error.get("message")) or text_or_empty(error.get("status"))
    else:
        message = text_or_empty(error)
    return reported_error(redact(trim(message or tr("unknown error"))), code)


# Finish reasons that mean the answer was stopped, not completed, worded for people.
_STOPPED = {
    "SAFETY": QT_TR_NOOP("it was flagged by Gemini's safety filters"),
    "RECITATION": QT_TR_NOOP("it too closely repeated existing (possibly copyrighted) material"),
    "LANGUAGE": QT_TR_NOOP("it was in a language Gemini does not support"),
    "BLOCKLIST": QT_TR_NOOP("it contained terms on a blocklist"),
    "PROHIBITED_CONTENT": QT_TR_NOOP("it may contain prohibited content"),
    "SPII": QT_TR_NOOP("it may contain sensitive personal information"),
    "IMAGE_SAFETY": QT_TR_NOOP("an image was flagged by Gemini's safety filters"),
    "IMAGE_PROHIBITED_CONTENT": QT_TR_NOOP("an image may contain prohibited content"),
    "MALFORMED_FUNCTION_CALL": QT_TR_NOOP("Gemini wrote a tool call it could not format"),
    "UNEXPECTED_TOOL_CALL": QT_TR_NOOP("Gemini called a tool although none was offered"),
    "TOO_MANY_TOOL_CALLS": QT_TR_NOOP("Gemini made too many tool calls in a row"),
}


_PROMPT_BLOCKED = {
    "SAFETY": QT_TR_NOOP("it was flagged by Gemini's safety filters"),
    "BLOCKLIST": QT_TR_NOOP("it contains terms on a blocklist"),
    "PROHIBITED_CONTENT": QT_TR_NOOP("it may contain prohibited content"),
    "IMAGE_SAFETY": QT_TR_NOOP("an image in it was flagged by Gemini's safety filters"),
}


class StreamTranslator:
    """Folds `GenerateContentResponse`s into stream events.

    Usage is held back and reported once, before `Finished`, because every chunk repeats
    the running total. A stop for safety (or another refusal) becomes a readable
    `ProviderError` from `finish()`, after the text that did arrive.
    """

    def __init__(
        self,
        redact: Redactor = no_redaction,
        call_id: Callable[[], str] = new_gemini_call_id,
    ) -> None:
        self.finish_reason: str | None = None
        self.usage: Usage | None = None
        self._redact = redact
        self._new_call_id = call_id
        self._calls = 0
        self._signatures: list[dict[str, Any]] = []  # every one, with where it came
        self._announced = 0  # how many of them a `ReasoningSignature` carried
        self._finish_message = ""

    @property
    def ended(self) -> bool:
        return False  # the finish reason may come before the last usage: read to the end

    @property
    def complete(self) -> bool:
        return self.finish_reason is not None

    def whole(self, payload: Any) -> list[StreamEvent]:
        """A whole answer as JSON: a list of responses (a proxy dropped `alt=sse`)."""
        events: list[StreamEvent] = []
        for item in payload if isinstance(payload, list) else [payload]:
            if not isinstance(item, dict):
                raise ProviderError(tr("The server's answer was not in the expected format"))
            events += self.feed_payload(item)
        if not self.complete:
            raise StreamBrokenError(tr(BROKEN))
        return events + self.finish()

    def feed(self, sse: ServerSentEvent) -> list[StreamEvent]:
        data = sse.data.strip()
        if not data:
            return []
        payload = stream_payload(data, self._redact, "chunk")
        return self.feed_payload(payload)

    def feed_payload(self, payload: dict[str, Any]) -> list[StreamEvent]:
        if payload.get("error"):
            raise error_from_payload(payload["error"], self._redact)
        self.usage = parse_usage(payload.get("usageMetadata")) or self.usage
        feedback = payload.get("promptFeedback")
        blocked = text_or_empty(feedback.get("blockReason")) if isinstance(feedback, dict) else ""
        if blocked:
            words = _PROMPT_BLOCKED.get(
                blocked, QT_TR_NOOP("it conflicts with Gemini's content policy")
            )
            raise ProviderError(
                tr("Gemini refused the prompt because {reason} ({code})").format(
                    reason=tr(words), code=blocked
                )
            )
        candidates = payload.get("candidates")
        if not isinstance(candidates, list) or not candidates:
            return []
        candidate = candidates[0]
        if not isinstance(candidate, dict):
            return []
        events: list[StreamEvent] = []
        content = candidate.get("content")
        parts = content.get("parts") if isinstance(content, dict) else None
        for part in parts if isinstance(parts, list) else ():
            if isinstance(part, dict):
                events += self._part(part)
        if reason := text_or_empty(candidate.get("finishReason")):
            self.finish_reason = reason
            self._finish_message = text_or_empty(candidate.get("finishMessage"))
        return events

    def _part(self, part: dict[str, Any]) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        signature = text_or_empty(part.get("thoughtSignature"))
        call = part.get("functionCall")
        if isinstance(call, dict):
            if signature:
                self._signatures.append(
                    {"on": "call", "index": self._calls, "signature": signature}
                )
                events += self._announce()
            args = call.get("args")
            events.append(
                ToolCallDelta(
                    index=self._calls,
                    call_id=text_or_empty(call.get("id")) or self._new_call_id(),
                    name=text_or_empty(call.get("name")),
                    arguments=json.dumps(
                        args if isinstance(args, dict) else {}, ensure_ascii=False
                    ),
                )
            )
            self._calls += 1
            return events
        text = text_or_empty(part.get("text"))
        thought = part.get("thought") is True
        if text:
            events.append(ReasoningDelta(text) if thought else TextDelta(text))
        if signature:
            on = "text" if text and not thought else "end"
            self._signatures.append({"on": on, "signature": signature})
        return events

    def _announce(self) -> list[StreamEvent]:
        """Every signature so far, when some arrived since the last announcement."""
        if len(self._signatures) == self._announced:
            return []
        self._announced = len(self._signatures)
        return [ReasoningSignature(signature_value(self._signatures, self._calls))]

    def finish(self) -> list[StreamEvent]:
        """The closing events: a pending signature, usage, then `Finished` once; or the
        readable error when Gemini stopped the answer instead of completing it."""
        reason = self.finish_reason
        if reason in _STOPPED:
            why = tr(_STOPPED[reason])
            if self._finish_message:
                text = tr("Gemini stopped the answer because {reason} ({code}): {detail}").format(
                    reason=why, code=reason, detail=self._redact(trim(self._finish_message))
                )
            else:
                text = tr("Gemini stopped the answer because {reason} ({code})").format(
                    reason=why, code=reason
                )
            raise ProviderError(text)
        return self._announce() + closing_events(self.usage, reason)


def parse_completion(payload: Any, redact: Redactor = no_redaction) -> Completion:
    """A whole `generateContent` answer (tool calls are only streamed)."""
    translator = StreamTranslator(redact)
    events = translator.feed_payload(json_object(payload)) + translator.finish()
    return Completion(
        text="".join(e.text for e in events if isinstance(e, TextDelta)),
        reasoning="".join(e.text for e in events if isinstance(e, ReasoningDelta)),
        usage=translator.usage,
        finish_reason=translator.finish_reason,
    )
