"""Chat Completions request bodies: tool continuations, images, the system prompt, and the
parameters each model family and server accepts."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from desktop.core.capabilities import ReasoningEffort
from desktop.core.models import Role
from desktop.providers.base import (
    ChatRequest,
    ImageInput,
    RequestMessage,
    ToolCall,
    ToolResult,
    ToolSpec,
)
from desktop.providers.openai_chat.request import build_body
from desktop.providers.openai_models import Dialect
from tests.support.adapters import openai_chat_adapter
from tests.support.provider_calls import (
    Harness,
    server_v1,
)
from tests.support.sse_server import (
    SSEServer,
)

KEY = "sk-test-SECRET-0123456789"
WEATHER = ToolSpec(
    "get_weather",
    "Current weather for a city.",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)


PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR-not-really-an-image"
JPEG = b"\xff\xd8\xff\xe0-jpeg-bytes"
HARNESS = Harness(openai_chat_adapter, server_v1)
call = HARNESS.call
stream = HARNESS.stream


def ask(text: str = "Weather in Tokyo?", **fields: Any) -> ChatRequest:
    return ChatRequest(model="test-model", messages=(RequestMessage(Role.USER, text),), **fields)


def sent_body(server: SSEServer, index: int = -1) -> dict[str, Any]:
    return server.requests[index].json


CONTINUATION = ChatRequest(
    model="deepseek-reasoner",
    system="You are terse.",
    tools=(WEATHER,),
    messages=(
        RequestMessage(Role.USER, "Weather in Oslo and Paris?"),
        RequestMessage(
            Role.ASSISTANT,
            "",
            reasoning="Two cities, two calls.",
            tool_calls=(
                ToolCall("call_1", "get_weather", '{"city":"Oslo"}'),
                ToolCall("call_2", "get_weather", '{"city":"Paris"}'),
                ToolCall("call_3", "get_weather", ""),
            ),
            tool_results=(
                # Stored in completion order, not call order.
                ToolResult("call_2", "get_weather", "Denied by the user.", is_error=True),
                ToolResult("call_1", "get_weather", '{"temp_c": 4}'),
            ),
        ),
    ),
)


def test_tool_continuation_sends_calls_results_and_reasoning_back(sse_server: SSEServer) -> None:
    stream(sse_server, CONTINUATION, api_key=KEY)
    assert sent_body(sse_server) == {
        "model": "deepseek-reasoner",
        "messages": [
            {"role": "system", "content": "You are terse."},
            {"role": "user", "content": "Weather in Oslo and Paris?"},
            {
                "role": "assistant",
                "content": None,
                "reasoning_content": "Two cities, two calls.",
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Oslo"}'},
                    },
                    {
                        "id": "call_2",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                    },
                    {
                        "id": "call_3",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": "{}"},
                    },
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": '{"temp_c": 4}'},
            {"role": "tool", "tool_call_id": "call_2", "content": "Error: Denied by the user."},
            {
                "role": "tool",
                "tool_call_id": "call_3",
                "content": "Error: The tool call was interrupted before it returned a result.",
            },
        ],
        "stream": True,
        "stream_options": {"include_usage": True},
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "description": "Current weather for a city.",
                    "parameters": WEATHER.parameters,
                },
            }
        ],
    }


@pytest.mark.parametrize(
    ("dialect", "sent"), [(Dialect.OPENAI, False), (Dialect.GROQ, False), (Dialect.OTHER, True)]
)
def test_reasoning_content_only_where_the_server_takes_it(dialect: Dialect, sent: bool) -> None:
    # OpenAI and Groq answer HTTP 400 to an unknown message field.
    assistant = build_body(CONTINUATION, stream=True, dialect=dialect)["messages"][2]
    assert ("reasoning_content" in assistant) is sent


def test_assistant_text_alongside_tool_calls_is_kept(sse_server: SSEServer) -> None:
    request = ChatRequest(
        model="test-model",
        messages=(
            RequestMessage(Role.USER, "Hi"),
            RequestMessage(
                Role.ASSISTANT,
                "Let me look.",
                tool_calls=(ToolCall("c", "get_weather", '{"city":"Oslo"}'),),
                tool_results=(ToolResult("c", "get_weather", "sunny"),),
            ),
        ),
    )
    stream(sse_server, request)
    messages = sent_body(sse_server)["messages"]
    assert messages[1]["content"] == "Let me look."
    assert "reasoning_content" not in messages[1]
    assert messages[2] == {"role": "tool", "tool_call_id": "c", "content": "sunny"}


def test_images_are_sent_as_data_url_content_parts(sse_server: SSEServer) -> None:
    request = ChatRequest(
        model="gpt-4o",
        messages=(
            RequestMessage(
                Role.USER,
                "What is in these?",
                images=(ImageInput("image/png", PNG), ImageInput("image/jpeg", JPEG)),
            ),
            RequestMessage(Role.ASSISTANT, "A cat."),
            RequestMessage(Role.USER, "", images=(ImageInput("image/webp", b"RIFFwebp"),)),
        ),
    )
    stream(sse_server, request)
    messages = sent_body(sse_server)["messages"]
    png = base64.b64encode(PNG).decode()
    jpeg = base64.b64encode(JPEG).decode()
    assert messages == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "What is in these?"},
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{png}"}},
                {"type": "image_url", "image_url": {"url": f"data:image/jpeg;base64,{jpeg}"}},
            ],
        },
        {"role": "assistant", "content": "A cat."},
        {
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": "data:image/webp;base64,UklGRndlYnA="}}
            ],
        },
    ]


def test_system_prompt_leads_as_a_system_message(sse_server: SSEServer) -> None:
    stream(sse_server, ask("Hi", system="Answer in French."))
    assert sent_body(sse_server)["messages"] == [
        {"role": "system", "content": "Answer in French."},
        {"role": "user", "content": "Hi"},
    ]


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("gpt-4o", {"temperature": 0.3, "top_p": 0.8, "max_tokens": 500}),
        ("deepseek-chat", {"temperature": 0.3, "top_p": 0.8, "max_tokens": 500}),
        ("llama3.1:8b", {"temperature": 0.3, "top_p": 0.8, "max_tokens": 500}),
        # OpenAI's reasoning models answer 400 to temperature, top_p and max_tokens.
        ("o3-mini", {"max_completion_tokens": 500}),
        ("gpt-5-mini", {"max_completion_tokens": 500}),
        ("gpt-5-chat-latest", {"temperature": 0.3, "top_p": 0.8, "max_tokens": 500}),
    ],
)
def test_sampling_parameters_per_model_family(
    sse_server: SSEServer, model: str, expected: dict[str, Any]
) -> None:
    request = ChatRequest(
        model=model,
        messages=(RequestMessage(Role.USER, "Hi"),),
        temperature=0.3,
        top_p=0.8,
        max_output_tokens=500,
    )
    stream(sse_server, request)
    body = sent_body(sse_server)
    keys = ("temperature", "top_p", "max_tokens", "max_completion_tokens")
    assert {k: body[k] for k in keys if k in body} == expected


@pytest.mark.parametrize(
    ("model", "effort", "sent"),
    [
        ("gpt-5", ReasoningEffort.OFF, "minimal"),
        ("gpt-5", ReasoningEffort.MAX, "high"),
        ("gpt-5.1", ReasoningEffort.OFF, "none"),
        ("gpt-5.2", ReasoningEffort.MAX, "xhigh"),
        ("o3", ReasoningEffort.OFF, None),
        ("o4-mini", ReasoningEffort.LOW, "low"),
        ("o1-mini", ReasoningEffort.HIGH, None),
        ("gpt-oss:20b", ReasoningEffort.OFF, "low"),
        ("openai/gpt-oss-120b", ReasoningEffort.MEDIUM, "medium"),
        ("deepseek-reasoner", ReasoningEffort.HIGH, None),
        ("gpt-4o", ReasoningEffort.HIGH, None),
        ("qwen3:8b", ReasoningEffort.HIGH, None),
    ],
)
def test_reasoning_effort_on_the_wire(
    sse_server: SSEServer, model: str, effort: ReasoningEffort, sent: str | None
) -> None:
    request = ChatRequest(
        model=model, messages=(RequestMessage(Role.USER, "Hi"),), reasoning_effort=effort
    )
    stream(sse_server, request)
    body = sent_body(sse_server)
    assert body.get("reasoning_effort") == sent
    assert "reasoning" not in body


def test_openrouter_gets_its_reasoning_object_for_every_model() -> None:
    def body(model: str, effort: ReasoningEffort) -> dict[str, Any]:
        request = ChatRequest(
            model=model,
            messages=(RequestMessage(Role.USER, "Hi"),),
            reasoning_effort=effort,
            max_output_tokens=100,
        )
        return build_body(request, stream=True, dialect=Dialect.OPENROUTER)

    claude = body("anthropic/claude-sonnet-4.5", ReasoningEffort.MAX)
    assert claude["reasoning"] == {"effort": "xhigh"}
    assert "reasoning_effort" not in claude
    o3 = body("openai/o3", ReasoningEffort.OFF)
    assert o3["reasoning"] == {"effort": "none"}
    assert o3["max_tokens"] == 100  # OpenRouter translates it for reasoning models


def test_groq_qwen3_effort_values() -> None:
    def effort(level: ReasoningEffort) -> str | None:
        request = ChatRequest(
            model="qwen/qwen3-32b",
            messages=(RequestMessage(Role.USER, "Hi"),),
            reasoning_effort=level,
        )
        return build_body(request, stream=True, dialect=Dialect.GROQ).get("reasoning_effort")

    assert (effort(ReasoningEffort.OFF), effort(ReasoningEffort.HIGH)) == ("none", "default")


def test_extra_headers_and_body_are_merged_last(sse_server: SSEServer) -> None:
    request = ask(
        "Hi",
        temperature=0.5,
        tools=(WEATHER,),
        extra_headers={"Authorization": "Bearer override", "X-Title": "Parley"},
        extra_body={
            "temperature": 1.1,
            "stream_options": {"continuous_usage_stats": True},
            "tools": None,
            "seed": 7,
        },
    )
    stream(sse_server, request, api_key=KEY)
    sent = sse_server.requests[-1]
    assert sent.headers["authorization"] == "Bearer override"
    assert sent.headers["x-title"] == "Parley"
    body = sent.json
    assert body["temperature"] == 1.1
    assert body["stream_options"] == {"include_usage": True, "continuous_usage_stats": True}
    assert "tools" not in body
    assert body["seed"] == 7


def test_no_tools_key_without_tools(sse_server: SSEServer) -> None:
    stream(sse_server, ask())
    assert "tools" not in sent_body(sse_server)
