"""Anthropic Messages: Claude, and servers that speak the same protocol.

`base_url` is the API root *without* `/v1` (`https://api.anthropic.com`, the default
when it is empty), as in Anthropic's own SDKs: requests go to `{base_url}/v1/messages`
and `{base_url}/v1/models`. A base URL pasted with `/v1` (or the whole `/v1/messages`
address) is accepted and trimmed, so both spellings reach the same place; gateways that
mount the protocol under a path (`…/anthropic`) work as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from desktop.core.errors import ProviderError
from desktop.core.events import StreamEvent
from desktop.core.i18n import QT_TR_NOOP, tr
from desktop.providers.adapter import ChatCall, Endpoint, WireSpec
from desktop.providers.anthropic.request import build_body
from desktop.providers.anthropic.stream import StreamTranslator, message_events, parse_completion
from desktop.providers.base import ChatRequest, Completion
from desktop.providers.http_errors import text_or_empty
from desktop.providers.transport import StreamReader
from desktop.providers.wire_common import Redactor

API_VERSION = "2023-06-01"
DEFAULT_BASE_URL = "https://api.anthropic.com"
MODEL_PAGE_SIZE = 1000  # the most /v1/models returns per page
MAX_MODEL_PAGES = 20  # a server that pages forever is cut off here


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


class AnthropicSpec(WireSpec):
    """`/v1/messages` and `/v1/models` under the API root (no `/v1`)."""

    url_hint = QT_TR_NOOP("check the base URL (for Anthropic it is https://api.anthropic.com)")
    no_embeddings = QT_TR_NOOP(
        "Anthropic's API has no embedding models; choose another provider for this library"
    )
    root = staticmethod(api_root)

    def headers(self, api_key: str | None, accept: str) -> dict[str, str]:
        headers = {"Accept": accept, "anthropic-version": API_VERSION}
        if api_key:
            headers["x-api-key"] = api_key
        return headers

    def merge_headers(self, ours: Mapping[str, str], theirs: Mapping[str, str]) -> dict[str, str]:
        return merge_headers(ours, theirs)

    def chat_call(self, request: ChatRequest, *, stream: bool) -> ChatCall:
        return ChatCall(self.base_url + "/v1/messages", build_body(request, stream=stream))

    def stream_reader(self, redact: Redactor) -> StreamReader[Any]:
        return StreamTranslator(redact)

    def whole_answer(
        self, reader: StreamReader[Any], redact: Redactor
    ) -> Callable[[Any], list[StreamEvent]]:
        return lambda payload: message_events(payload, redact)

    def read_completion(self, payload: Any, redact: Redactor) -> Completion:
        return parse_completion(payload, redact)

    async def list_models(self, endpoint: Endpoint) -> list[str]:
        """Every page of `/v1/models` (`has_more` / `last_id`), ids sorted."""
        ids: set[str] = set()
        after: str | None = None
        for _ in range(MAX_MODEL_PAGES):
            params = {"limit": str(MODEL_PAGE_SIZE)}
            if after:
                params["after_id"] = after
            page = await endpoint.get_json(self.base_url + "/v1/models", params)
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
