"""Google Gemini over httpx: `streamGenerateContent?alt=sse`, `generateContent`, `models`.

The key travels in the `x-goog-api-key` header, never in the URL, so it cannot end up in
a proxy log or an error message. Translation lives in `gemini_wire`; this module owns the
network calls and Gemini's ways of failing (a wrong key is a 400, not a 401).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from typing import Any

import httpx

from desktop.core.capabilities import ReportedCapabilities
from desktop.core.events import StreamEvent
from desktop.core.i18n import QT_TR_NOOP, tr
from desktop.core.limits import CONNECT_TIMEOUT_S, STALL_TIMEOUT_S
from desktop.providers.base import ChatRequest, Completion, ProviderHTTPError, merge_extra_body
from desktop.providers.gemini_wire import (
    StreamTranslator,
    api_root,
    build_body,
    model_path,
    parse_completion,
    parse_model_reports,
    parse_models_page,
)
from desktop.providers.transport import HttpTransport

_URL_HINT = QT_TR_NOOP("check the base URL (https://generativelanguage.googleapis.com)")
_MAX_MODEL_PAGES = 20  # the real list is one page; a looping token must not spin forever
_WRONG_KEY_MARKERS = ("API key not valid", "API_KEY_INVALID", "API key expired")


class GeminiProvider:
    """`ChatProvider` for the Gemini API under `base_url` (with or without `/v1beta`)."""

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
        # What the last model list said about each model, for `describe_models`.
        self._reports: dict[str, ReportedCapabilities] | None = None

    @property
    def base_url(self) -> str:
        return self._root

    def stream(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        reader = StreamTranslator(self._http.redact)
        return self._http.stream(
            lambda: self._post(request, stream=True),
            reader,
            framing="sse",
            whole_answer=reader.whole,
            hint=_URL_HINT,
        )

    async def complete(self, request: ChatRequest) -> Completion:
        response = await self._post(request, stream=False)
        return parse_completion(await self._http.read_json(response), self._http.redact)

    async def list_models(self) -> list[str]:
        ids: set[str] = set()
        reports: dict[str, ReportedCapabilities] = {}
        token: str | None = None
        for _ in range(_MAX_MODEL_PAGES):
            params = {"pageSize": "1000"} | ({"pageToken": token} if token else {})
            response = await self._open(
                "GET", f"{self._root}/models", headers=self._headers(), params=params
            )
            payload = await self._http.read_json(response)
            page, token = parse_models_page(payload)
            ids.update(page)
            reports.update(parse_model_reports(payload))
            if not token:
                break
        self._reports = reports
        return sorted(ids)

    async def describe_models(self, models: Sequence[str]) -> dict[str, ReportedCapabilities]:
        """From the model list (read again only if this provider has not read it yet)."""
        if self._reports is None:
            await self.list_models()
        reports = self._reports or {}
        return {model: reports[model] for model in models if model in reports}

    # --- HTTP plumbing ------------------------------------------------------------

    def _headers(self, accept: str = "application/json") -> dict[str, str]:
        headers = {"Accept": accept}
        if self._api_key:
            headers["x-goog-api-key"] = self._api_key
        return headers

    async def _post(self, request: ChatRequest, *, stream: bool) -> httpx.Response:
        body: dict[str, Any] = merge_extra_body(build_body(request), request.extra_body)
        method = "streamGenerateContent" if stream else "generateContent"
        url = f"{self._root}/{model_path(request.model)}:{method}"
        accept = "text/event-stream" if stream else "application/json"
        headers = {**self._headers(accept), **request.extra_headers}
        params = {"alt": "sse"} if stream else None
        return await self._open("POST", url, headers=headers, body=body, params=params)

    async def _open(
        self,
        method: str,
        url: str,
        *,
        headers: dict[str, str],
        body: dict[str, Any] | None = None,
        params: dict[str, str] | None = None,
    ) -> httpx.Response:
        try:
            return await self._http.open(method, url, headers=headers, body=body, params=params)
        except ProviderHTTPError as error:
            reworded = _reworded(error, has_key=self._api_key is not None)
            if reworded is error:
                raise
            raise reworded from error


def _reworded(error: ProviderHTTPError, *, has_key: bool) -> ProviderHTTPError:
    """Gemini answers a wrong key with 400 INVALID_ARGUMENT and a missing one with 403:
    say what the person has to fix, keeping the server's words."""
    message = str(error)
    status = error.status_code or 0
    detail = error.detail or message.partition(f"({status}): ")[2]
    if status == 400 and any(marker in message for marker in _WRONG_KEY_MARKERS):
        words = tr("The server refused the API key")
    elif status == 403 and not has_key:
        words = tr("The server requires an API key")
    else:
        return error
    if detail:
        text = tr("{words} ({status}): {detail}").format(words=words, status=status, detail=detail)
    else:
        text = tr("{words} ({status})").format(words=words, status=status)
    return ProviderHTTPError(
        text,
        detail=detail,
        status_code=status,
        retryable=False,
        retry_after=error.retry_after,
    )
