"""OpenAI Responses API stream events and response objects, byte for byte as OpenAI
sends them (`event:` line naming the type, compact JSON `data:` with a
`sequence_number`), for scripting the loopback server.

    wire = ResponsesWire()
    server.enqueue(sse_response(wire.created(), wire.text_added(0), wire.text("Hi"),
                                wire.completed(usage(5, 1))))
"""

from __future__ import annotations

import json
from typing import Any

from tests.support.sse_server import MODEL

RESPONSE_ID = "resp_test"


def _dumps(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def usage(input_tokens: int, output_tokens: int, reasoning: int = 0) -> dict[str, Any]:
    return {
        "input_tokens": input_tokens,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": output_tokens,
        "output_tokens_details": {"reasoning_tokens": reasoning},
        "total_tokens": input_tokens + output_tokens,
    }


def response_object(
    status: str = "completed",
    output: list[dict[str, Any]] | None = None,
    usage: dict[str, Any] | None = None,
    *,
    error: dict[str, Any] | None = None,
    incomplete_reason: str | None = None,
    model: str = MODEL,
) -> dict[str, Any]:
    return {
        "id": RESPONSE_ID,
        "object": "response",
        "created_at": 1700000000,
        "status": status,
        "error": error,
        "incomplete_details": {"reason": incomplete_reason} if incomplete_reason else None,
        "model": model,
        "output": output or [],
        "usage": usage,
        "store": False,
    }


def message_item(text: str, item_id: str = "msg_1") -> dict[str, Any]:
    return {
        "id": item_id,
        "type": "message",
        "status": "completed",
        "role": "assistant",
        "content": [{"type": "output_text", "annotations": [], "logprobs": [], "text": text}],
    }


def reasoning_item(
    item_id: str = "rs_1", summary: tuple[str, ...] = (), encrypted: str | None = None
) -> dict[str, Any]:
    item: dict[str, Any] = {
        "id": item_id,
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": text} for text in summary],
    }
    if encrypted is not None:
        item["encrypted_content"] = encrypted
    return item


def function_call_item(
    call_id: str, name: str, arguments: str = "", item_id: str = "fc_1", status: str = "completed"
) -> dict[str, Any]:
    return {
        "id": item_id,
        "type": "function_call",
        "status": status,
        "arguments": arguments,
        "call_id": call_id,
        "name": name,
    }


class ResponsesWire:
    """Builds events with increasing `sequence_number`s, one script per instance."""

    def __init__(self, model: str = MODEL) -> None:
        self.model = model
        self.sequence = 0

    def event(self, kind: str, **fields: Any) -> bytes:
        payload = {"type": kind, "sequence_number": self.sequence, **fields}
        self.sequence += 1
        return b"event: " + kind.encode() + b"\ndata: " + _dumps(payload) + b"\n\n"

    # --- lifecycle ---------------------------------------------------------------------

    def created(self) -> bytes:
        return self.event(
            "response.created", response=response_object("in_progress", model=self.model)
        )

    def in_progress(self) -> bytes:
        return self.event(
            "response.in_progress", response=response_object("in_progress", model=self.model)
        )

    def completed(
        self, usage: dict[str, Any] | None = None, output: list[dict[str, Any]] | None = None
    ) -> bytes:
        response = response_object("completed", output, usage, model=self.model)
        return self.event("response.completed", response=response)

    def failed(self, code: str, message: str) -> bytes:
        error = {"code": code, "message": message}
        return self.event(
            "response.failed", response=response_object("failed", error=error, model=self.model)
        )

    def incomplete(self, reason: str, usage: dict[str, Any] | None = None) -> bytes:
        response = response_object(
            "incomplete", usage=usage, incomplete_reason=reason, model=self.model
        )
        return self.event("response.incomplete", response=response)

    def error(self, code: str | None, message: str) -> bytes:
        return self.event("error", code=code, message=message, param=None)

    # --- output items ------------------------------------------------------------------

    def item_added(self, output_index: int, item: dict[str, Any]) -> bytes:
        return self.event("response.output_item.added", output_index=output_index, item=item)

    def item_done(self, output_index: int, item: dict[str, Any]) -> bytes:
        return self.event("response.output_item.done", output_index=output_index, item=item)

    def text(self, delta: str, output_index: int = 0, item_id: str = "msg_1") -> bytes:
        return self.event(
            "response.output_text.delta",
            item_id=item_id,
            output_index=output_index,
            content_index=0,
            delta=delta,
            logprobs=[],
        )

    def summary(
        self, delta: str, output_index: int = 0, summary_index: int = 0, item_id: str = "rs_1"
    ) -> bytes:
        return self.event(
            "response.reasoning_summary_text.delta",
            item_id=item_id,
            output_index=output_index,
            summary_index=summary_index,
            delta=delta,
        )

    def arguments(self, delta: str, output_index: int, item_id: str = "fc_1") -> bytes:
        return self.event(
            "response.function_call_arguments.delta",
            item_id=item_id,
            output_index=output_index,
            delta=delta,
        )

    def arguments_done(self, arguments: str, output_index: int, item_id: str = "fc_1") -> bytes:
        return self.event(
            "response.function_call_arguments.done",
            item_id=item_id,
            output_index=output_index,
            arguments=arguments,
        )

    # --- whole pieces ------------------------------------------------------------------

    def text_message(
        self, *deltas: str, output_index: int = 0, item_id: str = "msg_1"
    ) -> list[bytes]:
        """A message item streamed as OpenAI does: added, part, deltas, done."""
        empty = {**message_item("", item_id), "status": "in_progress", "content": []}
        part = {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}
        events = [
            self.item_added(output_index, empty),
            self.event(
                "response.content_part.added",
                item_id=item_id,
                output_index=output_index,
                content_index=0,
                part=part,
            ),
        ]
        events += [self.text(d, output_index, item_id) for d in deltas]
        text = "".join(deltas)
        events += [
            self.event(
                "response.output_text.done",
                item_id=item_id,
                output_index=output_index,
                content_index=0,
                text=text,
                logprobs=[],
            ),
            self.item_done(output_index, message_item(text, item_id)),
        ]
        return events

    def function_call(
        self, output_index: int, call_id: str, name: str, *pieces: str, item_id: str = "fc_1"
    ) -> list[bytes]:
        """A function call item: added (id and name), argument deltas, done events."""
        arguments = "".join(pieces)
        added = function_call_item(call_id, name, "", item_id, status="in_progress")
        return [
            self.item_added(output_index, added),
            *(self.arguments(p, output_index, item_id) for p in pieces),
            self.arguments_done(arguments, output_index, item_id),
            self.item_done(output_index, function_call_item(call_id, name, arguments, item_id)),
        ]
