"""Gemini's `models/{model}:batchEmbedContents`: one embed request per text, in one call.

Each request names its model again (the API insists, and it must be the model of the
address), carries the task (`RETRIEVAL_DOCUMENT` for passages, `RETRIEVAL_QUERY` for a
question: Gemini's embedding models place the two apart to match them) and, only when
the person chose a size, `outputDimensionality`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from desktop.core.i18n import tr
from desktop.core.knowledge import EmbeddingKind
from desktop.providers.embeddings import Vectors, checked_vectors, not_embeddings
from desktop.providers.gemini.request import model_path
from desktop.providers.http_errors import error_payload_message
from desktop.providers.wire_common import reported_error

TASK_TYPES = {
    EmbeddingKind.DOCUMENT: "RETRIEVAL_DOCUMENT",
    EmbeddingKind.QUERY: "RETRIEVAL_QUERY",
}


def embedding_body(
    texts: Sequence[str], model: str, dimensions: int | None, kind: EmbeddingKind
) -> dict[str, Any]:
    name = model_path(model)
    requests: list[dict[str, Any]] = []
    for text in texts:
        request: dict[str, Any] = {
            "model": name,
            "content": {"parts": [{"text": text}]},
            "taskType": TASK_TYPES[kind],
        }
        if dimensions is not None:
            request["outputDimensionality"] = dimensions
        requests.append(request)
    return {"requests": requests}


def read_embeddings(payload: Any, expected: int) -> Vectors:
    """`embeddings[*].values`, in the order of the requests."""
    if not isinstance(payload, dict):
        raise not_embeddings(tr("not a JSON object"))
    if payload.get("error"):
        error = payload["error"]
        code = error.get("code") if isinstance(error, dict) else None
        raise reported_error(error_payload_message(error), code)
    items = payload.get("embeddings")
    if not isinstance(items, list):
        raise not_embeddings(tr("no `embeddings` list"))
    values = [item.get("values") if isinstance(item, dict) else None for item in items]
    return checked_vectors(values, expected)
