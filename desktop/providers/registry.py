"""Settings in, provider out: the one place that maps a `ProviderKind` to its class.

The engine asks for "the provider for these settings" and never imports a wire module,
so adding a protocol means one new module and its case here. Each adapter is imported
when a provider of its kind is first made: a Parley that talks to one kind of server
never loads the other wires.
"""

from __future__ import annotations

import httpx

from desktop.core.errors import ProviderError
from desktop.core.i18n import tr
from desktop.core.settings import ProviderKind, ProviderSettings
from desktop.providers.base import ChatProvider
from desktop.providers.retry import RetryingProvider, RetryPolicy


def create_provider(
    settings: ProviderSettings, api_key: str | None, client: httpx.AsyncClient
) -> ChatProvider:
    """A provider for `settings`, sharing the application's `client` (pool, proxy),
    waiting as long as the provider's `stall_timeout` for a silent server."""
    url, stall = settings.base_url, float(settings.stall_timeout)
    if settings.kind == ProviderKind.OPENAI_CHAT:
        from desktop.providers.openai_chat import OpenAIChatProvider

        return OpenAIChatProvider(client, url, api_key, stall_timeout=stall)
    if settings.kind == ProviderKind.OPENAI_RESPONSES:
        from desktop.providers.openai_responses import OpenAIResponsesProvider

        return OpenAIResponsesProvider(client, url, api_key, stall_timeout=stall)
    if settings.kind == ProviderKind.GEMINI:
        from desktop.providers.gemini import GeminiProvider

        return GeminiProvider(client, url, api_key, stall_timeout=stall)
    if settings.kind == ProviderKind.OLLAMA:
        from desktop.providers.ollama import OllamaProvider

        return OllamaProvider(client, url, api_key, stall_timeout=stall)
    if settings.kind == ProviderKind.ANTHROPIC:
        from desktop.providers.anthropic import AnthropicProvider

        return AnthropicProvider(client, url, api_key, stall_timeout=stall)
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
