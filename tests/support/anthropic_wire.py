"""Anthropic Messages wire builders for the loopback server: SSE events byte for byte as
api.anthropic.com streams them (an `event:` line, then compact JSON in `data:`), error
bodies, whole messages and model pages.

    sse_server.enqueue(sse_response(*answer(text_block(0, "Hi"), stop_reason="end_turn")))
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from tests.support.sse_server import Step, json_response

MODEL = "claude-sonnet-4-5"
MESSAGE_ID = "msg_01TestMessage"


def _dumps(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def event(name: str, payload: Mapping[str, Any]) -> bytes:
    """One named SSE event whose JSON repeats the name in `type`, as Anthropic sends it."""
    return b"event: " + name.encode() + b"\ndata: " + _dumps({"type": name, **payload}) + b"\n\n"


def usage(
    input_tokens: int = 0,
    output_tokens: int = 0,
    *,
    cache_creation: int = 0,
    cache_read: int = 0,
) -> dict[str, Any]:
    return {
        "input_tokens": input_tokens,
        "cache_creation_input_tokens": cache_creation,
        "cache_read_input_tokens": cache_read,
        "output_tokens": output_tokens,
    }


def message_start(
    input_tokens: int = 10, *, cache_creation: int = 0, cache_read: int = 0, model: str = MODEL
) -> bytes:
    message = {
        "id": MESSAGE_ID,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": usage(input_tokens, 1, cache_creation=cache_creation, cache_read=cache_read),
    }
    return event("message_start", {"message": message})


def block_start(index: int, block: Mapping[str, Any]) -> bytes:
    return event("content_block_start", {"index": index, "content_block": dict(block)})


def block_delta(index: int, delta: Mapping[str, Any]) -> bytes:
    return event("content_block_delta", {"index": index, "delta": dict(delta)})


def block_stop(index: int) -> bytes:
    return event("content_block_stop", {"index": index})


def text_block(index: int, *pieces: str) -> list[bytes]:
    return [
        block_start(index, {"type": "text", "text": ""}),
        *(block_delta(index, {"type": "text_delta", "text": p}) for p in pieces),
        block_stop(index),
    ]


def thinking_block(index: int, *pieces: str, signature: str) -> list[bytes]:
    return [
        block_start(index, {"type": "thinking", "thinking": "", "signature": ""}),
        *(block_delta(index, {"type": "thinking_delta", "thinking": p}) for p in pieces),
        block_delta(index, {"type": "signature_delta", "signature": signature}),
        block_stop(index),
    ]


def redacted_block(index: int, data: str) -> list[bytes]:
    return [block_start(index, {"type": "redacted_thinking", "data": data}), block_stop(index)]


def tool_block(index: int, call_id: str, name: str, *fragments: str) -> list[bytes]:
    """A `tool_use` block whose input JSON arrives in `fragments` (as the API streams it,
    starting with an empty `partial_json`)."""
    start = block_start(index, {"type": "tool_use", "id": call_id, "name": name, "input": {}})
    deltas = [
        block_delta(index, {"type": "input_json_delta", "partial_json": f})
        for f in ("", *fragments)
    ]
    return [start, *deltas, block_stop(index)]


def message_delta(stop_reason: str | None = "end_turn", output_tokens: int = 5) -> bytes:
    return event(
        "message_delta",
        {
            "delta": {"stop_reason": stop_reason, "stop_sequence": None},
            "usage": {"output_tokens": output_tokens},
        },
    )


MESSAGE_STOP = event("message_stop", {})
PING = event("ping", {})


def error_event(error_type: str, message: str) -> bytes:
    return event("error", {"error": {"type": error_type, "message": message}})


def answer(
    *blocks: bytes | list[bytes],
    stop_reason: str = "end_turn",
    input_tokens: int = 10,
    output_tokens: int = 5,
) -> list[bytes]:
    """A whole stream: message_start, a ping, the blocks, message_delta, message_stop."""
    events = [message_start(input_tokens), PING]
    for block in blocks:
        events += [block] if isinstance(block, bytes) else block
    return [*events, message_delta(stop_reason, output_tokens), MESSAGE_STOP]


def error_body(
    status: int, error_type: str, message: str, *, headers: Mapping[str, str] | None = None
) -> list[Step]:
    """Anthropic's JSON error response, e.g. 401 `authentication_error`."""
    payload = {
        "type": "error",
        "error": {"type": error_type, "message": message},
        "request_id": "req_011Test",
    }
    return json_response(payload, status=status, headers=headers)


def message_body(
    content: Iterable[Mapping[str, Any]],
    *,
    stop_reason: str = "end_turn",
    input_tokens: int = 10,
    output_tokens: int = 5,
    model: str = MODEL,
) -> dict[str, Any]:
    """A non-streaming `message` object."""
    return {
        "id": MESSAGE_ID,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [dict(c) for c in content],
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": usage(input_tokens, output_tokens),
    }


def models_page(ids: Iterable[str], *, has_more: bool = False) -> dict[str, Any]:
    data = [
        {"type": "model", "id": i, "display_name": i, "created_at": "2025-01-01T00:00:00Z"}
        for i in ids
    ]
    return {
        "data": data,
        "has_more": has_more,
        "first_id": data[0]["id"] if data else None,
        "last_id": data[-1]["id"] if data else None,
    }
