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

from collections.abc import AsyncIterator, Sequence
from typing import Any

import httpx

from desktop.core.capabilities import ReportedCapabilities
from desktop.core.events import StreamEvent
from desktop.core.i18n import QT_TR_NOOP
from desktop.core.limits import CONNECT_TIMEOUT_S, STALL_TIMEOUT_S
from desktop.providers.base import ChatRequest, Completion, merge_extra_body
from desktop.providers.openai_models import Dialect, dialect_for
from desktop.providers.openai_wire import (
    StreamTranslator,
    build_body,
    completion_events,
    parse_completion,
    parse_model_list,
    parse_model_reports,
)
from desktop.providers.transport import HttpTransport

_URL_HINT = QT_TR_NOOP("check the base URL (it usually ends in /v1)")


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
        # What the last model list said about each model, for `describe_models`.
        self._reports: dict[str, ReportedCapabilities] | None = None

    @property
    def base_url(self) -> str:
        return self._base_url

    def stream(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        reader = StreamTranslator(self._redact)
        return self._http.stream(
            lambda: self._post(request, stream=True),
            reader,
            framing="sse",
            whole_answer=lambda payload: completion_events(payload, self._redact),
            hint=_URL_HINT,
        )

    async def complete(self, request: ChatRequest) -> Completion:
        response = await self._post(request, stream=False)
        return parse_completion(await self._http.read_json(response), self._redact)

    async def list_models(self) -> list[str]:
        response = await self._http.open(
            "GET", self._base_url + "/models", headers=self._headers("application/json")
        )
        payload = await self._http.read_json(response)
        models = parse_model_list(payload)
        self._reports = parse_model_reports(payload)
        return models

    async def describe_models(self, models: Sequence[str]) -> dict[str, ReportedCapabilities]:
        """From the model list, read again only if this provider has not read it yet,
        and never for OpenAI itself, whose list states nothing but the ids."""
        if self._reports is None:
            if self._dialect is Dialect.OPENAI:
                return {}
            await self.list_models()
        reports = self._reports or {}
        return {model: reports[model] for model in models if model in reports}

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
