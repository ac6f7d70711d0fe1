"""Gemini request bodies: signatures sent back where they came, tool schemas reduced to
what Gemini accepts, images, system text and the thinking each effort asks for."""

from __future__ import annotations

import base64
from dataclasses import replace
from typing import Any

import pytest

from desktop.core.capabilities import ReasoningEffort
from desktop.core.events import (
    Finished,
    ReasoningDelta,
    ReasoningSignature,
    ToolCallDelta,
    UsageReport,
)
from desktop.core.models import Message, Role, ToolCallPart, Usage
from desktop.engine.prompt.request_builder import request_message
from desktop.engine.turn.stream_fold import Draft, close_open, fold
from desktop.providers.base import (
    ChatRequest,
    ImageInput,
    RequestMessage,
    ToolCall,
    ToolResult,
    ToolSpec,
)
from desktop.providers.gemini.request import GENERATED_CALL_PREFIX
from desktop.providers.gemini.signatures import SKIP_SIGNATURE
from tests.support import gemini_wire as g
from tests.support.adapters import gemini_adapter
from tests.support.provider_calls import (
    Harness,
    server_root,
    text_of,
)
from tests.support.sse_server import (
    SSEServer,
)

KEY = "AIzaSy-test-SECRET-0123456789"
MODEL = "gemini-2.5-flash"
REQUEST = ChatRequest(model=MODEL, messages=(RequestMessage(Role.USER, "Hi"),))
HARNESS = Harness(gemini_adapter, server_root, REQUEST, options={"api_key": KEY})
call = HARNESS.call
stream = HARNESS.stream


def sent_body(server: SSEServer, index: int = 0) -> Any:
    return server.requests[index].json


def done_chunk() -> bytes:
    return g.chunk(g.text(""), finish_reason="STOP", usage_metadata=g.usage(3, 2))


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
