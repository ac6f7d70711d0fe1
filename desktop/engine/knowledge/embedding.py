"""The embedding model as the indexer sees it, and how its vectors are stored.

`Embedder` is a port: the app binds it to a configured provider and model (the
providers' `embed`), tests to an in-process double. The indexer asks it for at most
`EMBED_BATCH` texts at a time. Vectors are kept as float32 little-endian and
L2-normalised, so a search scores a passage with one dot product.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from desktop.core.errors import ParleyError
from desktop.core.i18n import tr
from desktop.core.knowledge import EmbeddingChoice, EmbeddingKind
from desktop.engine.turn.ports import ProviderSource

EMBED_BATCH = 64  # texts per request: what the OpenAI, Ollama and Gemini APIs all take
VECTOR_DTYPE = np.dtype("<f4")
_MATRIX = 2  # dimensions of a list of vectors


class Embedder(Protocol):
    async def embed(self, texts: Sequence[str], kind: EmbeddingKind) -> list[list[float]]:
        """One vector per text, in order. Raises (a `ParleyError` saying why, ideally)
        when the model cannot be reached or refuses."""
        ...


class BadVectors(ParleyError):
    """The embedding model answered with something that is not one vector per text."""


def pack(vectors: Sequence[Sequence[float]], expected: int) -> list[bytes]:
    """`vectors` as stored: L2-normalised float32 little-endian, one blob per text.
    Raises `BadVectors` unless there are `expected` finite vectors of one length."""
    if len(vectors) != expected:
        raise BadVectors(
            tr("the embedding model returned {got} vectors for {sent} passages").format(
                got=len(vectors), sent=expected
            )
        )
    if not vectors:
        return []
    try:
        matrix = np.asarray(vectors, dtype=np.float64)
    except ValueError:
        raise BadVectors(tr("the embedding model returned vectors of different sizes")) from None
    if matrix.ndim != _MATRIX or matrix.shape[1] == 0 or not np.isfinite(matrix).all():
        raise BadVectors(tr("the embedding model returned vectors Parley cannot use"))
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    normalised = (matrix / norms).astype(VECTOR_DTYPE)
    return [row.tobytes() for row in normalised]


def unpack(blob: bytes) -> npt.NDArray[np.float32]:
    """A stored vector as a (read-only) array."""
    return np.frombuffer(blob, dtype=VECTOR_DTYPE)


class ProviderEmbedder:
    """A library's embedding model, reached through the person's configured provider.

    The provider is looked up when vectors are needed, not when the library is defined:
    its key, proxy, CA bundle and retry policy are the ones in force at that moment, as
    for an answer. A provider removed from the settings is a `SettingsError` saying so.
    """

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
