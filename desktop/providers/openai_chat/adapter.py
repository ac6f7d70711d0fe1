"""OpenAI Chat Completions: OpenAI and every compatible server.

DeepSeek, OpenRouter, Groq, LM Studio, vLLM and llama.cpp all speak this protocol with
small variations (where reasoning text lives, whether usage arrives, which parameters a
model refuses), which are absorbed in this package so that nothing outside `providers/`
ever sees vendor JSON. The server is recognised from the base URL
(`openai_models.dialect_for`) where that changes the request.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from desktop.core.capabilities import ReportedCapabilities
from desktop.core.events import StreamEvent
from desktop.core.i18n import QT_TR_NOOP
from desktop.core.knowledge import EmbeddingKind
from desktop.providers import openai_embeddings
from desktop.providers.adapter import ChatCall, Endpoint, WireSpec
from desktop.providers.base import ChatRequest, Completion
from desktop.providers.embeddings import Vectors
from desktop.providers.openai_chat.models import parse_model_reports
from desktop.providers.openai_chat.request import build_body
from desktop.providers.openai_chat.stream import (
    StreamTranslator,
    completion_events,
    parse_completion,
)
from desktop.providers.openai_models import Dialect, dialect_for
from desktop.providers.transport import StreamReader
from desktop.providers.wire_common import Redactor, model_ids


class OpenAIChatSpec(WireSpec):
    """`/chat/completions` and `/models` under `base_url` (which usually ends in /v1)."""

    url_hint = QT_TR_NOOP("check the base URL (it usually ends in /v1)")

    def __init__(self, base_url: str) -> None:
        super().__init__(base_url)
        self.dialect = dialect_for(self.base_url)
        # What the last model list said about each model, for `describe_models`.
        self._reports: dict[str, ReportedCapabilities] | None = None

    def chat_call(self, request: ChatRequest, *, stream: bool) -> ChatCall:
        body = build_body(request, stream=stream, dialect=self.dialect)
        return ChatCall(self.base_url + "/chat/completions", body)

    def embed_call(
        self, texts: Sequence[str], model: str, *, dimensions: int | None, kind: EmbeddingKind
    ) -> ChatCall:
        """`{base}/embeddings`; the wire has no notion of `kind`."""
        body = openai_embeddings.embedding_body(texts, model, dimensions)
        return ChatCall(self.base_url + "/embeddings", body)

    def read_embeddings(self, payload: Any, expected: int) -> Vectors:
        return openai_embeddings.read_embeddings(payload, expected)

    def stream_reader(self, redact: Redactor) -> StreamReader[Any]:
        return StreamTranslator(redact)

    def whole_answer(
        self, reader: StreamReader[Any], redact: Redactor
    ) -> Callable[[Any], list[StreamEvent]]:
        return lambda payload: completion_events(payload, redact)

    def read_completion(self, payload: Any, redact: Redactor) -> Completion:
        return parse_completion(payload, redact)

    async def list_models(self, endpoint: Endpoint) -> list[str]:
        payload = await endpoint.get_json(self.base_url + "/models")
        models = model_ids(payload)
        self._reports = parse_model_reports(payload)
        return models

    async def describe_models(
        self, endpoint: Endpoint, models: Sequence[str]
    ) -> dict[str, ReportedCapabilities]:
        """From the model list, read again only if this adapter has not read it yet,
        and never for OpenAI itself, whose list states nothing but the ids."""
        if self._reports is None:
            if self.dialect is Dialect.OPENAI:
                return {}
            await self.list_models(endpoint)
        reports = self._reports or {}
        return {model: reports[model] for model in models if model in reports}
