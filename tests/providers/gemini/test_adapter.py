"""The Gemini adapter against a loopback server speaking Gemini's wire format: its addresses
and key header, Gemini's ways of failing over HTTP, `complete()` and the model list. The
faults every protocol shares are in `test_adapter_contract`."""

from __future__ import annotations

import pytest

from desktop.core.errors import ProviderError
from desktop.core.events import (
    Finished,
    TextDelta,
    UsageReport,
)
from desktop.core.models import Role, Usage
from desktop.providers.base import (
    ChatRequest,
    Completion,
    ProviderHTTPError,
    RequestMessage,
)
from tests.support import gemini_wire as g
from tests.support.adapters import gemini_adapter
from tests.support.provider_calls import (
    Harness,
    server_root,
)
from tests.support.sse_server import (
    SSEServer,
    json_response,
)

KEY = "AIzaSy-test-SECRET-0123456789"
MODEL = "gemini-2.5-flash"
REQUEST = ChatRequest(model=MODEL, messages=(RequestMessage(Role.USER, "Hi"),))
STREAM_PATH = f"/v1beta/models/{MODEL}:streamGenerateContent?alt=sse"
HARNESS = Harness(gemini_adapter, server_root, REQUEST, options={"api_key": KEY})
call = HARNESS.call
stream = HARNESS.stream


def done_chunk() -> bytes:
    return g.chunk(g.text(""), finish_reason="STOP", usage_metadata=g.usage(3, 2))


def test_plain_text_stream_url_headers_and_body(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.stream_response(
            g.chunk(g.text("Hello"), usage_metadata=g.usage(3, 1)),
            g.chunk(g.text(", world"), usage_metadata=g.usage(3, 2)),
            g.chunk(g.text("!"), finish_reason="STOP", usage_metadata=g.usage(3, 3)),
        )
    )
    assert stream(sse_server) == [
        TextDelta("Hello"),
        TextDelta(", world"),
        TextDelta("!"),
        UsageReport(Usage(input_tokens=3, output_tokens=3)),
        Finished("STOP"),
    ]
    sent = sse_server.requests[0]
    assert (sent.method, sent.path) == ("POST", STREAM_PATH)
    assert sent.headers["x-goog-api-key"] == KEY
    assert KEY not in sent.path
    assert "authorization" not in sent.headers
    assert sent.headers["accept"] == "text/event-stream"
    assert sent.headers["content-type"] == "application/json"
    assert sent.json == {
        "contents": [{"role": "user", "parts": [{"text": "Hi"}]}],
        "generationConfig": {"thinkingConfig": {"includeThoughts": True}},
    }


@pytest.mark.parametrize("suffix", ["", "/", "/v1beta", "/v1beta/"])
def test_base_url_with_or_without_the_version(sse_server: SSEServer, suffix: str) -> None:
    sse_server.enqueue(g.stream_response(done_chunk()))
    stream(sse_server, base_url=sse_server.url + suffix)
    assert sse_server.requests[0].path == STREAM_PATH


