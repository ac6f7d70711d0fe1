"""Errors worded for people: the vendors' real error bodies, recognised and explained."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from email.utils import format_datetime
from typing import Any

import httpx
import pytest

from desktop.core.models import Role, utc_now
from desktop.providers.base import ChatRequest, ProviderHTTPError, RequestMessage
from desktop.providers.http_errors import (
    error_code,
    error_detail,
    parse_retry_after,
    status_error,
)
from tests.support.adapters import openai_chat_adapter
from tests.support.sse_server import SSEServer, json_response


def openai_error(message: str, code: str | None, kind: str = "invalid_request_error") -> bytes:
    return json.dumps({"error": {"message": message, "type": kind, "param": None, "code": code}})


def anthropic_error(kind: str, message: str) -> bytes:
    return json.dumps({"type": "error", "error": {"type": kind, "message": message}})


def google_error(code: int, status: str, message: str, reason: str | None = None) -> bytes:
    error: dict[str, Any] = {"code": code, "message": message, "status": status}
    if reason:
        error["details"] = [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": reason}]
    return json.dumps({"error": error})


def error_for(status: int, body: bytes | str, retry_after: float | None = None):
    raw = body.encode() if isinstance(body, str) else body
    return status_error(status, error_detail(raw), retry_after=retry_after, code=error_code(raw))


WRONG_KEY = "The server refused the API key"
NO_MODEL = "The server does not know this model"
TOO_LONG = "The conversation is too long for this model's context window"
QUOTA = "The account has run out of quota or credit"


@pytest.mark.parametrize(
    ("status", "body", "words"),
    [
        # wrong key
        (401, openai_error("Incorrect API key provided: sk-...", "invalid_api_key"), WRONG_KEY),
        (401, anthropic_error("authentication_error", "invalid x-api-key"), WRONG_KEY),
        (
            400,
            google_error(400, "INVALID_ARGUMENT", "API key not valid.", "API_KEY_INVALID"),
            WRONG_KEY,
        ),
        (403, openai_error("Invalid authentication credentials", None), WRONG_KEY),
        # model not found
        (
            404,
            openai_error(
                "The model `gpt-9` does not exist or you do not have access to it.",
                "model_not_found",
            ),
            NO_MODEL,
        ),
        (404, anthropic_error("not_found_error", "model: claude-9"), NO_MODEL),
        (
            404,
            google_error(404, "NOT_FOUND", "models/gemini-9 is not found for API version v1beta"),
            NO_MODEL,
        ),
        (404, json.dumps({"error": 'model "llama9" not found, try pulling it first'}), NO_MODEL),
        (400, openai_error("foo/bar is not a valid model ID", None), NO_MODEL),
        # context too long
        (
            400,
            openai_error(
                "This model's maximum context length is 128000 tokens. However, your messages "
                "resulted in 130000 tokens.",
                "context_length_exceeded",
            ),
            TOO_LONG,
        ),
        (
            400,
            anthropic_error(
                "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"
            ),
            TOO_LONG,
        ),
        (
            400,
            google_error(
                400,
                "INVALID_ARGUMENT",
                "The input token count (1200000) exceeds the maximum number of tokens "
                "allowed (1048576).",
            ),
            TOO_LONG,
        ),
        (
            400,
            json.dumps({"error": {"message": "the request exceeds the available context size"}}),
            TOO_LONG,
        ),
        # quota
        (
            429,
            openai_error(
                "You exceeded your current quota, please check your plan and billing details.",
                "insufficient_quota",
                "insufficient_quota",
            ),
            QUOTA,
        ),
        (402, json.dumps({"error": {"message": "Insufficient Balance"}}), QUOTA),
        (
            400,
            anthropic_error(
                "invalid_request_error", "Your credit balance is too low to access the API."
            ),
            QUOTA,
        ),
        # the plain cases keep their words
        (
            429,
            openai_error("Rate limit reached for gpt-4o on tokens per min", "rate_limit_exceeded"),
            "The server is rate limiting requests",
        ),
        (
            404,
            json.dumps({"detail": "Not Found"}),
            "The server does not know this address or model",
        ),
        (403, openai_error("Project lacks access", None), "The server denied access"),
        (
            400,
            openai_error("Invalid value for 'temperature'", None),
            "The server rejected the request",
        ),
    ],
)
def test_problems_people_can_fix_are_named_with_the_servers_words(
    status: int, body: bytes, words: str
) -> None:
    error = error_for(status, body)
    message = str(error)
    assert message.startswith(f"{words}")
    detail = error_detail(body.encode() if isinstance(body, str) else body)
    assert message.endswith(f"({status}): {detail}")  # the server's own words, last
    assert error.status_code == status


def test_a_spent_quota_is_not_retried_but_a_google_per_minute_quota_is():
    spent = error_for(
        429,
        openai_error("You exceeded your current quota", "insufficient_quota", "insufficient_quota"),
    )
    assert not spent.retryable
    per_minute = error_for(
        429,
        google_error(
            429, "RESOURCE_EXHAUSTED", "You exceeded your current quota. Please retry in 12s."
        ),
        retry_after=12.0,
    )
    assert per_minute.retryable and per_minute.retry_after == 12.0
    assert str(per_minute).startswith(QUOTA)
    rate_limited = error_for(429, openai_error("Rate limit reached", "rate_limit_exceeded"))
    assert rate_limited.retryable


def test_a_missing_key_is_told_apart_from_a_wrong_one():
    error = status_error(401, "Missing bearer token", has_key=False)
    assert str(error) == "The server requires an API key (401): Missing bearer token"


def test_error_codes_are_collected_from_every_vendors_shape():
    assert (
        error_code(openai_error("x", "invalid_api_key")) == "invalid_api_key invalid_request_error"
    )
    assert error_code(anthropic_error("overloaded_error", "x")) == "overloaded_error"
    assert error_code(google_error(400, "INVALID_ARGUMENT", "x", "API_KEY_INVALID")) == (
        "400 invalid_argument api_key_invalid"
    )
    assert error_code(b"<html>oops</html>") == ""
    assert error_code(b'{"error": "plain"}') == ""


def test_a_real_response_is_worded_end_to_end(sse_server: SSEServer) -> None:
    sse_server.enqueue(
        json_response(
            json.loads(
                openai_error(
                    "This model's maximum context length is 8192 tokens.",
                    "context_length_exceeded",
                )
            ),
            status=400,
        )
    )
    request = ChatRequest("test-model", (RequestMessage(Role.USER, "long"),))

    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            provider = openai_chat_adapter(client, sse_server.base_url, "sk-x")
            async for _ in provider.stream(request):
                pass

    with pytest.raises(ProviderHTTPError) as info:
        asyncio.run(main())
    assert str(info.value) == (
        f"{TOO_LONG}; start a new chat or use a model with a larger context (400): "
        "This model's maximum context length is 8192 tokens."
    )
    assert not info.value.retryable


def test_parse_retry_after() -> None:
    assert parse_retry_after("12") == 12
    assert parse_retry_after("1.5") == 1.5
    assert parse_retry_after(None) is None
    assert parse_retry_after("soon") is None
    assert parse_retry_after("-3") is None
    in_a_minute = format_datetime(utc_now() + timedelta(seconds=60), usegmt=True)
    assert 50 < (parse_retry_after(in_a_minute) or 0) <= 60
