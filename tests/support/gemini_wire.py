"""Builders for the Gemini wire format, byte for byte as `generativelanguage.googleapis.com`
streams it (`alt=sse`: one compact `GenerateContentResponse` per `data:` line, events
separated by CRLF CRLF), for scripting the loopback `SSEServer`."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from tests.support.sse_server import Head, Send, Step, json_response

MODEL = "gemini-2.5-flash"


def _dumps(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def text(value: str, *, signature: str | None = None) -> dict[str, Any]:
    part: dict[str, Any] = {"text": value}
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


def thought(value: str, *, signature: str | None = None) -> dict[str, Any]:
    part: dict[str, Any] = {"text": value, "thought": True}
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


def call(
    name: str, args: Mapping[str, Any], *, signature: str | None = None, call_id: str | None = None
) -> dict[str, Any]:
    function: dict[str, Any] = {"name": name, "args": dict(args)}
    if call_id is not None:
        function["id"] = call_id
    part: dict[str, Any] = {"functionCall": function}
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


def usage(prompt: int, candidates: int, thoughts: int | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "promptTokenCount": prompt,
        "candidatesTokenCount": candidates,
        "totalTokenCount": prompt + candidates + (thoughts or 0),
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": prompt}],
    }
    if thoughts is not None:
        meta["thoughtsTokenCount"] = thoughts
    return meta


def response_body(
    *parts: Mapping[str, Any],
    finish_reason: str | None = None,
    usage_metadata: Mapping[str, Any] | None = None,
    finish_message: str | None = None,
    model: str = MODEL,
) -> dict[str, Any]:
    """A `GenerateContentResponse` as a dict."""
    candidate: dict[str, Any] = {"content": {"parts": [dict(p) for p in parts], "role": "model"}}
    if finish_reason is not None:
        candidate["finishReason"] = finish_reason
    if finish_message is not None:
        candidate["finishMessage"] = finish_message
    candidate["index"] = 0
    body: dict[str, Any] = {"candidates": [candidate]}
    body["usageMetadata"] = dict(usage_metadata) if usage_metadata else usage(8, len(parts))
    body["modelVersion"] = model
    body["responseId"] = "resp-test"
    return body


def event(payload: Any) -> bytes:
    """One SSE event as Google frames it (`data: ...` then CRLF CRLF)."""
    data = payload if isinstance(payload, bytes) else _dumps(payload)
    return b"data: " + data + b"\r\n\r\n"


def chunk(*parts: Mapping[str, Any], **options: Any) -> bytes:
    return event(response_body(*parts, **options))


def stream_response(*items: bytes | Step) -> list[Step]:
    """A chunked `text/event-stream` response, with the headers Google sends."""
    headers = (
        ("Content-Type", "text/event-stream"),
        ("Vary", "Origin"),
        ("X-Content-Type-Options", "nosniff"),
    )
    steps: list[Step] = [Head(200, headers)]
    steps += [Send(item) if isinstance(item, bytes) else item for item in items]
    return steps


def error_body(code: int, message: str, status: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "status": status, **extra}}


def error_response(
    code: int, message: str, status: str, *, headers: Mapping[str, str] | None = None
) -> list[Step]:
    """A Google API error, e.g. 400 INVALID_ARGUMENT "API key not valid..."."""
    return json_response(error_body(code, message, status), status=code, headers=headers)


def model_entry(name: str, methods: Iterable[str] = ("generateContent", "countTokens")) -> dict:
    return {
        "name": f"models/{name}",
        "version": "001",
        "displayName": name,
        "inputTokenLimit": 1048576,
        "outputTokenLimit": 65536,
        "supportedGenerationMethods": list(methods),
    }


def models_page(entries: Iterable[Mapping[str, Any]], next_token: str | None = None) -> dict:
    page: dict[str, Any] = {"models": [dict(e) for e in entries]}
    if next_token:
        page["nextPageToken"] = next_token
    return page
