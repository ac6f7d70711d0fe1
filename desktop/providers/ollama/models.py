"""What an Ollama server says about its models: `/api/tags` and `/api/show`."""

from __future__ import annotations

from typing import Any

from desktop.core.capabilities import ReportedCapabilities
from desktop.core.errors import ProviderError
from desktop.core.i18n import tr
from desktop.providers.http_errors import text_or_empty
from desktop.providers.wire_common import positive_count


def parse_tags(payload: Any) -> list[str]:
    """Model names from `GET /api/tags`, sorted."""
    items = payload.get("models") if isinstance(payload, dict) else None
    if not isinstance(items, list):
        raise ProviderError(tr("The server's model list was not in the expected format"))
    names = (text_or_empty(item.get("name")) for item in items if isinstance(item, dict))
    return sorted({name for name in names if name})


def parse_show(payload: Any) -> ReportedCapabilities:
    """What `POST /api/show` says about one model.

    `capabilities` (Ollama 0.6.4 and later) lists what the model's template and weights
    allow: "completion" (it can answer; embedding models lack it), "vision", "tools",
    "thinking", "insert". `model_info` holds the model's own context window under
    `<architecture>.context_length`. An older server without the list states nothing
    but the window.
    """
    if not isinstance(payload, dict):
        return ReportedCapabilities()
    info = payload.get("model_info")
    context = None
    if isinstance(info, dict):
        context = next(
            (
                value
                for key, value in info.items()
                if key.endswith(".context_length") and positive_count(value)
            ),
            None,
        )
    listed = payload.get("capabilities")
    if not isinstance(listed, list):
        return ReportedCapabilities(context_length=context)
    names = {name for name in listed if isinstance(name, str)}
    return ReportedCapabilities(
        vision="vision" in names,
        tools="tools" in names,
        reasoning="thinking" in names,
        context_length=context,
        chat="completion" in names,
    )
