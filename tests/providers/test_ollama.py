"""ollama_adapter against a real loopback server speaking Ollama's `/api/chat` NDJSON."""

from __future__ import annotations

import asyncio
import base64
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
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageReport,
)
from desktop.core.models import Role, Usage
from desktop.core.settings import ProviderKind, ProviderSettings
from desktop.providers.adapter import HttpAdapter
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
from desktop.providers.ollama.adapter import OllamaSpec
from desktop.providers.ollama.stream import GENERATED_CALL_PREFIX
from desktop.providers.registry import create_provider
from tests.support import ollama_wire as o
from tests.support.adapters import ollama_adapter
from tests.support.sse_server import (
    Disconnect,
    Head,
    Send,
    Sleep,
    SSEServer,
    json_response,
    raw_response,
)
from tests.support.waiting import CEILING_S

T = TypeVar("T")
MODEL = "qwen3:8b"
REQUEST = ChatRequest(model=MODEL, messages=(RequestMessage(Role.USER, "Hi"),))
WAIT = 10.0


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
            return await action(ollama_adapter(client, base_url or server.url, **options))

    return run(main())


def stream(
    server: SSEServer,
    request: ChatRequest = REQUEST,
    received: list[StreamEvent] | None = None,
    **options: Any,
) -> list[StreamEvent]:
    events = received if received is not None else []

    async def consume(provider: HttpAdapter) -> list[StreamEvent]:
        async for event in provider.stream(request):
            events.append(event)
        return events

    return call(server, consume, **options)


