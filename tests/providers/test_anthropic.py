"""anthropic_adapter against a real loopback server speaking the Messages wire format."""

from __future__ import annotations

import asyncio
import base64
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import httpx
import pytest

from desktop.core.capabilities import ReasoningEffort
from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import (
    Finished,
    ReasoningDelta,
    ReasoningSignature,
    Retrying,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageReport,
)
from desktop.core.models import Role, Usage
from desktop.core.settings import ProviderKind, ProviderSettings
from desktop.providers.adapter import HttpAdapter
from desktop.providers.anthropic.adapter import AnthropicSpec
from desktop.providers.anthropic.request import BLOCKS_PREFIX
from desktop.providers.base import (
    ChatRequest,
    Completion,
    ImageInput,
    ProviderHTTPError,
    RequestMessage,
    ToolCall,
    ToolResult,
    ToolSpec,
)
from desktop.providers.registry import create_provider
from desktop.providers.retry import RetryingProvider, RetryPolicy
from tests.support.adapters import anthropic_adapter
from tests.support.anthropic_wire import (
    MESSAGE_STOP,
    PING,
    answer,
    block_delta,
    block_start,
    block_stop,
    error_body,
    error_event,
    event,
    message_body,
    message_delta,
    message_start,
    models_page,
    redacted_block,
    text_block,
    thinking_block,
    tool_block,
)
from tests.support.sse_server import (
    Disconnect,
    Head,
    Send,
    Sleep,
    SSEServer,
    json_response,
    raw_response,
    sse_response,
)
from tests.support.waiting import CEILING_S

T = TypeVar("T")
KEY = "sk-ant-test-SECRET-0123456789"
MODEL = "claude-sonnet-4-5"
REQUEST = ChatRequest(model=MODEL, messages=(RequestMessage(Role.USER, "Hi"),))
WAIT = 10.0  # generous: only for things that should happen promptly


def run(coro: Awaitable[T]) -> T:
    async def guarded() -> T:
        return await asyncio.wait_for(coro, CEILING_S)

    return asyncio.run(guarded())


def call(
    server: SSEServer,
    action: Callable[[HttpAdapter], Awaitable[T]],
    *,
    base_url: str | None = None,
    **options: Any,
) -> T:
    async def main() -> T:
        async with httpx.AsyncClient(trust_env=False) as client:
            provider = anthropic_adapter(client, base_url or server.url, **options)
            return await action(provider)

    return run(main())


def stream(
    server: SSEServer,
    request: ChatRequest = REQUEST,
    received: list[StreamEvent] | None = None,
    **options: Any,
) -> list[StreamEvent]:
    """All events; pass `received` to inspect what arrived before an exception."""
    events = received if received is not None else []

    async def consume(provider: HttpAdapter) -> list[StreamEvent]:
        async for item in provider.stream(request):
            events.append(item)
        return events

    return call(server, consume, **options)


async def client_went_away(server: SSEServer) -> bool:
    return await asyncio.to_thread(server.requests[-1].client_gone.wait, WAIT)


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


# --- streaming: the happy paths ---------------------------------------------------------


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


def test_stops_at_message_stop_without_waiting_for_the_server(sse_server: SSEServer) -> None:
    sse_server.enqueue(sse_response(*answer(text_block(0, "ok")), Sleep(30)))

    async def scenario(provider: HttpAdapter) -> list[StreamEvent]:
        events = [item async for item in provider.stream(REQUEST)]
        assert await client_went_away(sse_server)
        return events

    assert call(sse_server, scenario)[-1] == Finished("end_turn")


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


