"""The known-model table, the endpoint kind's default, and the person's override."""

from __future__ import annotations

import re

import pytest

from desktop.core.capabilities import Capabilities, ReportedCapabilities
from desktop.core.settings import ModelOverride, ProviderKind
from desktop.providers.model_families import (
    KNOWN_FAMILIES,
    UNKNOWN,
    capabilities_for,
    known_capabilities,
)

V, T, R, S = "vision", "tools", "reasoning", "no-system"


def flags(caps: Capabilities) -> set[str]:
    found = set()
    if caps.supports_vision:
        found.add(V)
    if caps.supports_tools:
        found.add(T)
    if caps.supports_reasoning:
        found.add(R)
    if not caps.supports_system_role:
        found.add(S)
    return found


@pytest.mark.parametrize(
    ("model", "expected", "context"),
    [
        # OpenAI, as the API and OpenRouter name them
        ("gpt-4o", {V, T}, 128_000),
        ("openai/gpt-4o-mini-2024-07-18", {V, T}, 128_000),
        ("chatgpt-4o-latest", {V, T}, 128_000),
        ("gpt-4.1-nano", {V, T}, 1_047_576),
        ("gpt-4-turbo", {V, T}, 128_000),
        ("gpt-4", {T}, 8_192),
        ("gpt-3.5-turbo-0125", {T}, 16_385),
        ("gpt-5", {V, T, R}, 400_000),
        ("gpt-5.1-codex-mini", {V, T, R}, 400_000),
        ("gpt-5-chat-latest", {V, T}, 128_000),
        ("o1-mini", {R, S}, 128_000),
        ("o1-preview-2024-09-12", {R, S}, 128_000),
        ("o1", {V, T, R}, 200_000),
        ("o3-mini", {T, R}, 200_000),
        ("o3-2025-04-16", {V, T, R}, 200_000),
        ("o4-mini", {V, T, R}, 200_000),
        ("gpt-oss:20b", {T, R}, 131_072),
        ("openai/gpt-oss-120b", {T, R}, 131_072),
        # Anthropic
        ("claude-3-haiku-20240307", {V, T}, 200_000),
        ("claude-3-5-sonnet-latest", {V, T}, 200_000),
        ("anthropic/claude-3.5-haiku", {V, T}, 200_000),
        ("claude-3-7-sonnet-20250219", {V, T, R}, 200_000),
        ("claude-sonnet-4-5", {V, T, R}, 200_000),
        ("claude-opus-4-1-20250805", {V, T, R}, 200_000),
        ("claude-2.1", set(), 100_000),
        # Google
        ("gemini-2.5-pro", {V, T, R}, 1_048_576),
        ("models/gemini-2.5-flash", {V, T, R}, 1_048_576),
        ("gemini-2.0-flash-lite", {V, T}, 1_048_576),
        ("gemini-1.5-pro-002", {V, T}, 2_097_152),
        ("gemini-3-pro-preview", {V, T, R}, 1_048_576),
        ("gemma3:4b", {V}, 131_072),
        ("gemma3:1b", set(), 32_768),
        ("models/gemma-3-27b-it", {V}, 131_072),
        ("gemma3n:e4b", {V}, 32_768),
        ("gemma2:9b", set(), 8_192),
        # DeepSeek, its R1 distills included
        ("deepseek-chat", {T}, 131_072),
        ("deepseek-reasoner", {T, R}, 131_072),
        ("deepseek-r1:14b", {T, R}, 131_072),
        ("deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", {T, R}, 131_072),
        ("deepseek-r1-distill-llama-70b", {T, R}, 131_072),
        # Qwen
        ("qwq:32b", {T, R}, 131_072),
        ("qwen3:8b", {T, R}, 40_960),
        ("qwen3-235b-a22b-instruct-2507", {T}, 262_144),
        ("qwen3-30b-a3b-thinking-2507", {T, R}, 262_144),
        ("qwen3-coder:30b", {T}, 262_144),
        ("qwen3-vl:8b", {V, T, R}, 262_144),
        ("qwen2.5vl:7b", {V}, 131_072),
        ("Qwen/Qwen2.5-VL-72B-Instruct", {V}, 131_072),
        ("qwen2.5:7b", {T}, 32_768),
        ("qwen2.5-coder:32b", {T}, 32_768),
        ("qwen-plus", {T}, 131_072),
        # Llama
        ("llama3.1:8b", {T}, 131_072),
        ("meta-llama/Llama-3.3-70B-Instruct", {T}, 131_072),
        ("llama-3.1-8b-instant", {T}, 131_072),
        ("accounts/fireworks/models/llama-v3p1-70b-instruct", {T}, 131_072),
        ("llama3.2-vision:11b", {V}, 131_072),
        ("llama3:8b", set(), 8_192),
        ("llama2", set(), 4_096),
        ("meta-llama/llama-4-scout-17b-16e-instruct", {V, T}, 1_048_576),
        ("llava:13b", {V}, 4_096),
        ("llava-llama3", {V}, 4_096),
        # Mistral
        ("mistral:7b", {T}, 32_768),
        ("mistral-small3.1:24b", {V, T}, 131_072),
        ("mistral-large-latest", {T}, 131_072),
        ("mistral-medium-2505", {V, T}, 131_072),
        ("mixtral:8x7b", {T}, 32_768),
        ("pixtral-12b", {V, T}, 131_072),
        ("codestral-latest", {T}, 256_000),
        ("magistral-medium-latest", {V, T, R}, 131_072),
        ("devstral:24b", {T}, 131_072),
        # Phi
        ("phi4:14b", set(), 16_384),
        ("phi4-mini", {T}, 131_072),
        ("phi4-reasoning:14b", {R}, 32_768),
        ("phi3:mini", set(), 4_096),
        ("phi3.5", set(), 131_072),
        # others
        ("grok-4", {V, T, R}, 256_000),
        ("grok-3-mini", {T, R}, 131_072),
        ("moonshotai/kimi-k2-instruct", {T}, 131_072),
        ("glm-4.6", {T, R}, 131_072),
        ("command-r-plus", {T}, 128_000),
    ],
)
def test_known_families(model: str, expected: set[str], context: int) -> None:
    caps = known_capabilities(model)
    assert flags(caps) == expected
    assert caps.context_length == context


