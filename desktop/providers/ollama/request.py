"""Ollama requests: a `ChatRequest` as the body of its native `POST /api/chat`.

Ollama's own API (rather than its OpenAI-compatible one) is used because it carries
what the other does not: the `think` switch, reasoning in its own field, and tool
results named for the templates of local models. Pure functions, no I/O.
"""

from __future__ import annotations

import base64
import re
from typing import Any

from desktop.core.capabilities import ReasoningEffort
from desktop.core.models import Role
from desktop.providers.base import ChatRequest, RequestMessage
from desktop.providers.wire_common import call_args

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
