"""What two or more wire protocols share once their JSON is decoded.

Each protocol's `request.py` and `stream.py` keep what is truly theirs; the pieces here
used to be written out again in each (reading a stream event's JSON, a token count from
untrusted JSON, the closing events of an answer), and a fix made in one copy did not
reach the others. Pure functions, no I/O.
"""

from __future__ import annotations

import base64
import json
import uuid
from collections.abc import Callable
from typing import Any, Literal

from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import Finished, StreamEvent, UsageReport
from desktop.core.i18n import tr
from desktop.core.models import Usage
from desktop.providers.base import ImageInput, ToolResult
from desktop.providers.http_errors import retryable_status, text_or_empty, trim
from desktop.providers.sse import json_data

Redactor = Callable[[str], str]
"""Scrubs the API key from a text that may reach the person (`HttpTransport.redact`)."""


def no_redaction(text: str) -> str:
    return text


# --- request ------------------------------------------------------------------------

# A call stored without a result (the run was interrupted). Every call in an assistant
# turn must be answered by a `tool` message, or the server refuses the whole request.
NO_RESULT = "The tool call was interrupted before it returned a result."


def data_url(image: ImageInput) -> str:
    return f"data:{image.mime};base64,{base64.b64encode(image.data).decode('ascii')}"


def tool_result_text(result: ToolResult | None) -> str:
    """OpenAI's wires have no error flag on a tool result, so a failure says so in words."""
    if result is None:
        return f"Error: {NO_RESULT}"
    return f"Error: {result.content}" if result.is_error else result.content


def call_args(arguments: str) -> dict[str, Any]:
    """Our stored JSON text as the object a wire wants (Gemini, Ollama). Text that is not
    a JSON object (a model can write broken JSON) goes back as `{"_raw": text}`, so the
    model sees what it sent instead of the request failing."""
    text = arguments.strip()
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return {"_raw": arguments}
    return value if isinstance(value, dict) else {"_raw": arguments}


def new_call_id(prefix: str) -> str:
    """An id for a call its wire did not name; `prefix` marks it as ours, never sent back."""
    return prefix + uuid.uuid4().hex[:24]


# --- reading answers ----------------------------------------------------------------


def count(value: Any) -> int:
    """A token count from untrusted JSON: anything but an integer counts as nothing."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def positive_count(value: Any) -> bool:
    """A stated size (a context window): a positive integer, not a bool."""
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def stream_payload(data: str, redact: Redactor, unit: Literal["chunk", "event"]) -> Any:
    """The JSON object of one SSE event's `data` (stripped by the caller); anything else
    breaks the stream with a readable error. The wires name their events differently
    ("chunk", "event"), and each wording is its own text for the translators."""
    try:
        payload = json_data(data)
    except json.JSONDecodeError:
        preview = redact(trim(data, 120))
        if unit == "chunk":
            text = tr("The server sent a malformed stream chunk (not JSON): {preview}")
        else:
            text = tr("The server sent a malformed stream event (not JSON): {preview}")
        raise StreamBrokenError(text.format(preview=preview)) from None
    if not isinstance(payload, dict):
        if unit == "chunk":
            raise StreamBrokenError(tr("The server sent a malformed stream chunk (not an object)"))
        raise StreamBrokenError(tr("The server sent a malformed stream event (not an object)"))
    return payload


def json_object(payload: Any) -> dict[str, Any]:
    """A whole (non-streamed) answer must be a JSON object."""
    if not isinstance(payload, dict):
        raise ProviderError(tr("The server's answer was not a JSON object"))
    return payload


def reported_error(message: str, code: Any) -> ProviderError:
    """An error object inside a 200 answer, `code` an HTTP status when it is a number
    (OpenAI-compatible servers, Gemini): retryable as that status would be."""
    status = code if isinstance(code, int) and not isinstance(code, bool) else None
    retryable = status is not None and retryable_status(status)
    return ProviderError(
        tr("The server reported an error: {message}").format(message=message),
        status_code=status,
        retryable=retryable,
    )


def closing_events(usage: Usage | None, reason: str | None) -> list[StreamEvent]:
    """The end of every answer: usage (when known), then `Finished` exactly once."""
    events: list[StreamEvent] = [UsageReport(usage)] if usage else []
    events.append(Finished(reason))
    return events


def model_ids(payload: Any) -> list[str]:
    """Model ids from an OpenAI-style `GET /models` (`{"data": [{"id": ...}]}` or a bare
    list), sorted: both OpenAI protocols list models this way."""
    items = payload.get("data") if isinstance(payload, dict) else payload
    if not isinstance(items, list):
        raise ProviderError(tr("The server's model list was not in the expected format"))
    ids = (text_or_empty(item.get("id")) for item in items if isinstance(item, dict))
    return sorted({model_id for model_id in ids if model_id})
