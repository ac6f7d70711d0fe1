"""Every preset must fill in a form that saves as it is (plus a key and models)."""

from __future__ import annotations

from desktop.core.settings import ProviderKind, parse_provider
from desktop.providers.presets import CUSTOM_ID, PRESETS, preset


def test_every_preset_but_custom_is_a_valid_provider_as_it_stands():
    for chosen in PRESETS:
        if chosen.id == CUSTOM_ID:
            assert chosen.base_url == "" and chosen.kind is ProviderKind.OPENAI_CHAT
            continue
        data = {"id": chosen.id, "name": chosen.name, "kind": chosen.kind.value}
        provider = parse_provider({**data, "base_url": chosen.base_url}, chosen.id)
        assert provider.base_url == chosen.base_url  # already in its saved form
        assert chosen.needs_key is not chosen.local
        assert chosen.key_url.startswith("https://") or not chosen.needs_key


def test_the_presets_cover_the_services_and_their_protocols():
    kinds = {p.id: (p.kind, p.other_kinds) for p in PRESETS}
    assert kinds["openai"] == (ProviderKind.OPENAI_CHAT, (ProviderKind.OPENAI_RESPONSES,))
    assert kinds["anthropic"][0] is ProviderKind.ANTHROPIC
    assert kinds["gemini"][0] is ProviderKind.GEMINI
    assert kinds["ollama"][0] is ProviderKind.OLLAMA
    for vendor in ("deepseek", "openrouter", "groq", "lmstudio"):
        assert kinds[vendor][0] is ProviderKind.OPENAI_CHAT
    assert preset("no-such-preset").id == CUSTOM_ID
