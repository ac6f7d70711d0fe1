"""Ollama: `/api/chat` (NDJSON stream), `/api/tags` and `/api/show`.

Ollama usually runs on this computer with no key; a key, when set, goes as a bearer
token (for Ollama's cloud or a server behind an authenticating proxy).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from http import HTTPStatus
from typing import Any

from desktop.core.capabilities import ReportedCapabilities
from desktop.core.errors import ProviderError
from desktop.core.i18n import QT_TR_NOOP
from desktop.core.knowledge import EmbeddingKind
from desktop.providers.adapter import ChatCall, Endpoint, WireSpec
from desktop.providers.base import ChatRequest, Completion, ProviderHTTPError
from desktop.providers.embeddings import Vectors
from desktop.providers.ollama import embeddings
from desktop.providers.ollama.models import parse_show, parse_tags
from desktop.providers.ollama.request import build_body
from desktop.providers.ollama.stream import StreamTranslator, parse_completion
from desktop.providers.transport import StreamReader
from desktop.providers.wire_common import Redactor

logger = logging.getLogger(__name__)

DEFAULT_BASE_URL = "http://127.0.0.1:11434"
_NO_THINKING = "does not support thinking"
_SHOW_CONCURRENCY = 4  # a local server reads each model's file header: a few at a time


def api_root(base_url: str) -> str:
    """The server root: a pasted `.../api` or OpenAI-style `.../v1` is taken back off."""
    root = base_url.strip().rstrip("/") or DEFAULT_BASE_URL
    return re.sub(r"/(api|v1)$", "", root)


class OllamaSpec(WireSpec):
    """An Ollama server at `base_url`."""

    url_hint = QT_TR_NOOP("check the base URL (Ollama's is usually http://127.0.0.1:11434)")
    framing = "ndjson"
    stream_accept = "application/x-ndjson"
    root = staticmethod(api_root)

    def chat_call(self, request: ChatRequest, *, stream: bool) -> ChatCall:
        return ChatCall(f"{self.base_url}/api/chat", build_body(request, stream=stream))

    def second_try(
        self, request: ChatRequest, body: dict[str, Any], error: ProviderHTTPError
    ) -> dict[str, Any] | None:
        """A reasoning effort chosen for every model reaches models that cannot think:
        Ollama refuses `think: true` for them, so ask again without it."""
        if error.status_code != HTTPStatus.BAD_REQUEST or _NO_THINKING not in str(error):
            return None
        if body.get("think") is not True:
            return None
        logger.info("%s cannot think; asking again without `think`", request.model)
        return {key: value for key, value in body.items() if key != "think"}

    def embed_call(
        self, texts: Sequence[str], model: str, *, dimensions: int | None, kind: EmbeddingKind
    ) -> ChatCall:
        """`/api/embed`; Ollama has no notion of `kind` (a model that wants a prefix
        for queries documents it, and the text carries it)."""
        return ChatCall(
            f"{self.base_url}/api/embed", embeddings.embedding_body(texts, model, dimensions)
        )

    def read_embeddings(self, payload: Any, expected: int) -> Vectors:
        return embeddings.read_embeddings(payload, expected)

    def stream_reader(self, redact: Redactor) -> StreamReader[Any]:
        return StreamTranslator(redact)

    def read_completion(self, payload: Any, redact: Redactor) -> Completion:
        return parse_completion(payload, redact)

    async def list_models(self, endpoint: Endpoint) -> list[str]:
        return parse_tags(await endpoint.get_json(f"{self.base_url}/api/tags"))

    async def describe_models(
        self, endpoint: Endpoint, models: Sequence[str]
    ) -> dict[str, ReportedCapabilities]:
        """`/api/show` for each model, a few at a time; a model the server cannot show
        is left out, and only when none could be shown is the first failure raised."""
        gate = asyncio.Semaphore(_SHOW_CONCURRENCY)
        failures: list[ProviderError] = []

        async def show(model: str) -> tuple[str, ReportedCapabilities] | None:
            async with gate:
                try:
                    payload = await endpoint.post_json(
                        f"{self.base_url}/api/show", {"model": model}
                    )
                    return model, parse_show(payload)
                except ProviderError as error:
                    logger.info("No details for %s: %s", model, error)
                    failures.append(error)
                    return None

        shown = await asyncio.gather(*(show(model) for model in dict.fromkeys(models)))
        reports = {model: report for model, report in filter(None, shown)}
        if failures and not reports:
            raise failures[0]
        return {model: report for model, report in reports.items() if not report.is_empty}
