"""gemini_adapter against a real loopback server speaking Gemini's wire format."""

from __future__ import annotations

import asyncio
import base64
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

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
from desktop.core.models import Message, Role, ToolCallPart, Usage
from desktop.core.settings import ProviderKind, ProviderSettings
from desktop.engine.request_builder import request_message
from desktop.engine.stream_fold import Draft, close_open, fold
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
from desktop.providers.gemini.adapter import GeminiSpec
from desktop.providers.gemini.request import GENERATED_CALL_PREFIX
from desktop.providers.gemini.signatures import SKIP_SIGNATURE, stored_signatures
from desktop.providers.gemini.stream import StreamTranslator
from desktop.providers.registry import create_provider
from desktop.providers.sse import ServerSentEvent
from tests.support import gemini_wire as g
from tests.support.adapters import gemini_adapter
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
KEY = "AIzaSy-test-SECRET-0123456789"
MODEL = "gemini-2.5-flash"
REQUEST = ChatRequest(model=MODEL, messages=(RequestMessage(Role.USER, "Hi"),))
STREAM_PATH = f"/v1beta/models/{MODEL}:streamGenerateContent?alt=sse"
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
    options.setdefault("api_key", KEY)

    async def main() -> T:
        async with httpx.AsyncClient(trust_env=False) as client:
            return await action(gemini_adapter(client, base_url or server.url, **options))

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


def sent_body(server: SSEServer, index: int = 0) -> Any:
    return server.requests[index].json


def text_of(events: list[StreamEvent]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


def done_chunk() -> bytes:
    return g.chunk(g.text(""), finish_reason="STOP", usage_metadata=g.usage(3, 2))


# --- streaming: the happy paths ---------------------------------------------------------


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


def test_reasoning_with_a_signature_on_the_last_text_part(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.stream_response(
            g.chunk(g.thought("**Planning**\nThe user greets me.")),
            g.chunk(g.thought(" I will greet back.")),
            g.chunk(g.text("Hello there")),
            # Gemini closes with an empty text part that carries the signature.
            g.chunk(
                g.text("", signature="c2lnLXRleHQ="),
                finish_reason="STOP",
                usage_metadata=g.usage(5, 2, thoughts=40),
            ),
        )
    )
    assert stream(sse_server) == [
        ReasoningDelta("**Planning**\nThe user greets me."),
        ReasoningDelta(" I will greet back."),
        TextDelta("Hello there"),
        ReasoningSignature("c2lnLXRleHQ="),
        UsageReport(Usage(input_tokens=5, output_tokens=42, reasoning_tokens=40)),
        Finished("STOP"),
    ]


def test_max_tokens_finish_reason_is_passed_through(sse_server: SSEServer) -> None:
    sse_server.enqueue(g.stream_response(g.chunk(g.text("Cut"), finish_reason="MAX_TOKENS")))
    assert stream(sse_server)[-1] == Finished("MAX_TOKENS")


def test_utf8_character_split_across_network_writes(sse_server: SSEServer) -> None:
    raw = g.chunk(g.text("你好🙂"))
    cut = raw.index("🙂".encode()) + 2
    cut_han = raw.index("好".encode()) + 1
    sse_server.enqueue(
        g.stream_response(
            raw[:cut_han], Sleep(0.05), raw[cut_han:cut], Sleep(0.05), raw[cut:], done_chunk()
        )
    )
    assert text_of(stream(sse_server)) == "你好🙂"


def test_json_array_answer_when_a_proxy_drops_alt_sse(sse_server: SSEServer) -> None:
    bodies = [
        g.response_body(g.text("Whole ")),
        g.response_body(g.text("answer"), finish_reason="STOP", usage_metadata=g.usage(2, 2)),
    ]
    sse_server.enqueue(json_response(bodies))
    assert stream(sse_server) == [
        TextDelta("Whole "),
        TextDelta("answer"),
        UsageReport(Usage(2, 2, 0)),
        Finished("STOP"),
    ]


# --- tool calls -------------------------------------------------------------------------

WEATHER = ToolSpec(
    "get_weather",
    "Current weather for a city",
    {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"city": {"type": "string", "description": "City name"}},
        "required": ["city"],
        "additionalProperties": False,
    },
)


