"""Ollama request bodies: images, the system prompt, options and the `think` value each
reasoning effort sends."""

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
)
from tests.support import ollama_wire as o
from tests.support.adapters import ollama_adapter
from tests.support.provider_calls import (
    Harness,
    server_root,
)
from tests.support.sse_server import (
    SSEServer,
)

MODEL = "qwen3:8b"
REQUEST = ChatRequest(model=MODEL, messages=(RequestMessage(Role.USER, "Hi"),))
HARNESS = Harness(ollama_adapter, server_root, REQUEST)
call = HARNESS.call
stream = HARNESS.stream


def short_answer() -> list:
    return o.ndjson_response(o.line("ok"), o.done())


def test_images_system_and_options(sse_server: SSEServer) -> None:
    sse_server.enqueue(short_answer())
    png = b"\x89PNG\r\n\x1a\nbinary"
    request = ChatRequest(
        model="llava:13b",
        system="Be brief.",
        messages=(
            RequestMessage(
                Role.USER,
                "What is this?",
                images=(ImageInput("image/png", png), ImageInput("image/jpeg", b"\xff\xd8jpg")),
            ),
            RequestMessage(Role.ASSISTANT, "A logo."),
            RequestMessage(Role.USER, "Sure?"),
        ),
        temperature=0.3,
        top_p=0.9,
        max_output_tokens=512,
    )
    stream(sse_server, request, api_key="ollama-KEY-123")
    sent = sse_server.requests[0]
    assert sent.headers["authorization"] == "Bearer ollama-KEY-123"
    assert sent.json == {
        "model": "llava:13b",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {
                "role": "user",
                "content": "What is this?",
                "images": [base64.b64encode(png).decode(), "/9hqcGc="],
            },
            {"role": "assistant", "content": "A logo."},
            {"role": "user", "content": "Sure?"},
        ],
        "stream": True,
        "options": {"temperature": 0.3, "top_p": 0.9, "num_predict": 512},
    }


@pytest.mark.parametrize(
    ("model", "effort", "expected"),
    [
        ("qwen3:8b", ReasoningEffort.OFF, False),
        ("qwen3:8b", ReasoningEffort.LOW, True),
        ("deepseek-r1:14b", ReasoningEffort.MAX, True),
        ("gpt-oss:20b", ReasoningEffort.OFF, "low"),
        ("gpt-oss:20b", ReasoningEffort.LOW, "low"),
        ("gpt-oss:120b", ReasoningEffort.MEDIUM, "medium"),
        ("gpt-oss:20b", ReasoningEffort.HIGH, "high"),
        ("gpt-oss:20b", ReasoningEffort.MAX, "high"),
        ("qwen3:8b", None, None),
    ],
)
def test_reasoning_effort_mapping(
    sse_server: SSEServer, model: str, effort: ReasoningEffort | None, expected: Any
) -> None:
    sse_server.enqueue(short_answer())
    stream(sse_server, ChatRequest(model=model, messages=REQUEST.messages, reasoning_effort=effort))
    assert sse_server.requests[0].json.get("think", None) == expected
    assert ("think" in sse_server.requests[0].json) == (expected is not None)
