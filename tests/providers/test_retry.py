"""Retries end to end: a real adapter against the loopback server, wrapped by
`RetryingProvider` with its sleep and randomness injected, so most tests do not really
wait; those about the wait itself wait for real, on a loop whose timers fire early."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import Finished, Retrying, StreamEvent, TextDelta
from desktop.core.models import Role
from desktop.core.settings import ProviderKind, ProviderSettings
from desktop.providers.base import ChatRequest, ProviderHTTPError, RequestMessage
from desktop.providers.openai_chat.adapter import OpenAIChatSpec
from desktop.providers.registry import create_retrying_provider
from desktop.providers.retry import RetryingProvider, RetryPolicy
from tests.support import gemini_wire as g
from tests.support import ollama_wire
from tests.support.adapters import gemini_adapter, ollama_adapter, openai_chat_adapter
from tests.support.early_timers import run_with_early_timers
from tests.support.embedding_server import EMBEDDING_MODEL, EmbeddingServer, vector_for
from tests.support.provider_calls import run, text_of
from tests.support.sse_server import (
    DEFAULT_ANSWER,
    Disconnect,
    SSEServer,
    chat_chunk,
    completion_body,
    default_stream,
    error_response,
    json_response,
    sse_response,
)

REQUEST = ChatRequest(model="test-model", messages=(RequestMessage(Role.USER, "Hi"),))


class Clock:
    """Stands in for `asyncio.sleep`: records each wait and what had been yielded
    before it, and returns at once."""

    def __init__(self, events: list[StreamEvent]) -> None:
        self.waits: list[float] = []
        self.seen_before_wait: list[StreamEvent | None] = []
        self._events = events

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.seen_before_wait.append(self._events[-1] if self._events else None)


def fixed(*values: float) -> Callable[[], float]:
    """An rng giving `values` in turn (then the last one forever)."""
    queue = list(values)
    return lambda: queue.pop(0) if len(queue) > 1 else queue[0]


def stream_with_retries(
    base_url: str,
    *,
    rng: Callable[[], float] = lambda: 0.5,
    policy: RetryPolicy | None = None,
) -> tuple[list[StreamEvent], Clock, BaseException | None]:
    """Every event (Retrying included), the waits, and the exception that ended it."""
    events: list[StreamEvent] = []
    clock = Clock(events)

    async def main() -> BaseException | None:
        async with httpx.AsyncClient(trust_env=False) as client:
            inner = openai_chat_adapter(client, base_url)
            provider = RetryingProvider(inner, policy, sleep=clock.sleep, rng=rng)
            try:
                async for event in provider.stream(REQUEST):
                    events.append(event)
            except ProviderError as error:
                return error
        return None

    error = run(main())
    return events, clock, error


@pytest.fixture
def closed_port() -> Iterator[int]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    try:
        yield sock.getsockname()[1]
    finally:
        sock.close()


def test_429_with_retry_after_waits_as_asked_then_answers(sse_server: SSEServer) -> None:
    sse_server.script(
        error_response(429, "Rate limit reached", headers={"Retry-After": "4"}),
        default_stream(),
    )
    events, clock, error = stream_with_retries(sse_server.base_url)
    assert error is None
    assert events[0] == Retrying("Rate limited", 4.0, attempt=2, max_attempts=3)
    assert clock.waits == [4.0]
    assert clock.seen_before_wait == [events[0]]  # said before the wait, not after
    assert text_of(events) == DEFAULT_ANSWER
    assert isinstance(events[-1], Finished)
    assert len(sse_server.requests) == 2
    assert sse_server.requests[0].body == sse_server.requests[1].body  # the same request


def test_retry_after_ms_is_more_precise_and_wins(sse_server: SSEServer) -> None:
    sse_server.script(
        error_response(429, "Slow down", headers={"retry-after-ms": "1500", "Retry-After": "2"}),
        default_stream(),
    )
    events, clock, error = stream_with_retries(sse_server.base_url)
    assert error is None
    assert clock.waits == [1.5]
    assert events[0] == Retrying("Rate limited", 1.5, 2, 3)


def test_503_twice_then_success_backs_off_exponentially_with_jitter(sse_server: SSEServer) -> None:
    busy = error_response(503, "Overloaded", error_type="server_error")
    sse_server.script(busy, busy, default_stream())
    # rng 0.0 then 1.0: the jitter's two extremes, -20 % and +20 %.
    events, clock, error = stream_with_retries(sse_server.base_url, rng=fixed(0.0, 1.0))
    assert error is None
    assert clock.waits == pytest.approx([0.8, 2.4])
    retries = [e for e in events if isinstance(e, Retrying)]
    assert [(r.reason, r.attempt) for r in retries] == [
        ("The server had an error", 2),
        ("The server had an error", 3),
    ]
    assert text_of(events) == DEFAULT_ANSWER
    assert len(sse_server.requests) == 3


def test_three_failures_give_the_last_error(sse_server: SSEServer) -> None:
    sse_server.script(
        error_response(500, "first failure", error_type="server_error"),
        error_response(502, "second failure", error_type="server_error"),
        error_response(503, "third failure", error_type="server_error"),
    )
    events, clock, error = stream_with_retries(sse_server.base_url)
    assert isinstance(error, ProviderHTTPError)
    assert error.status_code == 503 and "third failure" in str(error)
    assert len(clock.waits) == 2
    assert len(sse_server.requests) == 3
    assert all(isinstance(e, Retrying) for e in events)


def test_a_retry_after_beyond_a_minute_is_not_waited_for(sse_server: SSEServer) -> None:
    sse_server.script(
        error_response(429, "Try tomorrow", headers={"Retry-After": "120"}), default_stream()
    )
    events, clock, error = stream_with_retries(sse_server.base_url)
    assert isinstance(error, ProviderHTTPError) and "Try tomorrow" in str(error)
    assert error.retry_after == 120
    assert events == [] and clock.waits == []
    assert len(sse_server.requests) == 1


def test_errors_a_retry_cannot_fix_are_not_retried(sse_server: SSEServer) -> None:
    sse_server.script(error_response(401, "Incorrect API key provided"), default_stream())
    events, clock, error = stream_with_retries(sse_server.base_url)
    assert isinstance(error, ProviderHTTPError) and error.status_code == 401
    assert events == [] and clock.waits == []
    assert len(sse_server.requests) == 1


def test_a_refused_connection_is_retried_with_backoff_then_reported(closed_port: int) -> None:
    events, clock, error = stream_with_retries(
        f"http://127.0.0.1:{closed_port}/v1", rng=fixed(0.25, 0.75)
    )
    assert isinstance(error, ProviderError) and "Could not connect" in str(error)
    assert clock.waits == pytest.approx([1.0 * 0.9, 2.0 * 1.1])
    assert [(e.reason, e.attempt) for e in events if isinstance(e, Retrying)] == [
        ("Could not reach the server", 2),
        ("Could not reach the server", 3),
    ]


def test_our_own_backoff_is_capped(closed_port: int) -> None:
    policy = RetryPolicy(max_attempts=6, base_delay_s=1.0, max_delay_s=5.0, jitter=0.0)
    _, clock, error = stream_with_retries(f"http://127.0.0.1:{closed_port}/v1", policy=policy)
    assert error is not None
    assert clock.waits == [1.0, 2.0, 4.0, 5.0, 5.0]


def test_a_stream_broken_after_the_first_chunk_is_not_retried(sse_server: SSEServer) -> None:
    sse_server.script(
        sse_response(chat_chunk(content="Half an ans"), Disconnect()), default_stream()
    )
    events, clock, error = stream_with_retries(sse_server.base_url)
    assert isinstance(error, StreamBrokenError)
    assert events == [TextDelta("Half an ans")]
    assert clock.waits == []
    assert len(sse_server.requests) == 1


def test_complete_and_list_models_retry_too(sse_server: SSEServer) -> None:
    busy = error_response(503, "Overloaded", error_type="server_error")
    sse_server.script(
        busy,
        json_response(completion_body("Done.")),
        busy,
        json_response({"object": "list", "data": [{"id": "m1", "object": "model"}]}),
    )
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    async def main() -> Any:
        async with httpx.AsyncClient(trust_env=False) as client:
            inner = openai_chat_adapter(client, sse_server.base_url)
            provider = RetryingProvider(inner, sleep=sleep, rng=lambda: 0.5)
            return (await provider.complete(REQUEST)).text, await provider.list_models()

    assert run(main()) == ("Done.", ["m1"])
    assert len(waits) == 2


def test_the_registry_wraps_adapters_for_generations(sse_server: SSEServer) -> None:
    settings = ProviderSettings("local", "Local", ProviderKind.OPENAI_CHAT, sse_server.base_url)

    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            provider = create_retrying_provider(settings, None, client)
            assert isinstance(provider, RetryingProvider)
            assert isinstance(provider.inner.spec, OpenAIChatSpec)

    run(main())


# --- embeddings ------------------------------------------------------------------------------


def embed_with_retries(
    server: EmbeddingServer,
    texts: list[str],
    adapter: Callable[..., Any] = ollama_adapter,
    base_url: str | None = None,
) -> tuple[list[list[float]] | ProviderError, list[float]]:
    """The vectors (or the error that ended the call) and the waits in between."""
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    async def main() -> list[list[float]] | ProviderError:
        async with httpx.AsyncClient(trust_env=False) as client:
            inner = adapter(client, base_url or server.url)
            provider = RetryingProvider(inner, sleep=sleep, rng=lambda: 0.5)
            try:
                return await provider.embed(texts, EMBEDDING_MODEL)
            except ProviderError as error:
                return error

    return run(main()), waits


TEXTS = [f"passage {i}" for i in range(150)]


def test_a_rate_limited_batch_waits_as_asked_and_only_it_is_sent_again(
    embedding_server: EmbeddingServer,
) -> None:
    embedding_server.enqueue(
        ollama_wire.error_response(429, "too many requests", headers={"Retry-After": "3"})
    )

    vectors, waits = embed_with_retries(embedding_server, TEXTS)

    assert vectors == [vector_for(t) for t in TEXTS]
    assert waits == [3.0]
    sent = embedding_server.inputs()
    assert len(sent) == 4  # three batches, one of them twice
    assert sent[0] in sent[1:]  # the refused batch, sent again as it was
    assert sorted(embedding_server.embedded()) == sorted(TEXTS + sent[0])


def test_server_errors_and_cut_connections_are_retried_for_embeddings(
    embedding_server: EmbeddingServer,
) -> None:
    embedding_server.enqueue(
        error_response(503, "Overloaded", error_type="server_error"), [Disconnect()]
    )

    vectors, waits = embed_with_retries(
        embedding_server, ["one"], openai_chat_adapter, f"{embedding_server.url}/v1"
    )

    assert vectors == [vector_for("one")]
    assert len(waits) == 2
    assert len(embedding_server.requests) == 3


def test_a_refused_embedding_request_is_not_retried(embedding_server: EmbeddingServer) -> None:
    embedding_server.enqueue(
        g.error_response(400, "Request payload size exceeds the limit", "INVALID_ARGUMENT")
    )

    error, waits = embed_with_retries(embedding_server, ["one"], gemini_adapter)

    assert isinstance(error, ProviderHTTPError) and error.status_code == 400
    assert "Request payload size exceeds the limit" in str(error)
    assert waits == []
    assert len(embedding_server.requests) == 1


def test_no_texts_through_the_retrying_provider_is_no_request(
    embedding_server: EmbeddingServer,
) -> None:
    assert embed_with_retries(embedding_server, []) == ([], [])
    assert embedding_server.requests == []


# --- waits that must not end early ------------------------------------------------------


def gemini_quota(delay: str) -> list[Any]:
    """Gemini's 429: no Retry-After header, the wait in `google.rpc.RetryInfo`."""
    retry_info = {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": delay}
    body = g.error_body(429, "Quota exceeded", "RESOURCE_EXHAUSTED", details=[retry_info])
    return json_response(body, status=429)


SLOW_DOWN_CASES = {
    "Retry-After": (
        openai_chat_adapter,
        error_response(429, "Rate limit reached", headers={"Retry-After": "2"}),
        default_stream(),
        2.0,
    ),
    "retry-after-ms": (
        openai_chat_adapter,
        error_response(429, "Slow down", headers={"retry-after-ms": "1500"}),
        default_stream(),
        1.5,
    ),
    "Gemini retryDelay": (
        gemini_adapter,
        gemini_quota("1.5s"),
        g.stream_response(g.chunk(g.text("Hi"), finish_reason="STOP")),
        1.5,
    ),
    "backoff": (
        openai_chat_adapter,
        error_response(503, "Overloaded", error_type="server_error"),
        default_stream(),
        1.0,  # base_delay_s with no jitter
    ),
}


@pytest.mark.parametrize("case", SLOW_DOWN_CASES, ids=list(SLOW_DOWN_CASES))
def test_the_retry_never_comes_before_the_time_asked_even_when_timers_fire_early(
    sse_server: SSEServer, case: str
) -> None:
    """Timers under the Qt loop fire a little early; here they fire after half their
    delay. The server's own clock shows the second request came no sooner than asked."""
    factory, refusal, answer, wait = SLOW_DOWN_CASES[case]
    sse_server.script(refusal, answer)
    policy = RetryPolicy(base_delay_s=1.0, jitter=0.0)
    base_url = sse_server.url if factory is gemini_adapter else sse_server.base_url

    async def main() -> list[StreamEvent]:
        async with httpx.AsyncClient(trust_env=False) as client:
            provider = RetryingProvider(factory(client, base_url), policy)
            return [event async for event in provider.stream(REQUEST)]

    events = run_with_early_timers(asyncio.wait_for(main(), 60))
    assert isinstance(events[-1], Finished)
    first, second = sse_server.requests
    assert second.received_at - first.received_at >= wait
