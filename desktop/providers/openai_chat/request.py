"""Chat Completions requests: a `ChatRequest` as the JSON body of `POST /chat/completions`.

Pure functions, no I/O, so every server's variation (which parameters a model refuses,
where DeepSeek wants its reasoning back, how OpenRouter takes an effort) is tested
without a network. See `openai_models` for the per-model rules.
"""

from __future__ import annotations

from typing import Any

from desktop.core.models import Role
from desktop.providers.base import ChatRequest, RequestMessage, ToolSpec
from desktop.providers.openai_models import OPENROUTER_EFFORTS, Dialect, family_for
from desktop.providers.wire_common import data_url, tool_result_text


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
