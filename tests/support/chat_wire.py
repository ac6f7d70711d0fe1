"""Chat Completions stream chunks beyond text (tool calls, any delta), byte for byte as
OpenAI streams them; text, reasoning and usage chunks are in `sse_server`."""

from __future__ import annotations

from typing import Any

from tests.support.sse_server import MODEL, sse_data


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
