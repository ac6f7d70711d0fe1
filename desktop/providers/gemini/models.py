"""Gemini model families and model lists: how each model thinks, what `/models` says.

Reasoning effort maps to `generationConfig.thinkingConfig`: Gemini 3 takes a level, 2.5
a token budget clamped to what the model allows, and a model that cannot think is sent
none (it would refuse the request).
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Any

from desktop.core.capabilities import ReasoningEffort, ReportedCapabilities
from desktop.core.errors import ProviderError
from desktop.core.i18n import tr
from desktop.providers.http_errors import text_or_empty


class ThinkingFamily(Enum):
    NONE = "none"  # no thinking at all: thinkingConfig is refused
    PRO_25 = "pro-2.5"  # budget 128..32768, cannot be turned off
    FLASH_25 = "flash-2.5"  # budget 0..24576
    FLASH_LITE_25 = "flash-lite-2.5"  # budget 0 or 512..24576
    PRO_3 = "pro-3"  # thinkingLevel low | high
    PRO_3X = "pro-3.x"  # thinkingLevel low | medium | high
    FLASH_3 = "flash-3"  # thinkingLevel minimal | low | medium | high
    OTHER = "other"  # unknown: a budget within the common range, never "off"


# First match wins. Aliases ("gemini-flash-latest") take budgets, which newer models
# still accept.
_FAMILIES: tuple[tuple[str, ThinkingFamily], ...] = (
    (
        r"gemini-1\.|gemini-2\.0|gemma|embedding|imagen|veo|aqa|-image|-tts|-live",
        ThinkingFamily.NONE,
    ),
    (r"gemini-3-pro", ThinkingFamily.PRO_3),
    (r"gemini-3\.\d+-pro", ThinkingFamily.PRO_3X),
    (r"gemini-3(\.\d+)?-flash", ThinkingFamily.FLASH_3),
    (r"gemini-2\.5-pro|gemini-pro-latest", ThinkingFamily.PRO_25),
    (r"gemini-2\.5-flash-lite|gemini-flash-lite-latest", ThinkingFamily.FLASH_LITE_25),
    (r"gemini-2\.5-flash|gemini-flash-latest", ThinkingFamily.FLASH_25),
)


_BUDGETS = {
    ReasoningEffort.LOW: 1024,
    ReasoningEffort.MEDIUM: 8192,
    ReasoningEffort.HIGH: 24576,
}


# (smallest budget when thinking is on, largest, what "off" sends)
_BUDGET_RANGE = {
    ThinkingFamily.PRO_25: (128, 32768, 128),
    ThinkingFamily.FLASH_25: (1, 24576, 0),
    ThinkingFamily.FLASH_LITE_25: (512, 24576, 0),
    ThinkingFamily.OTHER: (1, 24576, None),
}


_LEVELS = {
    ThinkingFamily.PRO_3: ("low", "low", "high", "high", "high"),
    ThinkingFamily.PRO_3X: ("low", "low", "medium", "high", "high"),
    ThinkingFamily.FLASH_3: ("minimal", "low", "medium", "high", "high"),
}
_EFFORT_ORDER = tuple(ReasoningEffort)  # off, low, medium, high, max


def thinking_family(model: str) -> ThinkingFamily:
    name = model.rsplit("/", 1)[-1].lower()
    for pattern, family in _FAMILIES:
        if re.search(pattern, name):
            return family
    return ThinkingFamily.OTHER


def thinks_in_levels(family: ThinkingFamily) -> bool:
    """Gemini 3 families: they take a `thinkingLevel`, and validate thought signatures."""
    return family in _LEVELS


def thinking_config(model: str, effort: ReasoningEffort | None) -> dict[str, Any] | None:
    """`generationConfig.thinkingConfig` for `effort` on `model`, or None to send none.

    Without an effort the model thinks as it likes, but its thoughts are asked for so the
    person sees them. Gemini 3 takes a level, 2.5 a token budget clamped to what the model
    allows (2.5 Pro cannot stop thinking, so "off" is its smallest budget).
    """
    family = thinking_family(model)
    if family is ThinkingFamily.NONE:
        return None
    if effort is None:
        # Asking a model that cannot think for its thoughts is a 400: unknown models
        # are asked only when their name says Gemini.
        known = family is not ThinkingFamily.OTHER or "gemini" in model.lower()
        return {"includeThoughts": True} if known else None
    if family in _LEVELS:
        level = _LEVELS[family][_EFFORT_ORDER.index(effort)]
        return {"includeThoughts": True, "thinkingLevel": level}
    low, high, off = _BUDGET_RANGE[family]
    if effort is ReasoningEffort.OFF:
        if off is None:
            return None  # unknown model: leave thinking to its default
        return (
            {"thinkingBudget": 0} if off == 0 else {"includeThoughts": True, "thinkingBudget": off}
        )
    wanted = high if effort is ReasoningEffort.MAX else _BUDGETS[effort]
    return {"includeThoughts": True, "thinkingBudget": max(low, min(high, wanted))}


def parse_models_page(
    payload: Any, method: str = "generateContent"
) -> tuple[list[str], str | None]:
    """Ids on one page of `GET /models` of the models that support `method` (chat
    models by default; "embedContent" for embedding models), and the next page's token.
    A model that does not say what it supports counts as a chat model."""
    if not isinstance(payload, dict):
        raise ProviderError(tr("The server's model list was not in the expected format"))
    items = payload.get("models", [])
    if not isinstance(items, list):
        raise ProviderError(tr("The server's model list was not in the expected format"))
    ids: list[str] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        methods = item.get("supportedGenerationMethods")
        if isinstance(methods, list):
            if method not in methods:
                continue
        elif method != "generateContent":
            continue
        name = text_or_empty(item.get("name"))
        if name:
            ids.append(name.removeprefix("models/"))
    return ids, text_or_empty(payload.get("nextPageToken")) or None


def parse_model_reports(payload: Any) -> dict[str, ReportedCapabilities]:
    """What one page of `GET /models` says about each model: `inputTokenLimit` is the
    context window and `thinking` whether the model reasons. Vision and tools are not
    stated (every current Gemini model has both; the table says so)."""
    items = payload.get("models") if isinstance(payload, dict) else None
    reports: dict[str, ReportedCapabilities] = {}
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        name = text_or_empty(item.get("name")).removeprefix("models/")
        limit = item.get("inputTokenLimit")
        thinking = item.get("thinking")
        report = ReportedCapabilities(
            reasoning=thinking if isinstance(thinking, bool) else None,
            context_length=limit if isinstance(limit, int) and limit > 0 else None,
        )
        if name and not report.is_empty:
            reports[name] = report
    return reports
