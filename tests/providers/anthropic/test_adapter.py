"""The Anthropic adapter against a loopback server speaking the Messages wire format: its
addresses and headers, HTTP errors in Anthropic's words, `complete()`, the paged model
list. The faults every protocol shares are in `test_adapter_contract`."""

from __future__ import annotations

import httpx
import pytest

from desktop.core.capabilities import ReasoningEffort
from desktop.core.errors import ProviderError
from desktop.core.events import (
    Retrying,
    StreamEvent,
    TextDelta,
)
from desktop.core.models import Role, Usage
from desktop.providers.anthropic.adapter import api_root, merge_headers
from desktop.providers.base import (
    ChatRequest,
    Completion,
    ProviderHTTPError,
    RequestMessage,
)
from desktop.providers.retry import RetryingProvider, RetryPolicy
from tests.support.adapters import anthropic_adapter
from tests.support.anthropic_wire import (
    answer,
    error_body,
    error_event,
    message_body,
    message_start,
    models_page,
    text_block,
)
from tests.support.provider_calls import (
    Harness,
    run,
    server_root,
)
from tests.support.sse_server import (
    SSEServer,
    json_response,
    raw_response,
    sse_response,
)

KEY = "sk-ant-test-SECRET-0123456789"
MODEL = "claude-sonnet-4-5"
REQUEST = ChatRequest(model=MODEL, messages=(RequestMessage(Role.USER, "Hi"),))
HARNESS = Harness(anthropic_adapter, server_root, REQUEST)
call = HARNESS.call
stream = HARNESS.stream


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


@pytest.mark.parametrize(
    ("given", "root"),
    [
        ("", "https://api.anthropic.com"),
        ("https://api.anthropic.com", "https://api.anthropic.com"),
        ("https://api.anthropic.com/v1/", "https://api.anthropic.com"),
        ("https://API.example.com/V1/Messages", "https://API.example.com"),
        ("https://api.deepseek.com/anthropic", "https://api.deepseek.com/anthropic"),
    ],
)
def test_api_root(given: str, root: str) -> None:
    assert api_root(given) == root


def test_headers_merge_case_insensitively() -> None:
    merged = merge_headers(
        {"Accept": "text/event-stream", "anthropic-version": "2023-06-01", "x-api-key": "k"},
        {"Anthropic-Version": "2024-01-01", "X-Custom": "1"},
    )
    assert merged == {
        "Accept": "text/event-stream",
        "x-api-key": "k",
        "Anthropic-Version": "2024-01-01",
        "X-Custom": "1",
    }
