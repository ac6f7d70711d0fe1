"""OpenAI Chat Completions over httpx: OpenAI and every compatible server.

DeepSeek, OpenRouter, Groq, LM Studio, vLLM and llama.cpp all speak this protocol with
small variations (where reasoning text lives, whether usage arrives), which are absorbed
here so that nothing outside `providers/` ever sees vendor JSON.

Translation lives in `openai_wire` and error wording in `http_errors`; this module owns
the network calls and turns httpx failures into `ProviderError`s a person can read.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from typing import Any

import httpx

from desktop.core.errors import ProviderError, StreamBrokenError
from desktop.core.events import StreamEvent
from desktop.core.limits import CONNECT_TIMEOUT_S, STALL_TIMEOUT_S
from desktop.providers.base import ChatRequest, Completion
from desktop.providers.http_errors import (
    display_url,
    error_detail,
    network_reason,
    parse_retry_after,
    status_error,
    text_or_empty,
    trim,
)
from desktop.providers.openai_wire import (
    StreamTranslator,
    build_body,
    completion_events,
    parse_completion,
)
from desktop.providers.sse import ServerSentEvent, SSEDecoder

logger = logging.getLogger(__name__)

ERROR_BODY_MAX_BYTES = 64 * 1024  # never read a huge error page into memory
BROKEN = "The connection closed before the answer was complete"


class _ConnectionLost(StreamBrokenError):
    """The network failed mid-stream (as opposed to the server sending bad data)."""


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
        ids = (text_or_empty(item.get("id")) for item in items if isinstance(item, dict))
        return sorted({model_id for model_id in ids if model_id})

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
                f"Could not connect to {shown}: {network_reason(exc)}", retryable=True
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
                f"The request to {shown} failed: {network_reason(exc)}", retryable=True
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
            preview = self._redact(trim(body.decode("utf-8", errors="replace"), 120))
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