def test_images_system_and_sampling_parameters(sse_server: SSEServer) -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
    jpeg = b"\xff\xd8\xff\xe0fake-jpeg"
    request = ChatRequest(
        model="claude-3-5-sonnet-20241022",
        system="Be brief.",
        messages=(
            RequestMessage(Role.SYSTEM, "Answer in French."),
            RequestMessage(
                Role.USER,
                "What is in these?",
                images=(ImageInput("image/png", png), ImageInput("image/jpeg", jpeg)),
            ),
        ),
        temperature=0.3,
        top_p=0.9,
        max_output_tokens=300,
        reasoning_effort=ReasoningEffort.HIGH,  # claude-3-5 cannot think: nothing is sent
    )
    sse_server.enqueue(sse_response(*answer(text_block(0, "Deux images."))))
    stream(sse_server, request)
    assert sent_body(sse_server) == {
        "model": "claude-3-5-sonnet-20241022",
        "max_tokens": 300,
        "system": "Be brief.\n\nAnswer in French.",
        "messages": [
            {
                "role": "user",
                "content": [
                    {
                        "type": "image",
                        "source": {
                            "type": "base64",
                            "media_type": "image/png",
                            "data": base64.b64encode(png).decode(),
                        },
                    },
                    {
                        "type": "image",
                        "source": {
                            "type": "base64",
                            "media_type": "image/jpeg",
                            "data": base64.b64encode(jpeg).decode(),
                        },
                    },
                    {"type": "text", "text": "What is in these?"},
                ],
            }
        ],
        "temperature": 0.3,
        "top_p": 0.9,
        "stream": True,
    }


@pytest.mark.parametrize(
    ("model", "effort", "expected"),
    [
        (
            "claude-sonnet-4-20250514",
            ReasoningEffort.MEDIUM,
            {"max_tokens": 16384, "thinking": {"type": "enabled", "budget_tokens": 8192}},
        ),
        (
            "claude-opus-4-1-20250805",  # 32000 tokens at most: the budget leaves room
            ReasoningEffort.MAX,
            {"max_tokens": 32000, "thinking": {"type": "enabled", "budget_tokens": 30976}},
        ),
        (
            "claude-opus-4-6",
            ReasoningEffort.HIGH,
            {
                "max_tokens": 24576,
                "thinking": {"type": "adaptive", "display": "summarized"},
                "output_config": {"effort": "high"},
            },
        ),
        ("claude-sonnet-4-5", ReasoningEffort.OFF, {"max_tokens": 8192, "temperature": 0.5}),
        ("claude-3-haiku-20240307", ReasoningEffort.MAX, {"max_tokens": 4096, "temperature": 0.5}),
    ],
)
def test_reasoning_effort_on_the_wire(
    sse_server: SSEServer, model: str, effort: ReasoningEffort, expected: dict[str, Any]
) -> None:
    request = ChatRequest(
        model=model, messages=REQUEST.messages, reasoning_effort=effort, temperature=0.5
    )
    sse_server.enqueue(sse_response(*answer(text_block(0, "ok"))))
    stream(sse_server, request)
    body = sent_body(sse_server)
    del body["model"], body["messages"], body["stream"]
    assert body == expected  # with thinking on, the temperature is left out


def test_extra_headers_and_body_are_merged_last(sse_server: SSEServer) -> None:
    request = ChatRequest(
        model="claude-sonnet-4-5",
        messages=REQUEST.messages,
        reasoning_effort=ReasoningEffort.LOW,
        extra_headers={
            "Anthropic-Version": "2024-01-01",
            "anthropic-beta": "interleaved-thinking-2025-05-14",
        },
        extra_body={
            "thinking": {"budget_tokens": 4000},
            "metadata": {"user_id": "u-1"},
            "stream": None,  # a null removes a key
        },
    )
    sse_server.enqueue(sse_response(*answer(text_block(0, "ok"))))
    stream(sse_server, request, api_key=KEY)
    sent = sse_server.requests[0]
    assert sent.headers["anthropic-version"] == "2024-01-01"
    assert sent.headers["anthropic-beta"] == "interleaved-thinking-2025-05-14"
    assert sent.headers["x-api-key"] == KEY
    assert sent.json == {
        "model": "claude-sonnet-4-5",
        "max_tokens": 10240,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}],
        "thinking": {"type": "enabled", "budget_tokens": 4000},
        "metadata": {"user_id": "u-1"},
    }


def test_server_answering_json_instead_of_a_stream(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        json_response(
            message_body(
                [
                    {"type": "thinking", "thinking": "Hmm.", "signature": "sig-J"},
                    {"type": "text", "text": "Whole answer"},
                    {"type": "tool_use", "id": "toolu_J", "name": "f", "input": {"a": 1}},
                ],
                stop_reason="tool_use",
                input_tokens=4,
                output_tokens=9,
            )
        )
    )
    assert stream(sse_server) == [
        ReasoningDelta("Hmm."),
        TextDelta("Whole answer"),
        ToolCallDelta(0, call_id="toolu_J", name="f", arguments='{"a": 1}'),
        ReasoningSignature("sig-J"),
        UsageReport(Usage(4, 9)),
        Finished("tool_use"),
    ]