def test_tool_call_round_trip_sends_the_signature_back(sse_server: SSEServer) -> None:
    """Gemini streams each call whole: one delta per call with its complete arguments.
    Parallel calls may arrive in separate chunks; only the first carries the signature."""
    sse_server.enqueue(
        g.stream_response(
            g.chunk(g.thought("Two cities, two calls.")),
            g.chunk(
                g.call("get_weather", {"city": "Paris"}, signature="c2lnLWNhbGw="),
            ),
            g.chunk(
                g.call("get_weather", {"city": "Zürich", "units": ["metric", None]}),
                finish_reason="STOP",
                usage_metadata=g.usage(30, 12, thoughts=20),
            ),
        )
    )
    request = ChatRequest(
        model=MODEL,
        messages=(RequestMessage(Role.USER, "Weather in Paris and Zürich?"),),
        tools=(WEATHER,),
    )
    events = stream(sse_server, request)
    calls = [e for e in events if isinstance(e, ToolCallDelta)]
    assert [(c.index, c.name, c.arguments) for c in calls] == [
        (0, "get_weather", '{"city": "Paris"}'),
        (1, "get_weather", '{"city": "Zürich", "units": ["metric", null]}'),
    ]
    assert all(c.call_id and c.call_id.startswith(GENERATED_CALL_PREFIX) for c in calls)
    assert calls[0].call_id != calls[1].call_id
    assert [e for e in events if not isinstance(e, ToolCallDelta)] == [
        ReasoningDelta("Two cities, two calls."),
        ReasoningSignature("c2lnLWNhbGw="),
        UsageReport(Usage(30, 32, 20)),
        Finished("STOP"),
    ]
    assert events.index(ReasoningSignature("c2lnLWNhbGw=")) < events.index(calls[0])
    assert sent_body(sse_server)["tools"] == [
        {
            "functionDeclarations": [
                {
                    "name": "get_weather",
                    "description": "Current weather for a city",
                    "parameters": {
                        "type": "object",
                        "properties": {"city": {"type": "string", "description": "City name"}},
                        "required": ["city"],
                    },
                }
            ]
        }
    ]

    # The continuation: the engine hands back the calls, their results and the signature.
    sse_server.enqueue(g.stream_response(g.chunk(g.text("Sunny and cold."), finish_reason="STOP")))
    assistant = RequestMessage(
        Role.ASSISTANT,
        "",
        reasoning="Two cities, two calls.",
        reasoning_signature="c2lnLWNhbGw=",
        tool_calls=tuple(ToolCall(c.call_id or "", c.name or "", c.arguments) for c in calls),
        tool_results=(
            ToolResult(calls[0].call_id or "", "get_weather", "18 °C, sunny"),
            ToolResult(calls[1].call_id or "", "get_weather", "City not found", is_error=True),
        ),
    )
    follow_up = ChatRequest(model=MODEL, messages=(*request.messages, assistant), tools=(WEATHER,))
    assert text_of(stream(sse_server, follow_up)) == "Sunny and cold."
    assert sent_body(sse_server, 1)["contents"] == [
        {"role": "user", "parts": [{"text": "Weather in Paris and Zürich?"}]},
        {
            "role": "model",
            "parts": [
                {
                    "functionCall": {"name": "get_weather", "args": {"city": "Paris"}},
                    "thoughtSignature": "c2lnLWNhbGw=",
                },
                {
                    "functionCall": {
                        "name": "get_weather",
                        "args": {"city": "Zürich", "units": ["metric", None]},
                    }
                },
            ],
        },
        {
            "role": "user",
            "parts": [
                {
                    "functionResponse": {
                        "name": "get_weather",
                        "response": {"result": "18 °C, sunny"},
                    }
                },
                {
                    "functionResponse": {
                        "name": "get_weather",
                        "response": {"error": "City not found"},
                    }
                },
            ],
        },
    ]


