"""Anthropic Messages streams read from the wire: thinking and its signatures, tool calls,
pings, error events and event types added later."""

from __future__ import annotations

import json
from typing import Any

import pytest

from desktop.core.capabilities import ReasoningEffort
from desktop.core.errors import ProviderError, StreamBrokenError
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
from desktop.providers.anthropic.request import BLOCKS_PREFIX
from desktop.providers.anthropic.stream import StreamTranslator
from desktop.providers.base import (
    ChatRequest,
    RequestMessage,
    ToolCall,
    ToolResult,
    ToolSpec,
)
from desktop.providers.sse import SSEDecoder
from tests.support.adapters import anthropic_adapter
from tests.support.anthropic_wire import (
    MESSAGE_STOP,
    PING,
    answer,
    block_delta,
    block_start,
    block_stop,
    error_event,
    event,
    message_delta,
    message_start,
    redacted_block,
    text_block,
    thinking_block,
    tool_block,
)
from tests.support.provider_calls import (
    Harness,
    server_root,
)
from tests.support.sse_server import (
    Sleep,
    SSEServer,
    sse_response,
)

KEY = "sk-ant-test-SECRET-0123456789"
MODEL = "claude-sonnet-4-5"
REQUEST = ChatRequest(model=MODEL, messages=(RequestMessage(Role.USER, "Hi"),))
HARNESS = Harness(anthropic_adapter, server_root, REQUEST)
call = HARNESS.call
stream = HARNESS.stream


def sent_body(server: SSEServer, index: int = -1) -> dict[str, Any]:
    return server.requests[index].json


def fold_tool_calls(events: list[StreamEvent]) -> list[ToolCall]:
    """What the engine does with tool-call deltas: join the pieces of each index."""
    calls: dict[int, dict[str, str]] = {}
    for item in events:
        if isinstance(item, ToolCallDelta):
            entry = calls.setdefault(item.index, {"id": "", "name": "", "arguments": ""})
            entry["id"] = item.call_id or entry["id"]
            entry["name"] = item.name or entry["name"]
            entry["arguments"] += item.arguments
    return [ToolCall(c["id"], c["name"], c["arguments"]) for _, c in sorted(calls.items())]


def test_stream_reasoning_signature_text_and_usage(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        sse_response(
            message_start(7, cache_creation=3, cache_read=20),
            PING,
            *thinking_block(0, "Let me ", "think.", signature="EqQBsig=="),
            *text_block(1, "Hello", ", world"),
            message_delta("end_turn", 12),
            MESSAGE_STOP,
        )
    )
    assert stream(sse_server, api_key=KEY) == [
        ReasoningDelta("Let me "),
        ReasoningDelta("think."),
        ReasoningSignature("EqQBsig=="),
        TextDelta("Hello"),
        TextDelta(", world"),
        UsageReport(Usage(input_tokens=30, output_tokens=12)),
        Finished("end_turn"),
    ]
    sent = sse_server.requests[0]
    assert (sent.method, sent.path) == ("POST", "/v1/messages")
    assert sent.headers["x-api-key"] == KEY
    assert sent.headers["anthropic-version"] == "2023-06-01"
    assert sent.headers["accept"] == "text/event-stream"
    assert sent.headers["content-type"] == "application/json"
    assert "authorization" not in sent.headers
    assert sent.json == {
        "model": MODEL,
        "max_tokens": 8192,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}],
        "stream": True,
    }


def test_stream_without_event_lines_is_read_by_type(sse_server: SSEServer) -> None:
    """Some gateways drop the `event:` lines; the JSON `type` is enough."""

    def bare(raw: bytes) -> bytes:
        return raw.split(b"\n", 1)[1]

    events = answer(text_block(0, "ok"), stop_reason="max_tokens")
    sse_server.enqueue(sse_response(*(bare(e) for e in events)))
    assert stream(sse_server) == [
        TextDelta("ok"),
        UsageReport(Usage(10, 5)),
        Finished("max_tokens"),
    ]


