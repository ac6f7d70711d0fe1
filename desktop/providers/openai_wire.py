"""OpenAI Chat Completions wire format: request bodies and response translation.

Pure functions and a small stateful translator, with no I/O, so every vendor variation
(where reasoning text lives, whether usage arrives, how tool calls are split, errors
inside the stream) is tested without a network.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

from desktop.core.capabilities import ReportedCapabilities
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
from desktop.providers.base import (
    ChatRequest,
    Completion,
    ImageInput,
    RequestMessage,
    ToolResult,
    ToolSpec,
)
from desktop.providers.http_errors import error_payload_message, text_or_empty, trim
from desktop.providers.openai_models import OPENROUTER_EFFORTS, Dialect, family_for
from desktop.providers.sse import ServerSentEvent, json_data

Redactor = Callable[[str], str]

# A call stored without a result (the run was interrupted). Every call in an assistant
# turn must be answered by a `tool` message, or the server refuses the whole request.
NO_RESULT = "The tool call was interrupted before it returned a result."

# --- request ------------------------------------------------------------------------


def data_url(image: ImageInput) -> str:
    return f"data:{image.mime};base64,{base64.b64encode(image.data).decode('ascii')}"


def tool_result_text(result: ToolResult | None) -> str:
    """OpenAI's wires have no error flag on a tool result, so a failure says so in words."""
    if result is None:
        return f"Error: {NO_RESULT}"
    return f"Error: {result.content}" if result.is_error else result.content


def _user_content(message: RequestMessage) -> str | list[dict[str, Any]]:
    if not message.images:
        return message.text
    parts: list[dict[str, Any]] = [{"type": "text", "text": message.text}] if message.text else []
    parts += [{"type": "image_url", "image_url": {"url": data_url(i)}} for i in message.images]
    return parts


def _tool_json(tool: ToolSpec) -> dict[str, Any]:
    function = {"name": tool.name, "description": tool.description, "parameters": tool.parameters}
    return {"type": "function", "function": function}


def _assistant_messages(message: RequestMessage, dialect: Dialect) -> list[dict[str, Any]]:
    """The assistant turn, then one `tool` message per call it made, in call order."""
    if not message.tool_calls:
        return [{"role": "assistant", "content": message.text}]
    item: dict[str, Any] = {"role": "assistant", "content": message.text or None}
    if message.reasoning and dialect.takes_reasoning_content:
        item["reasoning_content"] = message.reasoning  # DeepSeek's thinking mode needs it
    item["tool_calls"] = [
        {
            "id": call.call_id,
            "type": "function",
            "function": {"name": call.name, "arguments": call.arguments or "{}"},
        }
        for call in message.tool_calls
    ]
    results = {result.call_id: result for result in message.tool_results}
    tools = [
        {
            "role": "tool",
            "tool_call_id": call.call_id,
            "content": tool_result_text(results.get(call.call_id)),
        }
        for call in message.tool_calls
    ]
    return [item, *tools]


def build_messages(request: ChatRequest, dialect: Dialect = Dialect.OTHER) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    if request.system:
        messages.append({"role": "system", "content": request.system})
    for message in request.messages:
        if message.role is Role.ASSISTANT:
            messages += _assistant_messages(message, dialect)
        elif message.role is Role.USER:
            messages.append({"role": "user", "content": _user_content(message)})
        else:
            messages.append({"role": message.role.value, "content": message.text})
    return messages


def build_body(
    request: ChatRequest, *, stream: bool, dialect: Dialect = Dialect.OTHER
) -> dict[str, Any]:
    """The JSON body; optional parameters are sent only when set (and only to models that
    accept them), so server defaults hold. See `openai_models` for the per-model rules."""
    family = family_for(request.model, dialect)
    body: dict[str, Any] = {
        "model": request.model,
        "messages": build_messages(request, dialect),
        "stream": stream,
    }
    if stream:
        body["stream_options"] = {"include_usage": True}
    if request.tools:
        body["tools"] = [_tool_json(tool) for tool in request.tools]
    if not family.fixed_sampling:
        if request.temperature is not None:
            body["temperature"] = request.temperature
        if request.top_p is not None:
            body["top_p"] = request.top_p
    if request.max_output_tokens is not None:
        # OpenAI's reasoning models refuse `max_tokens`; OpenRouter translates it itself.
        modern = family.fixed_sampling and dialect is not Dialect.OPENROUTER
        body["max_completion_tokens" if modern else "max_tokens"] = request.max_output_tokens
    if request.reasoning_effort is not None:
        if dialect is Dialect.OPENROUTER:
            body["reasoning"] = {"effort": OPENROUTER_EFFORTS[request.reasoning_effort]}
        elif effort := family.effort(request.reasoning_effort):
            body["reasoning_effort"] = effort
    return body


# --- response translation (pure) ---------------------------------------------------


def _reasoning(obj: dict[str, Any]) -> str:
    """DeepSeek/vLLM say `reasoning_content`, OpenRouter and Groq say `reasoning`."""
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


def _arguments_text(value: Any) -> str:
    """Arguments are JSON text; a few servers send the parsed object instead."""
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return text_or_empty(value)


