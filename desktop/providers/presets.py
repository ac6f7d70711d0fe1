"""The services people connect most, so adding one is a click and a key, not a lookup.

A preset only pre-fills the provider form (name, protocol, base URL) and says whether
the service needs a key; the saved provider is an ordinary `ProviderSettings`, so a
preset that goes stale never breaks an existing setup.
"""

from __future__ import annotations

from dataclasses import dataclass

from desktop.core.settings import ProviderKind


@dataclass(frozen=True, slots=True)
class Preset:
    id: str  # also the suggested provider id
    name: str
    kind: ProviderKind
    base_url: str  # "" for a custom server: the person types it
    needs_key: bool
    key_url: str = ""  # where the person gets a key
    # Other protocols the same service speaks, offered in the form's protocol choice.
    other_kinds: tuple[ProviderKind, ...] = ()
    local: bool = False  # runs on this computer (found by local server detection)


CUSTOM_ID = "custom"

PRESETS: tuple[Preset, ...] = (
    Preset(
        "openai",
        "OpenAI",
        ProviderKind.OPENAI_CHAT,
        "https://api.openai.com/v1",
        needs_key=True,
        key_url="https://platform.openai.com/api-keys",
        other_kinds=(ProviderKind.OPENAI_RESPONSES,),
    ),
    Preset(
        "anthropic",
        "Anthropic",
        ProviderKind.ANTHROPIC,
        "https://api.anthropic.com",
        needs_key=True,
        key_url="https://console.anthropic.com/settings/keys",
    ),
    Preset(
        "gemini",
        "Google Gemini",
        ProviderKind.GEMINI,
        "https://generativelanguage.googleapis.com",
        needs_key=True,
        key_url="https://aistudio.google.com/apikey",
    ),
    Preset("ollama", "Ollama", ProviderKind.OLLAMA, "http://127.0.0.1:11434", False, local=True),
    Preset(
        "deepseek",
        "DeepSeek",
        ProviderKind.OPENAI_CHAT,
        "https://api.deepseek.com",
        needs_key=True,
        key_url="https://platform.deepseek.com/api_keys",
    ),
    Preset(
        "openrouter",
        "OpenRouter",
        ProviderKind.OPENAI_CHAT,
        "https://openrouter.ai/api/v1",
        needs_key=True,
        key_url="https://openrouter.ai/keys",
    ),
    Preset(
        "groq",
        "Groq",
        ProviderKind.OPENAI_CHAT,
        "https://api.groq.com/openai/v1",
        needs_key=True,
        key_url="https://console.groq.com/keys",
    ),
    Preset(
        "lmstudio",
        "LM Studio",
        ProviderKind.OPENAI_CHAT,
        "http://127.0.0.1:1234/v1",
        needs_key=False,
        local=True,
    ),
    # Any other server speaking OpenAI's API: vLLM, llama.cpp, a company gateway…
    Preset(CUSTOM_ID, "OpenAI-compatible", ProviderKind.OPENAI_CHAT, "", False),
)


def preset(preset_id: str) -> Preset:
    """The preset with `preset_id`; an unknown id is the custom one."""
    return next((p for p in PRESETS if p.id == preset_id), PRESETS[-1])
