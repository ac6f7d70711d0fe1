"""HTTP failures worded for people: status codes, error bodies, Retry-After, causes.

Shared by every HTTP provider: each server phrases errors differently, the person should
read one clear sentence with the server's own words in it.
"""

from __future__ import annotations

import json
import os
import re
from email.utils import parsedate_to_datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from desktop.core.i18n import QT_TR_NOOP, tr
from desktop.core.models import utc_now
from desktop.providers.base import ProviderHTTPError

BROKEN = QT_TR_NOOP("The connection closed before the answer was complete")

DETAIL_MAX_CHARS = 500  # server error text shown to the person


def text_or_empty(value: Any) -> str:
    """Vendor JSON is untrusted: a field that should be a string may be anything."""
    return value if isinstance(value, str) else ""


def error_payload_message(error: Any) -> str:
    """The text of an OpenAI-style `error` value (an object, or sometimes a bare string)."""
    if isinstance(error, dict):
        message = text_or_empty(error.get("message")) or text_or_empty(error.get("code"))
        return message or json.dumps(error)[:DETAIL_MAX_CHARS]
    return text_or_empty(error) or tr("unknown error")


_STATUS_WORDS = {
    400: QT_TR_NOOP("The server rejected the request"),
    401: QT_TR_NOOP("The server refused the API key"),
    402: QT_TR_NOOP("The account has run out of credit"),
    403: QT_TR_NOOP("The server denied access"),
    404: QT_TR_NOOP("The server does not know this address or model"),
    408: QT_TR_NOOP("The server timed out waiting for the request"),
    413: QT_TR_NOOP("The request is too large for the server"),
    422: QT_TR_NOOP("The server could not process the request"),
    429: QT_TR_NOOP("The server is rate limiting requests"),
    529: QT_TR_NOOP("The server is overloaded"),  # Anthropic
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


def body_retry_delay(body: bytes) -> float | None:
    """The wait a Google API asks for in its error body (`google.rpc.RetryInfo`,
    `"retryDelay": "37s"`): Gemini's 429s carry no `Retry-After` header."""
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    error = data.get("error") if isinstance(data, dict) else None
    details = error.get("details") if isinstance(error, dict) else None
    for detail in details if isinstance(details, list) else ():
        delay = detail.get("retryDelay") if isinstance(detail, dict) else None
        if isinstance(delay, str) and (match := re.fullmatch(r"(\d+(?:\.\d+)?)s", delay)):
            return float(match.group(1))
    return None


def error_code(body: bytes) -> str:
    """The machine-readable kinds an error body names, lower-case and space-separated,
    for matching: OpenAI's `error.code` / `error.type`, Anthropic's `error.type`,
    Google's `error.status` and its details' `reason`."""
    try:
        data = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return ""
    error = data.get("error") if isinstance(data, dict) else None
    if not isinstance(error, dict):
        return ""
    codes = [error.get(key) for key in ("code", "type", "status")]
    details = error.get("details")
    for detail in details if isinstance(details, list) else ():
        codes.append(detail.get("reason") if isinstance(detail, dict) else None)
    return " ".join(str(c).lower() for c in codes if isinstance(c, str | int) and c != "")


# What went wrong, recognised from the status, the error's code and the server's words
# (each vendor says it differently). Checked in this order; the first that fits wins.
_WRONG_KEY = re.compile(
    r"invalid_api_key|api_key_invalid|authentication_error|unauthenticated|"
    r"api[ _-]?key (is )?(not valid|invalid|incorrect)|(invalid|incorrect) (x-)?api[ _-]?key|"
    r"invalid authentication|invalid token",
    re.IGNORECASE,
)
_QUOTA = re.compile(
    r"insufficient_quota|quota|credit balance|insufficient (balance|credits?|funds)|"
    r"out of credits?|payment required",
    re.IGNORECASE,
)
_CONTEXT = re.compile(
    r"context_length_exceeded|maximum context length|context (length|window|size)|"
    r"prompt is too long|input is too long|reduce the length|maximum prompt length|"
    r"exceeds? the maximum number of tokens|input token count .{0,40}exceeds|"
    r"context.{0,20}overflow|too many input tokens",
    re.IGNORECASE,
)
_MODEL = re.compile(
    r"model_not_found|model.{0,80}(not found|does not exist|not exist|is not supported|"
    r"is not available|unknown)|(unknown|invalid|no such) model|not a valid model",
    re.IGNORECASE,
)

_KEY_WORDS = QT_TR_NOOP("The server refused the API key")
_QUOTA_WORDS = QT_TR_NOOP(
    "The account has run out of quota or credit; check the plan and billing with the provider"
)
_CONTEXT_WORDS = QT_TR_NOOP(
    "The conversation is too long for this model's context window; "
    "start a new chat or use a model with a larger context"
)
_MODEL_WORDS = QT_TR_NOOP(
    "The server does not know this model; check its name, or fetch the model list in Settings"
)


def _diagnosis(status: int, code: str, detail: str) -> str | None:
    """A sentence for the problems people can fix themselves, or None."""
    text = f"{code} {detail}"
    if status == HTTPStatus.UNAUTHORIZED or (
        status in (HTTPStatus.BAD_REQUEST, HTTPStatus.FORBIDDEN) and _WRONG_KEY.search(text)
    ):
        return _KEY_WORDS
    # A rate limit is not a spent quota, even when its words mention the plan.
    spent = _QUOTA.search(text) and "rate_limit" not in code
    if status == HTTPStatus.PAYMENT_REQUIRED or (
        status in (HTTPStatus.BAD_REQUEST, HTTPStatus.FORBIDDEN, HTTPStatus.TOO_MANY_REQUESTS)
        and spent
    ):
        return _QUOTA_WORDS
    if status in (400, 413, 422) and _CONTEXT.search(text):
        return _CONTEXT_WORDS
    if status in (400, 404, 422) and _MODEL.search(text):
        return _MODEL_WORDS
    if status == HTTPStatus.NOT_FOUND and "not_found" in text and "model" in text.lower():
        return _MODEL_WORDS  # Anthropic: {"type": "not_found_error", "message": "model: x"}
    return None


def retryable_status(status: int) -> bool:
    """Whether a request that failed with `status` may succeed if tried again: a
    timeout, a conflict, a rate limit or the server's own failure."""
    return (
        status in (HTTPStatus.REQUEST_TIMEOUT, HTTPStatus.CONFLICT, HTTPStatus.TOO_MANY_REQUESTS)
        or status >= HTTPStatus.INTERNAL_SERVER_ERROR
    )


def status_error(
    status: int,
    detail: str,
    *,
    retry_after: float | None = None,
    has_key: bool = True,
    code: str = "",
) -> ProviderHTTPError:
    """The error for an HTTP status, worded for the person, the server's `detail` last.

    `code` is what `error_code` found in the body. A wrong key, an unknown model, a
    conversation too long for the model and a spent quota are named as such: those
    the person can fix. A spent quota is not worth retrying unless the server said
    when to come back (Google words per-minute limits as quota, with a delay).
    """
    diagnosis = _diagnosis(status, code, detail)
    if status == HTTPStatus.UNAUTHORIZED and not has_key:
        words = QT_TR_NOOP("The server requires an API key")
    elif diagnosis is not None:
        words = diagnosis
    elif status in _STATUS_WORDS:
        words = _STATUS_WORDS[status]
    elif status >= HTTPStatus.INTERNAL_SERVER_ERROR:
        words = QT_TR_NOOP("The server had an internal error")
    else:
        words = QT_TR_NOOP("The request failed")
    if detail:
        message = tr("{words} ({status}): {detail}").format(
            words=tr(words), status=status, detail=detail
        )
    else:
        message = tr("{words} ({status})").format(words=tr(words), status=status)
    retryable = retryable_status(status)
    if diagnosis is _QUOTA_WORDS and ("insufficient_quota" in code or retry_after is None):
        retryable = False
    return ProviderHTTPError(
        message, status_code=status, retryable=retryable, retry_after=retry_after, detail=detail
    )


def display_url(url: str) -> str:
    """The URL without user:password or query, which may carry credentials."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return tr("(invalid URL)")
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
