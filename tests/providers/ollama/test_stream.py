"""Ollama's NDJSON streams: thinking, finish reasons, lines split across writes, tool calls
and the error lines a stream can carry."""

from __future__ import annotations

import pytest

from desktop.core.capabilities import ReasoningEffort
from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import (
    Finished,
    ReasoningDelta,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageReport,
)
from desktop.core.models import Role, Usage
from desktop.providers.base import (
    ChatRequest,
    RequestMessage,
    ToolCall,
    ToolResult,
    ToolSpec,
)
from desktop.providers.ollama.stream import GENERATED_CALL_PREFIX
from tests.support import ollama_wire as o
from tests.support.adapters import ollama_adapter
from tests.support.provider_calls import (
    Harness,
    server_root,
    text_of,
)
from tests.support.sse_server import (
    SSEServer,
)

MODEL = "qwen3:8b"
REQUEST = ChatRequest(model=MODEL, messages=(RequestMessage(Role.USER, "Hi"),))
HARNESS = Harness(ollama_adapter, server_root, REQUEST)
call = HARNESS.call
stream = HARNESS.stream


def test_thinking_is_reasoning(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        o.ndjson_response(
            o.line(thinking="The user "),
            o.line(thinking="says hi."),
            o.line("Hello!"),
            o.done("stop", 10, 20),
        )
    )
    assert stream(sse_server) == [
        ReasoningDelta("The user "),
        ReasoningDelta("says hi."),
        TextDelta("Hello!"),
        UsageReport(Usage(10, 20, 0)),
        Finished("stop"),
    ]


def test_length_limit_is_passed_through(sse_server: SSEServer) -> None:
    sse_server.enqueue(o.ndjson_response(o.line("Cut"), o.done("length")))
    assert stream(sse_server)[-1] == Finished("length")


def test_lines_split_and_joined_across_writes(sse_server: SSEServer) -> None:
    a, b, done = o.line("a"), o.line("b"), o.done()
    sse_server.enqueue(o.ndjson_response(a[:10], a[10:] + b[:5], b[5:] + done))
    assert text_of(stream(sse_server)) == "ab"


WEATHER = ToolSpec(
    "get_weather",
    "Current weather for a city",
    {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
        "additionalProperties": False,
    },
)


def test_tool_call_round_trip(sse_server: SSEServer) -> None:
    """Ollama sends each call whole, its arguments an object: one delta per call."""
    sse_server.enqueue(
        o.ndjson_response(
            o.line(thinking="I need the weather."),
            o.line(tool_calls=[o.tool_call("get_weather", {"city": "Paris"})]),
            o.line(
                tool_calls=[
                    o.tool_call("get_weather", {"city": "Zürich", "days": 2}, call_id="call_x1")
                ]
            ),
            o.done("stop", 40, 15),
        )
    )
    request = ChatRequest(
        model=MODEL,
        messages=(RequestMessage(Role.USER, "Weather in Paris and Zürich?"),),
        tools=(WEATHER,),
        reasoning_effort=ReasoningEffort.HIGH,
    )
    events = stream(sse_server, request)
    calls = [e for e in events if isinstance(e, ToolCallDelta)]
    assert [(c.index, c.name, c.arguments) for c in calls] == [
        (0, "get_weather", '{"city": "Paris"}'),
        (1, "get_weather", '{"city": "Zürich", "days": 2}'),
    ]
    assert calls[0].call_id and calls[0].call_id.startswith(GENERATED_CALL_PREFIX)
    assert calls[1].call_id == "call_x1"
    assert [e for e in events if not isinstance(e, ToolCallDelta)] == [
        ReasoningDelta("I need the weather."),
        UsageReport(Usage(40, 15, 0)),
        Finished("stop"),
    ]
    assert sse_server.requests[0].json == {
        "model": MODEL,
        "messages": [{"role": "user", "content": "Weather in Paris and Zürich?"}],
        "stream": True,
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "description": "Current weather for a city",
                    "parameters": WEATHER.parameters,
                },
            }
        ],
        "think": True,
    }

    sse_server.enqueue(o.ndjson_response(o.line("Sunny."), o.done()))
    assistant = RequestMessage(
        Role.ASSISTANT,
        "",
        reasoning="I need the weather.",
        tool_calls=(
            *(ToolCall(c.call_id or "", c.name or "", c.arguments) for c in calls),
            ToolCall("call_b", "get_weather", "{not json"),
        ),
        tool_results=(
            ToolResult(calls[0].call_id or "", "get_weather", "18 °C"),
            ToolResult("call_x1", "get_weather", "City not found", is_error=True),
            ToolResult("call_b", "get_weather", "bad arguments", is_error=True),
        ),
    )
    follow_up = ChatRequest(model=MODEL, messages=(*request.messages, assistant))
    assert text_of(stream(sse_server, follow_up)) == "Sunny."
    assert sse_server.requests[1].json["messages"] == [
        {"role": "user", "content": "Weather in Paris and Zürich?"},
        {
            "role": "assistant",
            "content": "",
            "thinking": "I need the weather.",
            "tool_calls": [
                {"function": {"name": "get_weather", "arguments": {"city": "Paris"}}},
                {"function": {"name": "get_weather", "arguments": {"city": "Zürich", "days": 2}}},
                {"function": {"name": "get_weather", "arguments": {"_raw": "{not json"}}},
            ],
        },
        {"role": "tool", "content": "18 °C", "tool_name": "get_weather"},
        {"role": "tool", "content": "Error: City not found", "tool_name": "get_weather"},
        {"role": "tool", "content": "Error: bad arguments", "tool_name": "get_weather"},
    ]


def test_error_line_mid_stream_is_a_broken_stream(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        o.ndjson_response(
            o.line("Partial"), o.error_line("model runner has unexpectedly stopped"), o.done()
        )
    )
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError) as info:
        stream(sse_server, received=received)
    assert str(info.value) == (
        "Ollama reported an error mid-answer: model runner has unexpectedly stopped"
    )
    assert received == [TextDelta("Partial")]


def test_error_line_before_any_text_is_a_provider_error(sse_server: SSEServer) -> None:
    sse_server.enqueue(o.ndjson_response(o.error_line("out of memory")))
    with pytest.raises(ProviderError) as info:
        stream(sse_server)
    assert type(info.value) is ProviderError
    assert str(info.value) == "Ollama reported an error: out of memory"
    assert not info.value.retryable