def test_tool_call_round_trip(sse_server: SSEServer) -> None:
    tools = (
        ToolSpec(
            "get_weather",
            "Current weather for a city",
            {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        ),
        ToolSpec("get_time", "The time now"),
    )
    question = RequestMessage(Role.USER, "Weather in Paris, and the time?")
    first = ChatRequest(
        model=MODEL,
        messages=(question,),
        tools=tools,
        reasoning_effort=ReasoningEffort.LOW,
    )
    sse_server.enqueue(
        sse_response(
            *answer(
                thinking_block(0, "Two tools needed.", signature="sig-A"),
                text_block(1, "Let me look."),
                tool_block(2, "toolu_01A", "get_weather", '{"ci', 'ty": "Pa', 'ris"}'),
                tool_block(3, "toolu_01B", "get_time"),
                stop_reason="tool_use",
            )
        )
    )
    events = stream(sse_server, first)
    assert [e for e in events if isinstance(e, ToolCallDelta)] == [
        ToolCallDelta(0, call_id="toolu_01A", name="get_weather"),
        ToolCallDelta(0, arguments='{"ci'),
        ToolCallDelta(0, arguments='ty": "Pa'),
        ToolCallDelta(0, arguments='ris"}'),
        ToolCallDelta(1, call_id="toolu_01B", name="get_time"),
        ToolCallDelta(1, arguments="{}"),  # a call without input still has valid JSON
    ]
    assert events[-1] == Finished("tool_use")
    assert sent_body(sse_server)["tools"] == [
        {
            "name": "get_weather",
            "description": "Current weather for a city",
            "input_schema": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
        {"name": "get_time", "description": "The time now", "input_schema": {"type": "object"}},
    ]

    calls = fold_tool_calls(events)
    reasoning = "".join(e.text for e in events if isinstance(e, ReasoningDelta))
    signature = next(e.signature for e in events if isinstance(e, ReasoningSignature))
    step = RequestMessage(
        Role.ASSISTANT,
        "Let me look.",
        reasoning=reasoning,
        reasoning_signature=signature,
        tool_calls=tuple(calls),
        tool_results=(
            ToolResult("toolu_01A", "get_weather", "18 °C, light rain"),
            ToolResult("toolu_01B", "get_time", "clock unavailable", is_error=True),
        ),
    )
    sse_server.enqueue(sse_response(*answer(text_block(0, "18 °C and rainy."))))
    second = ChatRequest(
        model=MODEL, messages=(question, step), tools=tools, reasoning_effort=ReasoningEffort.LOW
    )
    assert TextDelta("18 °C and rainy.") in stream(sse_server, second)
    body = sent_body(sse_server)
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "Weather in Paris, and the time?"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "Two tools needed.", "signature": "sig-A"},
                {"type": "text", "text": "Let me look."},
                {
                    "type": "tool_use",
                    "id": "toolu_01A",
                    "name": "get_weather",
                    "input": {"city": "Paris"},
                },
                {"type": "tool_use", "id": "toolu_01B", "name": "get_time", "input": {}},
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_01A",
                    "content": "18 °C, light rain",
                },
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_01B",
                    "content": "clock unavailable",
                    "is_error": True,
                },
            ],
        },
    ]


