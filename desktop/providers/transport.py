"""The HTTP path every adapter shares: timeouts, readable errors, capped error bodies, and
reading SSE or NDJSON streams off the wire.

Adapters differ in URLs, headers and JSON; they all fail the same ways (refused, timed
out, an HTTP error with a JSON or HTML body, a stream cut short), so those are worded
once here. A network failure after the stream started is a `StreamBrokenError`, unless
the answer was already complete.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from http import HTTPStatus
from typing import Any, Literal, Protocol, TypeVar

import httpx

from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import StreamEvent
from desktop.core.i18n import QT_TR_NOOP, tr
from desktop.core.limits import CONNECT_TIMEOUT_S, STALL_TIMEOUT_S
from desktop.providers.http_errors import (
    BROKEN,
    body_retry_delay,
    display_url,
    error_code,
    error_detail,
    network_reason,
    parse_retry_after,
    status_error,
    trim,
)
from desktop.providers.ndjson import NDJSONDecoder
from desktop.providers.sse import SSEDecoder

logger = logging.getLogger(__name__)

Frame_contra = TypeVar("Frame_contra", contravariant=True)

ERROR_BODY_MAX_BYTES = 64 * 1024  # never read a huge error page into memory
DECODE_IN_THREAD = 64 * 1024  # a JSON answer larger than this is parsed off the event loop
# After a stall: where the person can give a slow server (a large local model loading,
# a reasoning model thinking) more time.
STALL_HINT = QT_TR_NOOP(
    "(a slow server can be given longer: Stall timeout in Settings → Providers)"
)


class StreamReader(Protocol[Frame_contra]):
    """A wire's pure translator from frames (SSE events, NDJSON lines) to stream events."""

    @property
    def ended(self) -> bool:
        """The wire said nothing more will come: stop reading."""
        ...

    @property
    def complete(self) -> bool:
        """The whole answer arrived: a connection lost after this loses nothing."""
        ...

    def feed(self, frame: Frame_contra) -> list[StreamEvent]: ...

    def finish(self) -> list[StreamEvent]: ...


def retry_after_seconds(headers: httpx.Headers) -> float | None:
    """`retry-after-ms` (OpenAI, Anthropic) is more precise than `Retry-After`."""
    precise = headers.get("retry-after-ms")
    if precise:
        try:
            return max(0.0, float(precise) / 1000)
        except ValueError:
            pass
    return parse_retry_after(headers.get("retry-after"))