def test_web_page_instead_of_a_stream_points_at_the_base_url(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        Head(headers=(("Content-Type", "text/html; charset=utf-8"),)),
        Send(b"<html><body>Sign in</body></html>"),
        Sleep(30),
    )

    async def scenario(provider: HttpAdapter) -> None:
        with pytest.raises(ProviderError, match=r"web page.*api\.anthropic\.com"):
            async for _ in provider.stream(REQUEST):
                pass
        assert await client_went_away(sse_server)

    call(sse_server, scenario)


# --- streaming: faults ------------------------------------------------------------------


def test_utf8_character_split_across_reads(sse_server: SSEServer) -> None:
    raw = block_delta(0, {"type": "text_delta", "text": "naïve 🦜"})
    cut = raw.index("🦜".encode()) + 2  # inside the four bytes of the parrot
    accent = raw.index("ï".encode()) + 1
    sse_server.enqueue(
        sse_response(
            message_start(),
            block_start(0, {"type": "text", "text": ""}),
            raw[:accent],
            raw[accent:cut],
            raw[cut:],
            block_stop(0),
            message_delta(),
            MESSAGE_STOP,
        )
    )
    events = stream(sse_server)
    assert TextDelta("naïve 🦜") in events


def test_malformed_event(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        sse_response(
            message_start(),
            *text_block(0, "a"),
            b'event: content_block_delta\ndata: {"type": "content_block_delta", "ind\n\n',
            message_delta(),
            MESSAGE_STOP,
        )
    )
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="malformed stream event"):
        stream(sse_server, received=received)
    assert received == [TextDelta("a")]


def test_disconnect_mid_stream_keeps_what_arrived(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        sse_response(
            message_start(),
            block_start(0, {"type": "text", "text": ""}),
            block_delta(0, {"type": "text_delta", "text": "Hello"}),
            block_delta(0, {"type": "text_delta", "text": " wor"}),
            Disconnect(),
        )
    )
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="closed before the answer was complete") as info:
        stream(sse_server, received=received)
    assert type(info.value) is StreamBrokenError
    assert isinstance(info.value.__cause__, httpx.RemoteProtocolError)
    assert received == [TextDelta("Hello"), TextDelta(" wor")]


def test_disconnect_after_the_stop_reason_is_a_complete_answer(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        sse_response(message_start(), *text_block(0, "Done."), message_delta(), Disconnect())
    )
    assert stream(sse_server) == [
        TextDelta("Done."),
        UsageReport(Usage(10, 5)),
        Finished("end_turn"),
    ]


def test_clean_close_before_the_end_is_broken(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        Head(headers=(("Content-Type", "text/event-stream"),), framing="close"),
        Send(message_start()),
        Send(block_start(0, {"type": "text", "text": ""})),
        Send(block_delta(0, {"type": "text_delta", "text": "Half an ans"})),
    )
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="before the answer was complete"):
        stream(sse_server, received=received)
    assert received == [TextDelta("Half an ans")]


def test_stall_raises_quickly_and_closes_the_connection(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        sse_response(
            message_start(),
            block_start(0, {"type": "text", "text": ""}),
            block_delta(0, {"type": "text_delta", "text": "first"}),
            Sleep(30),
        )
    )
    received: list[StreamEvent] = []

    async def scenario(provider: HttpAdapter) -> float:
        started = time.monotonic()
        with pytest.raises(StreamBrokenError, match=r"sent nothing for 0\.3 s"):
            async for item in provider.stream(REQUEST):
                received.append(item)
        elapsed = time.monotonic() - started
        assert await client_went_away(sse_server)
        return elapsed

    assert 0.25 < call(sse_server, scenario, stall_timeout=0.3) < WAIT
    assert received == [TextDelta("first")]


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


