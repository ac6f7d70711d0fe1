"""HTTP failures worded for people: status codes, error bodies, Retry-After, causes.

Shared by every HTTP provider: each server phrases errors differently, the person should
read one clear sentence with the server's own words in it.
"""

from __future__ import annotations

import json
import os
import re
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from desktop.core.models import utc_now
from desktop.providers.base import ProviderHTTPError

DETAIL_MAX_CHARS = 500  # server error text shown to the person


def text_or_empty(value: Any) -> str:
    """Vendor JSON is untrusted: a field that should be a string may be anything."""
    return value if isinstance(value, str) else ""


def error_payload_message(error: Any) -> str:
    """The text of an OpenAI-style `error` value (an object, or sometimes a bare string)."""
    if isinstance(error, dict):
        message = text_or_empty(error.get("message")) or text_or_empty(error.get("code"))
        return message or json.dumps(error)[:DETAIL_MAX_CHARS]
    return text_or_empty(error) or "unknown error"


_STATUS_WORDS = {
    400: "The server rejected the request",
    401: "The server refused the API key",
    402: "The account has run out of credit",
    403: "The server denied access",
    404: "The server does not know this address or model",
    408: "The server timed out waiting for the request",
    413: "The request is too large for the server",
    422: "The server could not process the request",
    429: "The server is rate limiting requests",
}


def trim(text: str, limit: int = DETAIL_MAX_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def error_detail(body: bytes, content_type: str = "") -> str:
    """The server's own words: `error.message`, `message`, `detail`, or the trimmed text."""
    text = body.decode("utf-8", errors="replace").strip()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        if "html" in content_type or text.lstrip().lower().startswith("<"):
            text = re.sub(r"(?is)<(script|style)\b.*?</\1>|<[^>]+>", " ", text)
        return trim(text)
    if isinstance(data, dict):
        if data.get("error"):
            return trim(error_payload_message(data["error"]))
        for key in ("message", "detail"):
            value = data.get(key)
            if isinstance(value, str) and value.strip():
                return trim(value)
            if value:
                return trim(json.dumps(value, ensure_ascii=False))  # e.g. FastAPI lists
    return trim(text)


def parse_retry_after(value: str | None) -> float | None:
    """`Retry-After` is either seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if re.fullmatch(r"\d+(\.\d+)?", value):
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, (when - utc_now()).total_seconds())


def status_error(
    status: int, detail: str, *, retry_after: float | None = None, has_key: bool = True
) -> ProviderHTTPError:
    if status == 401 and not has_key:
        words = "The server requires an API key"
    elif status in _STATUS_WORDS:
        words = _STATUS_WORDS[status]
    elif status >= 500:
        words = "The server had an internal error"
    else:
        words = "The request failed"
    message = f"{words} ({status}): {detail}" if detail else f"{words} ({status})"
    retryable = status in (408, 409, 429) or status >= 500
    return ProviderHTTPError(
        message, status_code=status, retryable=retryable, retry_after=retry_after
    )


def display_url(url: str) -> str:
    """The URL without user:password or query, which may carry credentials."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "(invalid URL)"
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def network_reason(exc: BaseException) -> str:
    """The most specific cause: "Connection refused" says more than "All attempts failed"."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, OSError) and (cause.errno or cause.strerror):
            # asyncio words a refusal as "Connect call failed (...)"; the errno says it plainly.
            if cause.errno and cause.errno > 0:
                return os.strerror(cause.errno)
            return str(cause.strerror or cause)  # e.g. a DNS failure: "Name or service not known"
        cause = cause.__cause__ or cause.__context__
    return str(exc).strip() or type(exc).__name__
