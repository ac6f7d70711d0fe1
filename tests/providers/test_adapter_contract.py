"""The `ChatProvider` contract, held by every wire protocol's adapter alike.

Each test runs once per protocol (`tests/support/wire_cases.py`), against that
protocol's real wire format served on 127.0.0.1: the faults every server can show (a
web page instead of the API, a whole JSON answer to a streamed request, a stream cut or
stalled, a rate limit, a key in an error text, a cancelled request) are handled the same
way whatever the protocol. What only one protocol does is tested in its own folder.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time
from collections.abc import Callable, Iterator

import httpx
import pytest

from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import Finished, StreamEvent, TextDelta
from desktop.core.models import Role
from desktop.core.settings import ProviderSettings
from desktop.providers.adapter import HttpAdapter
from desktop.providers.base import ChatRequest, ProviderHTTPError, RequestMessage
from desktop.providers.registry import create_provider
from tests.support.provider_calls import WAIT, call, client_went_away, run, stream, text_of
from tests.support.sse_server import (
    Disconnect,
    Head,
    Send,
    Sleep,
    SSEServer,
    json_response,
    raw_response,
)
from tests.support.wire_cases import CASES, WireCase

KEY = "sk-test-SECRET-0123456789"


# Tests that hold for some wires only, and which.
ONLY: dict[str, Callable[[WireCase], bool]] = {
    "test_reading_stops_at_the_end_and_closes_without_waiting_for_the_server": (
        lambda case: case.stops_at_end
    ),
}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test runs once per wire (but for the wires `ONLY` leaves out)."""
    only = ONLY.get(metafunc.function.__name__, lambda case: True)
    metafunc.parametrize("case", [c for c in CASES if only(c)], ids=str)


def request(case: WireCase) -> ChatRequest:
    return ChatRequest(model=case.model, messages=(RequestMessage(Role.USER, "Hi"),))


def stream_of(
    case: WireCase,
    server: SSEServer,
    received: list[StreamEvent] | None = None,
    **options: object,
) -> list[StreamEvent]:
    return stream(case.make, case.url(server), request(case), received, **options)


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port bound but not listening: connecting is refused, with no race."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    try:
        yield sock.getsockname()[1]
    finally:
        sock.close()


# --- answers that are not a stream ------------------------------------------------------


def test_a_web_page_instead_of_the_api_is_refused_and_closed(
    case: WireCase, sse_server: SSEServer
) -> None:
    # The body is never read, so only the adapter's own close ends the connection.
    sse_server.enqueue(
        Head(headers=(("Content-Type", "text/html; charset=utf-8"),)),
        Send(b"<html><body>Sign in to the admin panel</body></html>"),
        Sleep(30),
    )

    async def scenario(provider: HttpAdapter) -> None:
        with pytest.raises(ProviderError, match=f"web page.*{case.web_page_hint}") as info:
            async for _ in provider.stream(request(case)):
                pass
        assert type(info.value) is ProviderError
        assert await client_went_away(sse_server)

    call(case.make, case.url(sse_server), scenario)


def test_a_whole_json_answer_to_a_stream_request_is_read(
    case: WireCase, sse_server: SSEServer
) -> None:
    sse_server.enqueue(json_response(case.whole))
    assert stream_of(case, sse_server) == list(case.whole_events)


# --- streams ----------------------------------------------------------------------------


def test_a_well_formed_stream_is_read_to_its_end(case: WireCase, sse_server: SSEServer) -> None:
    sse_server.enqueue(case.respond(*case.answer("Hello", ", world")))
    events = stream_of(case, sse_server)
    assert events == [TextDelta("Hello"), TextDelta(", world"), *case.closing]
    sent = sse_server.requests[0]
    assert (sent.method, sent.path.split("?")[0]) == ("POST", case.chat_path)
    assert sent.headers["content-type"] == "application/json"


def test_a_utf8_character_split_across_network_writes(
    case: WireCase, sse_server: SSEServer
) -> None:
    raw = case.text("你好🙂")
    cut_han = raw.index("好".encode()) + 1
    cut = raw.index("🙂".encode()) + 2  # inside the 4-byte emoji
    pieces = [raw[:cut_han], Sleep(0.05), raw[cut_han:cut], Sleep(0.05), raw[cut:]]
    sse_server.enqueue(case.respond(*case.start, *pieces, *case.finish, *case.tail))
    assert text_of(stream_of(case, sse_server)) == "你好🙂"


def test_a_stream_cut_mid_way_keeps_what_arrived(case: WireCase, sse_server: SSEServer) -> None:
    sse_server.enqueue(
        case.respond(*case.start, case.text("Hello"), case.text(" wor"), Disconnect())
    )
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="closed before the answer was complete") as info:
        stream_of(case, sse_server, received)
    assert type(info.value) is StreamBrokenError
    assert isinstance(info.value.__cause__, httpx.RemoteProtocolError)  # a real broken body
    assert received == [TextDelta("Hello"), TextDelta(" wor")]


