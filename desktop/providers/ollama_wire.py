"""Ollama's native `/api/chat` wire format: request bodies and NDJSON translation.

Pure functions and a small stateful translator, with no I/O. Ollama's own API (rather
than its OpenAI-compatible one) is used because it carries what the other does not: the
`think` switch, reasoning in its own field, and tool results named for the templates of
local models.
"""

from __future__ import annotations

import base64
import json
import re
import uuid
from collections.abc import Callable
from typing import Any

from desktop.core.capabilities import ReasoningEffort, ReportedCapabilities
from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import (
    Finished,
    ReasoningDelta,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageReport,
)
from desktop.core.i18n import tr
from desktop.core.models import Role, Usage
from desktop.providers.base import ChatRequest, Completion, RequestMessage
from desktop.providers.http_errors import BROKEN, error_payload_message, text_or_empty, trim

Redactor = Callable[[str], str]

DEFAULT_BASE_URL = "http://127.0.0.1:11434"
GENERATED_CALL_PREFIX = "ollama-call-"


def api_root(base_url: str) -> str:
    """The server root: a pasted `.../api` or OpenAI-style `.../v1` is taken back off."""
    root = base_url.strip().rstrip("/") or DEFAULT_BASE_URL
    return re.sub(r"/(api|v1)$", "", root)


def new_call_id() -> str:
    return GENERATED_CALL_PREFIX + uuid.uuid4().hex[:24]


# --- reasoning effort ------------------------------------------------------------------

_GPT_OSS_LEVELS = {
    ReasoningEffort.OFF: "low",  # gpt-oss always reasons: the least it does is "low"
    ReasoningEffort.LOW: "low",
    ReasoningEffort.MEDIUM: "medium",
    ReasoningEffort.HIGH: "high",
    ReasoningEffort.MAX: "high",
}


def think_value(model: str, effort: ReasoningEffort | None) -> bool | str | None:
    """The `think` field: gpt-oss takes a level (and ignores booleans), every other
    thinking model takes on/off. None leaves the field out (the model's default)."""
    if effort is None:
        return None
    if re.search(r"gpt-oss", model, re.IGNORECASE):
        return _GPT_OSS_LEVELS[effort]
    return effort is not ReasoningEffort.OFF


# --- request ---------------------------------------------------------------------------


def call_args(arguments: str) -> dict[str, Any]:
    """Our stored JSON text as the object Ollama wants; text that is not a JSON object
    goes back as `{"_raw": text}`, so the model sees what it wrote."""
    text = arguments.strip()
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return {"_raw": arguments}
    return value if isinstance(value, dict) else {"_raw": arguments}


def _messages(message: RequestMessage) -> list[dict[str, Any]]:
    item: dict[str, Any] = {"role": message.role.value, "content": message.text}
    if message.images and message.role is Role.USER:
        item["images"] = [base64.b64encode(image.data).decode("ascii") for image in message.images]
    if message.role is not Role.ASSISTANT:
        return [item]
    if message.reasoning:
        item["thinking"] = message.reasoning  # templates show it on tool continuations
    if message.tool_calls:
        item["tool_calls"] = [
            {"function": {"name": call.name, "arguments": call_args(call.arguments)}}
            for call in message.tool_calls
        ]
    results = [
        {
            "role": "tool",
            "content": f"Error: {result.content}" if result.is_error else result.content,
            "tool_name": result.name,
        }
        for result in message.tool_results
    ]
    return [item, *results]


def build_body(request: ChatRequest, *, stream: bool) -> dict[str, Any]:
    """The JSON body; optional fields are sent only when set, so the model's own
    defaults (from its Modelfile) hold."""
    messages: list[dict[str, Any]] = []
    if request.system:
        messages.append({"role": "system", "content": request.system})
    for message in request.messages:
        messages += _messages(message)
    body: dict[str, Any] = {"model": request.model, "messages": messages, "stream": stream}
    if request.tools:
        body["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": tool.name,
                    "description": tool.description,
                    "parameters": tool.parameters,
                },
            }
            for tool in request.tools
        ]
    options: dict[str, Any] = {}
    if request.temperature is not None:
        options["temperature"] = request.temperature
    if request.top_p is not None:
        options["top_p"] = request.top_p
    if request.max_output_tokens is not None:
        options["num_predict"] = request.max_output_tokens
    if options:
        body["options"] = options
    think = think_value(request.model, request.reasoning_effort)
    if think is not None:
        body["think"] = think
    return body


# --- response translation (pure) -------------------------------------------------------


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


class StreamTranslator:
    """Folds NDJSON lines into stream events.

    The last line (`"done": true`) carries the finish reason and the token counts. An
    `{"error": ...}` line before anything arrived is a plain `ProviderError`; after text
    arrived it is a broken stream, so the partial answer is kept.
    """

    def __init__(
        self,
        redact: Redactor = lambda text: text,
        call_id: Callable[[], str] = new_call_id,
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
                input_tokens=_count(payload.get("prompt_eval_count")),
                output_tokens=_count(payload.get("eval_count")),
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
        events: list[StreamEvent] = [UsageReport(self.usage)] if self.usage else []
        events.append(Finished(self.finish_reason))
        return events


def parse_completion(payload: Any, redact: Redactor = lambda text: text) -> Completion:
    if not isinstance(payload, dict):
        raise ProviderError(tr("The server's answer was not a JSON object"))
    translator = StreamTranslator(redact)
    events = translator.feed_payload(payload)
    return Completion(
        text="".join(e.text for e in events if isinstance(e, TextDelta)),
        reasoning="".join(e.text for e in events if isinstance(e, ReasoningDelta)),
        usage=translator.usage,
        finish_reason=translator.finish_reason,
    )


def parse_tags(payload: Any) -> list[str]:
    """Model names from `GET /api/tags`, sorted."""
    items = payload.get("models") if isinstance(payload, dict) else None
    if not isinstance(items, list):
        raise ProviderError(tr("The server's model list was not in the expected format"))
    names = (text_or_empty(item.get("name")) for item in items if isinstance(item, dict))
    return sorted({name for name in names if name})


def parse_show(payload: Any) -> ReportedCapabilities:
    """What `POST /api/show` says about one model.

    `capabilities` (Ollama 0.6.4 and later) lists what the model's template and weights
    allow: "completion" (it can answer; embedding models lack it), "vision", "tools",
    "thinking", "insert". `model_info` holds the model's own context window under
    `<architecture>.context_length`. An older server without the list states nothing
    but the window.
    """
    if not isinstance(payload, dict):
        return ReportedCapabilities()
    info = payload.get("model_info")
    context = None
    if isinstance(info, dict):
        context = next(
            (
                value
                for key, value in info.items()
                if key.endswith(".context_length") and _is_count(value)
            ),
            None,
        )
    listed = payload.get("capabilities")
    if not isinstance(listed, list):
        return ReportedCapabilities(context_length=context)
    names = {name for name in listed if isinstance(name, str)}
    return ReportedCapabilities(
        vision="vision" in names,
        tools="tools" in names,
        reasoning="thinking" in names,
        context_length=context,
        chat="completion" in names,
    )


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0
