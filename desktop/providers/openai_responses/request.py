"""Responses API requests: a `ChatRequest` as the JSON body of `POST /responses`.

Parley keeps the conversation itself, so requests are stateless (`store: false`) and
carry the whole history as `input` items. A reasoning model's reasoning cannot be
replayed as text: it comes back as an encrypted reasoning item
(`include: ["reasoning.encrypted_content"]`), which `stream` hands out as a
`ReasoningSignature` and `build_body` puts back in `input` on tool continuations.
"""

from __future__ import annotations

import json
from typing import Any

from desktop.core.models import Role
from desktop.providers.base import ChatRequest, RequestMessage, ToolSpec
from desktop.providers.openai_models import family_for
from desktop.providers.wire_common import data_url, tool_result_text


def _user_content(message: RequestMessage) -> list[dict[str, Any]]:
    parts: list[dict[str, Any]] = []
    if message.text or not message.images:
        parts.append({"type": "input_text", "text": message.text})
    parts += [
        {"type": "input_image", "image_url": data_url(image), "detail": "auto"}
        for image in message.images
    ]
    return parts


def reasoning_items(signature: str | None) -> list[dict[str, Any]]:
    """The reasoning items kept in a signature; anything unreadable is dropped (the
    request still works without them, it only loses the model's earlier thinking)."""
    if not signature:
        return []
    try:
        data = json.loads(signature)
    except json.JSONDecodeError:
        return []
    items = data if isinstance(data, list) else [data]
    return [
        item
        for item in items
        if isinstance(item, dict)
        and item.get("type") == "reasoning"
        and isinstance(item.get("encrypted_content"), str)
    ]


def _assistant_items(message: RequestMessage, *, with_reasoning: bool) -> list[dict[str, Any]]:
    """Reasoning, text, the calls, then their outputs: the order the model produced them."""
    # As before the calls: a turn without calls needs no reasoning to go on from.
    kept = with_reasoning and bool(message.tool_calls)
    items = reasoning_items(message.reasoning_signature) if kept else []
    if message.text:
        content = [{"type": "output_text", "text": message.text}]
        items.append({"type": "message", "role": "assistant", "content": content})
    items += [
        {
            "type": "function_call",
            "call_id": call.call_id,
            "name": call.name,
            "arguments": call.arguments or "{}",
        }
        for call in message.tool_calls
    ]
    results = {result.call_id: result for result in message.tool_results}
    items += [
        {
            "type": "function_call_output",
            "call_id": call.call_id,
            "output": tool_result_text(results.get(call.call_id)),
        }
        for call in message.tool_calls
    ]
    return items


def build_input(request: ChatRequest, *, with_reasoning: bool) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for message in request.messages:
        if message.role is Role.ASSISTANT:
            items += _assistant_items(message, with_reasoning=with_reasoning)
        elif message.role is Role.USER:
            items.append({"type": "message", "role": "user", "content": _user_content(message)})
        else:
            content = [{"type": "input_text", "text": message.text}]
            items.append({"type": "message", "role": message.role.value, "content": content})
    return items


def _tool_json(tool: ToolSpec) -> dict[str, Any]:
    # Responses tools are strict unless told otherwise, and strict mode refuses most
    # hand-written and MCP schemas (every property required, no extra properties).
    return {
        "type": "function",
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.parameters,
        "strict": False,
    }


def build_body(request: ChatRequest, *, stream: bool) -> dict[str, Any]:
    """The JSON body. OpenAI's reasoning models get `reasoning` and the encrypted
    reasoning items, and never temperature/top_p, which they refuse."""
    family = family_for(request.model)
    body: dict[str, Any] = {"model": request.model}
    if request.system:
        body["instructions"] = request.system
    body["input"] = build_input(request, with_reasoning=family.fixed_sampling)
    if request.tools:
        body["tools"] = [_tool_json(tool) for tool in request.tools]
    if not family.fixed_sampling:
        if request.temperature is not None:
            body["temperature"] = request.temperature
        if request.top_p is not None:
            body["top_p"] = request.top_p
    if request.max_output_tokens is not None:
        body["max_output_tokens"] = request.max_output_tokens
    if family.efforts is not None:
        reasoning: dict[str, Any] = {}
        if effort := family.effort(request.reasoning_effort):
            reasoning["effort"] = effort
        reasoning["summary"] = "auto"
        body["reasoning"] = reasoning
    if family.fixed_sampling:
        body["include"] = ["reasoning.encrypted_content"]
    body["store"] = False
    body["stream"] = stream
    return body
