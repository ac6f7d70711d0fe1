"""Responses API request bodies: reasoning items on continuations, images and system
messages, and the reasoning settings of each model family."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from desktop.core.capabilities import ReasoningEffort
from desktop.core.models import Role
from desktop.providers.base import (
    ChatRequest,
    ImageInput,
    RequestMessage,
    ToolCall,
    ToolResult,
)
from tests.support.adapters import openai_responses_adapter
from tests.support.provider_calls import (
    Harness,
    server_v1,
)
from tests.support.responses_wire import (
    ResponsesWire,
)
from tests.support.sse_server import (
    SSEServer,
    sse_response,
)

KEY = "sk-test-SECRET-0123456789"
REQUEST = ChatRequest(model="gpt-4.1", messages=(RequestMessage(Role.USER, "Hi"),))
HARNESS = Harness(openai_responses_adapter, server_v1, REQUEST)
call = HARNESS.call
stream = HARNESS.stream


def sent(server: SSEServer, index: int = -1) -> dict[str, Any]:
    return server.requests[index].json


def test_continuation_to_a_non_reasoning_model_drops_reasoning_items(
    sse_server: SSEServer,
) -> None:
    signature = json.dumps(
        [{"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "x"}]
    )
    request = ChatRequest(
        model="gpt-4.1",
        messages=(
            RequestMessage(Role.USER, "Hi"),
            RequestMessage(
                Role.ASSISTANT,
                "Checking.",
                reasoning="Thought.",
                reasoning_signature=signature,
                tool_calls=(ToolCall("c", "f", ""), ToolCall("d", "f", "{}")),
                tool_results=(ToolResult("c", "f", "Not allowed.", is_error=True),),
            ),
        ),
    )
    sse_server.enqueue(sse_response(ResponsesWire().completed()))
    stream(sse_server, request)
    assert sent(sse_server)["input"][1:] == [
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Checking."}],
        },
        {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
        {"type": "function_call", "call_id": "d", "name": "f", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c", "output": "Error: Not allowed."},
        {
            "type": "function_call_output",
            "call_id": "d",
            "output": "Error: The tool call was interrupted before it returned a result.",
        },
    ]
    assert "include" not in sent(sse_server)


def test_images_system_messages_and_extra_fields(sse_server: SSEServer) -> None:
    png = b"\x89PNG\r\n\x1a\nfake"
    request = ChatRequest(
        model="gpt-4.1",
        messages=(
            RequestMessage(Role.SYSTEM, "Old-style system turn."),
            RequestMessage(Role.USER, "What is this?", images=(ImageInput("image/png", png),)),
            RequestMessage(Role.USER, "", images=(ImageInput("image/jpeg", b"\xff\xd8"),)),
        ),
        extra_headers={"OpenAI-Organization": "org-1", "Authorization": "Bearer other"},
        extra_body={"store": True, "metadata": {"app": "parley"}, "stream": None},
    )
    sse_server.enqueue(sse_response(ResponsesWire().completed()))
    stream(sse_server, request, api_key=KEY)
    got = sse_server.requests[-1]
    assert got.headers["openai-organization"] == "org-1"
    assert got.headers["authorization"] == "Bearer other"
    body = got.json
    assert body["input"] == [
        {
            "type": "message",
            "role": "system",
            "content": [{"type": "input_text", "text": "Old-style system turn."}],
        },
        {
            "type": "message",
            "role": "user",
            "content": [
                {"type": "input_text", "text": "What is this?"},
                {
                    "type": "input_image",
                    "image_url": "data:image/png;base64," + base64.b64encode(png).decode(),
                    "detail": "auto",
                },
            ],
        },
        {
            "type": "message",
            "role": "user",
            "content": [
                {
                    "type": "input_image",
                    "image_url": "data:image/jpeg;base64,/9g=",
                    "detail": "auto",
                }
            ],
        },
    ]
    assert body["store"] is True
    assert body["metadata"] == {"app": "parley"}
    assert "stream" not in body


@pytest.mark.parametrize(
    ("model", "effort", "reasoning", "include"),
    [
        ("gpt-5", ReasoningEffort.MAX, {"effort": "high", "summary": "auto"}, True),
        ("gpt-5.1", ReasoningEffort.OFF, {"effort": "none", "summary": "auto"}, True),
        ("gpt-5.2", ReasoningEffort.MAX, {"effort": "xhigh", "summary": "auto"}, True),
        ("gpt-5-pro", ReasoningEffort.LOW, {"effort": "high", "summary": "auto"}, True),
        ("o3", ReasoningEffort.OFF, {"summary": "auto"}, True),
        ("o3", None, {"summary": "auto"}, True),
        ("gpt-oss-120b", ReasoningEffort.MEDIUM, {"effort": "medium", "summary": "auto"}, False),
        ("gpt-4.1", ReasoningEffort.HIGH, None, False),
        ("gpt-5-chat-latest", ReasoningEffort.HIGH, None, False),
    ],
)
def test_reasoning_effort_per_model_family(
    sse_server: SSEServer,
    model: str,
    effort: ReasoningEffort | None,
    reasoning: dict[str, str] | None,
    include: bool,
) -> None:
    sse_server.enqueue(sse_response(ResponsesWire().completed()))
    request = ChatRequest(
        model=model, messages=REQUEST.messages, reasoning_effort=effort, temperature=0.7
    )
    stream(sse_server, request)
    body = sent(sse_server)
    assert body.get("reasoning") == reasoning
    assert ("include" in body) is include
    assert ("temperature" in body) is (not include)