def text_of(events: list[StreamEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


def short_answer() -> list:
    return o.ndjson_response(o.line("ok"), o.done())


# --- streaming: the happy paths ---------------------------------------------------------


def test_plain_text_stream_url_and_body(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        o.ndjson_response(
            o.line("Hello"), o.line(", world"), o.done("stop", prompt=26, completion=3)
        )
    )
    assert stream(sse_server) == [
        TextDelta("Hello"),
        TextDelta(", world"),
        UsageReport(Usage(input_tokens=26, output_tokens=3)),
        Finished("stop"),
    ]
    sent = sse_server.requests[0]
    assert (sent.method, sent.path) == ("POST", "/api/chat")
    assert sent.headers["accept"] == "application/x-ndjson"
    assert sent.headers["content-type"] == "application/json"
    assert "authorization" not in sent.headers
    assert sent.json == {
        "model": MODEL,
        "messages": [{"role": "user", "content": "Hi"}],
        "stream": True,
    }


@pytest.mark.parametrize("suffix", ["", "/", "/api", "/v1/"])
def test_base_url_forms(sse_server: SSEServer, suffix: str) -> None:
    sse_server.enqueue(short_answer())
    stream(sse_server, base_url=sse_server.url + suffix)
    assert sse_server.requests[0].path == "/api/chat"


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


def test_stops_at_done_without_waiting_for_the_server(sse_server: SSEServer) -> None:
    sse_server.enqueue(o.ndjson_response(o.line("ok"), o.done(), Sleep(30)))

    async def scenario(provider: HttpAdapter) -> list[StreamEvent]:
        events = [event async for event in provider.stream(REQUEST)]
        assert await asyncio.to_thread(sse_server.requests[-1].client_gone.wait, WAIT)
        return events

    assert call(sse_server, scenario)[-1] == Finished("stop")


def test_utf8_character_split_across_network_writes(sse_server: SSEServer) -> None:
    raw = o.line("你好🙂")
    cut = raw.index("🙂".encode()) + 2
    cut_han = raw.index("好".encode()) + 1
    sse_server.enqueue(
        o.ndjson_response(
            raw[:cut_han], Sleep(0.05), raw[cut_han:cut], Sleep(0.05), raw[cut:], o.done()
        )
    )
    assert text_of(stream(sse_server)) == "你好🙂"


def test_lines_split_and_joined_across_writes(sse_server: SSEServer) -> None:
    a, b, done = o.line("a"), o.line("b"), o.done()
    sse_server.enqueue(o.ndjson_response(a[:10], a[10:] + b[:5], b[5:] + done))
    assert text_of(stream(sse_server)) == "ab"


def test_json_answer_when_streaming_is_ignored(sse_server: SSEServer) -> None:
    body = o.done_body("stop", 4, 2)
    body["message"] = {"role": "assistant", "content": "Whole answer", "thinking": "Hm."}
    sse_server.enqueue(json_response(body))
    assert stream(sse_server) == [
        ReasoningDelta("Hm."),
        TextDelta("Whole answer"),
        UsageReport(Usage(4, 2, 0)),
        Finished("stop"),
    ]


# --- tool calls -------------------------------------------------------------------------

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


# --- the request ------------------------------------------------------------------------


def test_images_system_and_options(sse_server: SSEServer) -> None:
    sse_server.enqueue(short_answer())
    png = b"\x89PNG\r\n\x1a\nbinary"
    request = ChatRequest(
        model="llava:13b",
        system="Be brief.",
        messages=(
            RequestMessage(
                Role.USER,
                "What is this?",
                images=(ImageInput("image/png", png), ImageInput("image/jpeg", b"\xff\xd8jpg")),
            ),
            RequestMessage(Role.ASSISTANT, "A logo."),
            RequestMessage(Role.USER, "Sure?"),
        ),
        temperature=0.3,
        top_p=0.9,
        max_output_tokens=512,
    )
    stream(sse_server, request, api_key="ollama-KEY-123")
    sent = sse_server.requests[0]
    assert sent.headers["authorization"] == "Bearer ollama-KEY-123"
    assert sent.json == {
        "model": "llava:13b",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {
                "role": "user",
                "content": "What is this?",
                "images": [base64.b64encode(png).decode(), "/9hqcGc="],
            },
            {"role": "assistant", "content": "A logo."},
            {"role": "user", "content": "Sure?"},
        ],
        "stream": True,
        "options": {"temperature": 0.3, "top_p": 0.9, "num_predict": 512},
    }


@pytest.mark.parametrize(
    ("model", "effort", "expected"),
    [
        ("qwen3:8b", ReasoningEffort.OFF, False),
        ("qwen3:8b", ReasoningEffort.LOW, True),
        ("deepseek-r1:14b", ReasoningEffort.MAX, True),
        ("gpt-oss:20b", ReasoningEffort.OFF, "low"),
        ("gpt-oss:20b", ReasoningEffort.LOW, "low"),
        ("gpt-oss:120b", ReasoningEffort.MEDIUM, "medium"),
        ("gpt-oss:20b", ReasoningEffort.HIGH, "high"),
        ("gpt-oss:20b", ReasoningEffort.MAX, "high"),
        ("qwen3:8b", None, None),
    ],
)
def test_reasoning_effort_mapping(
    sse_server: SSEServer, model: str, effort: ReasoningEffort | None, expected: Any
) -> None:
    sse_server.enqueue(short_answer())
    stream(sse_server, ChatRequest(model=model, messages=REQUEST.messages, reasoning_effort=effort))
    assert sse_server.requests[0].json.get("think", None) == expected
    assert ("think" in sse_server.requests[0].json) == (expected is not None)


def test_model_that_cannot_think_is_asked_again_without_think(sse_server: SSEServer) -> None:
    sse_server.script(
        o.error_response(400, '"llama3.2:latest" does not support thinking'),
        short_answer(),
    )
    request = ChatRequest(
        model="llama3.2:latest", messages=REQUEST.messages, reasoning_effort=ReasoningEffort.LOW
    )
    assert text_of(stream(sse_server, request)) == "ok"
    first, second = sse_server.requests
    assert first.json["think"] is True
    assert "think" not in second.json


def test_other_400_is_not_asked_again(sse_server: SSEServer) -> None:
    sse_server.enqueue(o.error_response(400, '"llama3.2" does not support tools'))
    with pytest.raises(ProviderHTTPError, match=r"rejected the request \(400\).*support tools"):
        stream(
            sse_server, ChatRequest(model="llama3.2", messages=REQUEST.messages, tools=(WEATHER,))
        )
    assert len(sse_server.requests) == 1


def test_extra_headers_and_body_are_merged_last(sse_server: SSEServer) -> None:
    sse_server.enqueue(short_answer())
    request = ChatRequest(
        model=MODEL,
        messages=REQUEST.messages,
        temperature=0.7,
        reasoning_effort=ReasoningEffort.LOW,
        extra_headers={"X-Team": "blue", "Accept": "*/*"},
        extra_body={"options": {"num_ctx": 32768, "temperature": 0.1}, "keep_alive": "1h"},
    )
    stream(sse_server, request)
    sent = sse_server.requests[0]
    assert (sent.headers["x-team"], sent.headers["accept"]) == ("blue", "*/*")
    assert sent.json == {
        "model": MODEL,
        "messages": [{"role": "user", "content": "Hi"}],
        "stream": True,
        "options": {"temperature": 0.1, "num_ctx": 32768},
        "think": True,
        "keep_alive": "1h",
    }


# --- broken streams ---------------------------------------------------------------------


def test_disconnect_mid_stream_keeps_what_arrived(sse_server: SSEServer) -> None:
    sse_server.enqueue(o.ndjson_response(o.line("Hello"), o.line(" wor"), Disconnect()))
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="closed before the answer was complete") as info:
        stream(sse_server, received=received)
    assert isinstance(info.value.__cause__, httpx.RemoteProtocolError)
    assert received == [TextDelta("Hello"), TextDelta(" wor")]


def test_clean_close_without_done_is_broken(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        Head(headers=(("Content-Type", "application/x-ndjson"),), framing="close"),
        Send(o.line("Half an ans")),
    )
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="before the answer was complete"):
        stream(sse_server, received=received)
    assert received == [TextDelta("Half an ans")]