def test_call_ids_from_gemini_are_echoed_and_gemini_3_gets_a_placeholder_signature(
    sse_server: SSEServer,
) -> None:
    """A history begun with another model has calls without signatures; Gemini 3 would
    refuse it, so the documented placeholder goes in their place."""
    sse_server.enqueue(g.stream_response(done_chunk()))
    assistant = RequestMessage(
        Role.ASSISTANT,
        "Let me check.",
        tool_calls=(
            ToolCall("fc-7", "lookup", '{"q": "x"}'),
            ToolCall("fc-8", "lookup", "{broken json"),
            ToolCall("fc-9", "lookup", "[1, 2]"),
        ),
        tool_results=(
            ToolResult("fc-7", "lookup", "one"),
            ToolResult("fc-8", "lookup", "two"),
            ToolResult("fc-9", "lookup", "three"),
        ),
    )
    request = ChatRequest(
        model="gemini-3-pro-preview", messages=(RequestMessage(Role.USER, "Go"), assistant)
    )
    stream(sse_server, request)
    assert sse_server.requests[0].path.startswith("/v1beta/models/gemini-3-pro-preview:")
    assert sent_body(sse_server)["contents"][1:] == [
        {
            "role": "model",
            "parts": [
                {"text": "Let me check."},
                {
                    "functionCall": {"name": "lookup", "args": {"q": "x"}, "id": "fc-7"},
                    "thoughtSignature": SKIP_SIGNATURE,
                },
                {
                    "functionCall": {
                        "name": "lookup",
                        "args": {"_raw": "{broken json"},
                        "id": "fc-8",
                    }
                },
                {"functionCall": {"name": "lookup", "args": {"_raw": "[1, 2]"}, "id": "fc-9"}},
            ],
        },
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": "lookup", "response": {"result": r}, "id": i}}
                for i, r in (("fc-7", "one"), ("fc-8", "two"), ("fc-9", "three"))
            ],
        },
    ]


def test_call_with_an_id_and_no_args(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.stream_response(
            g.chunk({"functionCall": {"name": "now", "id": "fc-1"}}, finish_reason="STOP")
        )
    )
    events = stream(sse_server)
    assert events[0] == ToolCallDelta(index=0, call_id="fc-1", name="now", arguments="{}")


def test_text_turn_signature_goes_on_the_last_part(sse_server: SSEServer) -> None:
    sse_server.enqueue(g.stream_response(done_chunk()))
    request = ChatRequest(
        model=MODEL,
        messages=(
            RequestMessage(Role.USER, "Hi"),
            RequestMessage(Role.ASSISTANT, "Hello!", reasoning_signature="c2ln"),
            RequestMessage(Role.ASSISTANT, "", reasoning="thought only"),  # nothing to send
            RequestMessage(Role.USER, "Again"),
        ),
    )
    stream(sse_server, request)
    assert sent_body(sse_server)["contents"] == [
        {"role": "user", "parts": [{"text": "Hi"}]},
        {"role": "model", "parts": [{"text": "Hello!", "thoughtSignature": "c2ln"}]},
        {"role": "user", "parts": [{"text": "Again"}]},
    ]