def test_cancellation_propagates_and_closes_the_connection(sse_server: SSEServer) -> None:
    sse_server.enqueue(sse_response(message_start(), *text_block(0, "Hi"), Sleep(30)))
    received: list[StreamEvent] = []

    async def scenario(provider: HttpAdapter) -> None:
        first = asyncio.Event()

        async def consume() -> None:
            async for item in provider.stream(REQUEST):
                received.append(item)
                first.set()

        task = asyncio.create_task(consume())
        await asyncio.wait_for(first.wait(), WAIT)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await client_went_away(sse_server)

    call(sse_server, scenario)
    assert received == [TextDelta("Hi")]


# --- HTTP errors ------------------------------------------------------------------------


def test_401_shows_the_servers_words_but_never_the_key(sse_server: SSEServer) -> None:
    sse_server.enqueue(error_body(401, "authentication_error", f"invalid x-api-key {KEY}"))
    with pytest.raises(ProviderHTTPError) as info:
        stream(sse_server, api_key=KEY)
    assert str(info.value) == "The server refused the API key (401): invalid x-api-key [redacted]"
    assert (info.value.status_code, info.value.retryable) == (401, False)


def test_404_unknown_model(sse_server: SSEServer) -> None:
    sse_server.enqueue(error_body(404, "not_found_error", "model: claude-nonexistent"))
    with pytest.raises(ProviderHTTPError) as info:
        stream(sse_server)
    assert str(info.value) == (
        "The server does not know this model; check its name, or fetch the model list "
        "in Settings (404): "
        "model: claude-nonexistent"
    )
    assert not info.value.retryable


@pytest.mark.parametrize(
    ("headers", "expected"),
    [({"retry-after": "7"}, 7.0), ({"retry-after": "7", "retry-after-ms": "1500"}, 1.5)],
)
def test_429_is_retryable_and_carries_retry_after(
    sse_server: SSEServer, headers: dict[str, str], expected: float
) -> None:
    sse_server.enqueue(
        error_body(429, "rate_limit_error", "Number of request tokens exceeded", headers=headers)
    )
    with pytest.raises(ProviderHTTPError, match=r"rate limiting.*\(429\): Number of") as info:
        stream(sse_server)
    assert (info.value.status_code, info.value.retryable, info.value.retry_after) == (
        429,
        True,
        expected,
    )


@pytest.mark.parametrize(
    ("status", "error_type", "message", "expected"),
    [
        (500, "api_error", "Internal server error", "The server had an internal error (500)"),
        (529, "overloaded_error", "Overloaded", "The server is overloaded (529)"),
    ],
)
def test_server_errors_are_retryable(
    sse_server: SSEServer, status: int, error_type: str, message: str, expected: str
) -> None:
    sse_server.enqueue(error_body(status, error_type, message))
    with pytest.raises(ProviderHTTPError) as info:
        stream(sse_server)
    assert str(info.value) == f"{expected}: {message}"
    assert (info.value.status_code, info.value.retryable) == (status, True)


def test_error_body_with_status_200(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        json_response({"type": "error", "error": {"type": "api_error", "message": "Oops"}})
    )
    with pytest.raises(ProviderError, match="internal error: Oops") as info:
        stream(sse_server)
    assert info.value.retryable


# --- addresses --------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", ["", "/", "/v1", "/v1/", "/v1/messages"])
def test_base_url_with_or_without_v1(sse_server: SSEServer, suffix: str) -> None:
    sse_server.enqueue(sse_response(*answer(text_block(0, "ok"))))
    stream(sse_server, base_url=sse_server.url + suffix)
    assert sse_server.requests[0].path == "/v1/messages"


def test_gateway_path_is_kept(sse_server: SSEServer) -> None:
    sse_server.enqueue(json_response(models_page(["m"])))
    call(sse_server, lambda p: p.list_models(), base_url=sse_server.url + "/anthropic")
    assert sse_server.requests[0].path.startswith("/anthropic/v1/models?")


def test_empty_base_url_means_anthropic() -> None:
    async def main() -> str:
        async with httpx.AsyncClient(trust_env=False) as client:
            return anthropic_adapter(client, "  ").base_url

    assert run(main()) == "https://api.anthropic.com"


# --- complete() and list_models() -------------------------------------------------------