def test_extra_headers_and_body_are_merged_last(sse_server: SSEServer) -> None:
    sse_server.enqueue(g.stream_response(done_chunk()))
    safety = [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE"}]
    request = ChatRequest(
        model=MODEL,
        messages=REQUEST.messages,
        temperature=0.7,
        extra_headers={"X-Goog-User-Project": "proj-1", "Accept": "*/*"},
        extra_body={
            "generationConfig": {"temperature": 0.1, "thinkingConfig": None, "seed": 7},
            "safetySettings": safety,
        },
    )
    stream(sse_server, request)
    sent = sse_server.requests[0]
    assert sent.headers["x-goog-user-project"] == "proj-1"
    assert sent.headers["accept"] == "*/*"
    assert sent.json == {
        "contents": [{"role": "user", "parts": [{"text": "Hi"}]}],
        "generationConfig": {"temperature": 0.1, "seed": 7},
        "safetySettings": safety,
    }


def test_no_key_header_without_a_key(sse_server: SSEServer) -> None:
    sse_server.enqueue(g.stream_response(done_chunk()))
    stream(sse_server, api_key="  ")
    assert "x-goog-api-key" not in sse_server.requests[0].headers


def test_invalid_key_400_reads_as_a_wrong_key(sse_server: SSEServer) -> None:
    body = g.error_body(
        400,
        "API key not valid. Please pass a valid API key.",
        "INVALID_ARGUMENT",
        details=[
            {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID"}
        ],
    )
    sse_server.enqueue(json_response(body, status=400))
    with pytest.raises(ProviderHTTPError) as info:
        stream(sse_server)
    assert str(info.value) == (
        "The server refused the API key (400): API key not valid. Please pass a valid API key."
    )
    assert (info.value.status_code, info.value.retryable) == (400, False)


def test_other_400_keeps_the_generic_wording(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.error_response(
            400, 'Invalid JSON payload received. Unknown name "foo"', "INVALID_ARGUMENT"
        )
    )
    with pytest.raises(ProviderError, match=r"^The server rejected the request \(400\): Invalid"):
        stream(sse_server)


def test_missing_key_403(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.error_response(
            403,
            "Method doesn't allow unregistered callers (callers without established identity).",
            "PERMISSION_DENIED",
        )
    )
    with pytest.raises(ProviderError, match=r"^The server requires an API key \(403\): Method"):
        stream(sse_server, api_key=None)


def test_unknown_model_404(sse_server: SSEServer) -> None:
    message = (
        "models/gemini-9 is not found for API version v1beta, "
        "or is not supported for generateContent."
    )
    sse_server.enqueue(g.error_response(404, message, "NOT_FOUND"))
    with pytest.raises(ProviderError, match=r"does not know this model; .* \(404\)") as info:
        stream(sse_server)
    assert not info.value.retryable


def test_429_with_retry_after(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.error_response(
            429,
            "You exceeded your current quota, please check your plan and billing details.",
            "RESOURCE_EXHAUSTED",
            headers={"Retry-After": "7"},
        )
    )
    with pytest.raises(ProviderHTTPError, match="exceeded your current quota") as info:
        stream(sse_server)
    assert (info.value.status_code, info.value.retryable, info.value.retry_after) == (429, True, 7)


def test_429_retry_delay_from_the_error_body(sse_server: SSEServer) -> None:
    """Gemini's quota errors carry no Retry-After header, only `google.rpc.RetryInfo`."""
    body = g.error_body(
        429,
        "You exceeded your current quota. Please retry in 37.140839788s.",
        "RESOURCE_EXHAUSTED",
        details=[
            {
                "@type": "type.googleapis.com/google.rpc.QuotaFailure",
                "violations": [{"quotaMetric": "generate_content_free_tier_requests"}],
            },
            {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"},
        ],
    )
    sse_server.enqueue(json_response(body, status=429))
    with pytest.raises(ProviderHTTPError) as info:
        stream(sse_server)
    assert (info.value.status_code, info.value.retryable, info.value.retry_after) == (429, True, 37)


def test_500(sse_server: SSEServer) -> None:
    sse_server.enqueue(g.error_response(500, "An internal error has occurred.", "INTERNAL"))
    with pytest.raises(ProviderError) as info:
        stream(sse_server)
    assert (
        str(info.value) == "The server had an internal error (500): An internal error has occurred."
    )
    assert info.value.retryable


def test_complete_non_streaming(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        json_response(
            g.response_body(
                g.thought("Recall the book."),
                g.text("Forty-two."),
                finish_reason="STOP",
                usage_metadata=g.usage(9, 3, thoughts=2),
            )
        )
    )
    request = ChatRequest(model=MODEL, messages=REQUEST.messages, top_p=0.5)
    result = call(sse_server, lambda p: p.complete(request))
    assert result == Completion(
        text="Forty-two.", reasoning="Recall the book.", usage=Usage(9, 5, 2), finish_reason="STOP"
    )
    sent = sse_server.requests[0]
    assert sent.path == f"/v1beta/models/{MODEL}:generateContent"
    assert sent.headers["accept"] == "application/json"
    assert sent.json["generationConfig"] == {
        "topP": 0.5,
        "thinkingConfig": {"includeThoughts": True},
    }


def test_complete_safety_stop_is_an_error(sse_server: SSEServer) -> None:
    sse_server.enqueue(json_response(g.response_body(finish_reason="RECITATION")))
    with pytest.raises(ProviderError, match=r"\(RECITATION\)"):
        call(sse_server, lambda p: p.complete(REQUEST))


def test_list_models_pages_and_filters(sse_server: SSEServer) -> None:
    sse_server.script(
        json_response(
            g.models_page(
                [
                    g.model_entry("gemini-2.5-pro"),
                    g.model_entry("text-embedding-004", methods=("embedContent",)),
                ],
                next_token="page-2",
            )
        ),
        json_response(g.models_page([g.model_entry("gemini-2.5-flash")])),
    )
    assert call(sse_server, lambda p: p.list_models()) == ["gemini-2.5-flash", "gemini-2.5-pro"]
    first, second = sse_server.requests
    assert (first.method, first.path) == ("GET", "/v1beta/models?pageSize=1000")
    assert second.path == "/v1beta/models?pageSize=1000&pageToken=page-2"
    assert first.headers["x-goog-api-key"] == KEY
    assert KEY not in first.path + second.path


def test_list_models_wrong_key(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.error_response(400, "API key not valid. Please pass a valid API key.", "INVALID_ARGUMENT")
    )
    with pytest.raises(ProviderError, match=r"^The server refused the API key \(400\)"):
        call(sse_server, lambda p: p.list_models())
