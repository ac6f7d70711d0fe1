"""Settings in, provider out: the one place that maps a `ProviderKind` to its class.

The engine asks for "the provider for these settings" and never imports a wire module,
so adding a protocol means one new module and one line here.
"""

from __future__ import annotations

import httpx

from desktop.core.errors import ProviderError
from desktop.core.settings import ProviderKind, ProviderSettings
from desktop.providers.base import ChatProvider
from desktop.providers.openai_chat import OpenAIChatProvider


def create_provider(
    settings: ProviderSettings, api_key: str | None, client: httpx.AsyncClient
) -> ChatProvider:
    """A provider for `settings`, sharing the application's `client` (pool, proxy)."""
    if settings.kind == ProviderKind.OPENAI_CHAT:
        return OpenAIChatProvider(client, settings.base_url, api_key)
    raise ProviderError(f"{settings.name}: unsupported provider kind '{settings.kind}'")
