"""Adapters for tests: `HttpAdapter` with each protocol's spec, made as the tests' own
servers need them (a base URL, an optional key, short timeouts)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from desktop.providers.adapter import HttpAdapter, WireSpec
from desktop.providers.anthropic.adapter import AnthropicSpec
from desktop.providers.gemini.adapter import GeminiSpec
from desktop.providers.ollama.adapter import OllamaSpec
from desktop.providers.openai_chat.adapter import OpenAIChatSpec
from desktop.providers.openai_responses.adapter import OpenAIResponsesSpec

AdapterFactory = Callable[..., HttpAdapter]


def factory(spec: Callable[[str], WireSpec]) -> AdapterFactory:
    """`make(client, base_url, api_key=None, **timeouts)`: an adapter speaking `spec`."""

    def make(
        client: httpx.AsyncClient, base_url: str, api_key: str | None = None, **timeouts: Any
    ) -> HttpAdapter:
        return HttpAdapter(client, spec(base_url), api_key, **timeouts)

    return make


openai_chat_adapter = factory(OpenAIChatSpec)
openai_responses_adapter = factory(OpenAIResponsesSpec)
anthropic_adapter = factory(AnthropicSpec)
gemini_adapter = factory(GeminiSpec)
ollama_adapter = factory(OllamaSpec)