def test_a_stream_closed_cleanly_before_its_end_is_broken(
    case: WireCase, sse_server: SSEServer
) -> None:
    sse_server.enqueue(
        Head(headers=(("Content-Type", case.content_type),), framing="close"),
        *(Send(data) for data in (*case.start, case.text("Half an ans"))),
    )
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="before the answer was complete"):
        stream_of(case, sse_server, received)
    assert received == [TextDelta("Half an ans")]


def test_a_connection_lost_after_the_answer_is_complete_loses_nothing(
    case: WireCase, sse_server: SSEServer
) -> None:
    sse_server.enqueue(case.respond(*case.start, case.text("Done."), *case.finish, Disconnect()))
    assert stream_of(case, sse_server) == [TextDelta("Done."), *case.closing]


def test_reading_stops_at_the_end_and_closes_without_waiting_for_the_server(
    case: WireCase, sse_server: SSEServer
) -> None:
    sse_server.enqueue(case.respond(*case.answer("ok"), Sleep(30)))

    async def scenario(provider: HttpAdapter) -> list[StreamEvent]:
        events = [event async for event in provider.stream(request(case))]
        assert await client_went_away(sse_server)
        return events

    assert call(case.make, case.url(sse_server), scenario)[-1] == case.closing[-1]


def test_a_malformed_event_breaks_the_stream_readably(
    case: WireCase, sse_server: SSEServer
) -> None:
    sse_server.enqueue(
        case.respond(*case.start, case.text("a"), case.malformed, *case.finish, *case.tail)
    )
    received: list[StreamEvent] = []
    words = f"malformed stream {case.malformed_unit}"
    with pytest.raises(StreamBrokenError, match=words) as info:
        stream_of(case, sse_server, received)
    assert "Traceback" not in str(info.value)
    assert received == [TextDelta("a")]


# --- stalls -----------------------------------------------------------------------------


def test_a_stalled_stream_breaks_after_the_stall_timeout_and_closes(
    case: WireCase, sse_server: SSEServer
) -> None:
    sse_server.enqueue(case.respond(*case.start, case.text("first"), Sleep(60)))
    received: list[StreamEvent] = []

    async def scenario(provider: HttpAdapter) -> float:
        started = time.monotonic()
        with pytest.raises(StreamBrokenError, match=r"sent nothing for 0\.3 s"):
            async for event in provider.stream(request(case)):
                received.append(event)
        elapsed = time.monotonic() - started
        assert await client_went_away(sse_server)
        return elapsed

    # Not sooner than the stall timeout (httpx's read timeout); no later bound but the
    # harness's ceiling, which only a hang reaches.
    assert 0.25 < call(case.make, case.url(sse_server), scenario, stall_timeout=0.3) < WAIT
    assert received == [TextDelta("first")]


def _settings(case: WireCase, server: SSEServer, stall_timeout: int) -> ProviderSettings:
    # Built directly, below the settings' 10 s minimum, so the test need not wait long.
    return ProviderSettings("p", "P", case.kind, case.url(server), stall_timeout=stall_timeout)


def test_a_server_silent_before_its_first_byte_stalls_after_the_providers_timeout(
    case: WireCase, sse_server: SSEServer
) -> None:
    """Through the registry, as the engine builds adapters: each provider's own timeout."""
    sse_server.enqueue([Sleep(60), *case.respond(*case.answer("late"))])

    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            provider = create_provider(_settings(case, sse_server, 1), None, client)
            async for _event in provider.stream(request(case)):
                pass

    with pytest.raises(ProviderError, match=r"accepted the request but sent nothing for 1 s"):
        run(main())
    assert sse_server.requests[0].client_gone.wait(WAIT)


def test_a_server_silent_for_less_than_the_timeout_answers(
    case: WireCase, sse_server: SSEServer
) -> None:
    sse_server.enqueue([Sleep(1.5), *case.respond(*case.answer("Hi"))])

    async def main() -> list[StreamEvent]:
        async with httpx.AsyncClient(trust_env=False) as client:
            provider = create_provider(_settings(case, sse_server, 30), None, client)
            return [event async for event in provider.stream(request(case))]

    assert isinstance(run(main())[-1], Finished)


# --- HTTP errors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "expected"),
    [({"Retry-After": "7"}, 7.0), ({"Retry-After": "7", "retry-after-ms": "1500"}, 1.5)],
    ids=["retry-after", "retry-after-ms"],
)
def test_429_is_retryable_and_carries_retry_after(
    case: WireCase, sse_server: SSEServer, headers: dict[str, str], expected: float
) -> None:
    sse_server.enqueue(case.error(429, "Rate limit reached for requests", headers))
    with pytest.raises(ProviderHTTPError) as info:
        stream_of(case, sse_server)
    assert str(info.value) == (
        "The server is rate limiting requests (429): Rate limit reached for requests"
    )
    assert (info.value.status_code, info.value.retryable) == (429, True)
    assert info.value.retry_after == expected


