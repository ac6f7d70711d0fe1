"""The Chat Completions adapter against a loopback server speaking the OpenAI wire format:
its requests, streams, whole answers and model list. The faults every protocol shares
are in `test_adapter_contract`."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from desktop.core.errors import ProviderError
from desktop.core.events import Finished, ReasoningDelta, TextDelta, UsageReport
from desktop.core.models import Role, Usage
from desktop.providers.base import ChatRequest, Completion, RequestMessage
from tests.support.adapters import openai_chat_adapter
from tests.support.provider_calls import (
    Harness,
    run,
    server_v1,
    text_of,
)
from tests.support.sse_server import (
    DEFAULT_ANSWER,
    DONE,
    Head,
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

KEY = "sk-test-SECRET-0123456789"
REQUEST = ChatRequest(model="test-model", messages=(RequestMessage(Role.USER, "Hi"),))
HARNESS = Harness(openai_chat_adapter, server_v1, REQUEST)
call = HARNESS.call
stream = HARNESS.stream


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
