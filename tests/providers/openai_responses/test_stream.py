"""Responses API streams: reasoning summaries and encrypted reasoning, function calls as
items and argument events, and the errors a stream can end with."""

from __future__ import annotations

import json
from typing import Any

import pytest

from desktop.core.capabilities import ReasoningEffort
from desktop.core.errors import ProviderError
from desktop.core.events import (
    Finished,
    ReasoningDelta,
    ReasoningSignature,
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
from tests.support.adapters import openai_responses_adapter
from tests.support.provider_calls import (
    Harness,
    server_v1,
)
from tests.support.responses_wire import (
    ResponsesWire,
    function_call_item,
    reasoning_item,
    usage,
)
from tests.support.sse_server import (
    Sleep,
    SSEServer,
    sse_response,
)

KEY = "sk-test-SECRET-0123456789"
REQUEST = ChatRequest(model="gpt-4.1", messages=(RequestMessage(Role.USER, "Hi"),))
WEATHER = ToolSpec(
    "get_weather",
    "Current weather for a city.",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)


ENCRYPTED = "gAAAAABo-opaque-encrypted-reasoning=="
HARNESS = Harness(openai_responses_adapter, server_v1, REQUEST)
call = HARNESS.call
stream = HARNESS.stream


def sent(server: SSEServer, index: int = -1) -> dict[str, Any]:
    return server.requests[index].json


def hello(wire: ResponsesWire, *deltas: str) -> list[bytes]:
    return [wire.created(), wire.in_progress(), *wire.text_message(*deltas)]


def test_reasoning_summary_and_encrypted_reasoning(sse_server: SSEServer) -> None:
    wire = ResponsesWire("o4-mini")
    done = reasoning_item("rs_1", ("Thinking hard.", "Second part."), ENCRYPTED)
    sse_server.enqueue(
        sse_response(
            wire.created(),
            wire.item_added(0, reasoning_item("rs_1")),
            wire.summary("Thinking"),
            wire.summary(" hard."),
            wire.summary("Second part.", summary_index=1),
            wire.item_done(0, done),
            *wire.text_message("42", output_index=1),
            wire.completed(usage(20, 50, reasoning=40)),
        )
    )
    request = ChatRequest(
        model="o4-mini",
        messages=(RequestMessage(Role.USER, "Answer?"),),
        temperature=0.2,
        top_p=0.5,
        reasoning_effort=ReasoningEffort.HIGH,
    )
    events = stream(sse_server, request)
    kept = {
        "type": "reasoning",
        "id": "rs_1",
        "summary": done["summary"],
        "encrypted_content": ENCRYPTED,
    }
    assert events == [
        ReasoningDelta("Thinking"),
        ReasoningDelta(" hard."),
        ReasoningDelta("\n\nSecond part."),
        ReasoningSignature(json.dumps([kept], separators=(",", ":"))),
        TextDelta("42"),
        UsageReport(Usage(20, 50, 40)),
        Finished("completed"),
    ]
    body = sent(sse_server)
    assert "temperature" not in body and "top_p" not in body  # reasoning models refuse them
    assert body["reasoning"] == {"effort": "high", "summary": "auto"}
    assert body["include"] == ["reasoning.encrypted_content"]
    assert body["store"] is False


def test_reasoning_item_without_encrypted_content_gives_no_signature(
    sse_server: SSEServer,
) -> None:
    wire = ResponsesWire()
    sse_server.enqueue(
        sse_response(
            wire.item_added(0, reasoning_item("rs_1")),
            wire.summary("Hmm."),
            wire.item_done(0, reasoning_item("rs_1", ("Hmm.",))),
            wire.completed(),
        )
    )
    assert stream(sse_server) == [ReasoningDelta("Hmm."), Finished("completed")]


def test_tool_call_round_trip(sse_server: SSEServer) -> None:
    wire = ResponsesWire("gpt-5")
    oslo = wire.arguments('"東京"}', 1)
    cut = oslo.index("京".encode()) + 2  # inside the 3-byte character
    sse_server.script(
        sse_response(
            wire.created(),
            wire.item_added(0, reasoning_item("rs_7")),
            wire.summary("Need weather."),
            wire.item_done(0, reasoning_item("rs_7", ("Need weather.",), ENCRYPTED)),
            wire.item_added(1, function_call_item("call_1", "get_weather", status="in_progress")),
            wire.arguments('{"ci', 1),
            wire.arguments('ty":', 1),
            oslo[:cut],
            Sleep(0.05),
            oslo[cut:],
            wire.arguments_done('{"city":"東京"}', 1),
            wire.item_done(1, function_call_item("call_1", "get_weather", '{"city":"東京"}')),
            wire.completed(usage(30, 12, reasoning=8)),
        ),
        sse_response(*hello(ResponsesWire("gpt-5"), "It is 4 °C."), wire.completed()),
    )
    first = ChatRequest(
        model="gpt-5",
        system="Use tools.",
        messages=(RequestMessage(Role.USER, "Weather in Tokyo?"),),
        tools=(WEATHER,),
        reasoning_effort=ReasoningEffort.OFF,
    )
    events = stream(sse_server, first)
    signature = next(e for e in events if isinstance(e, ReasoningSignature)).signature
    assert events == [
        ReasoningDelta("Need weather."),
        ReasoningSignature(signature),
        ToolCallDelta(0, "call_1", "get_weather", ""),
        ToolCallDelta(0, arguments='{"ci'),
        ToolCallDelta(0, arguments='ty":'),
        ToolCallDelta(0, arguments='"東京"}'),
        UsageReport(Usage(30, 12, 8)),
        Finished("completed"),
    ]
    body = sent(sse_server, 0)
    assert body["tools"] == [
        {
            "type": "function",
            "name": "get_weather",
            "description": "Current weather for a city.",
            "parameters": WEATHER.parameters,
            "strict": False,
        }
    ]
    assert body["reasoning"] == {"effort": "minimal", "summary": "auto"}  # gpt-5: off

    continuation = ChatRequest(
        model="gpt-5",
        system="Use tools.",
        tools=(WEATHER,),
        messages=(
            RequestMessage(Role.USER, "Weather in Tokyo?"),
            RequestMessage(
                Role.ASSISTANT,
                "",
                reasoning="Need weather.",
                reasoning_signature=signature,
                tool_calls=(ToolCall("call_1", "get_weather", '{"city":"東京"}'),),
                tool_results=(ToolResult("call_1", "get_weather", '{"temp_c": 4}'),),
            ),
        ),
    )
    assert TextDelta("It is 4 °C.") in stream(sse_server, continuation)
    assert sent(sse_server, 1)["input"] == [
        {
            "type": "message",
            "role": "user",
            "content": [{"type": "input_text", "text": "Weather in Tokyo?"}],
        },
        {
            "type": "reasoning",
            "id": "rs_7",
            "summary": [{"type": "summary_text", "text": "Need weather."}],
            "encrypted_content": ENCRYPTED,
        },
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "get_weather",
            "arguments": '{"city":"東京"}',
        },
        {"type": "function_call_output", "call_id": "call_1", "output": '{"temp_c": 4}'},
    ]


