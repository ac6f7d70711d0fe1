"""The registry: settings in, adapter out (each protocol's case is in the contract suite)."""

from __future__ import annotations

import httpx
import pytest

from desktop.core.errors import ProviderError
from desktop.core.settings import ProviderSettings
from desktop.providers.registry import create_provider
from tests.support.provider_calls import run


def test_registry_rejects_an_unknown_kind() -> None:
    settings = ProviderSettings("x", "Mystery", "carrier_pigeon")  # type: ignore[arg-type]

    async def main() -> None:
        async with httpx.AsyncClient(trust_env=False) as client:
            create_provider(settings, None, client)

    with pytest.raises(ProviderError, match="Mystery: unsupported provider kind 'carrier_pigeon'"):
        run(main())
