"""OpenAI's `POST {base}/embeddings`, shared by both OpenAI protocols: OpenAI itself and
the compatible servers (LM Studio, vLLM, llama.cpp, Ollama's `/v1`, OpenRouter...).

`encoding_format` is asked as "float": the default of OpenAI's own SDKs is base64, and
some compatible servers answer base64 when nothing is said. `dimensions` goes only when
the person chose a size: servers and older models that cannot shorten vectors refuse the
field even when it names the model's own size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from desktop.core.i18n import tr
from desktop.providers.embeddings import Vectors, checked_vectors, not_embeddings
from desktop.providers.http_errors import error_payload_message
from desktop.providers.wire_common import reported_error


def embedding_body(texts: Sequence[str], model: str, dimensions: int | None) -> dict[str, Any]:
    body: dict[str, Any] = {"model": model, "input": list(texts), "encoding_format": "float"}
    if dimensions is not None:
        body["dimensions"] = dimensions
    return body


def read_embeddings(payload: Any, expected: int) -> Vectors:
    """`data[*].embedding`, put in the order of each item's `index` (the order sent)."""
    if not isinstance(payload, dict):
        raise not_embeddings(tr("not a JSON object"))
    if payload.get("error"):
        error = payload["error"]
        raise reported_error(error_payload_message(error), _code(error))
    items = payload.get("data")
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise not_embeddings(tr("no `data` list"))
    indexes = [item.get("index", position) for position, item in enumerate(items)]
    if sorted(indexes, key=_order) != list(range(len(items))):
        raise not_embeddings(tr("the items' `index` values do not number the texts"))
    ordered = sorted(zip(indexes, items, strict=True), key=lambda pair: _order(pair[0]))
    return checked_vectors([item.get("embedding") for _, item in ordered], expected)


def _order(index: Any) -> int:
    """An `index` as a sort key; anything but an integer sorts where it fails the check."""
    return index if isinstance(index, int) and not isinstance(index, bool) else -1


def _code(error: Any) -> Any:
    return error.get("code") if isinstance(error, dict) else None
