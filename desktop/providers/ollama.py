"""Ollama over httpx: `/api/chat` (NDJSON stream), `/api/tags` and `/api/show`.

Translation lives in `ollama_wire`; this module owns the network calls. Ollama usually
runs on this computer with no key; a key, when set, goes as a bearer token (for Ollama's
cloud or a server behind an authenticating proxy).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from typing import Any

import httpx

from desktop.core.capabilities import ReportedCapabilities
from desktop.core.errors import ProviderError
from desktop.core.events import StreamEvent
from desktop.core.i18n import QT_TR_NOOP
from desktop.core.limits import CONNECT_TIMEOUT_S, STALL_TIMEOUT_S
from desktop.providers.base import ChatRequest, Completion, ProviderHTTPError, merge_extra_body
from desktop.providers.ollama_wire import (
    StreamTranslator,
    api_root,
    build_body,
    parse_completion,
    parse_show,
    parse_tags,
)
from desktop.providers.transport import HttpTransport

logger = logging.getLogger(__name__)

_URL_HINT = QT_TR_NOOP("check the base URL (Ollama's is usually http://127.0.0.1:11434)")
_NO_THINKING = "does not support thinking"
_SHOW_CONCURRENCY = 4  # a local server reads each model's file header: a few at a time


class OllamaProvider:
    """`ChatProvider` for an Ollama server at `base_url`."""

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
        self._root = api_root(base_url)
        self._api_key = (api_key or "").strip() or None

    @property
    def base_url(self) -> str:
        return self._root

    def stream(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        reader = StreamTranslator(self._http.redact)
        return self._http.stream(
            lambda: self._post(request, stream=True),
            reader,
            framing="ndjson",
            whole_answer=reader.whole,
            hint=_URL_HINT,
        )

    async def complete(self, request: ChatRequest) -> Completion:
        response = await self._post(request, stream=False)
        return parse_completion(await self._http.read_json(response), self._http.redact)

    async def list_models(self) -> list[str]:
        response = await self._http.open("GET", f"{self._root}/api/tags", headers=self._headers())
        return parse_tags(await self._http.read_json(response))

    async def describe_models(self, models: Sequence[str]) -> dict[str, ReportedCapabilities]:
        """`/api/show` for each model, a few at a time; a model the server cannot show
        is left out, and only when none could be shown is the first failure raised."""
        gate = asyncio.Semaphore(_SHOW_CONCURRENCY)
        failures: list[ProviderError] = []

        async def show(model: str) -> tuple[str, ReportedCapabilities] | None:
            async with gate:
                try:
                    return model, await self._show(model)
                except ProviderError as error:
                    logger.info("No details for %s: %s", model, error)
                    failures.append(error)
                    return None

        shown = await asyncio.gather(*(show(model) for model in dict.fromkeys(models)))
        reports = {model: report for model, report in filter(None, shown)}
        if failures and not reports:
            raise failures[0]
        return {model: report for model, report in reports.items() if not report.is_empty}

    async def _show(self, model: str) -> ReportedCapabilities:
        url = f"{self._root}/api/show"
        response = await self._http.open(
            "POST", url, headers=self._headers(), body={"model": model}
        )
        return parse_show(await self._http.read_json(response))

    # --- HTTP plumbing ------------------------------------------------------------

    def _headers(self, accept: str = "application/json") -> dict[str, str]:
        headers = {"Accept": accept}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    async def _post(self, request: ChatRequest, *, stream: bool) -> httpx.Response:
        body: dict[str, Any] = merge_extra_body(
            build_body(request, stream=stream), request.extra_body
        )
        accept = "application/x-ndjson" if stream else "application/json"
        headers = {**self._headers(accept), **request.extra_headers}
        url = f"{self._root}/api/chat"
        try:
            return await self._http.open("POST", url, headers=headers, body=body)
        except ProviderHTTPError as error:
            # A reasoning effort chosen for every model reaches models that cannot think:
            # Ollama refuses `think: true` for them, so ask again without it.
            if error.status_code != 400 or _NO_THINKING not in str(error):
                raise
            if body.get("think") is not True:
                raise
            logger.info("%s cannot think; asking again without `think`", request.model)
            body.pop("think")
            return await self._http.open("POST", url, headers=headers, body=body)
