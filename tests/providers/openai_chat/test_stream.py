"""Chat Completions streams beyond text: tool calls as every compatible server splits them,
reasoning before a call, a call cut off mid-arguments, and whole answers with calls."""

from __future__ import annotations

from typing import Any

import pytest

from desktop.core.errors import StreamBrokenError
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
    ToolSpec,
)
from tests.support.adapters import openai_chat_adapter
from tests.support.chat_wire import (
    delta_chunk,
    streamed_call,
    tool_call_chunk,
    tool_call_piece,
)
from tests.support.provider_calls import (
    Harness,
    server_v1,
)
from tests.support.sse_server import (
    DONE,
    Disconnect,
    SSEServer,
    chat_chunk,
    json_response,
    sse_response,
    usage_chunk,
)

WEATHER = ToolSpec(
    "get_weather",
    "Current weather for a city.",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)


HARNESS = Harness(openai_chat_adapter, server_v1)
call = HARNESS.call
stream = HARNESS.stream


def ask(text: str = "Weather in Tokyo?", **fields: Any) -> ChatRequest:
    return ChatRequest(model="test-model", messages=(RequestMessage(Role.USER, text),), **fields)


def sent_body(server: SSEServer, index: int = -1) -> dict[str, Any]:
    return server.requests[index].json


def test_streamed_tool_calls_arrive_as_index_keyed_deltas(sse_server: SSEServer) -> None:
    # Arguments are split mid-token and, on the wire, in the middle of a UTF-8 character.
    tokyo = tool_call_chunk(tool_call_piece(0, arguments='"東京"}'))
    cut = tokyo.index("京".encode()) + 1
    sse_server.enqueue(
        sse_response(
            chat_chunk(role="assistant", content=None),
            chat_chunk(content="Checking both."),
            *streamed_call(0, "call_a", "get_weather", '{"ci', 'ty":'),
            tokyo[:cut],
            tokyo[cut:],
            *streamed_call(1, "call_b", "get_weather", '{"city":"Paris"}'),
            delta_chunk({}, "tool_calls"),
            usage_chunk(40, 18),
            DONE,
        )
    )
    events = stream(sse_server, ask(tools=(WEATHER,)))
    assert events == [
        TextDelta("Checking both."),
        ToolCallDelta(0, "call_a", "get_weather", ""),
        ToolCallDelta(0, arguments='{"ci'),
        ToolCallDelta(0, arguments='ty":'),
        ToolCallDelta(0, arguments='"東京"}'),
        ToolCallDelta(1, "call_b", "get_weather", ""),
        ToolCallDelta(1, arguments='{"city":"Paris"}'),
        UsageReport(Usage(40, 18, 0)),
        Finished("tool_calls"),
    ]
    assert sent_body(sse_server)["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Current weather for a city.",
                "parameters": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}},
                    "required": ["city"],
                },
            },
        }
    ]


def test_reasoning_then_a_tool_call(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        sse_response(
            chat_chunk(reasoning="Need the weather."),
            *streamed_call(0, "call_1", "get_weather", '{"city":"Oslo"}'),
            delta_chunk({}, "tool_calls"),
            DONE,
        )
    )
    assert stream(sse_server, ask(tools=(WEATHER,))) == [
        ReasoningDelta("Need the weather."),
        ToolCallDelta(0, "call_1", "get_weather", ""),
        ToolCallDelta(0, arguments='{"city":"Oslo"}'),
        Finished("tool_calls"),
    ]


@pytest.mark.parametrize(
    ("chunks", "second_arguments"),
    [
        pytest.param(
            [
                tool_call_chunk(tool_call_piece(None, call_id="c1", name="f", arguments="{}")),
                tool_call_chunk(tool_call_piece(None, call_id="c2", name="g", arguments='{"a":1}')),
            ],
            '{"a":1}',
            id="no index, one whole call per chunk",
        ),
        pytest.param(
            [
                tool_call_chunk(tool_call_piece(0, call_id="c1", name="f", arguments="{}")),
                tool_call_chunk(tool_call_piece(0, call_id="c2", name="g", arguments='{"a":')),
                tool_call_chunk(tool_call_piece(0, arguments="1}")),
            ],
            '{"a":1}',
            id="index 0 reused, calls told apart by id",
        ),
        pytest.param(
            [
                tool_call_chunk(
                    tool_call_piece(0, call_id="c1", name="f", arguments="{}"),
                    tool_call_piece(1, call_id="c2", name="g", arguments='{"a":'),
                ),
                tool_call_chunk(tool_call_piece(1, call_id="c2", name="g", arguments="1}")),
            ],
            '{"a":1}',
            id="two calls in one chunk, id and name repeated",
        ),
        pytest.param(
            [
                delta_chunk(
                    {
                        "tool_calls": [
                            {"index": 0, "id": "c1", "function": {"name": "f", "arguments": {}}},
                            {
                                "index": 1,
                                "id": "c2",
                                "function": {"name": "g", "arguments": {"a": 1}},
                            },
                        ]
                    }
                )
            ],
            '{"a": 1}',
            id="arguments as a JSON object",
        ),
    ],
)
def test_tool_call_variants_of_compatible_servers(
    sse_server: SSEServer, chunks: list[bytes], second_arguments: str
) -> None:
    sse_server.enqueue(sse_response(*chunks, delta_chunk({}, "tool_calls"), DONE))
    events = stream(sse_server, ask())
    calls: dict[int, dict[str, str]] = {}
    for event in events:
        if isinstance(event, ToolCallDelta):
            call = calls.setdefault(event.index, {"id": "", "name": "", "arguments": ""})
            assert not (event.call_id and call["id"]), "an id is announced once"
            assert not (event.name and call["name"]), "a name is announced once"
            call["id"] += event.call_id or ""
            call["name"] += event.name or ""
            call["arguments"] += event.arguments
    assert calls == {
        0: {"id": "c1", "name": "f", "arguments": "{}"},
        1: {"id": "c2", "name": "g", "arguments": second_arguments},
    }
    assert events[-1] == Finished("tool_calls")


def test_disconnect_in_the_middle_of_tool_arguments(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        sse_response(*streamed_call(0, "call_1", "get_weather", '{"city":"Os'), Disconnect())
    )
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="closed before the answer was complete"):
        stream(sse_server, ask(), received)
    assert received == [
        ToolCallDelta(0, "call_1", "get_weather", ""),
        ToolCallDelta(0, arguments='{"city":"Os'),
    ]


def test_finish_reason_tool_calls_then_disconnect_is_a_complete_step(
    sse_server: SSEServer,
) -> None:
    sse_server.enqueue(
        sse_response(
            *streamed_call(0, "call_1", "get_weather", "{}"),
            delta_chunk({}, "tool_calls"),
            Disconnect(),
        )
    )
    assert stream(sse_server, ask())[-1] == Finished("tool_calls")


def test_non_streamed_answer_with_tool_calls(sse_server: SSEServer) -> None:
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_9",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city":"Rome"}'},
            }
        ],
    }
    sse_server.enqueue(
        json_response(
            {
                "id": "chatcmpl-test",
                "object": "chat.completion",
                "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
                "usage": {"prompt_tokens": 7, "completion_tokens": 4, "total_tokens": 11},
            }
        )
    )
    assert stream(sse_server, ask()) == [
        ToolCallDelta(0, "call_9", "get_weather", '{"city":"Rome"}'),
        UsageReport(Usage(7, 4, 0)),
        Finished("tool_calls"),
    ]
