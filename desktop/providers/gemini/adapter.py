"""Google Gemini: `streamGenerateContent?alt=sse`, `generateContent`, `models`,
`batchEmbedContents`.

The key travels in the `x-goog-api-key` header, never in the URL, so it cannot end up in
a proxy log or an error message. Gemini fails its own ways (a wrong key is a 400, not a
401), worded here for the person.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from http import HTTPStatus
from typing import Any

from desktop.core.capabilities import ReportedCapabilities
from desktop.core.i18n import QT_TR_NOOP, tr
from desktop.core.knowledge import EmbeddingKind
from desktop.providers.adapter import ChatCall, Endpoint, WireSpec
from desktop.providers.base import ChatRequest, Completion, ProviderHTTPError
from desktop.providers.embeddings import Vectors
from desktop.providers.gemini import embeddings
from desktop.providers.gemini.models import parse_model_reports, parse_models_page
from desktop.providers.gemini.request import build_body, model_path
from desktop.providers.gemini.stream import StreamTranslator, parse_completion
from desktop.providers.transport import StreamReader
from desktop.providers.wire_common import Redactor

DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com"
API_VERSION = "v1beta"
_MAX_MODEL_PAGES = 20  # the real list is one page; a looping token must not spin forever
_WRONG_KEY_MARKERS = ("API key not valid", "API_KEY_INVALID", "API key expired")


def api_root(base_url: str) -> str:
    """`https://host/v1beta` whether or not the person typed the version."""
    root = base_url.strip().rstrip("/") or DEFAULT_BASE_URL
    if re.search(r"/v1(alpha|beta)?\d*$", root):
        return root
    return f"{root}/{API_VERSION}"


class GeminiSpec(WireSpec):
    """The Gemini API under `base_url` (with or without `/v1beta`)."""

    url_hint = QT_TR_NOOP("check the base URL (https://generativelanguage.googleapis.com)")
    root = staticmethod(api_root)

    def __init__(self, base_url: str) -> None:
        super().__init__(base_url)
        # What the last model list said about each model, for `describe_models`.
        self._reports: dict[str, ReportedCapabilities] | None = None

    def headers(self, api_key: str | None, accept: str) -> dict[str, str]:
        headers = {"Accept": accept}
        if api_key:
            headers["x-goog-api-key"] = api_key
        return headers

    def chat_call(self, request: ChatRequest, *, stream: bool) -> ChatCall:
        method = "streamGenerateContent" if stream else "generateContent"
        url = f"{self.base_url}/{model_path(request.model)}:{method}"
        return ChatCall(url, build_body(request), {"alt": "sse"} if stream else None)

    def reworded(self, error: ProviderHTTPError, *, has_key: bool) -> ProviderHTTPError:
        """Gemini answers a wrong key with 400 INVALID_ARGUMENT and a missing one with
        403: say what the person has to fix, keeping the server's words."""
        message = str(error)
        status = error.status_code or 0
        detail = error.detail or message.partition(f"({status}): ")[2]
        if status == HTTPStatus.BAD_REQUEST and any(
            marker in message for marker in _WRONG_KEY_MARKERS
        ):
            words = tr("The server refused the API key")
        elif status == HTTPStatus.FORBIDDEN and not has_key:
            words = tr("The server requires an API key")
        else:
            return error
        if detail:
            text = tr("{words} ({status}): {detail}").format(
                words=words, status=status, detail=detail
            )
        else:
            text = tr("{words} ({status})").format(words=words, status=status)
        return ProviderHTTPError(
            text,
            detail=detail,
            status_code=status,
            retryable=False,
            retry_after=error.retry_after,
        )

    def embed_call(
        self, texts: Sequence[str], model: str, *, dimensions: int | None, kind: EmbeddingKind
    ) -> ChatCall:
        url = f"{self.base_url}/{model_path(model)}:batchEmbedContents"
        return ChatCall(url, embeddings.embedding_body(texts, model, dimensions, kind))

    def read_embeddings(self, payload: Any, expected: int) -> Vectors:
        return embeddings.read_embeddings(payload, expected)

    def stream_reader(self, redact: Redactor) -> StreamReader[Any]:
        return StreamTranslator(redact)

    def read_completion(self, payload: Any, redact: Redactor) -> Completion:
        return parse_completion(payload, redact)

    async def list_models(self, endpoint: Endpoint) -> list[str]:
        ids: set[str] = set()
        reports: dict[str, ReportedCapabilities] = {}
        for payload in await self._model_pages(endpoint):
            ids.update(parse_models_page(payload)[0])
            reports.update(parse_model_reports(payload))
        self._reports = reports
        return sorted(ids)

    async def list_embedding_models(self, endpoint: Endpoint) -> list[str]:
        """Gemini says what each model does: those that support `embedContent`."""
        pages = await self._model_pages(endpoint)
        return sorted(
            {i for payload in pages for i in parse_models_page(payload, "embedContent")[0]}
        )

    async def _model_pages(self, endpoint: Endpoint) -> list[Any]:
        """Every page of `GET /models` (at most `_MAX_MODEL_PAGES`)."""
        pages: list[Any] = []
        token: str | None = None
        for _ in range(_MAX_MODEL_PAGES):
            params = {"pageSize": "1000"} | ({"pageToken": token} if token else {})
            payload = await endpoint.get_json(f"{self.base_url}/models", params)
            pages.append(payload)
            token = parse_models_page(payload)[1]
            if not token:
                break
        return pages

    async def describe_models(
        self, endpoint: Endpoint, models: Sequence[str]
    ) -> dict[str, ReportedCapabilities]:
        """From the model list (read again only if this adapter has not read it yet)."""
        if self._reports is None:
            await self.list_models(endpoint)
        reports = self._reports or {}
        return {model: reports[model] for model in models if model in reports}
