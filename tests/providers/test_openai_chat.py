"""openai_chat_adapter against a real loopback server speaking the OpenAI wire format."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Awaitable, Callable, Iterator
from datetime import timedelta
from email.utils import format_datetime
from typing import Any, TypeVar

import httpx
import pytest

from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import Finished, ReasoningDelta, StreamEvent, TextDelta, UsageReport
from desktop.core.models import Role, Usage, utc_now
from desktop.core.settings import ProviderKind, ProviderSettings
from desktop.providers.adapter import HttpAdapter
from desktop.providers.base import ChatRequest, Completion, ProviderHTTPError, RequestMessage
from desktop.providers.http_errors import parse_retry_after
from desktop.providers.openai_chat.adapter import OpenAIChatSpec
from desktop.providers.registry import create_provider
from tests.support.adapters import openai_chat_adapter
from tests.support.sse_server import (
    DEFAULT_ANSWER,
    DONE,
    Disconnect,
    Head,
    Send,
    SendRaw,
    Sleep,
    SSEServer,
    chat_chunk,
    completion_body,
    error_response,
    json_response,
    models_body,
    raw_response,
    sse_data,
    sse_response,
    usage_chunk,
    usage_dict,
)
from tests.support.waiting import CEILING_S

T = TypeVar("T")
KEY = "sk-test-SECRET-0123456789"
REQUEST = ChatRequest(model="test-model", messages=(RequestMessage(Role.USER, "Hi"),))
WAIT = 10.0  # generous: only for things that should happen promptly


def run(coro: Awaitable[T]) -> T:
    """Each test gets a fresh loop; the outer timeout turns a hang into a failure."""

    async def guarded() -> T:
        return await asyncio.wait_for(coro, CEILING_S)

    return asyncio.run(guarded())


def call(server: SSEServer, action: Callable[[HttpAdapter], Awaitable[T]], **options: Any) -> T:
    async def main() -> T:
        async with httpx.AsyncClient(trust_env=False) as client:
            return await action(openai_chat_adapter(client, server.base_url, **options))

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
        async for event in provider.stream(request):
            events.append(event)
        return events

    return call(server, consume, **options)


async def client_went_away(server: SSEServer) -> bool:
    """Wait, off the loop, until the server sees the connection closed. Call it while the
    httpx client is still open, so it proves the provider closed the response itself."""
    return await asyncio.to_thread(server.requests[-1].client_gone.wait, WAIT)


def text_of(events: list[StreamEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port bound but not listening: connecting is refused, with no race."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    try:
        yield sock.getsockname()[1]
    finally:
        sock.close()


# --- streaming: the happy paths ---------------------------------------------------------


@pytest.mark.parametrize("reasoning_key", ["reasoning_content", "reasoning"])
def test_stream_text_reasoning_usage_and_done(sse_server: SSEServer, reasoning_key: str) -> None:
    sse_server.enqueue(
        sse_response(
            chat_chunk(role="assistant", content=""),
            chat_chunk(reasoning="Let me ", reasoning_key=reasoning_key),
            chat_chunk(reasoning="think.", reasoning_key=reasoning_key),
            chat_chunk(content="Hello"),
            chat_chunk(content=", world"),
            chat_chunk(finish_reason="stop"),
            usage_chunk(10, 20, reasoning=5),
            DONE,
        )
    )
    assert stream(sse_server) == [
        ReasoningDelta("Let me "),
        ReasoningDelta("think."),
        TextDelta("Hello"),
        TextDelta(", world"),
        UsageReport(Usage(input_tokens=10, output_tokens=20, reasoning_tokens=5)),
        Finished("stop"),
    ]


def test_default_answer_when_nothing_is_scripted(sse_server: SSEServer) -> None:
    events = stream(sse_server)
    assert text_of(events) == DEFAULT_ANSWER
    assert events[-1] == Finished("stop")


def test_utf8_character_split_across_network_writes(sse_server: SSEServer) -> None:
    raw = chat_chunk(content="你好🙂")
    cut = raw.index("🙂".encode()) + 2  # inside the 4-byte emoji
    cut_han = raw.index("好".encode()) + 1
    sse_server.enqueue(
        sse_response(
            raw[:cut_han],
            Sleep(0.05),
            raw[cut_han:cut],
            Sleep(0.05),
            raw[cut:],
            chat_chunk(finish_reason="stop"),
            DONE,
        )
    )
    assert text_of(stream(sse_server)) == "你好🙂"


def test_comment_lines_and_crlf(sse_server: SSEServer) -> None:
    def crlf(data: bytes) -> bytes:
        return data.replace(b"\n", b"\r\n")

    sse_server.enqueue(
        sse_response(
            b": OPENROUTER PROCESSING\r\n\r\n",
            crlf(chat_chunk(content="a")),
            b": keep-alive\r\n",
            crlf(chat_chunk(content="b"))[:-1],  # the CRLF pair split across writes
            Sleep(0.05),
            b"\n",
            crlf(chat_chunk(finish_reason="stop")),
            crlf(DONE),
        )
    )
    assert stream(sse_server) == [TextDelta("a"), TextDelta("b"), Finished("stop")]


def test_finish_reason_without_done_still_finishes_once(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        sse_response(
            chat_chunk(content="ok"), chat_chunk(finish_reason="length"), usage_chunk(1, 1)
        )
    )
    assert stream(sse_server) == [
        TextDelta("ok"),
        UsageReport(Usage(1, 1, 0)),
        Finished("length"),
    ]


def test_done_without_trailing_blank_line_is_flushed_at_close(sse_server: SSEServer) -> None:
    sse_server.enqueue(sse_response(chat_chunk(content="ok"), b"data: [DONE]\n"))
    assert stream(sse_server) == [TextDelta("ok"), Finished(None)]


def test_stops_at_done_and_closes_without_waiting_for_the_server(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        sse_response(chat_chunk(content="ok"), chat_chunk(finish_reason="stop"), DONE, Sleep(30))
    )

    async def scenario(provider: HttpAdapter) -> list[StreamEvent]:
        events = [event async for event in provider.stream(REQUEST)]
        assert await client_went_away(sse_server)
        return events

    assert call(sse_server, scenario)[-1] == Finished("stop")


def test_server_ignoring_stream_true_and_answering_json(sse_server: SSEServer) -> None:
    sse_server.enqueue(json_response(completion_body("Whole answer", reasoning="Because.")))
    assert stream(sse_server) == [
        ReasoningDelta("Because."),
        TextDelta("Whole answer"),
        UsageReport(Usage(5, 5, 0)),
        Finished("stop"),
    ]


def test_web_page_instead_of_a_stream_points_at_the_base_url(sse_server: SSEServer) -> None:
    # The body is never read here, so only the provider's own close ends the connection.
    sse_server.enqueue(
        Head(headers=(("Content-Type", "text/html; charset=utf-8"),)),
        Send(b"<html><body>Welcome to the admin panel</body></html>"),
        Sleep(30),
    )

    async def scenario(provider: HttpAdapter) -> None:
        with pytest.raises(ProviderError, match=r"web page.*check the base URL"):
            async for _ in provider.stream(REQUEST):
                pass
        assert await client_went_away(sse_server)

    call(sse_server, scenario)


# --- streaming: broken streams ----------------------------------------------------------


def test_disconnect_mid_stream_keeps_what_arrived(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        sse_response(chat_chunk(content="Hello"), chat_chunk(content=" wor"), Disconnect())
    )
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="closed before the answer was complete") as info:
        stream(sse_server, received=received)
    assert type(info.value) is StreamBrokenError
    assert isinstance(info.value.__cause__, httpx.RemoteProtocolError)  # a real broken body
    assert received == [TextDelta("Hello"), TextDelta(" wor")]


def test_disconnect_after_finish_reason_is_a_complete_answer(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        sse_response(chat_chunk(content="Done."), chat_chunk(finish_reason="stop"), Disconnect())
    )
    assert stream(sse_server) == [TextDelta("Done."), Finished("stop")]


def test_clean_close_without_done_or_finish_reason_is_broken(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        Head(headers=(("Content-Type", "text/event-stream"),), framing="close"),
        Send(chat_chunk(content="Half an ans")),
    )
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="before the answer was complete"):
        stream(sse_server, received=received)
    assert received == [TextDelta("Half an ans")]


def test_stall_raises_quickly_and_closes_the_connection(sse_server: SSEServer) -> None:
    sse_server.enqueue(sse_response(chat_chunk(content="first"), Sleep(30)))
    received: list[StreamEvent] = []

    async def scenario(provider: HttpAdapter) -> float:
        started = time.monotonic()
        with pytest.raises(StreamBrokenError, match=r"sent nothing for 0\.5 s"):
            async for event in provider.stream(REQUEST):
                received.append(event)
        elapsed = time.monotonic() - started
        assert await client_went_away(sse_server)
        return elapsed

    assert 0.4 < call(sse_server, scenario, stall_timeout=0.5) < WAIT
    assert received == [TextDelta("first")]


def test_malformed_json_chunk(sse_server: SSEServer) -> None:
    sse_server.enqueue(sse_response(chat_chunk(content="a"), b'data: {"choices": [\n\n', DONE))
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="malformed stream chunk") as info:
        stream(sse_server, received=received)
    assert "Traceback" not in str(info.value)
    assert received == [TextDelta("a")]


def test_in_stream_error_payload(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        sse_response(
            chat_chunk(content="a"),
            sse_data({"error": {"message": "Upstream provider overloaded", "code": 502}}),
            DONE,
        )
    )
    with pytest.raises(ProviderError, match="Upstream provider overloaded") as info:
        stream(sse_server)
    assert type(info.value) is ProviderError
    assert info.value.retryable


def test_cancellation_propagates_and_closes_the_connection(sse_server: SSEServer) -> None:
    sse_server.enqueue(sse_response(chat_chunk(content="Hi"), Sleep(30)))
    received: list[StreamEvent] = []

    async def scenario(provider: HttpAdapter) -> None:
        first = asyncio.Event()

        async def consume() -> None:
            async for event in provider.stream(REQUEST):
                received.append(event)
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
    sse_server.enqueue(
        error_response(401, f"Incorrect API key provided: {KEY}.", code="invalid_api_key")
    )
    with pytest.raises(ProviderHTTPError) as info:
        stream(sse_server, api_key=KEY)
    message = str(info.value)
    assert message.startswith("The server refused the API key (401): Incorrect API key provided")
    assert KEY not in message
    assert info.value.status_code == 401
    assert not info.value.retryable


def test_401_without_a_key_says_a_key_is_needed(sse_server: SSEServer) -> None:
    sse_server.enqueue(error_response(401, "Missing bearer token"))
    with pytest.raises(ProviderError, match=r"requires an API key \(401\): Missing bearer token"):
        stream(sse_server)


def test_429_is_retryable_and_carries_retry_after(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        error_response(429, "Rate limit reached for requests", headers={"Retry-After": "7"})
    )
    with pytest.raises(ProviderHTTPError, match="Rate limit reached") as info:
        stream(sse_server)
    assert (info.value.status_code, info.value.retryable, info.value.retry_after) == (429, True, 7)


def test_500_with_plain_text_body(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        raw_response(b"  upstream exploded\n", status=500, headers={"Content-Type": "text/plain"})
    )
    with pytest.raises(ProviderError) as info:
        stream(sse_server)
    assert str(info.value) == "The server had an internal error (500): upstream exploded"
    assert (info.value.status_code, info.value.retryable) == (500, True)


def test_html_error_page_is_reduced_to_its_text(sse_server: SSEServer) -> None:
    page = b"<html><head><style>p{}</style></head><body><h1>502 Bad Gateway</h1></body></html>"
    sse_server.enqueue(raw_response(page, status=502, headers={"Content-Type": "text/html"}))
    with pytest.raises(ProviderError) as info:
        stream(sse_server)
    assert str(info.value) == "The server had an internal error (502): 502 Bad Gateway"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"message": "model not found"}, "model not found"),
        ({"detail": "Not Found"}, "Not Found"),
        ({"error": "plain string error"}, "plain string error"),
    ],
)
def test_other_error_body_shapes(sse_server: SSEServer, body: Any, expected: str) -> None:
    sse_server.enqueue(json_response(body, status=404))
    with pytest.raises(ProviderError, match=f"\\(404\\): {expected}$") as info:
        stream(sse_server)
    assert not info.value.retryable


def test_connection_refused(closed_port: int) -> None:
    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            provider = openai_chat_adapter(client, f"http://127.0.0.1:{closed_port}/v1")
            async for _ in provider.stream(REQUEST):
                pass

    with pytest.raises(ProviderError) as info:
        run(main())
    assert type(info.value) is ProviderError
    expected = f"Could not connect to http://127.0.0.1:{closed_port}/v1/chat/completions: "
    assert str(info.value) == expected + "Connection refused"
    assert info.value.retryable


# --- the request ------------------------------------------------------------------------


def test_request_body_and_headers(sse_server: SSEServer) -> None:
    request = ChatRequest(
        model="deepseek-reasoner",
        messages=(
            RequestMessage(Role.SYSTEM, "Be brief."),
            RequestMessage(Role.USER, "Hi", reasoning="ignored on user turns"),
            RequestMessage(Role.ASSISTANT, "Hello!", reasoning="They greeted me."),
            RequestMessage(Role.USER, "Again"),
        ),
        temperature=0.2,
        max_output_tokens=256,
    )
    stream(sse_server, request, api_key=f"  {KEY}\n")
    sent = sse_server.requests[0]
    assert (sent.method, sent.path) == ("POST", "/v1/chat/completions")
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    assert sent.headers["accept"] == "text/event-stream"
    assert sent.headers["content-type"] == "application/json"
    assert sent.json == {
        "model": "deepseek-reasoner",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Hi"},
            # Reasoning goes back only with tool calls (see test_openai_chat_tools).
            {"role": "assistant", "content": "Hello!"},
            {"role": "user", "content": "Again"},
        ],
        "stream": True,
        "stream_options": {"include_usage": True},
        "temperature": 0.2,
        "max_tokens": 256,
    }


@pytest.mark.parametrize("api_key", [None, "", "   "])
def test_no_authorization_header_without_a_key(sse_server: SSEServer, api_key: str | None) -> None:
    stream(sse_server, api_key=api_key)
    assert "authorization" not in sse_server.requests[0].headers


def test_base_url_trailing_slash(sse_server: SSEServer) -> None:
    async def main() -> list[str]:
        async with httpx.AsyncClient(trust_env=False) as client:
            return await openai_chat_adapter(client, sse_server.base_url + "/").list_models()

    run(main())
    assert sse_server.requests[0].path == "/v1/models"


# --- complete() and list_models() -------------------------------------------------------


def test_complete_non_streaming(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        json_response(
            completion_body(
                "Forty-two.",
                reasoning="Recall the book.",
                finish_reason="stop",
                usage=usage_dict(9, 3, reasoning=2),
            )
        )
    )
    request = ChatRequest(model="m", messages=REQUEST.messages, top_p=0.9)
    result = call(sse_server, lambda p: p.complete(request), api_key=KEY)
    assert result == Completion(
        text="Forty-two.",
        reasoning="Recall the book.",
        usage=Usage(9, 3, 2),
        finish_reason="stop",
    )
    sent = sse_server.requests[0]
    assert sent.json == {
        "model": "m",
        "messages": [{"role": "user", "content": "Hi"}],
        "stream": False,
        "top_p": 0.9,
    }
    assert sent.headers["accept"] == "application/json"


def test_complete_http_error(sse_server: SSEServer) -> None:
    sse_server.enqueue(error_response(503, "Service Unavailable"))
    with pytest.raises(ProviderError, match=r"internal error \(503\)") as info:
        call(sse_server, lambda p: p.complete(REQUEST))
    assert info.value.retryable


def test_complete_invalid_json(sse_server: SSEServer) -> None:
    sse_server.enqueue(raw_response(b"{not json"))
    with pytest.raises(ProviderError, match="not valid JSON"):
        call(sse_server, lambda p: p.complete(REQUEST))


def test_list_models_sorted(sse_server: SSEServer) -> None:
    sse_server.enqueue(json_response(models_body(["zeta", "alpha", "mid"])))
    assert call(sse_server, lambda p: p.list_models(), api_key=KEY) == ["alpha", "mid", "zeta"]
    sent = sse_server.requests[0]
    assert (sent.method, sent.path) == ("GET", "/v1/models")
    assert sent.headers["authorization"] == f"Bearer {KEY}"


def test_list_models_error(sse_server: SSEServer) -> None:
    sse_server.enqueue(error_response(403, "Project lacks access"))
    with pytest.raises(ProviderError, match=r"denied access \(403\): Project lacks access"):
        call(sse_server, lambda p: p.list_models())


def test_raw_bytes_step_reaches_the_wire_unframed(sse_server: SSEServer) -> None:
    """SendRaw lets a test hand-frame the body; here a hand-written chunked response."""
    body = chat_chunk(content="raw") + DONE
    sse_server.enqueue(
        Head(),
        SendRaw(b"%x\r\n%b\r\n0\r\n\r\n" % (len(body), body)),
    )
    assert stream(sse_server) == [TextDelta("raw"), Finished(None)]


# --- helpers and registry ---------------------------------------------------------------


def test_parse_retry_after() -> None:
    assert parse_retry_after("12") == 12
    assert parse_retry_after("1.5") == 1.5
    assert parse_retry_after(None) is None
    assert parse_retry_after("soon") is None
    assert parse_retry_after("-3") is None
    in_a_minute = format_datetime(utc_now() + timedelta(seconds=60), usegmt=True)
    assert 50 < (parse_retry_after(in_a_minute) or 0) <= 60


def test_registry_creates_the_openai_provider() -> None:
    settings = ProviderSettings("local", "Local", ProviderKind.OPENAI_CHAT, "http://x:1/v1/")

    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            provider = create_provider(settings, None, client)
            assert isinstance(provider.spec, OpenAIChatSpec)
            assert provider.base_url == "http://x:1/v1"

    run(main())


def test_registry_rejects_an_unknown_kind() -> None:
    settings = ProviderSettings("x", "Mystery", "carrier_pigeon")  # type: ignore[arg-type]

    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            create_provider(settings, None, client)

    with pytest.raises(ProviderError, match="Mystery: unsupported provider kind 'carrier_pigeon'"):
        run(main())
