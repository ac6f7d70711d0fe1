"""A library's embedding model, reached through the person's configured provider.

The provider is looked up when vectors are needed, not when the library is defined:
its key, proxy, CA bundle and retry policy are the ones in force at that moment, as
for an answer. A provider removed from the settings is a clear error, never a crash.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from desktop.core.knowledge import EmbeddingChoice, EmbeddingKind
from desktop.engine.turn.ports import ProviderSource


class Embedder(Protocol):
    """Turns texts into vectors (one list of floats per text, in order)."""

    async def embed(self, texts: Sequence[str], kind: EmbeddingKind) -> list[list[float]]: ...


class ProviderEmbedder:
    def __init__(self, providers: ProviderSource, choice: EmbeddingChoice) -> None:
        self._providers = providers
        self.choice = choice

    async def embed(self, texts: Sequence[str], kind: EmbeddingKind) -> list[list[float]]:
        if not texts:
            return []
        provider = await self._providers.provider(self.choice.provider_id)
        return await provider.embed(
            texts, self.choice.model, dimensions=self.choice.dimensions, kind=kind
        )