def test_complete_non_streaming(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        json_response(
            message_body(
                [
                    {"type": "thinking", "thinking": "Recall the book.", "signature": "s"},
                    {"type": "text", "text": "Forty-two."},
                ],
                input_tokens=9,
                output_tokens=3,
            )
        )
    )
    request = ChatRequest(model="claude-3-7-sonnet-latest", messages=REQUEST.messages, top_p=0.9)
    result = call(sse_server, lambda p: p.complete(request), api_key=KEY)
    assert result == Completion(
        text="Forty-two.",
        reasoning="Recall the book.",
        usage=Usage(9, 3),
        finish_reason="end_turn",
    )
    sent = sse_server.requests[0]
    assert sent.headers["accept"] == "application/json"
    assert sent.json == {
        "model": "claude-3-7-sonnet-latest",
        "max_tokens": 8192,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}],
        "top_p": 0.9,
        "stream": False,
    }


def test_complete_http_error(sse_server: SSEServer) -> None:
    sse_server.enqueue(error_body(529, "overloaded_error", "Overloaded"))
    with pytest.raises(ProviderHTTPError, match=r"overloaded \(529\)") as info:
        call(sse_server, lambda p: p.complete(REQUEST))
    assert info.value.retryable


def test_list_models_follows_pages(sse_server: SSEServer) -> None:
    sse_server.script(
        json_response(models_page(["claude-sonnet-4-5", "claude-opus-4-1"], has_more=True)),
        json_response(models_page(["claude-3-5-haiku-20241022"], has_more=False)),
    )
    models = call(sse_server, lambda p: p.list_models(), api_key=KEY)
    assert models == ["claude-3-5-haiku-20241022", "claude-opus-4-1", "claude-sonnet-4-5"]
    first, second = sse_server.requests
    assert (first.method, first.path) == ("GET", "/v1/models?limit=1000")
    assert second.path == "/v1/models?limit=1000&after_id=claude-opus-4-1"
    assert first.headers["x-api-key"] == KEY
    assert first.headers["anthropic-version"] == "2023-06-01"


def test_list_models_stops_when_the_server_repeats_a_page(sse_server: SSEServer) -> None:
    page = json_response(models_page(["a", "b"], has_more=True))
    sse_server.script(page, page, page)
    assert call(sse_server, lambda p: p.list_models()) == ["a", "b"]
    assert len(sse_server.requests) == 2


def test_list_models_error(sse_server: SSEServer) -> None:
    sse_server.enqueue(error_body(403, "permission_error", "Key lacks access"))
    with pytest.raises(ProviderError, match=r"denied access \(403\): Key lacks access"):
        call(sse_server, lambda p: p.list_models())


def test_list_models_unexpected_shape(sse_server: SSEServer) -> None:
    sse_server.enqueue(raw_response(b'{"models": []}'))
    with pytest.raises(ProviderError, match="not in the expected format"):
        call(sse_server, lambda p: p.list_models())


# --- registry ---------------------------------------------------------------------------


def test_registry_creates_the_anthropic_provider() -> None:
    settings = ProviderSettings(
        "claude", "Anthropic", ProviderKind.ANTHROPIC, "https://api.anthropic.com/v1/"
    )

    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            provider = create_provider(settings, KEY, client)
            assert isinstance(provider.spec, AnthropicSpec)
            assert provider.base_url == "https://api.anthropic.com"

    run(main())


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


def test_retrying_provider_retries_an_overloaded_stream_before_any_answer(
    sse_server: SSEServer,
) -> None:
    sse_server.script(
        sse_response(message_start(), error_event("overloaded_error", "Overloaded")),
        error_body(529, "overloaded_error", "Overloaded", headers={"retry-after-ms": "10"}),
        sse_response(*answer(text_block(0, "Third time lucky."))),
    )

    async def main() -> list[StreamEvent]:
        async with httpx.AsyncClient(trust_env=False) as client:
            provider = RetryingProvider(
                anthropic_adapter(client, sse_server.url), RetryPolicy(base_delay_s=0.01)
            )
            return [item async for item in provider.stream(REQUEST)]

    events = run(main())
    retries = [e for e in events if isinstance(e, Retrying)]
    assert [(r.attempt, r.reason) for r in retries] == [
        (2, "The server had an error"),
        (3, "The server had an error"),
    ]
    assert retries[1].delay_s == 0.01  # the server's retry-after-ms
    assert TextDelta("Third time lucky.") in events
    assert len(sse_server.requests) == 3
