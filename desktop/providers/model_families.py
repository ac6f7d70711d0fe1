"""What a model can do: a maintained table of known model families, what the endpoint
reported, and the person's override, in that order of precedence (last wins).

The UI and the engine only ever look at the resulting `Capabilities` flags; nothing
downstream asks which provider class or model name it is dealing with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from desktop.core.capabilities import Capabilities, ReportedCapabilities
from desktop.core.settings import ModelOverride, ProviderKind


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


# The table of model families Parley knows, newest knowledge first where ids overlap.
# Patterns are searched (not matched) in the model id, case-insensitively, so prefixes
# such as "openai/" (OpenRouter), "models/" (Gemini) or Ollama's ":7b" tags do not
# matter. First match wins: more specific patterns come first. `context` is the
# model's own window in tokens (a server may run it with less, e.g. Ollama's num_ctx).
# Sources: each vendor's model documentation; update the row when a vendor does.
_VL = _caps(vision=True)
KNOWN_FAMILIES: tuple[Family, ...] = (
    # --- OpenAI ------------------------------------------------------------------
    Family(r"gpt-oss", _caps(tools=True, reasoning=True, context=131_072)),
    Family(r"gpt-5(\.\d+)?-chat", _caps(vision=True, tools=True, context=128_000)),
    Family(r"gpt-5", _caps(vision=True, tools=True, reasoning=True, context=400_000)),
    Family(r"gpt-4\.1", _caps(vision=True, tools=True, context=1_047_576)),
    Family(r"gpt-4o|chatgpt-4o", _caps(vision=True, tools=True, context=128_000)),
    Family(r"gpt-4-turbo|gpt-4-\d{4}-preview", _caps(vision=True, tools=True, context=128_000)),
    Family(r"gpt-4(?![.\w])", _caps(tools=True, context=8_192)),
    Family(r"gpt-3\.5-turbo", _caps(tools=True, context=16_385)),
    # o1-mini and o1-preview: no tools, no images, no system (developer) message.
    Family(r"\bo1-(mini|preview)\b", _caps(reasoning=True, system=False, context=128_000)),
    Family(r"\bo3-mini\b", _caps(tools=True, reasoning=True, context=200_000)),
    Family(
        r"\bo[134](-pro|-mini|-deep-research)?\b",
        _caps(vision=True, tools=True, reasoning=True, context=200_000),
    ),
    # --- Anthropic -----------------------------------------------------------------
    Family(r"claude-(instant|2)", _caps(context=100_000)),
    Family(
        r"claude-3-(5-)?(haiku|sonnet|opus)|claude-3\.5",
        _caps(vision=True, tools=True, context=200_000),
    ),
    Family(r"claude", _caps(vision=True, tools=True, reasoning=True, context=200_000)),
    # --- Google ------------------------------------------------------------------------
    Family(r"gemini-1\.5-pro", _caps(vision=True, tools=True, context=2_097_152)),
    Family(r"gemini-2\.0-flash-thinking", _caps(vision=True, reasoning=True, context=1_048_576)),
    Family(r"gemini-(1\.5|2\.0)", _caps(vision=True, tools=True, context=1_048_576)),
    Family(r"gemini", _caps(vision=True, tools=True, reasoning=True, context=1_048_576)),
    Family(r"gemma-?3n", _caps(vision=True, context=32_768)),
    Family(r"gemma-?3[:-]?(270m|1b)\b", _caps(context=32_768)),
    Family(r"gemma-?3", _caps(vision=True, context=131_072)),
    Family(r"gemma", _caps(context=8_192)),
    # --- DeepSeek (before Qwen and Llama: R1 distills carry their names) --------------
    Family(r"deepseek-vl|janus", _caps(vision=True, context=4_096)),
    Family(r"deepseek-reasoner|deepseek-r1", _caps(tools=True, reasoning=True, context=131_072)),
    Family(r"deepseek-v3\.[12]", _caps(tools=True, reasoning=True, context=131_072)),
    Family(r"deepseek", _caps(tools=True, context=131_072)),
    # --- Qwen ----------------------------------------------------------------------------
    Family(r"qwq", _caps(tools=True, reasoning=True, context=131_072)),
    Family(r"qwen3-vl", _caps(vision=True, tools=True, reasoning=True, context=262_144)),
    Family(r"qwen[\d.]*-?vl|qvq", _caps(vision=True, context=131_072)),
    Family(r"qwen3-coder", _caps(tools=True, context=262_144)),
    Family(
        r"qwen3-(\d+b-)?(a\d+b-)?instruct-2507|qwen3-(max|next)",
        _caps(tools=True, context=262_144),
    ),
    Family(r"qwen3-(\d+b-)?(a\d+b-)?thinking", _caps(tools=True, reasoning=True, context=262_144)),
    Family(r"qwen3", _caps(tools=True, reasoning=True, context=40_960)),
    Family(r"qwen-(plus|long)", _caps(tools=True, context=131_072)),
    Family(r"qwen-turbo", _caps(tools=True, context=1_000_000)),
    Family(r"qwen2\.5|qwen2|qwen-max", _caps(tools=True, context=32_768)),
    # --- Meta Llama ------------------------------------------------------------------------
    Family(r"llama-?4", _caps(vision=True, tools=True, context=1_048_576)),
    Family(r"llama-?3\.2.*vision", _caps(vision=True, context=131_072)),
    Family(r"llava|bakllava", _caps(vision=True, context=4_096)),
    Family(r"llama-?3\.[123]|llama-v3p[123]", _caps(tools=True, context=131_072)),
    Family(r"llama-?3", _caps(context=8_192)),
    Family(r"llama-?2", _caps(context=4_096)),
    # --- Mistral -----------------------------------------------------------------------------
    Family(r"magistral", _caps(vision=True, tools=True, reasoning=True, context=131_072)),
    Family(r"pixtral", _caps(vision=True, tools=True, context=131_072)),
    Family(
        r"mistral-small-?3\.[12]|mistral-medium|mistral-large-?3|mistral-large-25",
        _caps(vision=True, tools=True, context=131_072),
    ),
    Family(r"codestral", _caps(tools=True, context=256_000)),
    Family(r"devstral|mistral-nemo|ministral|mistral-large", _caps(tools=True, context=131_072)),
    Family(r"mixtral|mistral", _caps(tools=True, context=32_768)),
    # --- Microsoft Phi ----------------------------------------------------------------------
    Family(r"phi-?4-(mini-)?reasoning", _caps(reasoning=True, context=32_768)),
    Family(
        r"phi-?4-multimodal|phi-?3\.5-vision|phi-?3-vision", _caps(vision=True, context=131_072)
    ),
    Family(r"phi-?4-mini", _caps(tools=True, context=131_072)),
    Family(r"phi-?4", _caps(context=16_384)),
    Family(r"phi-?3\.5|phi-?3.*128k", _caps(context=131_072)),
    Family(r"phi-?3", _caps(context=4_096)),
    # --- others people commonly use -------------------------------------------------------
    Family(r"grok-4", _caps(vision=True, tools=True, reasoning=True, context=256_000)),
    Family(r"grok-3-mini", _caps(tools=True, reasoning=True, context=131_072)),
    Family(r"grok-.*vision", _caps(vision=True, context=32_768)),
    Family(r"grok", _caps(tools=True, context=131_072)),
    Family(r"kimi-k2.*thinking", _caps(tools=True, reasoning=True, context=262_144)),
    Family(r"kimi-k2", _caps(tools=True, context=131_072)),
    Family(r"glm-4(\.\d)?v", _caps(vision=True, reasoning=True, context=65_536)),
    Family(r"glm-4\.[5-9]|glm-z1", _caps(tools=True, reasoning=True, context=131_072)),
    Family(r"command-a", _caps(tools=True, context=256_000)),
    Family(r"command-r", _caps(tools=True, context=128_000)),
    Family(r"minimax-m[12]", _caps(tools=True, reasoning=True, context=204_800)),
    Family(r"moondream|minicpm-v|vision|-vl\b", _VL),
)

# A model nobody has told us about: text only, so nothing is sent that it may reject.
UNKNOWN = Capabilities()

# Endpoints that only serve one vendor's models: an id newer than the table is still
# theirs, and their current models all read images and call tools.
_KIND_DEFAULTS = {
    ProviderKind.ANTHROPIC: _caps(vision=True, tools=True, reasoning=True, context=200_000),
    ProviderKind.GEMINI: _caps(vision=True, tools=True, reasoning=True, context=1_048_576),
    ProviderKind.OPENAI_RESPONSES: _caps(vision=True, tools=True, reasoning=True),
}


def known_capabilities(model: str, kind: ProviderKind | None = None) -> Capabilities:
    """The table's flags for `model`; unknown ids get the endpoint kind's default."""
    for family in KNOWN_FAMILIES:
        if re.search(family.pattern, model, re.IGNORECASE):
            return family.capabilities
    return _KIND_DEFAULTS.get(kind, UNKNOWN) if kind is not None else UNKNOWN


def capabilities_for(
    kind: ProviderKind,
    model: str,
    *,
    reported: ReportedCapabilities | None = None,
    override: ModelOverride | None = None,
) -> Capabilities:
    """The flags for `model` on a provider of `kind`: the table, then what the endpoint
    stated, then the person's override, field by field (a field nobody stated keeps the
    table's value)."""
    caps = known_capabilities(model, kind)
    for layer in (reported, override):
        if layer is not None:
            caps = _layered(caps, layer)
    return caps


def _layered(caps: Capabilities, layer: ReportedCapabilities | ModelOverride) -> Capabilities:
    return replace(
        caps,
        supports_vision=_pick(layer.vision, caps.supports_vision),
        supports_tools=_pick(layer.tools, caps.supports_tools),
        supports_reasoning=_pick(layer.reasoning, caps.supports_reasoning),
        supports_system_role=_pick(layer.system_role, caps.supports_system_role),
        context_length=layer.context_length or caps.context_length,
    )


def _pick(wanted: bool | None, default: bool) -> bool:
    return default if wanted is None else wanted