def test_a_step_with_several_signatures_announces_them_all(sse_server: SSEServer) -> None:
    """Each `ReasoningSignature` carries every signature of the step so far, with where
    it came; a plain value is kept for the usual single one."""
    sse_server.enqueue(
        g.stream_response(
            g.chunk(g.call("f", {}, signature="c2lnLWE=")),
            g.chunk(g.text("", signature="c2lnLWU="), finish_reason="STOP"),
        )
    )
    signatures = [e.signature for e in stream(sse_server) if isinstance(e, ReasoningSignature)]
    assert signatures[0] == "c2lnLWE="
    assert stored_signatures(signatures[-1]) == [
        {"on": "call", "index": 0, "signature": "c2lnLWE="},
        {"on": "end", "signature": "c2lnLWU="},
    ]
    # Both go back: the second has no free part left, so it comes back as it came.
    request = ChatRequest(
        model=MODEL,
        messages=(
            REQUEST.messages[0],
            RequestMessage(
                Role.ASSISTANT,
                "",
                reasoning_signature=signatures[-1],
                tool_calls=(ToolCall(GENERATED_CALL_PREFIX + "1", "f", "{}"),),
            ),
        ),
    )
    sse_server.enqueue(g.stream_response(done_chunk()))
    stream(sse_server, request)
    assert sent_body(sse_server, 1)["contents"][1]["parts"] == [
        {"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "c2lnLWE="},
        {"text": "", "thoughtSignature": "c2lnLWU="},
    ]


def test_tool_schemas_are_reduced_to_what_gemini_accepts(sse_server: SSEServer) -> None:
    sse_server.enqueue(g.stream_response(done_chunk()))
    search = ToolSpec(
        "search",
        "Search files",
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "title": "SearchArgs",
            "additionalProperties": False,
            "$defs": {
                "Scope": {
                    "type": "string",
                    "enum": ["repo", "docs"],
                    "description": "Where to look",
                }
            },
            "properties": {
                "query": {"type": "string", "minLength": 1, "default": "", "format": "regex"},
                "limit": {"type": ["integer", "null"], "format": "int32", "minimum": 1},
                "scope": {"$ref": "#/$defs/Scope"},
                "mode": {"const": "fast"},
                "since": {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]},
                "tags": {
                    "type": "array",
                    "items": {"type": "string", "examples": ["a"]},
                    "uniqueItems": True,
                },
                "level": {"type": "integer", "enum": [1, 2, 3]},
            },
            "required": ["query", "missing"],
        },
    )
    clock = ToolSpec("clock", "The time now", {"type": "object", "properties": {}})
    stream(sse_server, ChatRequest(model=MODEL, messages=REQUEST.messages, tools=(search, clock)))
    assert sent_body(sse_server)["tools"] == [
        {
            "functionDeclarations": [
                {
                    "name": "search",
                    "description": "Search files",
                    "parameters": {
                        "type": "object",
                        "properties": {
                            "query": {"type": "string", "minLength": 1},
                            "limit": {
                                "type": "integer",
                                "nullable": True,
                                "format": "int32",
                                "minimum": 1,
                            },
                            "scope": {
                                "type": "string",
                                "enum": ["repo", "docs"],
                                "description": "Where to look",
                            },
                            "mode": {"type": "string", "enum": ["fast"]},
                            "since": {"type": "string", "format": "date-time", "nullable": True},
                            "tags": {"type": "array", "items": {"type": "string"}},
                            "level": {"type": "integer"},
                        },
                        "required": ["query"],
                    },
                },
                {"name": "clock", "description": "The time now"},
            ]
        }
    ]


# --- the request ------------------------------------------------------------------------


