"""Chat Completions stream chunks beyond text (tool calls, any delta), byte for byte as
OpenAI streams them; text, reasoning and usage chunks are in `sse_server`. Also whole
model steps (a text answer, a tool call) and readers of what a recorded request carried."""

from __future__ import annotations

import json
from typing import Any

from desktop.engine import titles
from tests.support.sse_server import (
    DONE,
    MODEL,
    RecordedRequest,
    chat_chunk,
    sse_data,
    sse_response,
    usage_chunk,
)


def delta_chunk(
    delta: dict[str, Any], finish_reason: str | None = None, *, model: str = MODEL
) -> bytes:
    """A `chat.completion.chunk` carrying `delta` as given."""
    return sse_data(
        {
            "id": "chatcmpl-test",
            "object": "chat.completion.chunk",
            "created": 1700000000,
            "model": model,
            "system_fingerprint": "fp_test",
            "choices": [
                {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}
            ],
            "usage": None,
        }
    )


def tool_call_piece(
    index: int | None,
    *,
    call_id: str | None = None,
    name: str | None = None,
    arguments: str | None = None,
) -> dict[str, Any]:
    """One entry of `delta.tool_calls`: OpenAI sends id, type and name (with empty
    arguments) on the first piece of a call and only `arguments` text afterwards."""
    piece: dict[str, Any] = {} if index is None else {"index": index}
    if call_id is not None:
        piece["id"] = call_id
        piece["type"] = "function"
    function: dict[str, Any] = {}
    if name is not None:
        function["name"] = name
    if arguments is not None:
        function["arguments"] = arguments
    piece["function"] = function
    return piece


def tool_call_chunk(*pieces: dict[str, Any], finish_reason: str | None = None) -> bytes:
    return delta_chunk({"tool_calls": list(pieces)}, finish_reason)


def streamed_call(index: int, call_id: str, name: str, *argument_pieces: str) -> list[bytes]:
    """A whole call as OpenAI streams it: announcement, then one chunk per piece."""
    first = tool_call_chunk(tool_call_piece(index, call_id=call_id, name=name, arguments=""))
    rest = [tool_call_chunk(tool_call_piece(index, arguments=p)) for p in argument_pieces]
    return [first, *rest]


def turns(body: dict[str, Any]) -> list[dict[str, Any]]:
    """A Chat Completions request's conversation turns, without its system message (the
    time reminder and prompt every request now carries; tests of those look at it)."""
    return [m for m in body["messages"] if m["role"] != "system"]


def call_answer(call_id: str, name: str, arguments: dict[str, Any] | str) -> list[Any]:
    """A model step that asks for one tool call, as OpenAI streams it."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return sse_response(
        *streamed_call(0, call_id, name, text),
        delta_chunk({}, "tool_calls"),
        usage_chunk(10, 5),
        DONE,
    )


def write_call(call_id: str = "call_1", content: str = "hello") -> list:
    """A model step that calls `write_file` on notes.txt, its arguments in two pieces."""
    arguments = json.dumps({"path": "notes.txt", "content": content})
    half = len(arguments) // 2
    return sse_response(
        *streamed_call(0, call_id, "write_file", arguments[:half], arguments[half:]),
        delta_chunk({}, "tool_calls"),
        DONE,
    )


def text_answer(text: str) -> list:
    """A model step that answers `text` in one chunk and stops."""
    return sse_response(chat_chunk(content=text), chat_chunk(finish_reason="stop"), DONE)


def tool_messages(request_body: dict[str, Any]) -> dict[str, str]:
    """tool_call_id -> content of the `tool` messages a request carried."""
    return {
        m["tool_call_id"]: m["content"] for m in request_body["messages"] if m["role"] == "tool"
    }


def kind_of(request: RecordedRequest) -> str:
    """ "chat", "title", "suggestions" or "other" (a model list)."""
    body = request.json
    if not isinstance(body, dict) or "messages" not in body:
        return "other"
    if body.get("stream"):
        return "chat"
    system = next((m["content"] for m in body["messages"] if m["role"] == "system"), "")
    return "title" if system == titles.SYSTEM else "suggestions"
