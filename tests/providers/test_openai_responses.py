"""openai_responses_adapter against a real loopback server speaking the Responses API."""

from __future__ import annotations

import base64
import json
import time
from typing import Any

import httpx
import pytest

from desktop.core.capabilities import ReasoningEffort
from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import (
    Finished,
    ReasoningDelta,
    ReasoningSignature,
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
from desktop.providers.openai_responses.adapter import OpenAIResponsesSpec
from desktop.providers.registry import create_provider
from tests.support import provider_calls
from tests.support.adapters import openai_responses_adapter
from tests.support.provider_calls import WAIT, client_went_away
from tests.support.responses_wire import (
    ResponsesWire,
    function_call_item,
    message_item,
    reasoning_item,
    response_object,
    usage,
)
from tests.support.sse_server import (
    Disconnect,
    Head,
    Send,
    Sleep,
    SSEServer,
    error_response,
    json_response,
    models_body,
    raw_response,
    sse_response,
)

KEY = "sk-test-SECRET-0123456789"
REQUEST = ChatRequest(model="gpt-4.1", messages=(RequestMessage(Role.USER, "Hi"),))
WEATHER = ToolSpec(
    "get_weather",
    "Current weather for a city.",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
ENCRYPTED = "gAAAAABo-opaque-encrypted-reasoning=="


def stream(
    server: SSEServer,
    request: ChatRequest = REQUEST,
    received: list[StreamEvent] | None = None,
    **options: Any,
) -> list[StreamEvent]:
    return provider_calls.stream(
        openai_responses_adapter, server.base_url, request, received, **options
    )


def call(server: SSEServer, action: Any, **options: Any) -> Any:
    return provider_calls.call(openai_responses_adapter, server.base_url, action, **options)


def sent(server: SSEServer, index: int = -1) -> dict[str, Any]:
    return server.requests[index].json


def hello(wire: ResponsesWire, *deltas: str) -> list[bytes]:
    return [wire.created(), wire.in_progress(), *wire.text_message(*deltas)]


# --- streaming: the happy paths ---------------------------------------------------------


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


def test_reasoning_summary_and_encrypted_reasoning(sse_server: SSEServer) -> None:
    wire = ResponsesWire("o4-mini")
    done = reasoning_item("rs_1", ("Thinking hard.", "Second part."), ENCRYPTED)
    sse_server.enqueue(
        sse_response(
            wire.created(),
            wire.item_added(0, reasoning_item("rs_1")),
            wire.summary("Thinking"),
            wire.summary(" hard."),
            wire.summary("Second part.", summary_index=1),
            wire.item_done(0, done),
            *wire.text_message("42", output_index=1),
            wire.completed(usage(20, 50, reasoning=40)),
        )
    )
    request = ChatRequest(
        model="o4-mini",
        messages=(RequestMessage(Role.USER, "Answer?"),),
        temperature=0.2,
        top_p=0.5,
        reasoning_effort=ReasoningEffort.HIGH,
    )
    events = stream(sse_server, request)
    kept = {
        "type": "reasoning",
        "id": "rs_1",
        "summary": done["summary"],
        "encrypted_content": ENCRYPTED,
    }
    assert events == [
        ReasoningDelta("Thinking"),
        ReasoningDelta(" hard."),
        ReasoningDelta("\n\nSecond part."),
        ReasoningSignature(json.dumps([kept], separators=(",", ":"))),
        TextDelta("42"),
        UsageReport(Usage(20, 50, 40)),
        Finished("completed"),
    ]
    body = sent(sse_server)
    assert "temperature" not in body and "top_p" not in body  # reasoning models refuse them
    assert body["reasoning"] == {"effort": "high", "summary": "auto"}
    assert body["include"] == ["reasoning.encrypted_content"]
    assert body["store"] is False


def test_reasoning_item_without_encrypted_content_gives_no_signature(
    sse_server: SSEServer,
) -> None:
    wire = ResponsesWire()
    sse_server.enqueue(
        sse_response(
            wire.item_added(0, reasoning_item("rs_1")),
            wire.summary("Hmm."),
            wire.item_done(0, reasoning_item("rs_1", ("Hmm.",))),
            wire.completed(),
        )
    )
    assert stream(sse_server) == [ReasoningDelta("Hmm."), Finished("completed")]


def test_tool_call_round_trip(sse_server: SSEServer) -> None:
    wire = ResponsesWire("gpt-5")
    oslo = wire.arguments('"東京"}', 1)
    cut = oslo.index("京".encode()) + 2  # inside the 3-byte character
    sse_server.script(
        sse_response(
            wire.created(),
            wire.item_added(0, reasoning_item("rs_7")),
            wire.summary("Need weather."),
            wire.item_done(0, reasoning_item("rs_7", ("Need weather.",), ENCRYPTED)),
            wire.item_added(1, function_call_item("call_1", "get_weather", status="in_progress")),
            wire.arguments('{"ci', 1),
            wire.arguments('ty":', 1),
            oslo[:cut],
            Sleep(0.05),
            oslo[cut:],
            wire.arguments_done('{"city":"東京"}', 1),
            wire.item_done(1, function_call_item("call_1", "get_weather", '{"city":"東京"}')),
            wire.completed(usage(30, 12, reasoning=8)),
        ),
        sse_response(*hello(ResponsesWire("gpt-5"), "It is 4 °C."), wire.completed()),
    )
    first = ChatRequest(
        model="gpt-5",
        system="Use tools.",
        messages=(RequestMessage(Role.USER, "Weather in Tokyo?"),),
        tools=(WEATHER,),
        reasoning_effort=ReasoningEffort.OFF,
    )
    events = stream(sse_server, first)
    signature = next(e for e in events if isinstance(e, ReasoningSignature)).signature
    assert events == [
        ReasoningDelta("Need weather."),
        ReasoningSignature(signature),
        ToolCallDelta(0, "call_1", "get_weather", ""),
        ToolCallDelta(0, arguments='{"ci'),
        ToolCallDelta(0, arguments='ty":'),
        ToolCallDelta(0, arguments='"東京"}'),
        UsageReport(Usage(30, 12, 8)),
        Finished("completed"),
    ]
    body = sent(sse_server, 0)
    assert body["tools"] == [
        {
            "type": "function",
            "name": "get_weather",
            "description": "Current weather for a city.",
            "parameters": WEATHER.parameters,
            "strict": False,
        }
    ]
    assert body["reasoning"] == {"effort": "minimal", "summary": "auto"}  # gpt-5: off

    continuation = ChatRequest(
        model="gpt-5",
        system="Use tools.",
        tools=(WEATHER,),
        messages=(
            RequestMessage(Role.USER, "Weather in Tokyo?"),
            RequestMessage(
                Role.ASSISTANT,
                "",
                reasoning="Need weather.",
                reasoning_signature=signature,
                tool_calls=(ToolCall("call_1", "get_weather", '{"city":"東京"}'),),
                tool_results=(ToolResult("call_1", "get_weather", '{"temp_c": 4}'),),
            ),
        ),
    )
    assert TextDelta("It is 4 °C.") in stream(sse_server, continuation)
    assert sent(sse_server, 1)["input"] == [
        {
            "type": "message",
            "role": "user",
            "content": [{"type": "input_text", "text": "Weather in Tokyo?"}],
        },
        {
            "type": "reasoning",
            "id": "rs_7",
            "summary": [{"type": "summary_text", "text": "Need weather."}],
            "encrypted_content": ENCRYPTED,
        },
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "get_weather",
            "arguments": '{"city":"東京"}',
        },
        {"type": "function_call_output", "call_id": "call_1", "output": '{"temp_c": 4}'},
    ]


def test_parallel_calls_and_arguments_only_in_done_events(sse_server: SSEServer) -> None:
    wire = ResponsesWire()
    sse_server.enqueue(
        sse_response(
            wire.item_added(0, function_call_item("call_a", "f", item_id="fc_a")),
            wire.item_added(1, function_call_item("call_b", "g", item_id="fc_b")),
            wire.arguments('{"x":', 1, "fc_b"),
            wire.arguments_done('{"x":2}', 1, "fc_b"),
            wire.item_done(0, function_call_item("call_a", "f", '{"y":1}', "fc_a")),
            wire.item_done(1, function_call_item("call_b", "g", '{"x":2}', "fc_b")),
            wire.completed(),
        )
    )
    assert stream(sse_server) == [
        ToolCallDelta(0, "call_a", "f", ""),
        ToolCallDelta(1, "call_b", "g", ""),
        ToolCallDelta(1, arguments='{"x":'),
        ToolCallDelta(1, arguments="2}"),
        ToolCallDelta(0, arguments='{"y":1}'),
        Finished("completed"),
    ]


def test_continuation_to_a_non_reasoning_model_drops_reasoning_items(
    sse_server: SSEServer,
) -> None:
    signature = json.dumps(
        [{"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "x"}]
    )
    request = ChatRequest(
        model="gpt-4.1",
        messages=(
            RequestMessage(Role.USER, "Hi"),
            RequestMessage(
                Role.ASSISTANT,
                "Checking.",
                reasoning="Thought.",
                reasoning_signature=signature,
                tool_calls=(ToolCall("c", "f", ""), ToolCall("d", "f", "{}")),
                tool_results=(ToolResult("c", "f", "Not allowed.", is_error=True),),
            ),
        ),
    )
    sse_server.enqueue(sse_response(ResponsesWire().completed()))
    stream(sse_server, request)
    assert sent(sse_server)["input"][1:] == [
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Checking."}],
        },
        {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
        {"type": "function_call", "call_id": "d", "name": "f", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c", "output": "Error: Not allowed."},
        {
            "type": "function_call_output",
            "call_id": "d",
            "output": "Error: The tool call was interrupted before it returned a result.",
        },
    ]
    assert "include" not in sent(sse_server)


def test_images_system_messages_and_extra_fields(sse_server: SSEServer) -> None:
    png = b"\x89PNG\r\n\x1a\nfake"
    request = ChatRequest(
        model="gpt-4.1",
        messages=(
            RequestMessage(Role.SYSTEM, "Old-style system turn."),
            RequestMessage(Role.USER, "What is this?", images=(ImageInput("image/png", png),)),
            RequestMessage(Role.USER, "", images=(ImageInput("image/jpeg", b"\xff\xd8"),)),
        ),
        extra_headers={"OpenAI-Organization": "org-1", "Authorization": "Bearer other"},
        extra_body={"store": True, "metadata": {"app": "parley"}, "stream": None},
    )
    sse_server.enqueue(sse_response(ResponsesWire().completed()))
    stream(sse_server, request, api_key=KEY)
    got = sse_server.requests[-1]
    assert got.headers["openai-organization"] == "org-1"
    assert got.headers["authorization"] == "Bearer other"
    body = got.json
    assert body["input"] == [
        {
            "type": "message",
            "role": "system",
            "content": [{"type": "input_text", "text": "Old-style system turn."}],
        },
        {
            "type": "message",
            "role": "user",
            "content": [
                {"type": "input_text", "text": "What is this?"},
                {
                    "type": "input_image",
                    "image_url": "data:image/png;base64," + base64.b64encode(png).decode(),
                    "detail": "auto",
                },
            ],
        },
        {
            "type": "message",
            "role": "user",
            "content": [
                {
                    "type": "input_image",
                    "image_url": "data:image/jpeg;base64,/9g=",
                    "detail": "auto",
                }
            ],
        },
    ]
    assert body["store"] is True
    assert body["metadata"] == {"app": "parley"}
    assert "stream" not in body


@pytest.mark.parametrize(
    ("model", "effort", "reasoning", "include"),
    [
        ("gpt-5", ReasoningEffort.MAX, {"effort": "high", "summary": "auto"}, True),
        ("gpt-5.1", ReasoningEffort.OFF, {"effort": "none", "summary": "auto"}, True),
        ("gpt-5.2", ReasoningEffort.MAX, {"effort": "xhigh", "summary": "auto"}, True),
        ("gpt-5-pro", ReasoningEffort.LOW, {"effort": "high", "summary": "auto"}, True),
        ("o3", ReasoningEffort.OFF, {"summary": "auto"}, True),
        ("o3", None, {"summary": "auto"}, True),
        ("gpt-oss-120b", ReasoningEffort.MEDIUM, {"effort": "medium", "summary": "auto"}, False),
        ("gpt-4.1", ReasoningEffort.HIGH, None, False),
        ("gpt-5-chat-latest", ReasoningEffort.HIGH, None, False),
    ],
)
def test_reasoning_effort_per_model_family(
    sse_server: SSEServer,
    model: str,
    effort: ReasoningEffort | None,
    reasoning: dict[str, str] | None,
    include: bool,
) -> None:
    sse_server.enqueue(sse_response(ResponsesWire().completed()))
    request = ChatRequest(
        model=model, messages=REQUEST.messages, reasoning_effort=effort, temperature=0.7
    )
    stream(sse_server, request)
    body = sent(sse_server)
    assert body.get("reasoning") == reasoning
    assert ("include" in body) is include
    assert ("temperature" in body) is (not include)


def test_server_answering_json_to_a_stream_request(sse_server: SSEServer) -> None:
    output = [
        reasoning_item("rs_1", ("Short thought.",), ENCRYPTED),
        message_item("Whole answer"),
        function_call_item("call_1", "f", '{"a":1}'),
    ]
    sse_server.enqueue(json_response(response_object("completed", output, usage(3, 4))))
    events = stream(sse_server)
    assert events[:2] == [ReasoningDelta("Short thought."), TextDelta("Whole answer")]
    assert isinstance(events[2], ReasoningSignature)
    assert events[3:] == [
        ToolCallDelta(0, "call_1", "f", '{"a":1}'),
        UsageReport(Usage(3, 4, 0)),
        Finished("completed"),
    ]


# --- streaming: faults ------------------------------------------------------------------


def test_utf8_character_split_across_network_writes(sse_server: SSEServer) -> None:
    wire = ResponsesWire()
    raw = wire.text("你好🙂")
    cut = raw.index("🙂".encode()) + 2
    sse_server.enqueue(sse_response(raw[:cut], Sleep(0.05), raw[cut:], wire.completed()))
    assert stream(sse_server) == [TextDelta("你好🙂"), Finished("completed")]


def test_malformed_json_event(sse_server: SSEServer) -> None:
    wire = ResponsesWire()
    sse_server.enqueue(
        sse_response(
            wire.text("a"),
            b'event: response.output_text.delta\ndata: {"delta": [\n\n',
            wire.completed(),
        )
    )
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="malformed stream event"):
        stream(sse_server, received=received)
    assert received == [TextDelta("a")]


def test_disconnect_mid_stream_keeps_what_arrived(sse_server: SSEServer) -> None:
    wire = ResponsesWire()
    sse_server.enqueue(sse_response(wire.text("Hello"), wire.text(" wor"), Disconnect()))
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="closed before the answer was complete") as info:
        stream(sse_server, received=received)
    assert type(info.value) is StreamBrokenError
    assert isinstance(info.value.__cause__, httpx.RemoteProtocolError)
    assert received == [TextDelta("Hello"), TextDelta(" wor")]


def test_disconnect_after_completed_is_a_complete_answer(sse_server: SSEServer) -> None:
    wire = ResponsesWire()
    sse_server.enqueue(sse_response(wire.text("Done."), wire.completed(), Disconnect()))
    assert stream(sse_server) == [TextDelta("Done."), Finished("completed")]


def test_clean_close_without_completed_is_broken(sse_server: SSEServer) -> None:
    wire = ResponsesWire()
    sse_server.enqueue(
        Head(headers=(("Content-Type", "text/event-stream"),), framing="close"),
        Send(wire.text("Half")),
    )
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="before the answer was complete"):
        stream(sse_server, received=received)
    assert received == [TextDelta("Half")]


def test_stops_at_completed_without_waiting_for_the_server(sse_server: SSEServer) -> None:
    wire = ResponsesWire()
    sse_server.enqueue(sse_response(wire.text("ok"), wire.completed(), Sleep(30)))

    async def scenario(provider: HttpAdapter) -> list[StreamEvent]:
        events = [event async for event in provider.stream(REQUEST)]
        assert await client_went_away(sse_server)
        return events

    assert call(sse_server, scenario)[-1] == Finished("completed")


def test_stall_raises_quickly_and_closes_the_connection(sse_server: SSEServer) -> None:
    wire = ResponsesWire()
    sse_server.enqueue(sse_response(wire.text("first"), Sleep(30)))
    received: list[StreamEvent] = []

    async def scenario(provider: HttpAdapter) -> float:
        started = time.monotonic()
        with pytest.raises(StreamBrokenError, match=r"sent nothing for 0\.4 s"):
            async for event in provider.stream(REQUEST):
                received.append(event)
        elapsed = time.monotonic() - started
        assert await client_went_away(sse_server)
        return elapsed

    assert 0.3 < call(sse_server, scenario, stall_timeout=0.4) < WAIT
    assert received == [TextDelta("first")]


def test_error_event_in_the_stream(sse_server: SSEServer) -> None:
    wire = ResponsesWire()
    sse_server.enqueue(
        sse_response(
            wire.text("a"),
            wire.error("server_is_overloaded", f"Overloaded, key {KEY}"),
            wire.completed(),
        )
    )
    with pytest.raises(ProviderError) as info:
        stream(sse_server, api_key=KEY)
    assert str(info.value) == "The server reported an error: Overloaded, key [redacted]"
    assert info.value.retryable


def test_response_failed(sse_server: SSEServer) -> None:
    wire = ResponsesWire()
    sse_server.enqueue(
        sse_response(wire.created(), wire.failed("invalid_prompt", "Prompt was flagged."))
    )
    with pytest.raises(ProviderError) as info:
        stream(sse_server)
    assert str(info.value) == "The model failed to answer: Prompt was flagged."
    assert not info.value.retryable


@pytest.mark.parametrize(
    ("reason", "words"),
    [
        ("max_output_tokens", "it reached the output token limit (max_output_tokens)"),
        ("content_filter", "the content filter stopped it"),
        ("something_new", "the server stopped it (something_new)"),
    ],
)
def test_response_incomplete(sse_server: SSEServer, reason: str, words: str) -> None:
    wire = ResponsesWire()
    sse_server.enqueue(sse_response(wire.text("Partial"), wire.incomplete(reason)))
    received: list[StreamEvent] = []
    with pytest.raises(ProviderError) as info:
        stream(sse_server, received=received)
    assert str(info.value) == f"The answer was cut short: {words}"
    assert received == [TextDelta("Partial")]


def test_401_never_shows_the_key(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        error_response(401, f"Incorrect API key provided: {KEY}.", code="invalid_api_key")
    )
    with pytest.raises(ProviderHTTPError) as info:
        stream(sse_server, api_key=KEY)
    assert str(info.value).startswith("The server refused the API key (401): Incorrect API key")
    assert KEY not in str(info.value)


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


def test_429_carries_retry_after_ms(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        error_response(
            429,
            "Rate limit reached",
            error_type="requests",
            headers={"retry-after-ms": "1500", "Retry-After": "2"},
        )
    )
    with pytest.raises(ProviderHTTPError, match="Rate limit reached") as info:
        stream(sse_server)
    assert (info.value.status_code, info.value.retryable, info.value.retry_after) == (
        429,
        True,
        1.5,
    )


def test_500(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        raw_response(b"upstream exploded", status=500, headers={"Content-Type": "text/plain"})
    )
    with pytest.raises(ProviderError) as info:
        stream(sse_server)
    assert str(info.value) == "The server had an internal error (500): upstream exploded"
    assert info.value.retryable


def test_web_page_instead_of_a_stream(sse_server: SSEServer) -> None:
    sse_server.enqueue(Head(headers=(("Content-Type", "text/html"),)), Send(b"<html>Login</html>"))
    with pytest.raises(ProviderError, match=r"web page.*api\.openai\.com/v1"):
        stream(sse_server)


# --- complete() and list_models() -------------------------------------------------------


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


def test_registry_creates_the_responses_provider() -> None:
    settings = ProviderSettings(
        "openai", "OpenAI", ProviderKind.OPENAI_RESPONSES, "https://api.openai.com/v1/"
    )

    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            provider = create_provider(settings, None, client)
            assert isinstance(provider.spec, OpenAIResponsesSpec)
            assert provider.base_url == "https://api.openai.com/v1"

    provider_calls.run(main())