def test_the_api_key_never_reaches_an_error_or_the_log(
    case: WireCase, sse_server: SSEServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    sse_server.enqueue(case.error(401, f"Incorrect API key provided: {KEY}.", None))
    with pytest.raises(ProviderHTTPError) as info:
        stream_of(case, sse_server, api_key=f"  {KEY}\n")
    assert (
        str(info.value)
        == "The server refused the API key (401): Incorrect API key provided: [redacted]."
    )
    assert (info.value.status_code, info.value.retryable) == (401, False)
    assert KEY not in info.value.detail
    assert "401" in caplog.text
    assert KEY not in caplog.text
    sent = sse_server.requests[0]
    assert KEY not in sent.path  # only ever in a header
    assert any(KEY in value for value in sent.headers.values())


def test_a_key_in_an_error_inside_the_stream_is_redacted(
    case: WireCase, sse_server: SSEServer
) -> None:
    sse_server.enqueue(
        case.respond(
            *case.start, case.in_stream_error(f"upstream failed for key {KEY}"), *case.finish
        )
    )
    with pytest.raises(ProviderError) as info:
        stream_of(case, sse_server, api_key=KEY)
    assert "upstream failed for key [redacted]" in str(info.value)
    assert KEY not in str(info.value)


def test_401_without_a_key_says_a_key_is_needed(case: WireCase, sse_server: SSEServer) -> None:
    sse_server.enqueue(case.error(401, "Missing credentials", None))
    with pytest.raises(ProviderError, match=r"requires an API key \(401\): Missing credentials"):
        stream_of(case, sse_server)
    assert not {"authorization", "x-api-key", "x-goog-api-key"} & set(
        sse_server.requests[0].headers
    )


def test_a_refused_connection_is_retryable(case: WireCase, closed_port: int) -> None:
    base_url = f"http://127.0.0.1:{closed_port}" + ("/v1" if case.v1 else "")

    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            async for _ in case.make(client, base_url).stream(request(case)):
                pass

    with pytest.raises(ProviderError) as info:
        run(main())
    assert type(info.value) is ProviderError
    address = f"http://127.0.0.1:{closed_port}{case.chat_path}"
    assert str(info.value) == f"Could not connect to {address}: Connection refused"
    assert info.value.retryable


# --- cancellation -----------------------------------------------------------------------


def test_cancellation_propagates_and_closes_the_response(
    case: WireCase, sse_server: SSEServer
) -> None:
    sse_server.enqueue(case.respond(*case.start, case.text("Hi"), Sleep(60)))
    received: list[StreamEvent] = []

    async def scenario(provider: HttpAdapter) -> None:
        first = asyncio.Event()

        async def consume() -> None:
            async for event in provider.stream(request(case)):
                received.append(event)
                first.set()

        task = asyncio.create_task(consume())
        await asyncio.wait_for(first.wait(), WAIT)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await client_went_away(sse_server)

    call(case.make, case.url(sse_server), scenario)
    assert received == [TextDelta("Hi")]


# --- complete() -------------------------------------------------------------------------


def test_complete_reports_a_server_error_as_retryable(
    case: WireCase, sse_server: SSEServer
) -> None:
    sse_server.enqueue(case.error(503, "Service Unavailable", None))
    with pytest.raises(ProviderHTTPError, match=r"internal error \(503\)") as info:
        call(case.make, case.url(sse_server), lambda p: p.complete(request(case)))
    assert info.value.retryable
    assert sse_server.requests[0].headers["accept"] == "application/json"


def test_complete_refuses_an_answer_that_is_not_json(case: WireCase, sse_server: SSEServer) -> None:
    sse_server.enqueue(raw_response(b"{not json"))
    with pytest.raises(ProviderError, match="not valid JSON"):
        call(case.make, case.url(sse_server), lambda p: p.complete(request(case)))


# --- the registry -----------------------------------------------------------------------


def test_the_registry_builds_the_adapter_with_this_protocols_spec(
    case: WireCase, sse_server: SSEServer
) -> None:
    settings = ProviderSettings("p", "P", case.kind, case.url(sse_server) + "/")

    async def main() -> HttpAdapter:
        async with httpx.AsyncClient(trust_env=False) as client:
            provider = create_provider(settings, None, client)
            assert isinstance(provider, HttpAdapter)
            return provider

    provider = run(main())
    assert type(provider.spec) is case.spec
    assert provider.base_url == sse_server.url + case.api_path
