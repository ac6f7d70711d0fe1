"""The Ollama adapter against a loopback server speaking Ollama's native API: its addresses,
the second try without `think`, HTTP errors, `complete()` and the model list. The faults
every protocol shares are in `test_adapter_contract`."""

from __future__ import annotations

import pytest

from desktop.core.capabilities import ReasoningEffort
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
    ToolSpec,
)
from tests.support import ollama_wire as o
from tests.support.adapters import ollama_adapter
from tests.support.provider_calls import (
    Harness,
    server_root,
    text_of,
)
from tests.support.sse_server import (
    SSEServer,
    json_response,
)

MODEL = "qwen3:8b"
REQUEST = ChatRequest(model=MODEL, messages=(RequestMessage(Role.USER, "Hi"),))
HARNESS = Harness(ollama_adapter, server_root, REQUEST)
call = HARNESS.call
stream = HARNESS.stream


def short_answer() -> list:
    return o.ndjson_response(o.line("ok"), o.done())


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


def test_500(sse_server: SSEServer) -> None:
    sse_server.enqueue(o.error_response(500, "llama runner process has terminated: exit status 2"))
    with pytest.raises(ProviderError) as info:
        stream(sse_server)
    assert str(info.value) == (
        "The server had an internal error (500): llama runner process has terminated: exit status 2"
    )
    assert info.value.retryable


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
