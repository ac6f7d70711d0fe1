"""Builders for Ollama's `/api/chat` NDJSON stream, byte for byte as Ollama writes it
(compact JSON, one object per line, `application/x-ndjson`), for scripting the loopback
`SSEServer`."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from tests.support.sse_server import Head, Send, Step, json_response

MODEL = "qwen3:8b"
CREATED = "2025-06-01T10:00:00.000000000Z"


def _dumps(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def tool_call(name: str, arguments: Mapping[str, Any], *, call_id: str | None = None) -> dict:
    call: dict[str, Any] = {"function": {"name": name, "arguments": dict(arguments)}}
    if call_id is not None:
        call["id"] = call_id
    return call


def line(
    content: str = "",
    *,
    thinking: str | None = None,
    tool_calls: Iterable[Mapping[str, Any]] | None = None,
    model: str = MODEL,
) -> bytes:
    """A `"done": false` line."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if thinking is not None:
        message["thinking"] = thinking
    if tool_calls is not None:
        message["tool_calls"] = [dict(c) for c in tool_calls]
    payload = {"model": model, "created_at": CREATED, "message": message, "done": False}
    return _dumps(payload) + b"\n"


def done_body(
    done_reason: str = "stop", prompt: int = 26, completion: int = 12, *, model: str = MODEL
) -> dict[str, Any]:
    return {
        "model": model,
        "created_at": CREATED,
        "message": {"role": "assistant", "content": ""},
        "done_reason": done_reason,
        "done": True,
        "total_duration": 4883583458,
        "load_duration": 1334875,
        "prompt_eval_count": prompt,
        "prompt_eval_duration": 342546000,
        "eval_count": completion,
        "eval_duration": 4535599000,
    }


def done(done_reason: str = "stop", prompt: int = 26, completion: int = 12) -> bytes:
    """The last line: finish reason and token counts."""
    return _dumps(done_body(done_reason, prompt, completion)) + b"\n"


def error_line(message: str) -> bytes:
    return _dumps({"error": message}) + b"\n"


def ndjson_response(*items: bytes | Step) -> list[Step]:
    """A chunked `application/x-ndjson` response, as Ollama streams."""
    steps: list[Step] = [Head(200, (("Content-Type", "application/x-ndjson"),))]
    steps += [Send(item) if isinstance(item, bytes) else item for item in items]
    return steps


def error_response(
    status: int, message: str, *, headers: Mapping[str, str] | None = None
) -> list[Step]:
    """Ollama's error body: `{"error": "..."}`."""
    return json_response({"error": message}, status=status, headers=headers)


def tags_body(names: Iterable[str]) -> dict[str, Any]:
    return {
        "models": [
            {
                "name": name,
                "model": name,
                "modified_at": "2025-05-01T10:00:00Z",
                "size": 5_200_000_000,
                "digest": "a" * 64,
                "details": {"format": "gguf", "family": "qwen3", "parameter_size": "8.2B"},
            }
            for name in names
        ]
    }