def test_an_unknown_model_is_text_only_unless_the_endpoint_serves_one_vendor():
    assert known_capabilities("my-finetune-v2") == UNKNOWN == Capabilities()
    assert capabilities_for(ProviderKind.OPENAI_CHAT, "my-finetune-v2") == UNKNOWN
    assert capabilities_for(ProviderKind.OLLAMA, "my-finetune-v2") == UNKNOWN
    # A model newer than the table, on Anthropic's or Google's own API, is theirs.
    assert flags(capabilities_for(ProviderKind.ANTHROPIC, "claude-next")) == {V, T, R}
    assert flags(capabilities_for(ProviderKind.ANTHROPIC, "some-new-name")) == {V, T, R}
    assert flags(capabilities_for(ProviderKind.GEMINI, "learnlm-2.0")) == {V, T, R}


def test_what_the_endpoint_states_beats_the_table_field_by_field():
    # llama3.1 in the table: tools, no vision, no reasoning, 131 072 tokens.
    reported = ReportedCapabilities(vision=True, context_length=8192)
    caps = capabilities_for(ProviderKind.OLLAMA, "llama3.1", reported=reported)
    assert flags(caps) == {V, T}  # vision stated; tools not stated, so the table's
    assert caps.context_length == 8192
    # A stated "no" wins over the table's "yes".
    denied = ReportedCapabilities(tools=False, reasoning=False)
    assert flags(capabilities_for(ProviderKind.OPENAI_CHAT, "o3", reported=denied)) == {V}
    # Saying nothing changes nothing.
    nothing = capabilities_for(ProviderKind.OLLAMA, "llama3.1", reported=ReportedCapabilities())
    assert nothing == known_capabilities("llama3.1")


def test_the_person_beats_the_endpoint_and_the_table_field_by_field():
    reported = ReportedCapabilities(vision=True, tools=False, context_length=4096)
    override = ModelOverride(tools=True, system_role=False)
    caps = capabilities_for(ProviderKind.OLLAMA, "llama3.1", reported=reported, override=override)
    assert flags(caps) == {V, T, S}  # vision: endpoint; tools, system: the person
    assert caps.context_length == 4096  # the endpoint's, as the person left it alone
    longer = ModelOverride(vision=False, context_length=16_384)
    caps = capabilities_for(ProviderKind.OLLAMA, "llama3.1", reported=reported, override=longer)
    assert flags(caps) == set()
    assert caps.context_length == 16_384
    # None keeps what was known.
    keep = capabilities_for(ProviderKind.OPENAI_CHAT, "o1-mini", override=ModelOverride())
    assert keep == known_capabilities("o1-mini")
    system = ModelOverride(system_role=True, reasoning=False)
    assert flags(capabilities_for(ProviderKind.OPENAI_CHAT, "o1-mini", override=system)) == set()


def test_every_pattern_compiles_and_is_reachable():
    """A row shadowed by an earlier, broader one is dead: each must win for some id."""
    samples = [
        "gpt-oss", "gpt-5-chat", "gpt-5", "gpt-4.1", "gpt-4o", "gpt-4-turbo", "gpt-4",
        "gpt-3.5-turbo", "o1-mini", "o3-mini", "o3", "claude-2", "claude-3-opus",
        "claude-x", "gemini-1.5-pro", "gemini-2.0-flash-thinking", "gemini-2.0",
        "gemini-x", "gemma3n", "gemma3:1b", "gemma3", "gemma", "deepseek-vl2",
        "deepseek-reasoner", "deepseek-v3.2", "deepseek-coder", "qwq", "qwen3-vl",
        "qwen-vl", "qwen3-coder", "qwen3-max", "qwen3-4b-thinking", "qwen3", "qwen-plus",
        "qwen-turbo", "qwen2.5", "llama4", "llama3.2-vision", "llava", "llama3.1",
        "llama3", "llama2", "magistral", "pixtral", "mistral-medium", "codestral",
        "devstral", "mixtral", "phi4-reasoning", "phi-3-vision", "phi4-mini", "phi4",
        "phi3.5", "phi3", "grok-4", "grok-3-mini", "grok-2-vision", "grok-3", "kimi-k2-thinking",
        "kimi-k2", "glm-4.5v", "glm-4.5", "command-a", "command-r", "minimax-m2",
        "moondream",
    ]  # fmt: skip
    winners = set()
    for sample in samples:
        for index, family in enumerate(KNOWN_FAMILIES):
            if re.search(family.pattern, sample, re.IGNORECASE):
                winners.add(index)
                break
    assert winners == set(range(len(KNOWN_FAMILIES)))
