"""The Responses adapter against a loopback server speaking the Responses API: the request's
address and headers, HTTP errors in OpenAI's words, `complete()` and the model list. The
faults every protocol shares are in `test_adapter_contract`."""

from __future__ import annotations

from typing import Any

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
from tests.support.adapters import openai_responses_adapter
from tests.support.provider_calls import (
    Harness,
    server_v1,
)
from tests.support.responses_wire import (
    ResponsesWire,
    message_item,
    reasoning_item,
    response_object,
    usage,
)
from tests.support.sse_server import (
    SSEServer,
    error_response,
    json_response,
    models_body,
    raw_response,
    sse_response,
)

KEY = "sk-test-SECRET-0123456789"
REQUEST = ChatRequest(model="gpt-4.1", messages=(RequestMessage(Role.USER, "Hi"),))
ENCRYPTED = "gAAAAABo-opaque-encrypted-reasoning=="
HARNESS = Harness(openai_responses_adapter, server_v1, REQUEST)
call = HARNESS.call
stream = HARNESS.stream


def sent(server: SSEServer, index: int = -1) -> dict[str, Any]:
    return server.requests[index].json


def hello(wire: ResponsesWire, *deltas: str) -> list[bytes]:
    return [wire.created(), wire.in_progress(), *wire.text_message(*deltas)]


def test_plain_text_usage_and_the_request(sse_server: SSEServer) -> None:
    wire = ResponsesWire()
    sse_server.enqueue(sse_response(*hello(wire, "Hello", ", world"), wire.completed(usage(9, 3))))
    request = ChatRequest(
        model="gpt-4.1",
        system="Be brief.",
        messages=(
            RequestMessage(Role.USER, "Hi"),
            RequestMessage(Role.ASSISTANT, "Hello!"),
            RequestMessage(Role.USER, "Again"),
        ),
        temperature=0.4,
        top_p=0.9,
        max_output_tokens=300,
    )
    assert stream(sse_server, request, api_key=KEY) == [
        TextDelta("Hello"),
        TextDelta(", world"),
        UsageReport(Usage(9, 3, 0)),
        Finished("completed"),
    ]
    request_sent = sse_server.requests[0]
    assert (request_sent.method, request_sent.path) == ("POST", "/v1/responses")
    assert request_sent.headers["authorization"] == f"Bearer {KEY}"
    assert request_sent.headers["accept"] == "text/event-stream"
    assert request_sent.json == {
        "model": "gpt-4.1",
        "instructions": "Be brief.",
        "input": [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Hi"}]},
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Hello!"}],
            },
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "Again"}],
            },
        ],
        "temperature": 0.4,
        "top_p": 0.9,
        "max_output_tokens": 300,
        "store": False,
        "stream": True,
    }


def test_404_unknown_model(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        error_response(404, "The model `gpt-9` does not exist or you do not have access to it.")
    )
    with pytest.raises(ProviderHTTPError) as info:
        stream(sse_server)
    assert str(info.value).endswith(
        "(404): The model `gpt-9` does not exist or you do not have access to it."
    )
    assert (info.value.status_code, info.value.retryable) == (404, False)


def test_500(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        raw_response(b"upstream exploded", status=500, headers={"Content-Type": "text/plain"})
    )
    with pytest.raises(ProviderError) as info:
        stream(sse_server)
    assert str(info.value) == "The server had an internal error (500): upstream exploded"
    assert info.value.retryable


def test_complete_non_streaming(sse_server: SSEServer) -> None:
    output = [
        reasoning_item("rs_1", ("One.", "Two."), ENCRYPTED),
        message_item("Forty-two."),
    ]
    sse_server.enqueue(json_response(response_object("completed", output, usage(9, 3, 2))))
    result = call(sse_server, lambda p: p.complete(REQUEST))
    assert result == Completion("Forty-two.", "One.\n\nTwo.", Usage(9, 3, 2), "completed")
    assert sent(sse_server)["stream"] is False
    assert sse_server.requests[0].headers["accept"] == "application/json"


def test_complete_cut_short_still_returns_the_text(sse_server: SSEServer) -> None:
    body = response_object(
        "incomplete", [message_item("A title that")], incomplete_reason="max_output_tokens"
    )
    sse_server.enqueue(json_response(body))
    result = call(sse_server, lambda p: p.complete(REQUEST))
    assert (result.text, result.finish_reason) == ("A title that", "max_output_tokens")


def test_complete_failed(sse_server: SSEServer) -> None:
    error = {"code": "server_error", "message": "Something broke."}
    sse_server.enqueue(json_response(response_object("failed", error=error)))
    with pytest.raises(
        ProviderError, match=r"The model failed to answer: Something broke\."
    ) as info:
        call(sse_server, lambda p: p.complete(REQUEST))
    assert info.value.retryable


def test_list_models(sse_server: SSEServer) -> None:
    sse_server.enqueue(json_response(models_body(["o3", "gpt-5", "gpt-4.1"])))
    assert call(sse_server, lambda p: p.list_models(), api_key=KEY) == ["gpt-4.1", "gpt-5", "o3"]
    request = sse_server.requests[0]
    assert (request.method, request.path) == ("GET", "/v1/models")
    assert request.headers["authorization"] == f"Bearer {KEY}"