def test_images_system_and_parameters(sse_server: SSEServer) -> None:
    sse_server.enqueue(g.stream_response(done_chunk()))
    png = b"\x89PNG\r\n\x1a\n\x00\x01binary"
    request = ChatRequest(
        model=MODEL,
        system="Be brief.",
        messages=(
            RequestMessage(Role.SYSTEM, "Answer in French."),
            RequestMessage(
                Role.USER,
                "What is this?",
                images=(ImageInput("image/png", png), ImageInput("image/jpeg", b"\xff\xd8jpg")),
            ),
        ),
        temperature=0.3,
        top_p=0.9,
        max_output_tokens=512,
    )
    stream(sse_server, request)
    assert sent_body(sse_server) == {
        "contents": [
            {
                "role": "user",
                "parts": [
                    {
                        "inlineData": {
                            "mimeType": "image/png",
                            "data": base64.b64encode(png).decode(),
                        }
                    },
                    {"inlineData": {"mimeType": "image/jpeg", "data": "/9hqcGc="}},
                    {"text": "What is this?"},
                ],
            }
        ],
        "systemInstruction": {"parts": [{"text": "Be brief."}, {"text": "Answer in French."}]},
        "generationConfig": {
            "temperature": 0.3,
            "topP": 0.9,
            "maxOutputTokens": 512,
            "thinkingConfig": {"includeThoughts": True},
        },
    }


def test_system_as_a_leading_user_turn_is_left_alone(sse_server: SSEServer) -> None:
    """`with_system_as_user` already moved it: no systemInstruction appears."""
    sse_server.enqueue(g.stream_response(done_chunk()))
    request = ChatRequest(
        model="gemma-3-27b-it",
        messages=(RequestMessage(Role.USER, "Be brief."), RequestMessage(Role.USER, "Hi")),
        reasoning_effort=ReasoningEffort.HIGH,
    )
    stream(sse_server, request)
    assert sent_body(sse_server) == {
        "contents": [
            {"role": "user", "parts": [{"text": "Be brief."}]},
            {"role": "user", "parts": [{"text": "Hi"}]},
        ]
    }


def _budget(tokens: int) -> dict[str, Any]:
    return {"includeThoughts": True, "thinkingBudget": tokens}


def _level(level: str) -> dict[str, Any]:
    return {"includeThoughts": True, "thinkingLevel": level}


E = ReasoningEffort


@pytest.mark.parametrize(
    ("model", "effort", "expected"),
    [
        ("gemini-2.5-flash", E.OFF, {"thinkingBudget": 0}),
        ("gemini-2.5-flash", E.LOW, _budget(1024)),
        ("gemini-2.5-flash", E.MEDIUM, _budget(8192)),
        ("gemini-2.5-flash", E.HIGH, _budget(24576)),
        ("gemini-2.5-flash", E.MAX, _budget(24576)),
        ("gemini-2.5-pro", E.OFF, _budget(128)),  # 2.5 Pro cannot stop thinking
        ("gemini-2.5-pro", E.MAX, _budget(32768)),
        ("gemini-2.5-flash-lite", E.OFF, {"thinkingBudget": 0}),
        ("gemini-2.5-flash-lite", E.LOW, _budget(1024)),
        ("models/gemini-flash-latest", E.OFF, {"thinkingBudget": 0}),
        ("gemini-3-pro-preview", E.OFF, _level("low")),
        ("gemini-3-pro-preview", E.MEDIUM, _level("high")),
        ("gemini-3.1-pro-preview", E.MEDIUM, _level("medium")),
        ("gemini-3-flash-preview", E.OFF, _level("minimal")),
        ("gemini-3-flash-preview", E.LOW, _level("low")),
        ("gemini-3-flash-preview", E.MAX, _level("high")),
        ("gemini-2.0-flash", E.HIGH, None),
        ("gemini-2.5-flash-image", E.HIGH, None),
        ("my-tuned-model", E.OFF, None),
        ("my-tuned-model", E.MEDIUM, _budget(8192)),
        ("tunedModels/my-tuned-model", None, None),
        ("gemini-4-ultra", None, {"includeThoughts": True}),
    ],
)
def test_reasoning_effort_mapping(
    sse_server: SSEServer,
    model: str,
    effort: ReasoningEffort | None,
    expected: dict[str, Any] | None,
) -> None:
    sse_server.enqueue(g.stream_response(done_chunk()))
    stream(sse_server, ChatRequest(model=model, messages=REQUEST.messages, reasoning_effort=effort))
    config = sent_body(sse_server).get("generationConfig", {})
    assert config.get("thinkingConfig") == expected
    path = model if "/" in model else f"models/{model}"
    assert sse_server.requests[0].path == f"/v1beta/{path}:streamGenerateContent?alt=sse"


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


