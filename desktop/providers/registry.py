"""Settings in, provider out: the one place that maps a `ProviderKind` to its class.

The engine asks for "the provider for these settings" and never imports a wire module:
every provider is one `HttpAdapter`, and adding a protocol means one new package (its
`WireSpec`, request and stream) and its case here. Each protocol's package is imported
when a provider of its kind is first made: a Parley that talks to one kind of server
never loads the other wires.
"""

from __future__ import annotations

import httpx

from desktop.core.errors import ProviderError
from desktop.core.i18n import tr
from desktop.core.settings import ProviderKind, ProviderSettings
from desktop.providers.adapter import HttpAdapter, WireSpec
from desktop.providers.base import ChatProvider
from desktop.providers.retry import RetryingProvider, RetryPolicy


def create_provider(
    settings: ProviderSettings, api_key: str | None, client: httpx.AsyncClient
) -> ChatProvider:
    """A provider for `settings`, sharing the application's `client` (pool, proxy),
    waiting as long as the provider's `stall_timeout` for a silent server."""
    return HttpAdapter(
        client, wire_spec(settings), api_key, stall_timeout=float(settings.stall_timeout)
    )


def wire_spec(settings: ProviderSettings) -> WireSpec:
    """The protocol part of the adapter for `settings`, its package imported only now."""
    url = settings.base_url
    if settings.kind == ProviderKind.OPENAI_CHAT:
        from desktop.providers.openai_chat.adapter import OpenAIChatSpec

        return OpenAIChatSpec(url)
    if settings.kind == ProviderKind.OPENAI_RESPONSES:
        from desktop.providers.openai_responses.adapter import OpenAIResponsesSpec

        return OpenAIResponsesSpec(url)
    if settings.kind == ProviderKind.GEMINI:
        from desktop.providers.gemini.adapter import GeminiSpec

        return GeminiSpec(url)
    if settings.kind == ProviderKind.OLLAMA:
        from desktop.providers.ollama.adapter import OllamaSpec

        return OllamaSpec(url)
    if settings.kind == ProviderKind.ANTHROPIC:
        from desktop.providers.anthropic.adapter import AnthropicSpec

        return AnthropicSpec(url)
    raise ProviderError(
        tr("{provider}: unsupported provider kind '{kind}'").format(
            provider=settings.name, kind=settings.kind
        )
    )


def create_retrying_provider(
    settings: ProviderSettings,
    api_key: str | None,
    client: httpx.AsyncClient,
    policy: RetryPolicy | None = None,
) -> RetryingProvider:
    """`create_provider`, wrapped so that a request which failed before any answer is
    tried again (rate limits, server errors, dropped connections): what generations use.
    Probes such as "test connection" use the bare adapter, to report at once."""
    return RetryingProvider(create_provider(settings, api_key, client), policy)
