"""Anthropic Messages request bodies as sent: images, system text, sampling and the
thinking each reasoning effort asks for."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from desktop.core.capabilities import ReasoningEffort
from desktop.core.models import Role
from desktop.providers.anthropic.request import (
    BLOCKS_PREFIX,
    MISSING_RESULT,
    build_body,
    build_messages,
    thinking_blocks,
)
from desktop.providers.base import (
    ChatRequest,
    ImageInput,
    RequestMessage,
    ToolCall,
    ToolResult,
)
from tests.support.adapters import anthropic_adapter
from tests.support.anthropic_wire import (
    answer,
    text_block,
)
from tests.support.provider_calls import (
    Harness,
    server_root,
)
from tests.support.sse_server import (
    SSEServer,
    sse_response,
)

MODEL = "claude-sonnet-4-5"
REQUEST = ChatRequest(model=MODEL, messages=(RequestMessage(Role.USER, "Hi"),))
HARNESS = Harness(anthropic_adapter, server_root, REQUEST)
call = HARNESS.call
stream = HARNESS.stream


def sent_body(server: SSEServer, index: int = -1) -> dict[str, Any]:
    return server.requests[index].json


def test_images_system_and_sampling_parameters(sse_server: SSEServer) -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
    jpeg = b"\xff\xd8\xff\xe0fake-jpeg"
    request = ChatRequest(
        model="claude-3-5-sonnet-20241022",
        system="Be brief.",
        messages=(
            RequestMessage(Role.SYSTEM, "Answer in French."),
            RequestMessage(
                Role.USER,
                "What is in these?",
                images=(ImageInput("image/png", png), ImageInput("image/jpeg", jpeg)),
            ),
        ),
        temperature=0.3,
        top_p=0.9,
        max_output_tokens=300,
        reasoning_effort=ReasoningEffort.HIGH,  # claude-3-5 cannot think: nothing is sent
    )
    sse_server.enqueue(sse_response(*answer(text_block(0, "Deux images."))))
    stream(sse_server, request)
    assert sent_body(sse_server) == {
        "model": "claude-3-5-sonnet-20241022",
        "max_tokens": 300,
        "system": "Be brief.\n\nAnswer in French.",
        "messages": [
            {
                "role": "user",
                "content": [
                    {
                        "type": "image",
                        "source": {
                            "type": "base64",
                            "media_type": "image/png",
                            "data": base64.b64encode(png).decode(),
                        },
                    },
                    {
                        "type": "image",
                        "source": {
                            "type": "base64",
                            "media_type": "image/jpeg",
                            "data": base64.b64encode(jpeg).decode(),
                        },
                    },
                    {"type": "text", "text": "What is in these?"},
                ],
            }
        ],
        "temperature": 0.3,
        "top_p": 0.9,
        "stream": True,
    }


@pytest.mark.parametrize(
    ("model", "effort", "expected"),
    [
        (
            "claude-sonnet-4-20250514",
            ReasoningEffort.MEDIUM,
            {"max_tokens": 16384, "thinking": {"type": "enabled", "budget_tokens": 8192}},
        ),
        (
            "claude-opus-4-1-20250805",  # 32000 tokens at most: the budget leaves room
            ReasoningEffort.MAX,
            {"max_tokens": 32000, "thinking": {"type": "enabled", "budget_tokens": 30976}},
        ),
        (
            "claude-opus-4-6",
            ReasoningEffort.HIGH,
            {
                "max_tokens": 24576,
                "thinking": {"type": "adaptive", "display": "summarized"},
                "output_config": {"effort": "high"},
            },
        ),
        ("claude-sonnet-4-5", ReasoningEffort.OFF, {"max_tokens": 8192, "temperature": 0.5}),
        ("claude-3-haiku-20240307", ReasoningEffort.MAX, {"max_tokens": 4096, "temperature": 0.5}),
    ],
)
def test_reasoning_effort_on_the_wire(
    sse_server: SSEServer, model: str, effort: ReasoningEffort, expected: dict[str, Any]
) -> None:
    request = ChatRequest(
        model=model, messages=REQUEST.messages, reasoning_effort=effort, temperature=0.5
    )
    sse_server.enqueue(sse_response(*answer(text_block(0, "ok"))))
    stream(sse_server, request)
    body = sent_body(sse_server)
    del body["model"], body["messages"], body["stream"]
    assert body == expected  # with thinking on, the temperature is left out


HI = RequestMessage(Role.USER, "Hi")


@pytest.mark.parametrize(
    ("model", "thinking", "sampling"),
    [
        ("claude-3-7-sonnet-latest", None, {"temperature": 0.2, "top_p": 0.8}),
        ("claude-sonnet-4-5", None, {"temperature": 0.2}),  # one of them: temperature wins
        ("claude-opus-4-7", None, {}),  # accepts neither
        ("claude-3-7-sonnet-latest", ReasoningEffort.LOW, {}),  # thinking forbids them
    ],
)
def test_sampling_parameters(
    model: str, thinking: ReasoningEffort | None, sampling: dict[str, float]
) -> None:
    request = ChatRequest(
        model=model, messages=(HI,), temperature=0.2, top_p=0.8, reasoning_effort=thinking
    )
    body = build_body(request, stream=True)
    assert {k: body[k] for k in ("temperature", "top_p") if k in body} == sampling


def test_top_p_alone_is_kept_where_only_one_is_allowed() -> None:
    request = ChatRequest(model="claude-sonnet-4-5", messages=(HI,), top_p=0.7)
    assert build_body(request, stream=False)["top_p"] == 0.7


def test_consecutive_turns_merge_and_empty_ones_vanish() -> None:
    messages = (
        RequestMessage(Role.USER, "one"),
        RequestMessage(Role.USER, "   "),
        RequestMessage(Role.USER, "two"),
        RequestMessage(Role.ASSISTANT, ""),
        RequestMessage(Role.ASSISTANT, "reply"),
    )
    assert build_messages(messages) == [
        {
            "role": "user",
            "content": [{"type": "text", "text": "one"}, {"type": "text", "text": "two"}],
        },
        {"role": "assistant", "content": [{"type": "text", "text": "reply"}]},
    ]


def test_a_final_assistant_turn_is_a_prefill_without_trailing_space() -> None:
    messages = (HI, RequestMessage(Role.ASSISTANT, "Once upon a time \n"))
    assert build_messages(messages)[-1]["content"] == [{"type": "text", "text": "Once upon a time"}]


def test_tool_results_come_first_in_the_following_user_turn() -> None:
    step = RequestMessage(
        Role.ASSISTANT,
        "",
        tool_calls=(ToolCall("call.1/x", "f", '{"a": 1}'), ToolCall("c2", "g", "not json")),
        tool_results=(
            ToolResult("orphan", "h", "no call made this"),
            ToolResult("call.1/x", "f", ""),
        ),
    )
    turns = build_messages((HI, step, RequestMessage(Role.USER, "and then?")))
    assert turns[1] == {
        "role": "assistant",
        "content": [
            {"type": "tool_use", "id": "call_1_x", "name": "f", "input": {"a": 1}},
            {"type": "tool_use", "id": "c2", "name": "g", "input": {}},
        ],
    }
    assert turns[2] == {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "call_1_x"},
            {
                "type": "tool_result",
                "tool_use_id": "c2",
                "content": MISSING_RESULT,
                "is_error": True,
            },
            {"type": "text", "text": "and then?"},
        ],
    }


def test_thinking_goes_back_only_for_the_turn_in_progress() -> None:
    def step(signature: str) -> RequestMessage:
        return RequestMessage(
            Role.ASSISTANT,
            "",
            reasoning=f"thought {signature}",
            reasoning_signature=signature,
            tool_calls=(ToolCall(f"id_{signature}", "f", "{}"),),
            tool_results=(ToolResult(f"id_{signature}", "f", "ok"),),
        )

    turns = build_messages(
        (HI, step("old"), RequestMessage(Role.USER, "more"), step("a"), step("b"))
    )
    assistant = [t["content"][0] for t in turns if t["role"] == "assistant"]
    assert assistant == [
        {"type": "tool_use", "id": "id_old", "name": "f", "input": {}},
        {"type": "thinking", "thinking": "thought a", "signature": "a"},
        {"type": "thinking", "thinking": "thought b", "signature": "b"},
    ]


def test_thinking_blocks_from_a_signature() -> None:
    assert thinking_blocks("text", None) == []
    assert thinking_blocks(None, "sig") == [
        {"type": "thinking", "thinking": "", "signature": "sig"}
    ]
    stored = [{"type": "redacted_thinking", "data": "xyz"}, {"type": "text", "text": "dropped"}]
    assert thinking_blocks("ignored", BLOCKS_PREFIX + json.dumps(stored)) == stored[:1]
    assert thinking_blocks("t", BLOCKS_PREFIX + "{broken") == []
    assert thinking_blocks("t", BLOCKS_PREFIX + '{"type": "thinking"}') == []