# --- broken streams ---------------------------------------------------------------------


def test_disconnect_mid_stream_keeps_what_arrived(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.stream_response(g.chunk(g.text("Hello")), g.chunk(g.text(" wor")), Disconnect())
    )
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="closed before the answer was complete"):
        stream(sse_server, received=received)
    assert received == [TextDelta("Hello"), TextDelta(" wor")]


def test_disconnect_after_the_finish_reason_is_a_complete_answer(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.stream_response(g.chunk(g.text("Done."), finish_reason="STOP"), Disconnect())
    )
    assert [type(e) for e in stream(sse_server)] == [TextDelta, UsageReport, Finished]


def test_clean_close_without_a_finish_reason_is_broken(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        Head(headers=(("Content-Type", "text/event-stream"),), framing="close"),
        Send(g.chunk(g.text("Half an ans"))),
    )
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="before the answer was complete"):
        stream(sse_server, received=received)
    assert received == [TextDelta("Half an ans")]


def test_stall_raises_quickly_and_closes_the_connection(sse_server: SSEServer) -> None:
    sse_server.enqueue(g.stream_response(g.chunk(g.text("first")), Sleep(30)))
    received: list[StreamEvent] = []

    async def scenario(provider: HttpAdapter) -> float:
        started = time.monotonic()
        with pytest.raises(StreamBrokenError, match=r"sent nothing for 0\.3 s"):
            async for event in provider.stream(REQUEST):
                received.append(event)
        elapsed = time.monotonic() - started
        gone = await asyncio.to_thread(sse_server.requests[-1].client_gone.wait, WAIT)
        assert gone
        return elapsed

    assert 0.25 < call(sse_server, scenario, stall_timeout=0.3) < WAIT
    assert received == [TextDelta("first")]


def test_malformed_json_event(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.stream_response(g.chunk(g.text("a")), b'data: {"candidates": [\r\n\r\n', done_chunk())
    )
    received: list[StreamEvent] = []
    with pytest.raises(StreamBrokenError, match="malformed stream chunk"):
        stream(sse_server, received=received)
    assert received == [TextDelta("a")]


def test_in_stream_error_event(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.stream_response(
            g.chunk(g.text("a")),
            g.event(
                g.error_body(503, "The model is overloaded. Please try again later.", "UNAVAILABLE")
            ),
        )
    )
    received: list[StreamEvent] = []
    with pytest.raises(ProviderError, match="The model is overloaded") as info:
        stream(sse_server, received=received)
    assert (info.value.status_code, info.value.retryable) == (503, True)
    assert received == [TextDelta("a")]


def test_safety_stop_keeps_the_text_and_explains(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.stream_response(
            g.chunk(g.text("Here is how")),
            g.chunk(g.text(" to"), finish_reason="SAFETY"),
        )
    )
    received: list[StreamEvent] = []
    with pytest.raises(ProviderError) as info:
        stream(sse_server, received=received)
    assert str(info.value) == (
        "Gemini stopped the answer because it was flagged by Gemini's safety filters (SAFETY)"
    )
    assert not info.value.retryable
    assert received == [TextDelta("Here is how"), TextDelta(" to")]


def test_malformed_function_call_stop_carries_the_finish_message(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        g.stream_response(
            g.chunk(
                finish_reason="MALFORMED_FUNCTION_CALL",
                finish_message="Malformed function call: print(default_api.x(",
            )
        )
    )
    with pytest.raises(ProviderError, match=r"could not format \(MALFORMED_FUNCTION_CALL\): "):
        stream(sse_server)


