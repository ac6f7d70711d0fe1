"""Anthropic Messages over httpx: Claude, and servers that speak the same protocol.

`base_url` is the API root *without* `/v1` (`https://api.anthropic.com`, the default
when it is empty), as in Anthropic's own SDKs: requests go to `{base_url}/v1/messages`
and `{base_url}/v1/models`. A base URL pasted with `/v1` (or the whole `/v1/messages`
address) is accepted and trimmed, so both spellings reach the same place; gateways that
mount the protocol under a path (`…/anthropic`) work as they are.

Translation lives in `anthropic_wire`; this module owns the network calls.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import httpx

from desktop.core.capabilities import ReportedCapabilities
from desktop.core.errors import ProviderError
from desktop.core.events import StreamEvent
from desktop.core.i18n import QT_TR_NOOP, tr
from desktop.core.limits import CONNECT_TIMEOUT_S, STALL_TIMEOUT_S
from desktop.providers.anthropic_wire import (
    API_VERSION,
    StreamTranslator,
    build_body,
    message_events,
    parse_completion,
)
from desktop.providers.base import ChatRequest, Completion, merge_extra_body
from desktop.providers.http_errors import text_or_empty
from desktop.providers.transport import HttpTransport

DEFAULT_BASE_URL = "https://api.anthropic.com"
MODEL_PAGE_SIZE = 1000  # the most /v1/models returns per page
MAX_MODEL_PAGES = 20  # a server that pages forever is cut off here
_URL_HINT = QT_TR_NOOP("check the base URL (for Anthropic it is https://api.anthropic.com)")


def api_root(base_url: str) -> str:
    """The address `/v1/...` hangs off: `base_url` without a trailing `/v1[/messages]`."""
    url = (base_url.strip() or DEFAULT_BASE_URL).rstrip("/")
    for suffix in ("/v1/messages", "/v1"):
        if url.lower().endswith(suffix):
            return url[: -len(suffix)]
    return url


def merge_headers(ours: Mapping[str, str], theirs: Mapping[str, str]) -> dict[str, str]:
    """The person's headers over ours; header names are case-insensitive, so an
    `Anthropic-Version` of theirs replaces our `anthropic-version` instead of doubling it."""
    overridden = {name.lower() for name in theirs}
    merged = {name: value for name, value in ours.items() if name.lower() not in overridden}
    merged.update(theirs)
    return merged


class AnthropicProvider:
    """`ChatProvider` for `/v1/messages` and `/v1/models` under `base_url`."""

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
        """The API root every request is made under (no `/v1`)."""
        return self._root

    def stream(self, request: ChatRequest) -> AsyncIterator[StreamEvent]:
        reader = StreamTranslator(self._http.redact)
        return self._http.stream(
            lambda: self._post(request, stream=True),
            reader,
            framing="sse",
            whole_answer=lambda payload: message_events(payload, self._http.redact),
            hint=_URL_HINT,
        )

    async def complete(self, request: ChatRequest) -> Completion:
        response = await self._post(request, stream=False)
        return parse_completion(await self._http.read_json(response), self._http.redact)

    async def list_models(self) -> list[str]:
        """Every page of `/v1/models` (`has_more` / `last_id`), ids sorted."""
        ids: set[str] = set()
        after: str | None = None
        for _ in range(MAX_MODEL_PAGES):
            params = {"limit": str(MODEL_PAGE_SIZE)}
            if after:
                params["after_id"] = after
            page = await self._get_json("/v1/models", params)
            items = page.get("data") if isinstance(page, dict) else None
            if not isinstance(items, list):
                raise ProviderError(tr("The server's model list was not in the expected format"))
            page_ids = [text_or_empty(i.get("id")) for i in items if isinstance(i, dict)]
            ids.update(model_id for model_id in page_ids if model_id)
            following = text_or_empty(page.get("last_id")) or (page_ids[-1] if page_ids else "")
            if page.get("has_more") is not True or not following or following == after:
                break
            after = following
        return sorted(ids)

    async def describe_models(self, models: Sequence[str]) -> dict[str, ReportedCapabilities]:
        """Anthropic's model list states nothing about capabilities: the table speaks."""
        return {}

    # --- HTTP plumbing ------------------------------------------------------------

    def _headers(self, accept: str) -> dict[str, str]:
        headers = {"Accept": accept, "anthropic-version": API_VERSION}
        if self._api_key:
            headers["x-api-key"] = self._api_key
        return headers

    async def _post(self, request: ChatRequest, *, stream: bool) -> httpx.Response:
        body: dict[str, Any] = merge_extra_body(
            build_body(request, stream=stream), request.extra_body
        )
        accept = "text/event-stream" if stream else "application/json"
        headers = merge_headers(self._headers(accept), request.extra_headers)
        return await self._http.open(
            "POST", self._root + "/v1/messages", headers=headers, body=body
        )

    async def _get_json(self, path: str, params: Mapping[str, str]) -> Any:
        response = await self._http.open(
            "GET", self._root + path, headers=self._headers("application/json"), params=params
        )
        return await self._http.read_json(response)
