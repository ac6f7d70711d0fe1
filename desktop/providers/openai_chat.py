"""OpenAI Chat Completions over httpx: OpenAI and every compatible server.

DeepSeek, OpenRouter, Groq, LM Studio, vLLM and llama.cpp all speak this protocol with
small variations (where reasoning text lives, whether usage arrives), which are absorbed
here so that nothing outside `providers/` ever sees vendor JSON.

The module has three layers: pure translation (`build_body`, `StreamTranslator`,
`parse_completion`), HTTP error wording (`status_error`), and the provider class that
owns the network calls and turns httpx failures into `ProviderError`s a person can read.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import aclosing
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import Finished, ReasoningDelta, StreamEvent, TextDelta, UsageReport
from desktop.core.limits import CONNECT_TIMEOUT_S, STALL_TIMEOUT_S
from desktop.core.models import Role, Usage, utc_now
from desktop.providers.base import ChatRequest, Completion, ProviderHTTPError
from desktop.providers.sse import ServerSentEvent, SSEDecoder

logger = logging.getLogger(__name__)

DETAIL_MAX_CHARS = 500  # server error text shown to the person
ERROR_BODY_MAX_BYTES = 64 * 1024  # never read a huge error page into memory
BROKEN = "The connection closed before the answer was complete"

Redactor = Callable[[str], str]


class _ConnectionLost(StreamBrokenError):
    """The network failed mid-stream (as opposed to the server sending bad data)."""


# --- request ------------------------------------------------------------------------


def build_body(request: ChatRequest, *, stream: bool) -> dict[str, Any]:
    """The JSON body; optional parameters are sent only when set, so server defaults hold."""
    messages: list[dict[str, Any]] = []
    for message in request.messages:
        item: dict[str, Any] = {"role": message.role.value, "content": message.text}
        if message.reasoning and message.role is Role.ASSISTANT:
            item["reasoning_content"] = message.reasoning  # DeepSeek needs it on tool turns
        messages.append(item)
    body: dict[str, Any] = {"model": request.model, "messages": messages, "stream": stream}
    if stream:
        body["stream_options"] = {"include_usage": True}
    if request.temperature is not None:
        body["temperature"] = request.temperature
    if request.top_p is not None:
        body["top_p"] = request.top_p
    if request.max_output_tokens is not None:
        body["max_tokens"] = request.max_output_tokens
    return body


# --- response translation (pure) ---------------------------------------------------


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _reasoning(obj: dict[str, Any]) -> str:
    """DeepSeek/vLLM say `reasoning_content`, OpenRouter says `reasoning`."""
    return _text(obj.get("reasoning_content")) or _text(obj.get("reasoning"))


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def parse_usage(raw: Any) -> Usage | None:
    if not isinstance(raw, dict):
        return None
    details = raw.get("completion_tokens_details")
    return Usage(
        input_tokens=_count(raw.get("prompt_tokens")),
        output_tokens=_count(raw.get("completion_tokens")),
        reasoning_tokens=_count(details.get("reasoning_tokens"))
        if isinstance(details, dict)
        else 0,
    )


def _payload_usage(payload: dict[str, Any]) -> Usage | None:
    """Usage is top level; Groq nests it under `x_groq`."""
    groq = payload.get("x_groq")
    nested = groq.get("usage") if isinstance(groq, dict) else None
    return parse_usage(payload.get("usage")) or parse_usage(nested)


def error_payload_message(error: Any) -> str:
    """The text of an OpenAI-style `error` value (an object, or sometimes a bare string)."""
    if isinstance(error, dict):
        message = _text(error.get("message")) or _text(error.get("code"))
        return message or json.dumps(error)[:DETAIL_MAX_CHARS]
    return _text(error) or "unknown error"


def _in_stream_error(error: Any, redact: Redactor) -> ProviderError:
    code = error.get("code") if isinstance(error, dict) else None
    status = code if isinstance(code, int) and not isinstance(code, bool) else None
    retryable = status is not None and (status in (408, 409, 429) or status >= 500)
    message = redact(_trim(error_payload_message(error)))
    return ProviderError(
        f"The server reported an error: {message}", status_code=status, retryable=retryable
    )


class StreamTranslator:
    """Folds SSE events into stream events. Pure, so every wire quirk is unit-testable.

    Usage is held back and reported once, just before `Finished`, because some servers
    repeat a running total in every chunk.
    """

    def __init__(self, redact: Redactor = lambda text: text) -> None:
        self.done = False  # `[DONE]` arrived
        self.finish_reason: str | None = None
        self.usage: Usage | None = None
        self._redact = redact

    def feed(self, sse: ServerSentEvent) -> list[StreamEvent]:
        data = sse.data.strip()
        if data == "[DONE]":
            self.done = True
            return []
        if not data:
            return []
        try:
            payload = json.loads(data)
        except json.JSONDecodeError:
            preview = self._redact(_trim(data, 120))
            raise StreamBrokenError(
                f"The server sent a malformed stream chunk (not JSON): {preview}"
            ) from None
        if not isinstance(payload, dict):
            raise StreamBrokenError("The server sent a malformed stream chunk (not an object)")
        if payload.get("error") or sse.event == "error":
            raise _in_stream_error(payload.get("error") or payload, self._redact)
        self.usage = _payload_usage(payload) or self.usage
        choices = payload.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            return []  # e.g. the usage-only final chunk
        choice = choices[0]
        events: list[StreamEvent] = []
        delta = choice.get("delta")
        if isinstance(delta, dict):
            if reasoning := _reasoning(delta):
                events.append(ReasoningDelta(reasoning))
            if content := _text(delta.get("content")):
                events.append(TextDelta(content))
        if reason := _text(choice.get("finish_reason")):
            self.finish_reason = reason
        return events

    def finish(self) -> list[StreamEvent]:
        """The closing events: usage (if any), then `Finished` exactly once."""
        events: list[StreamEvent] = [UsageReport(self.usage)] if self.usage else []
        events.append(Finished(self.finish_reason))
        return events


def parse_completion(payload: Any, redact: Redactor = lambda text: text) -> Completion:
    if not isinstance(payload, dict):
        raise ProviderError("The server's answer was not a JSON object")
    if payload.get("error"):
        raise _in_stream_error(payload["error"], redact)
    choices = payload.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ProviderError("The server's answer contained no choices")
    choice = choices[0]
    raw_message = choice.get("message")
    message: dict[str, Any] = raw_message if isinstance(raw_message, dict) else {}
    return Completion(
        text=_text(message.get("content")),
        reasoning=_reasoning(message),
        usage=_payload_usage(payload),
        finish_reason=_text(choice.get("finish_reason")) or None,
    )


def completion_events(completion: Completion) -> list[StreamEvent]:
    """A whole answer as stream events, for servers that ignore `stream: true`."""
    events: list[StreamEvent] = []
    if completion.reasoning:
        events.append(ReasoningDelta(completion.reasoning))
    if completion.text:
        events.append(TextDelta(completion.text))
    if completion.usage:
        events.append(UsageReport(completion.usage))
    events.append(Finished(completion.finish_reason))
    return events


# --- HTTP errors ----------------------------------------------------------------------

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


def _trim(text: str, limit: int = DETAIL_MAX_CHARS) -> str:
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
        return _trim(text)
    if isinstance(data, dict):
        if data.get("error"):
            return _trim(error_payload_message(data["error"]))
        for key in ("message", "detail"):
            value = data.get(key)
            if isinstance(value, str) and value.strip():
                return _trim(value)
            if value:
                return _trim(json.dumps(value, ensure_ascii=False))  # e.g. FastAPI lists
    return _trim(text)


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


def _reason(exc: BaseException) -> str:
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


# --- the provider -------------------------------------------------------------------


class OpenAIChatProvider:
    """`ChatProvider` for `/chat/completions` and `/models` under `base_url`.

    The httpx client is shared (one connection pool and proxy setting for the app), so
    timeouts are passed per request: `connect_timeout` to reach the server and
    `stall_timeout` as httpx's read timeout, i.e. the longest silence between two reads.
    """

    def __init__(
        self,
        client: httpx.AsyncClient,
        base_url: str,
        api_key: str | None = None,
        *,
        connect_timeout: float = CONNECT_TIMEOUT_S,
        stall_timeout: float = STALL_TIMEOUT_S,
    ) -> None:
        self._client = client
        self._base_url = base_url.rstrip("/")
        self._api_key = (api_key or "").strip() or None
        self._stall_timeout = stall_timeout
        self._connect_timeout = connect_timeout
        self._timeout = httpx.Timeout(
            connect=connect_timeout, read=stall_timeout, write=stall_timeout, pool=connect_timeout
        )

    @property
    def base_url(self) -> str:
        return self._base_url

    async def stream(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        response = await self._open("POST", "/chat/completions", build_body(request, stream=True))
        try:
            content_type = response.headers.get("content-type", "").lower()
            if content_type.startswith("application/json"):
                completion = parse_completion(await self._read_json(response), self._redact)
                for event in completion_events(completion):
                    yield event
                return
            if content_type.startswith("text/html"):
                raise ProviderError(
                    f"{display_url(str(response.url))} answered with a web page, not a chat "
                    "stream; check the base URL (it usually ends in /v1)"
                )
            translator = StreamTranslator(self._redact)
            try:
                async with aclosing(self._read_sse(response)) as sse_events:
                    async for sse in sse_events:
                        for event in translator.feed(sse):
                            yield event
                        if translator.done:
                            break
            except _ConnectionLost as exc:
                if translator.finish_reason is None:
                    raise StreamBrokenError(str(exc)) from exc.__cause__
                # The answer was complete; only the usage chunk or `[DONE]` went missing.
                logger.info("Stream ended early after finish_reason: %s", exc)
            if not translator.done and translator.finish_reason is None:
                raise StreamBrokenError(BROKEN)
            for event in translator.finish():
                yield event
        finally:
            await response.aclose()

    async def complete(self, request: ChatRequest) -> Completion:
        response = await self._open("POST", "/chat/completions", build_body(request, stream=False))
        try:
            return parse_completion(await self._read_json(response), self._redact)
        finally:
            await response.aclose()

    async def list_models(self) -> list[str]:
        response = await self._open("GET", "/models")
        try:
            payload = await self._read_json(response)
        finally:
            await response.aclose()
        items = payload.get("data") if isinstance(payload, dict) else payload
        if not isinstance(items, list):
            raise ProviderError("The server's model list was not in the expected format")
        ids = {item["id"] for item in items if isinstance(item, dict) and _text(item.get("id"))}
        return sorted(ids)

    # --- HTTP plumbing ------------------------------------------------------------

    def _redact(self, text: str) -> str:
        return text.replace(self._api_key, "[redacted]") if self._api_key else text

    def _headers(self, accept: str) -> dict[str, str]:
        headers = {"Accept": accept}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    async def _open(
        self, method: str, path: str, body: dict[str, Any] | None = None
    ) -> httpx.Response:
        """Send the request and return the streamed response once its status is OK."""
        url = self._base_url + path
        shown = display_url(url)
        accept = "text/event-stream" if body and body.get("stream") else "application/json"
        try:
            request = self._client.build_request(
                method, url, json=body, headers=self._headers(accept), timeout=self._timeout
            )
            response = await self._client.send(request, stream=True)
        except httpx.ConnectTimeout as exc:
            raise ProviderError(
                f"Could not connect to {shown}: no answer within {self._connect_timeout:g} s",
                retryable=True,
            ) from exc
        except httpx.ConnectError as exc:
            raise ProviderError(
                f"Could not connect to {shown}: {_reason(exc)}", retryable=True
            ) from exc
        except httpx.TimeoutException as exc:
            raise ProviderError(
                f"{shown} accepted the request but sent nothing for {self._stall_timeout:g} s",
                retryable=True,
            ) from exc
        except (httpx.UnsupportedProtocol, httpx.InvalidURL) as exc:
            raise ProviderError(f"Not a usable server address: {shown} ({exc})") from exc
        except httpx.HTTPError as exc:
            raise ProviderError(
                f"The request to {shown} failed: {_reason(exc)}", retryable=True
            ) from exc
        if response.status_code < 400:
            return response
        try:
            body_bytes = await self._read_capped(response)
        finally:
            await response.aclose()
        detail = self._redact(error_detail(body_bytes, response.headers.get("content-type", "")))
        error = status_error(
            response.status_code,
            detail,
            retry_after=parse_retry_after(response.headers.get("retry-after")),
            has_key=self._api_key is not None,
        )
        logger.warning("%s %s failed: %s", method, shown, error)
        raise error

    async def _read_capped(self, response: httpx.Response) -> bytes:
        """At most ERROR_BODY_MAX_BYTES of an error body; a failure to read it is no news."""
        body = bytearray()
        try:
            async for chunk in response.aiter_bytes():
                body += chunk
                if len(body) >= ERROR_BODY_MAX_BYTES:
                    break
        except httpx.HTTPError:
            pass
        return bytes(body[:ERROR_BODY_MAX_BYTES])

    async def _read_json(self, response: httpx.Response) -> Any:
        """The whole body as JSON; nothing was shown yet, so failures are ProviderErrors."""
        try:
            body = await response.aread()
        except httpx.TimeoutException as exc:
            raise ProviderError(
                f"The server sent nothing for {self._stall_timeout:g} s", retryable=True
            ) from exc
        except httpx.HTTPError as exc:
            raise ProviderError(BROKEN, retryable=True) from exc
        try:
            return json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError):
            preview = self._redact(_trim(body.decode("utf-8", errors="replace"), 120))
            raise ProviderError(f"The server's answer was not valid JSON: {preview}") from None

    async def _read_sse(self, response: httpx.Response) -> AsyncGenerator[ServerSentEvent, None]:
        """SSE events off the wire; network failures become StreamBrokenError."""
        decoder = SSEDecoder()
        try:
            async for chunk in response.aiter_bytes():
                for event in decoder.feed(chunk):
                    yield event
        except httpx.TimeoutException as exc:
            raise _ConnectionLost(f"The server sent nothing for {self._stall_timeout:g} s") from exc
        except httpx.HTTPError as exc:  # RemoteProtocolError, ReadError, DecodingError...
            raise _ConnectionLost(BROKEN) from exc
        for event in decoder.close():
            yield event