def test_parallel_calls_and_arguments_only_in_done_events(sse_server: SSEServer) -> None:
    wire = ResponsesWire()
    sse_server.enqueue(
        sse_response(
            wire.item_added(0, function_call_item("call_a", "f", item_id="fc_a")),
            wire.item_added(1, function_call_item("call_b", "g", item_id="fc_b")),
            wire.arguments('{"x":', 1, "fc_b"),
            wire.arguments_done('{"x":2}', 1, "fc_b"),
            wire.item_done(0, function_call_item("call_a", "f", '{"y":1}', "fc_a")),
            wire.item_done(1, function_call_item("call_b", "g", '{"x":2}', "fc_b")),
            wire.completed(),
        )
    )
    assert stream(sse_server) == [
        ToolCallDelta(0, "call_a", "f", ""),
        ToolCallDelta(1, "call_b", "g", ""),
        ToolCallDelta(1, arguments='{"x":'),
        ToolCallDelta(1, arguments="2}"),
        ToolCallDelta(0, arguments='{"y":1}'),
        Finished("completed"),
    ]


def test_error_event_in_the_stream(sse_server: SSEServer) -> None:
    wire = ResponsesWire()
    sse_server.enqueue(
        sse_response(
            wire.text("a"),
            wire.error("server_is_overloaded", f"Overloaded, key {KEY}"),
            wire.completed(),
        )
    )
    with pytest.raises(ProviderError) as info:
        stream(sse_server, api_key=KEY)
    assert str(info.value) == "The server reported an error: Overloaded, key [redacted]"
    assert info.value.retryable


def test_response_failed(sse_server: SSEServer) -> None:
    wire = ResponsesWire()
    sse_server.enqueue(
        sse_response(wire.created(), wire.failed("invalid_prompt", "Prompt was flagged."))
    )
    with pytest.raises(ProviderError) as info:
        stream(sse_server)
    assert str(info.value) == "The model failed to answer: Prompt was flagged."
    assert not info.value.retryable


@pytest.mark.parametrize(
    ("reason", "words"),
    [
        ("max_output_tokens", "it reached the output token limit (max_output_tokens)"),
        ("content_filter", "the content filter stopped it"),
        ("something_new", "the server stopped it (something_new)"),
    ],
)
def test_response_incomplete(sse_server: SSEServer, reason: str, words: str) -> None:
    wire = ResponsesWire()
    sse_server.enqueue(sse_response(wire.text("Partial"), wire.incomplete(reason)))
    received: list[StreamEvent] = []
    with pytest.raises(ProviderError) as info:
        stream(sse_server, received=received)
    assert str(info.value) == f"The answer was cut short: {words}"
    assert received == [TextDelta("Partial")]
