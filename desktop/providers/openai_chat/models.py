"""What OpenAI-compatible `/models` answers say about each model, beyond its id."""

from __future__ import annotations

from typing import Any

from desktop.core.capabilities import ReportedCapabilities
from desktop.providers.http_errors import text_or_empty
from desktop.providers.wire_common import positive_count

# Where OpenAI-compatible servers put a model's context window in `/models` items:
# OpenRouter, LM Studio's native API, vLLM, Groq.
_CONTEXT_KEYS = ("context_length", "max_context_length", "max_model_len", "context_window")


_REASONING_PARAMETERS = {"reasoning", "include_reasoning", "reasoning_effort"}


def parse_model_reports(payload: Any) -> dict[str, ReportedCapabilities]:
    """What a `/models` answer says about each model, by the fields servers add to
    OpenAI's bare items (OpenAI's own items have none, so this finds nothing there).

    OpenRouter: `context_length`, `architecture.input_modalities` ("image": vision) and
    `supported_parameters` ("tools"; "reasoning" / "include_reasoning").
    LM Studio (`/api/v0/models`): `type` ("vlm": vision, "embeddings": not a chat
    model), `max_context_length`, `capabilities` ("tool_use").
    vLLM: `max_model_len`. Groq: `context_window`.
    """
    items = payload.get("data") if isinstance(payload, dict) else payload
    reports: dict[str, ReportedCapabilities] = {}
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and (model_id := text_or_empty(item.get("id"))):
            report = _model_report(item)
            if not report.is_empty:
                reports[model_id] = report
    return reports


def _model_report(item: dict[str, Any]) -> ReportedCapabilities:
    context = next((v for k in _CONTEXT_KEYS if positive_count(v := item.get(k))), None)
    vision: bool | None = None
    tools: bool | None = None
    reasoning: bool | None = None
    chat: bool | None = None
    architecture = item.get("architecture")
    if isinstance(architecture, dict):
        inputs = _strings(architecture.get("input_modalities"))
        outputs = _strings(architecture.get("output_modalities"))
        vision = "image" in inputs if inputs is not None else None
        chat = "text" in outputs if outputs else None
    parameters = _strings(item.get("supported_parameters"))
    if parameters is not None:
        tools = "tools" in parameters
        reasoning = not _REASONING_PARAMETERS.isdisjoint(parameters)
    kind = text_or_empty(item.get("type"))
    if kind in ("llm", "vlm"):
        vision = kind == "vlm"
    elif kind in ("embeddings", "embedding"):
        chat = False
    abilities = _strings(item.get("capabilities"))
    if abilities is not None and kind:
        tools = "tool_use" in abilities
    return ReportedCapabilities(
        vision=vision, tools=tools, reasoning=reasoning, context_length=context, chat=chat
    )


def _strings(value: Any) -> set[str] | None:
    """The strings of a JSON list, or None when the field is not a list (not stated)."""
    return {v for v in value if isinstance(v, str)} if isinstance(value, list) else None
