"""Ollama answers: NDJSON lines (and whole answers) as stream events.

A small stateful translator with no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import ReasoningDelta, StreamEvent, TextDelta, ToolCallDelta
from desktop.core.i18n import tr
from desktop.core.models import Usage
from desktop.providers.base import Completion
from desktop.providers.http_errors import BROKEN, error_payload_message, text_or_empty, trim
from desktop.providers.wire_common import (
    Redactor,
    closing_events,
    count,
    json_object,
    new_call_id,
    no_redaction,
)

# Ollama names no calls; ids made up here carry this prefix.
GENERATED_CALL_PREFIX = "ollama-call-"


def new_ollama_call_id() -> str:
    return new_call_id(GENERATED_CALL_PREFIX)


class StreamTranslator:
    """Folds NDJSON lines into stream events.

    The last line (`"done": true`) carries the finish reason and the token counts. An
    `{"error": ...}` line before anything arrived is a plain `ProviderError`; after text
    arrived it is a broken stream, so the partial answer is kept.
    """

    def __init__(
        self,
        redact: Redactor = no_redaction,
        call_id: Callable[[], str] = new_ollama_call_id,
    ) -> None:
        self.done = False
        self.finish_reason: str | None = None
        self.usage: Usage | None = None
        self._redact = redact
        self._new_call_id = call_id
        self._calls = 0
        self._received = False

    @property
    def ended(self) -> bool:
        return self.done

    @property
    def complete(self) -> bool:
        return self.done

    def whole(self, payload: Any) -> list[StreamEvent]:
        """A whole answer as one JSON object (`stream` ignored by the server)."""
        events = self.feed_payload(payload) if isinstance(payload, dict) else []
        if not self.complete:
            raise StreamBrokenError(tr(BROKEN))
        return events + self.finish()

    def feed(self, line: str) -> list[StreamEvent]:
        try:
            payload = json.loads(line)
        except json.JSONDecodeError:
            preview = self._redact(trim(line, 120))
            raise StreamBrokenError(
                tr("The server sent a malformed stream line (not JSON): {preview}").format(
                    preview=preview
                )
            ) from None
        if not isinstance(payload, dict):
            raise StreamBrokenError(tr("The server sent a malformed stream line (not an object)"))
        return self.feed_payload(payload)

    def feed_payload(self, payload: dict[str, Any]) -> list[StreamEvent]:
        if payload.get("error"):
            reason = self._redact(trim(error_payload_message(payload["error"])))
            if self._received:
                raise StreamBrokenError(
                    tr("Ollama reported an error mid-answer: {reason}").format(reason=reason)
                )
            raise ProviderError(tr("Ollama reported an error: {reason}").format(reason=reason))
        events: list[StreamEvent] = []
        message = payload.get("message")
        if isinstance(message, dict):
            if thinking := text_or_empty(message.get("thinking")):
                events.append(ReasoningDelta(thinking))
            if content := text_or_empty(message.get("content")):
                events.append(TextDelta(content))
            calls = message.get("tool_calls")
            for call in calls if isinstance(calls, list) else ():
                if delta := self._call(call):
                    events.append(delta)
        if payload.get("done") is True:
            self.done = True
            self.finish_reason = text_or_empty(payload.get("done_reason")) or "stop"
            self.usage = Usage(
                input_tokens=count(payload.get("prompt_eval_count")),
                output_tokens=count(payload.get("eval_count")),
            )
        self._received = self._received or bool(events)
        return events

    def _call(self, call: Any) -> ToolCallDelta | None:
        """Ollama sends each call whole, its arguments already an object."""
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            return None
        args = function.get("arguments")
        if isinstance(args, str):  # some model templates leave the JSON as text
            arguments = args
        else:
            arguments = json.dumps(args if isinstance(args, dict) else {}, ensure_ascii=False)
        delta = ToolCallDelta(
            index=self._calls,
            call_id=text_or_empty(call.get("id")) or self._new_call_id(),
            name=text_or_empty(function.get("name")),
            arguments=arguments,
        )
        self._calls += 1
        return delta

    def finish(self) -> list[StreamEvent]:
        """The closing events: usage, then `Finished` exactly once."""
        return closing_events(self.usage, self.finish_reason)


def parse_completion(payload: Any, redact: Redactor = no_redaction) -> Completion:
    translator = StreamTranslator(redact)
    events = translator.feed_payload(json_object(payload))
    return Completion(
        text="".join(e.text for e in events if isinstance(e, TextDelta)),
        reasoning="".join(e.text for e in events if isinstance(e, ReasoningDelta)),
        usage=translator.usage,
        finish_reason=translator.finish_reason,
    )
