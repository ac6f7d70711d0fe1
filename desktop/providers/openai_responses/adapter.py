"""OpenAI Responses API (`POST {base}/responses`, models from `{base}/models`).

The protocol OpenAI's newest models are built for: reasoning summaries stream, and a
reasoning model's thinking survives tool calls as encrypted items sent back in `input`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from desktop.core.events import StreamEvent
from desktop.core.i18n import QT_TR_NOOP
from desktop.core.knowledge import EmbeddingKind
from desktop.providers import openai_embeddings
from desktop.providers.adapter import ChatCall, Endpoint, WireSpec
from desktop.providers.base import ChatRequest, Completion
from desktop.providers.embeddings import Vectors
from desktop.providers.openai_responses.request import build_body
from desktop.providers.openai_responses.stream import (
    ResponsesStreamTranslator,
    parse_response,
    response_events,
)
from desktop.providers.transport import StreamReader
from desktop.providers.wire_common import Redactor, model_ids


class OpenAIResponsesSpec(WireSpec):
    """`/responses` and `/models` under `base_url`. OpenAI's model list states nothing
    but the ids, so models are described by the table alone (the default)."""

    url_hint = QT_TR_NOOP("check the base URL (for OpenAI it is https://api.openai.com/v1)")

    def chat_call(self, request: ChatRequest, *, stream: bool) -> ChatCall:
        return ChatCall(self.base_url + "/responses", build_body(request, stream=stream))

    def embed_call(
        self, texts: Sequence[str], model: str, *, dimensions: int | None, kind: EmbeddingKind
    ) -> ChatCall:
        """`{base}/embeddings`, as for Chat Completions: the Responses API has none."""
        body = openai_embeddings.embedding_body(texts, model, dimensions)
        return ChatCall(self.base_url + "/embeddings", body)

    def read_embeddings(self, payload: Any, expected: int) -> Vectors:
        return openai_embeddings.read_embeddings(payload, expected)

    def stream_reader(self, redact: Redactor) -> StreamReader[Any]:
        return ResponsesStreamTranslator(redact)

    def whole_answer(
        self, reader: StreamReader[Any], redact: Redactor
    ) -> Callable[[Any], list[StreamEvent]]:
        return lambda payload: response_events(payload, redact)

    def read_completion(self, payload: Any, redact: Redactor) -> Completion:
        return parse_response(payload, redact)

    async def list_models(self, endpoint: Endpoint) -> list[str]:
        return model_ids(await endpoint.get_json(self.base_url + "/models"))