def _in_stream_error(error: Any, redact: Redactor) -> ProviderError:
    code = error.get("code") if isinstance(error, dict) else None
    status = code if isinstance(code, int) and not isinstance(code, bool) else None
    retryable = status is not None and (status in (408, 409, 429) or status >= 500)
    message = redact(trim(error_payload_message(error)))
    return ProviderError(
        tr("The server reported an error: {message}").format(message=message),
        status_code=status,
        retryable=retryable,
    )


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

    def __init__(self, redact: Redactor = lambda text: text) -> None:
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
        try:
            payload = json_data(data)
        except json.JSONDecodeError:
            preview = self._redact(trim(data, 120))
            raise StreamBrokenError(
                tr("The server sent a malformed stream chunk (not JSON): {preview}").format(
                    preview=preview
                )
            ) from None
        if not isinstance(payload, dict):
            raise StreamBrokenError(tr("The server sent a malformed stream chunk (not an object)"))
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
        events: list[StreamEvent] = [UsageReport(self.usage)] if self.usage else []
        events.append(Finished(self.finish_reason))
        return events


def _choice_message(payload: Any, redact: Redactor) -> tuple[dict[str, Any], dict[str, Any]]:
    if not isinstance(payload, dict):
        raise ProviderError(tr("The server's answer was not a JSON object"))
    if payload.get("error"):
        raise _in_stream_error(payload["error"], redact)
    choices = payload.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ProviderError(tr("The server's answer contained no choices"))
    choice = choices[0]
    message = choice.get("message")
    return choice, message if isinstance(message, dict) else {}


def parse_completion(payload: Any, redact: Redactor = lambda text: text) -> Completion:
    choice, message = _choice_message(payload, redact)
    return Completion(
        text=text_or_empty(message.get("content")),
        reasoning=_reasoning(message),
        usage=_payload_usage(payload),
        finish_reason=text_or_empty(choice.get("finish_reason")) or None,
    )


def completion_events(payload: Any, redact: Redactor = lambda text: text) -> list[StreamEvent]:
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


def parse_model_list(payload: Any) -> list[str]:
    """Model ids from `GET /models` (`{"data": [{"id": ...}]}` or a bare list), sorted."""
    items = payload.get("data") if isinstance(payload, dict) else payload
    if not isinstance(items, list):
        raise ProviderError(tr("The server's model list was not in the expected format"))
    ids = (text_or_empty(item.get("id")) for item in items if isinstance(item, dict))
    return sorted({model_id for model_id in ids if model_id})


# Where OpenAI-compatible servers put a model's context window in `/models` items:
# OpenRouter, LM Studio's native API, vLLM, Groq.
_CONTEXT_KEYS = ("context_length", "max_context_length", "max_model_len", "context_window")
_REASONING_PARAMETERS = {"reasoning", "include_reasoning", "reasoning_effort"}


def parse_model_reports(payload: Any) -> dict[str, ReportedCapabilities]:
    """What a `/models` answer says about each model, by the fields servers add to
    OpenAI's bare items (OpenAI's own items have none, so this finds nothing there).

    OpenRouter: `context_length`, `architecture.input_modalities` ("image": vision) and
    `supported_parameters` ("tools"; "reasoning" / "include_reasoning").
    LM Studio (`/api/v0/models`): `type` ("vlm": vision, "embeddings": not a chat
    model), `max_context_length`, `capabilities` ("tool_use").
    vLLM: `max_model_len`. Groq: `context_window`.
    """
    items = payload.get("data") if isinstance(payload, dict) else payload
    reports: dict[str, ReportedCapabilities] = {}
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and (model_id := text_or_empty(item.get("id"))):
            report = _model_report(item)
            if not report.is_empty:
                reports[model_id] = report
    return reports


def _model_report(item: dict[str, Any]) -> ReportedCapabilities:
    context = next((v for k in _CONTEXT_KEYS if _is_count(v := item.get(k))), None)
    vision: bool | None = None
    tools: bool | None = None
    reasoning: bool | None = None
    chat: bool | None = None
    architecture = item.get("architecture")
    if isinstance(architecture, dict):
        inputs = _strings(architecture.get("input_modalities"))
        outputs = _strings(architecture.get("output_modalities"))
        vision = "image" in inputs if inputs is not None else None
        chat = "text" in outputs if outputs else None
    parameters = _strings(item.get("supported_parameters"))
    if parameters is not None:
        tools = "tools" in parameters
        reasoning = not _REASONING_PARAMETERS.isdisjoint(parameters)
    kind = text_or_empty(item.get("type"))
    if kind in ("llm", "vlm"):
        vision = kind == "vlm"
    elif kind in ("embeddings", "embedding"):
        chat = False
    abilities = _strings(item.get("capabilities"))
    if abilities is not None and kind:
        tools = "tool_use" in abilities
    return ReportedCapabilities(
        vision=vision, tools=tools, reasoning=reasoning, context_length=context, chat=chat
    )


def _strings(value: Any) -> set[str] | None:
    """The strings of a JSON list, or None when the field is not a list (not stated)."""
    return {v for v in value if isinstance(v, str)} if isinstance(value, list) else None


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0
