"""Ollama's `POST /api/embed`: a list of inputs in, `embeddings` (one list per input) out.

`dimensions` is sent only when the person chose a size (recent Ollama shortens the
vectors of models trained for it; an older one would refuse the field). The older
`/api/embeddings` takes one prompt per request and is not used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from desktop.core.i18n import tr
from desktop.providers.embeddings import Vectors, checked_vectors, not_embeddings
from desktop.providers.http_errors import error_payload_message
from desktop.providers.wire_common import reported_error


def embedding_body(texts: Sequence[str], model: str, dimensions: int | None) -> dict[str, Any]:
    body: dict[str, Any] = {"model": model, "input": list(texts)}
    if dimensions is not None:
        body["dimensions"] = dimensions
    return body


def read_embeddings(payload: Any, expected: int) -> Vectors:
    if not isinstance(payload, dict):
        raise not_embeddings(tr("not a JSON object"))
    if payload.get("error"):
        raise reported_error(error_payload_message(payload["error"]), None)
    if "embeddings" not in payload:
        raise not_embeddings(tr("no `embeddings` list"))
    return checked_vectors(payload["embeddings"], expected)
