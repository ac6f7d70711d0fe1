"""OpenAI Responses API over httpx (`POST {base}/responses`, models from `{base}/models`).

The protocol OpenAI's newest models are built for: reasoning summaries stream, and a
reasoning model's thinking survives tool calls as encrypted items sent back in `input`.
Translation lives in `openai_responses_wire`; this module owns the network calls.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

import httpx

from desktop.core.capabilities import ReportedCapabilities
from desktop.core.events import StreamEvent
from desktop.core.i18n import QT_TR_NOOP
from desktop.core.limits import CONNECT_TIMEOUT_S, STALL_TIMEOUT_S
from desktop.providers.base import ChatRequest, Completion, merge_extra_body
from desktop.providers.openai_responses_wire import (
    ResponsesStreamTranslator,
    build_body,
    parse_response,
    response_events,
)
from desktop.providers.openai_wire import parse_model_list
from desktop.providers.transport import HttpTransport

_URL_HINT = QT_TR_NOOP("check the base URL (for OpenAI it is https://api.openai.com/v1)")


class OpenAIResponsesProvider:
    """`ChatProvider` for `/responses` and `/models` under `base_url`."""

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

    @property
    def base_url(self) -> str:
        return self._base_url

    def stream(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        reader = ResponsesStreamTranslator(self._http.redact)
        return self._http.stream(
            lambda: self._post(request, stream=True),
            reader,
            framing="sse",
            whole_answer=lambda payload: response_events(payload, self._http.redact),
            hint=_URL_HINT,
        )

    async def complete(self, request: ChatRequest) -> Completion:
        response = await self._post(request, stream=False)
        return parse_response(await self._http.read_json(response), self._http.redact)

    async def list_models(self) -> list[str]:
        response = await self._http.open(
            "GET", self._base_url + "/models", headers=self._headers("application/json")
        )
        return parse_model_list(await self._http.read_json(response))

    async def describe_models(self, models: Sequence[str]) -> dict[str, ReportedCapabilities]:
        """OpenAI's model list states nothing but the ids: the table speaks for them."""
        return {}

    def _headers(self, accept: str) -> dict[str, str]:
        headers = {"Accept": accept}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    async def _post(self, request: ChatRequest, *, stream: bool) -> httpx.Response:
        body: dict[str, Any] = merge_extra_body(
            build_body(request, stream=stream), request.extra_body
        )
        accept = "text/event-stream" if stream else "application/json"
        headers = {**self._headers(accept), **request.extra_headers}
        return await self._http.open(
            "POST", self._base_url + "/responses", headers=headers, body=body
        )
