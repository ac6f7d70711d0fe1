"""What a model can do: a maintained table of known model families, what the endpoint
reported, and the person's override, in that order of precedence (last wins).

The UI and the engine only ever look at the resulting `Capabilities` flags; nothing
downstream asks which provider class or model name it is dealing with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from desktop.core.settings import ModelOverride, ProviderKind
from desktop.providers.base import Capabilities


@dataclass(frozen=True, slots=True)
class Family:
    """Model ids matching `pattern` (searched, case-insensitive) have `capabilities`."""

    pattern: str
    capabilities: Capabilities


def _caps(
    *,
    vision: bool = False,
    tools: bool = False,
    reasoning: bool = False,
    system: bool = True,
    context: int | None = None,
) -> Capabilities:
    return Capabilities(
        supports_vision=vision,
        supports_tools=tools,
        supports_system_role=system,
        supports_reasoning=reasoning,
        context_length=context,
    )


# First match wins, so more specific patterns come first.
KNOWN_FAMILIES: tuple[Family, ...] = (
    Family(r"gpt-4o|gpt-4\.1|chatgpt-4o", _caps(vision=True, tools=True, context=128_000)),
    Family(r"gpt-5", _caps(vision=True, tools=True, reasoning=True, context=400_000)),
    Family(
        r"\bo[134](-mini|-pro)?\b", _caps(vision=True, tools=True, reasoning=True, context=200_000)
    ),
    Family(r"claude", _caps(vision=True, tools=True, reasoning=True, context=200_000)),
    Family(r"gemini", _caps(vision=True, tools=True, reasoning=True, context=1_000_000)),
    Family(r"deepseek-reasoner|deepseek-r1", _caps(tools=True, reasoning=True, context=128_000)),
    Family(r"deepseek", _caps(tools=True, context=128_000)),
    Family(r"qwq|qwen3", _caps(tools=True, reasoning=True, context=32_768)),
    Family(r"llava|vision|-vl\b|pixtral|gemma3", _caps(vision=True, context=8_192)),
    Family(r"llama3\.[1-3]|llama-3\.[1-3]|mistral|mixtral|qwen2\.5", _caps(tools=True)),
)

# A model nobody has told us about: text only, so nothing is sent that it may reject.
UNKNOWN = Capabilities()


def known_capabilities(model: str) -> Capabilities:
    for family in KNOWN_FAMILIES:
        if re.search(family.pattern, model, re.IGNORECASE):
            return family.capabilities
    return UNKNOWN


def capabilities_for(
    kind: ProviderKind,
    model: str,
    *,
    reported: Capabilities | None = None,
    override: ModelOverride | None = None,
) -> Capabilities:
    """The flags for `model` on a provider of `kind`: table, then endpoint, then person."""
    caps = reported if reported is not None else known_capabilities(model)
    if override is None:
        return caps
    return replace(
        caps,
        supports_vision=_pick(override.vision, caps.supports_vision),
        supports_tools=_pick(override.tools, caps.supports_tools),
        supports_reasoning=_pick(override.reasoning, caps.supports_reasoning),
        supports_system_role=_pick(override.system_role, caps.supports_system_role),
        context_length=override.context_length or caps.context_length,
    )


def _pick(wanted: bool | None, default: bool) -> bool:
    return default if wanted is None else wanted
