"""OpenAI Chat Completions over httpx: OpenAI and every compatible server.

DeepSeek, OpenRouter, Groq, LM Studio, vLLM and llama.cpp all speak this protocol with
small variations (where reasoning text lives, whether usage arrives, which parameters a
model refuses), which are absorbed here so that nothing outside `providers/` ever sees
vendor JSON. The server is recognised from the base URL (`openai_models.dialect_for`)
where that changes the request.

Translation lives in `openai_wire` and error wording in `http_errors`; this module owns
the network calls and turns httpx failures into `ProviderError`s a person can read.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import aclosing
from typing import Any

import httpx

from desktop.core.errors import StreamBrokenError
from desktop.core.events import StreamEvent
from desktop.core.limits import CONNECT_TIMEOUT_S, STALL_TIMEOUT_S
from desktop.providers.base import ChatRequest, Completion, merge_extra_body
from desktop.providers.openai_models import dialect_for
from desktop.providers.openai_wire import (
    StreamTranslator,
    build_body,
    completion_events,
    parse_completion,
    parse_model_list,
)
from desktop.providers.transport import BROKEN, ConnectionLost, HttpTransport

logger = logging.getLogger(__name__)

_URL_HINT = "check the base URL (it usually ends in /v1)"


class OpenAIChatProvider:
    """`ChatProvider` for `/chat/completions` and `/models` under `base_url`."""

    def __init__(
        self,
        client: httpx.AsyncClient,
        base_url: str,
        api_key: str | None = None,
        *,
        connect_timeout: float = CONNECT_TIMEOUT_S,
        stall_timeout: float = STALL_TIMEOUT_S,
    ) -> None:
        self._http = HttpTransport(
            client, secret=api_key, connect_timeout=connect_timeout, stall_timeout=stall_timeout
        )
        self._base_url = base_url.rstrip("/")
        self._api_key = (api_key or "").strip() or None
        self._dialect = dialect_for(self._base_url)

    @property
    def base_url(self) -> str:
        return self._base_url

    async def stream(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        response = await self._post(request, stream=True)
        try:
            content_type = response.headers.get("content-type", "").lower()
            if content_type.startswith("application/json"):
                payload = await self._http.read_json(response)
                for event in completion_events(payload, self._redact):
                    yield event
                return
            self._http.refuse_web_page(response, _URL_HINT)
            translator = StreamTranslator(self._redact)
            try:
                async with aclosing(self._http.sse_events(response)) as sse_events:
                    async for sse in sse_events:
                        for event in translator.feed(sse):
                            yield event
                        if translator.done:
                            break
            except ConnectionLost as exc:
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
        response = await self._post(request, stream=False)
        try:
            return parse_completion(await self._http.read_json(response), self._redact)
        finally:
            await response.aclose()

    async def list_models(self) -> list[str]:
        response = await self._http.open(
            "GET", self._base_url + "/models", headers=self._headers("application/json")
        )
        try:
            payload = await self._http.read_json(response)
        finally:
            await response.aclose()
        return parse_model_list(payload)

    # --- HTTP plumbing ------------------------------------------------------------

    def _redact(self, text: str) -> str:
        return self._http.redact(text)

    def _headers(self, accept: str) -> dict[str, str]:
        headers = {"Accept": accept}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    async def _post(self, request: ChatRequest, *, stream: bool) -> httpx.Response:
        body: dict[str, Any] = merge_extra_body(
            build_body(request, stream=stream, dialect=self._dialect), request.extra_body
        )
        accept = "text/event-stream" if stream else "application/json"
        headers = {**self._headers(accept), **request.extra_headers}
        return await self._http.open(
            "POST", self._base_url + "/chat/completions", headers=headers, body=body
        )