def test_redacted_thinking_goes_back_unchanged(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        sse_response(
            *answer(
                redacted_block(0, "EmwKAhgBEgy3va3pzix/LafPsn4a"),
                thinking_block(1, "Visible part.", signature="sig-B"),
                tool_block(2, "toolu_9", "lookup", '{"q": 1}'),
                stop_reason="tool_use",
            )
        )
    )
    events = stream(sse_server)
    signatures = [e.signature for e in events if isinstance(e, ReasoningSignature)]
    blocks = [
        {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4a"},
        {"type": "thinking", "thinking": "Visible part.", "signature": "sig-B"},
    ]
    # Each reasoning block completes the signature; the last one holds them all.
    assert signatures[-1] == BLOCKS_PREFIX + json.dumps(blocks, separators=(",", ":"))
    assert [e for e in events if isinstance(e, ReasoningDelta)] == [ReasoningDelta("Visible part.")]

    step = RequestMessage(
        Role.ASSISTANT,
        "",
        reasoning="Visible part.",
        reasoning_signature=signatures[-1],
        tool_calls=tuple(fold_tool_calls(events)),
        tool_results=(ToolResult("toolu_9", "lookup", "found"),),
    )
    sse_server.enqueue(sse_response(*answer(text_block(0, "Done."))))
    stream(sse_server, ChatRequest(model=MODEL, messages=(REQUEST.messages[0], step)))
    assert sent_body(sse_server)["messages"][1] == {
        "role": "assistant",
        "content": [
            *blocks,
            {"type": "tool_use", "id": "toolu_9", "name": "lookup", "input": {"q": 1}},
        ],
    }


def test_pings_keep_a_slow_stream_alive(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        sse_response(
            message_start(),
            Sleep(0.15),
            PING,
            Sleep(0.15),
            PING,
            *text_block(0, "late"),
            message_delta(),
            MESSAGE_STOP,
        )
    )
    assert TextDelta("late") in stream(sse_server, stall_timeout=0.25)


def test_overloaded_error_event_before_any_answer_is_retryable(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        sse_response(message_start(), PING, error_event("overloaded_error", "Overloaded"))
    )
    with pytest.raises(ProviderError) as info:
        stream(sse_server)
    assert type(info.value) is ProviderError
    assert str(info.value) == "The server is overloaded: Overloaded"
    assert (info.value.status_code, info.value.retryable) == (529, True)


def test_invalid_request_error_event_mid_answer(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        sse_response(
            message_start(),
            *text_block(0, "Partial"),
            error_event("invalid_request_error", f"bad key {KEY} in field"),
        )
    )
    received: list[StreamEvent] = []
    with pytest.raises(ProviderError, match="The server reported an error: bad key") as info:
        stream(sse_server, received=received, api_key=KEY)
    assert KEY not in str(info.value)
    assert not info.value.retryable
    assert received == [TextDelta("Partial")]


def test_unknown_event_types_are_ignored(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        sse_response(
            message_start(),
            event("content_block_future", {"index": 0}),
            *text_block(0, "still fine"),
            message_delta(),
            MESSAGE_STOP,
        )
    )
    assert stream(sse_server)[0] == TextDelta("still fine")


def translate(*raw: bytes | list[bytes]) -> list[StreamEvent]:
    """Bytes through the real SSE decoder and the translator."""
    decoder = SSEDecoder()
    translator = StreamTranslator()
    events: list[StreamEvent] = []
    for item in raw:
        for chunk in [item] if isinstance(item, bytes) else item:
            for sse in decoder.feed(chunk):
                events += translator.feed(sse)
    return events


def test_tool_call_index_counts_tool_blocks_only() -> None:
    events = translate(
        text_block(0, "a"),
        thinking_block(1, "b", signature="s"),
        tool_block(2, "t1", "f", '{"x"', ": 1}"),
        text_block(3, "c"),
        tool_block(4, "t2", "g", "{}"),
    )
    assert [(e.index, e.call_id, e.arguments) for e in events if isinstance(e, ToolCallDelta)] == [
        (0, "t1", ""),
        (0, None, '{"x"'),
        (0, None, ": 1}"),
        (1, "t2", ""),
        (1, None, "{}"),
    ]


def test_two_thinking_blocks_are_separated_and_kept_together() -> None:
    events = translate(
        thinking_block(0, "first", signature="s1"),
        redacted_block(1, "opaque"),
        thinking_block(2, "second", signature="s2"),
    )
    assert [e for e in events if isinstance(e, ReasoningDelta)] == [
        ReasoningDelta("first"),
        ReasoningDelta("\n\n"),
        ReasoningDelta("second"),
    ]
    signatures = [e.signature for e in events if isinstance(e, ReasoningSignature)]
    assert signatures[0] == "s1"
    assert json.loads(signatures[-1].removeprefix(BLOCKS_PREFIX)) == [
        {"type": "thinking", "thinking": "first", "signature": "s1"},
        {"type": "redacted_thinking", "data": "opaque"},
        {"type": "thinking", "thinking": "second", "signature": "s2"},
    ]


def test_unsigned_thinking_has_no_signature() -> None:
    events = translate(
        block_start(0, {"type": "thinking", "thinking": ""}),
        block_delta(0, {"type": "thinking_delta", "thinking": "musing"}),
        block_stop(0),
    )
    assert events == [ReasoningDelta("musing")]


def test_deltas_for_a_block_never_announced_are_still_read() -> None:
    events = translate(
        block_delta(5, {"type": "text_delta", "text": "orphan text"}),
        block_delta(6, {"type": "input_json_delta", "partial_json": '{"k": 2}'}),
        block_delta(6, {"type": "citations_delta", "citation": {}}),
    )
    assert events == [TextDelta("orphan text"), ToolCallDelta(0, arguments='{"k": 2}')]


def test_stop_reason_and_completeness() -> None:
    translator = StreamTranslator()
    assert not translator.complete
    for sse in SSEDecoder().feed(message_delta("max_tokens", 3)):
        translator.feed(sse)
    assert translator.complete and not translator.done
    assert translator.finish()[-1] == Finished("max_tokens")


def test_non_object_event_is_malformed() -> None:
    with pytest.raises(StreamBrokenError, match="not an object"):
        translate(b"event: ping\ndata: [1, 2]\n\n")