def test_blocked_prompt(sse_server: SSEServer) -> None:
    blocked = {
        "promptFeedback": {"blockReason": "PROHIBITED_CONTENT"},
        "usageMetadata": g.usage(12, 0),
        "modelVersion": MODEL,
    }
    sse_server.enqueue(g.stream_response(g.event(blocked)))
    with pytest.raises(ProviderError) as info:
        stream(sse_server)
    assert str(info.value) == (
        "Gemini refused the prompt because it may contain prohibited content (PROHIBITED_CONTENT)"
    )


# --- HTTP errors ------------------------------------------------------------------------


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


def test_key_never_appears_in_errors(sse_server: SSEServer) -> None:
    sse_server.enqueue(g.error_response(401, f"Bad credentials {KEY}", "UNAUTHENTICATED"))
    with pytest.raises(ProviderHTTPError) as info:
        stream(sse_server)
    assert str(info.value).startswith("The server refused the API key (401): Bad credentials")
    assert KEY not in str(info.value)


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


def test_web_page_instead_of_a_stream(sse_server: SSEServer) -> None:
    sse_server.enqueue(raw_response(b"<html>Sign in</html>", headers={"Content-Type": "text/html"}))
    with pytest.raises(ProviderError, match=r"web page.*generativelanguage"):
        stream(sse_server)


# --- complete() and list_models() -------------------------------------------------------


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


def test_registry_creates_the_gemini_provider() -> None:
    settings = ProviderSettings(
        "gemini", "Gemini", ProviderKind.GEMINI, "https://generativelanguage.googleapis.com/"
    )

    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            provider = create_provider(settings, KEY, client)
            assert isinstance(provider.spec, GeminiSpec)
            assert provider.base_url == "https://generativelanguage.googleapis.com/v1beta"

    run(main())


def test_arguments_are_json_text_the_engine_can_store() -> None:
    """The delta's arguments parse back to exactly what Gemini sent."""
    payload = g.response_body(g.call("f", {"nested": {"a": [1, 2.5, True]}, "s": "é"}))
    translator = StreamTranslator(call_id=lambda: "fixed")
    (delta,) = translator.feed(ServerSentEvent(json.dumps(payload)))
    assert isinstance(delta, ToolCallDelta)
    assert delta.call_id == "fixed"
    assert json.loads(delta.arguments) == {"nested": {"a": [1, 2.5, True]}, "s": "é"}


def test_signature_survives_the_engine_round_trip(sse_server: SSEServer) -> None:
    """Streamed events folded into a stored answer, rebuilt into the next request: the
    call's signature lands back on the first function call, with no thoughts shown."""
    sse_server.enqueue(
        g.stream_response(
            g.chunk(g.call("lookup", {"q": "a"}, signature="c2lnLTE=")),
            g.chunk(g.call("lookup", {"q": "b"}), finish_reason="STOP"),
        )
    )
    draft = Draft()
    for event in stream(sse_server):
        draft = fold(draft, event, 0.0)
    parts = close_open(draft, 0.0).parts()
    answered = [
        replace(p, result=f"found {i}") if isinstance(p, ToolCallPart) else p
        for i, p in enumerate(parts)
    ]
    stored = Message("m1", "c1", None, Role.ASSISTANT, parts=answered)
    message = request_message(stored)
    assert message is not None and message.reasoning_signature == "c2lnLTE="

    sse_server.enqueue(g.stream_response(done_chunk()))
    stream(sse_server, ChatRequest(model=MODEL, messages=(REQUEST.messages[0], message)))
    model_turn = sent_body(sse_server, 1)["contents"][1]
    assert model_turn == {
        "role": "model",
        "parts": [
            {
                "functionCall": {"name": "lookup", "args": {"q": "a"}},
                "thoughtSignature": "c2lnLTE=",
            },
            {"functionCall": {"name": "lookup", "args": {"q": "b"}}},
        ],
    }