def test_stall_raises_quickly_and_closes_the_connection(sse_server: SSEServer) -> None:
    sse_server.enqueue(o.ndjson_response(o.line("first"), Sleep(30)))
    received: list[StreamEvent] = []

    async def scenario(provider: HttpAdapter) -> float:
        started = time.monotonic()
        with pytest.raises(StreamBrokenError, match=r"sent nothing for 0\.3 s"):
            async for event in provider.stream(REQUEST):
                received.append(event)
        elapsed = time.monotonic() - started
        assert await asyncio.to_thread(sse_server.requests[-1].client_gone.wait, WAIT)
        return elapsed

    assert 0.25 < call(sse_server, scenario, stall_timeout=0.3) < WAIT
    assert received == [TextDelta("first")]


def test_malformed_line_keeps_partial_text(sse_server: SSEServer) -> None:
    sse_server.enqueue(o.ndjson_response(o.line("a"), b'{"message": {"content": \n', o.done()))
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="malformed stream line") as info:
        stream(sse_server, received=received)
    assert "Traceback" not in str(info.value)
    assert received == [TextDelta("a")]


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


# --- HTTP errors ------------------------------------------------------------------------


def test_404_unknown_model(sse_server: SSEServer) -> None:
    sse_server.enqueue(o.error_response(404, 'model "llama9" not found, try pulling it first'))
    with pytest.raises(ProviderHTTPError) as info:
        stream(sse_server)
    assert str(info.value) == (
        "The server does not know this model; check its name, or fetch the model list "
        "in Settings (404): "
        'model "llama9" not found, try pulling it first'
    )
    assert not info.value.retryable


def test_401_without_a_key_and_with_one(sse_server: SSEServer) -> None:
    sse_server.script(
        o.error_response(401, "unauthorized"), o.error_response(401, "bad token ollama-K-9")
    )
    with pytest.raises(ProviderError, match=r"requires an API key \(401\): unauthorized"):
        stream(sse_server)
    with pytest.raises(ProviderError) as info:
        stream(sse_server, api_key="ollama-K-9")
    assert str(info.value) == "The server refused the API key (401): bad token [redacted]"


def test_429_with_retry_after(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        o.error_response(429, "too many concurrent requests", headers={"Retry-After": "3"})
    )
    with pytest.raises(ProviderHTTPError) as info:
        stream(sse_server)
    assert (info.value.status_code, info.value.retryable, info.value.retry_after) == (429, True, 3)


def test_500(sse_server: SSEServer) -> None:
    sse_server.enqueue(o.error_response(500, "llama runner process has terminated: exit status 2"))
    with pytest.raises(ProviderError) as info:
        stream(sse_server)
    assert str(info.value) == (
        "The server had an internal error (500): llama runner process has terminated: exit status 2"
    )
    assert info.value.retryable


def test_web_page_instead_of_a_stream(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        raw_response(b"<html>Router login</html>", headers={"Content-Type": "text/html"})
    )
    with pytest.raises(ProviderError, match=r"web page.*11434"):
        stream(sse_server)


# --- complete() and list_models() -------------------------------------------------------


def test_complete_non_streaming(sse_server: SSEServer) -> None:
    body = o.done_body("stop", 9, 3)
    body["message"] = {"role": "assistant", "content": "Forty-two.", "thinking": "Recall."}
    sse_server.enqueue(json_response(body))
    result = call(sse_server, lambda p: p.complete(REQUEST))
    assert result == Completion(
        text="Forty-two.", reasoning="Recall.", usage=Usage(9, 3, 0), finish_reason="stop"
    )
    sent = sse_server.requests[0]
    assert sent.json == {
        "model": MODEL,
        "messages": [{"role": "user", "content": "Hi"}],
        "stream": False,
    }
    assert sent.headers["accept"] == "application/json"


def test_list_models(sse_server: SSEServer) -> None:
    sse_server.enqueue(json_response(o.tags_body(["qwen3:8b", "llama3.2:latest", "qwen3:8b"])))
    assert call(sse_server, lambda p: p.list_models()) == ["llama3.2:latest", "qwen3:8b"]
    assert (sse_server.requests[0].method, sse_server.requests[0].path) == ("GET", "/api/tags")


def test_list_models_unexpected_shape(sse_server: SSEServer) -> None:
    sse_server.enqueue(json_response({"data": []}))
    with pytest.raises(ProviderError, match="not in the expected format"):
        call(sse_server, lambda p: p.list_models())


def test_registry_creates_the_ollama_provider() -> None:
    settings = ProviderSettings("ollama", "Ollama", ProviderKind.OLLAMA, "http://127.0.0.1:11434/")

    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            provider = create_provider(settings, None, client)
            assert isinstance(provider.spec, OllamaSpec)
            assert provider.base_url == "http://127.0.0.1:11434"

    run(main())
