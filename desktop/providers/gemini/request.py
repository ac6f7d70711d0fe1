"""Gemini requests: a `ChatRequest` as the body of `generateContent` (the same body for
`streamGenerateContent`: only the URL differs).

Pure functions, no I/O. Thought signatures go back where they came (`signatures`);
tools are declared with schemas Gemini accepts (`schema`).
"""

from __future__ import annotations

import base64
from typing import Any

from desktop.core.models import Role
from desktop.providers.base import ChatRequest, RequestMessage, ToolCall
from desktop.providers.gemini.models import (
    ThinkingFamily,
    thinking_config,
    thinking_family,
    thinks_in_levels,
)
from desktop.providers.gemini.schema import function_declaration
from desktop.providers.gemini.signatures import SKIP_SIGNATURE, stored_signatures
from desktop.providers.wire_common import call_args

# Gemini rarely names its calls; ids made up by `stream` carry this prefix and are not
# sent back.
GENERATED_CALL_PREFIX = "gemini-call-"


def model_path(model: str) -> str:
    """`models/x` for a bare id; `tunedModels/x` and `models/x` pass unchanged."""
    return model if "/" in model else f"models/{model}"


def _function_call(call: ToolCall) -> dict[str, Any]:
    body: dict[str, Any] = {"name": call.name, "args": call_args(call.arguments)}
    if call.call_id and not call.call_id.startswith(GENERATED_CALL_PREFIX):
        body["id"] = call.call_id
    return {"functionCall": body}


def _model_turn(message: RequestMessage, family: ThinkingFamily) -> dict[str, Any] | None:
    text = {"text": message.text} if message.text else None
    calls = [_function_call(call) for call in message.tool_calls]
    parts = ([text] if text else []) + calls
    if not parts:
        return None
    for item in stored_signatures(message.reasoning_signature):
        index = item.get("index")
        if item["on"] == "call" and isinstance(index, int) and 0 <= index < len(calls):
            target = calls[index]
        elif item["on"] == "text" and text is not None:
            target = text
        elif calls and "thoughtSignature" not in calls[0]:
            target = calls[0]  # where Gemini validates a step's signature
        elif "thoughtSignature" not in parts[-1]:
            target = parts[-1]
        else:
            target = {"text": ""}  # its place is taken: back as it came, a part of its own
            parts.append(target)
        target["thoughtSignature"] = item["signature"]
    if calls and "thoughtSignature" not in calls[0] and thinks_in_levels(family):
        calls[0]["thoughtSignature"] = SKIP_SIGNATURE
    return {"role": "model", "parts": parts}


def _results_turn(message: RequestMessage) -> dict[str, Any] | None:
    ids = {call.call_id for call in message.tool_calls}
    parts: list[dict[str, Any]] = []
    for result in message.tool_results:
        response: dict[str, Any] = {
            "name": result.name,
            "response": {"error" if result.is_error else "result": result.content},
        }
        if result.call_id in ids and not result.call_id.startswith(GENERATED_CALL_PREFIX):
            response["id"] = result.call_id
        parts.append({"functionResponse": response})
    return {"role": "user", "parts": parts} if parts else None


def _user_turn(message: RequestMessage) -> dict[str, Any] | None:
    # Google advises the images first and the question after them.
    parts: list[dict[str, Any]] = [
        {
            "inlineData": {
                "mimeType": image.mime,
                "data": base64.b64encode(image.data).decode("ascii"),
            }
        }
        for image in message.images
    ]
    if message.text:
        parts.append({"text": message.text})
    return {"role": "user", "parts": parts} if parts else None


def build_body(request: ChatRequest) -> dict[str, Any]:
    """The JSON body (the same for streaming and not: the URL differs). Optional
    parameters are sent only when set, so the server's defaults hold."""
    family = thinking_family(request.model)
    system: list[str] = [request.system] if request.system else []
    contents: list[dict[str, Any]] = []
    for message in request.messages:
        if message.role is Role.SYSTEM:
            if message.text:
                system.append(message.text)
            continue
        if message.role is Role.ASSISTANT:
            turns = [_model_turn(message, family), _results_turn(message)]
        else:
            turns = [_user_turn(message)]
        contents += [turn for turn in turns if turn is not None]
    body: dict[str, Any] = {"contents": contents}
    if system:
        body["systemInstruction"] = {"parts": [{"text": text} for text in system]}
    if request.tools:
        declarations = [function_declaration(tool) for tool in request.tools]
        body["tools"] = [{"functionDeclarations": declarations}]
    config: dict[str, Any] = {}
    if request.temperature is not None:
        config["temperature"] = request.temperature
    if request.top_p is not None:
        config["topP"] = request.top_p
    if request.max_output_tokens is not None:
        config["maxOutputTokens"] = request.max_output_tokens
    thinking = thinking_config(request.model, request.reasoning_effort)
    if thinking is not None:
        config["thinkingConfig"] = thinking
    if config:
        body["generationConfig"] = config
    return body