class HttpTransport:
    """Requests to one provider endpoint over the application's shared httpx client.

    The client is shared (one connection pool and proxy setting for the app), so
    timeouts are passed per request: `connect_timeout` to reach the server and
    `stall_timeout` as httpx's read timeout, i.e. the longest silence between two reads.
    `secret` (the API key) is scrubbed from every error text.
    """

    def __init__(
        self,
        client: httpx.AsyncClient,
        *,
        secret: str | None = None,
        connect_timeout: float = CONNECT_TIMEOUT_S,
        stall_timeout: float = STALL_TIMEOUT_S,
    ) -> None:
        self._client = client
        self._secret = (secret or "").strip() or None
        self.connect_timeout = connect_timeout
        self.stall_timeout = stall_timeout
        self._timeout = httpx.Timeout(
            connect=connect_timeout, read=stall_timeout, write=stall_timeout, pool=connect_timeout
        )

    @property
    def has_secret(self) -> bool:
        return self._secret is not None

    def redact(self, text: str) -> str:
        return text.replace(self._secret, "[redacted]") if self._secret else text

    async def open(
        self,
        method: str,
        url: str,
        *,
        headers: Mapping[str, str],
        body: dict[str, Any] | None = None,
        params: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        """Send the request and return the streamed response once its status is OK.

        Raises `ProviderError` (retryable for network failures) or `ProviderHTTPError`.
        """
        shown = display_url(url)
        try:
            request = self._client.build_request(
                method, url, json=body, headers=dict(headers), params=params, timeout=self._timeout
            )
            response = await self._client.send(request, stream=True)
        except httpx.ConnectTimeout as exc:
            raise ProviderError(
                tr("Could not connect to {server}: no answer within {seconds} s").format(
                    server=shown, seconds=f"{self.connect_timeout:g}"
                ),
                retryable=True,
            ) from exc
        except httpx.ConnectError as exc:
            raise ProviderError(
                tr("Could not connect to {server}: {reason}").format(
                    server=shown, reason=network_reason(exc)
                ),
                retryable=True,
            ) from exc
        except httpx.TimeoutException as exc:
            raise ProviderError(
                tr("{server} accepted the request but sent nothing for {seconds} s {hint}").format(
                    server=shown, seconds=f"{self.stall_timeout:g}", hint=tr(STALL_HINT)
                ),
                retryable=True,
            ) from exc
        except (httpx.UnsupportedProtocol, httpx.InvalidURL) as exc:
            raise ProviderError(
                tr("Not a usable server address: {server} ({reason})").format(
                    server=shown, reason=exc
                )
            ) from exc
        except httpx.HTTPError as exc:
            raise ProviderError(
                tr("The request to {server} failed: {reason}").format(
                    server=shown, reason=network_reason(exc)
                ),
                retryable=True,
            ) from exc
        if response.status_code < HTTPStatus.BAD_REQUEST:
            return response
        try:
            body_bytes = await self._read_capped(response)
        finally:
            await response.aclose()
        detail = self.redact(error_detail(body_bytes, response.headers.get("content-type", "")))
        retry_after = retry_after_seconds(response.headers)
        if retry_after is None:
            retry_after = body_retry_delay(body_bytes)
        error = status_error(
            response.status_code,
            detail,
            retry_after=retry_after,
            has_key=self._secret is not None,
            code=error_code(body_bytes),
        )
        logger.warning("%s %s failed: %s", method, shown, error)
        raise error

    def refuse_web_page(self, response: httpx.Response, hint: str) -> None:
        """A login page or a proxy's error page instead of an API answer."""
        if response.headers.get("content-type", "").lower().startswith("text/html"):
            raise ProviderError(
                tr("{server} answered with a web page, not an API answer; {hint}").format(
                    server=display_url(str(response.url)), hint=tr(hint)
                )
            )

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

    async def read_json(self, response: httpx.Response) -> Any:
        """The whole body as JSON, and the response closed; nothing was shown yet, so
        failures are ProviderErrors."""
        try:
            body = await response.aread()
        except httpx.TimeoutException as exc:
            raise ProviderError(self._stalled(), retryable=True) from exc
        except httpx.HTTPError as exc:
            raise ProviderError(tr(BROKEN), retryable=True) from exc
        finally:
            await response.aclose()
        try:
            if len(body) > DECODE_IN_THREAD:  # a megabyte of vectors takes 10 ms to parse
                return await asyncio.to_thread(json.loads, body)
            return json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError):
            preview = self.redact(trim(body.decode("utf-8", errors="replace"), 120))
            raise ProviderError(
                tr("The server's answer was not valid JSON: {preview}").format(preview=preview)
            ) from None

    def _lost_reason(self, error: httpx.HTTPError) -> str:
        """Why a stream broke off, from the network error that broke it."""
        if isinstance(error, httpx.TimeoutException):
            return self._stalled()
        return tr(BROKEN)

    def _stalled(self) -> str:
        return tr("The server sent nothing for {seconds} s {hint}").format(
            seconds=f"{self.stall_timeout:g}", hint=tr(STALL_HINT)
        )

    async def stream(
        self,
        send: Callable[[], Awaitable[httpx.Response]],
        reader: StreamReader[Any],
        *,
        framing: Literal["sse", "ndjson"],
        whole_answer: Callable[[Any], list[StreamEvent]],
        hint: str,
    ) -> AsyncGenerator[StreamEvent, None]:
        """`send()` the request, then yield the events of its streamed answer (an
        adapter's `stream`), and close the response.

        A server may answer a streamed request with one JSON document (`whole_answer`
        reads it) or with a web page (refused with `hint`). A stream that stops before
        the answer is complete raises StreamBrokenError: what arrived stays with the
        caller, and it is never retried behind the person's back.

        The socket is read and the wire's decoder (SSE events or NDJSON lines) fed here,
        not in generators of their own: every event of an answer passes each generator
        between the socket and the chat turn, and each one costs a few per cent of the
        answer's time.
        """
        response = await send()
        try:
            if response.headers.get("content-type", "").lower().startswith("application/json"):
                for event in whole_answer(await self.read_json(response)):
                    yield event
                return
            self.refuse_web_page(response, hint)
            decoder = SSEDecoder() if framing == "sse" else NDJSONDecoder()
            try:
                async for chunk in response.aiter_bytes():
                    for frame in decoder.feed(chunk):
                        for event in reader.feed(frame):
                            yield event
                        if reader.ended:
                            break
                    if reader.ended:
                        break
                else:  # the wire ended: what the decoder still holds
                    for frame in decoder.close():
                        for event in reader.feed(frame):
                            yield event
                        if reader.ended:
                            break
            except httpx.HTTPError as exc:  # RemoteProtocolError, ReadError, a stall...
                reason = self._lost_reason(exc)
                if not reader.complete:
                    raise StreamBrokenError(reason) from exc
                logger.info("The stream ended early after a complete answer: %s", reason)
            if not reader.complete:
                raise StreamBrokenError(tr(BROKEN))
            for event in reader.finish():
                yield event
        finally:
            await response.aclose()
