"""Which embedding model memories use, and one text embedded with it, failures told.

The model is asked for at each call (`EmbedderSource`), so a change in the settings
applies to the next save or search. It is the knowledge libraries' kind of model
(`knowledge.embedding.Embedder`), and its vectors are stored under its
`EmbeddingChoice.key`: vectors of two models are never compared. A failure is never an
error here: the caller goes on with words only and shows the reason.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from desktop.core.errors import ParleyError, ProviderError
from desktop.core.i18n import tr
from desktop.core.knowledge import EmbeddingChoice, EmbeddingKind
from desktop.engine.knowledge.embedding import Embedder
from desktop.engine.knowledge.ranking import query_vector

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class MemoryEmbedder:
    """The embedding model memories are searched with, and the key its vectors are
    stored under (`EmbeddingChoice.key`)."""

    embedder: Embedder
    model_key: str


EmbedderSource = Callable[[], MemoryEmbedder | None]
"""The model to use now; None when none is set. May raise (a provider removed)."""


def embedder_from_choice(
    choice: Callable[[], EmbeddingChoice | None],
    embedder_for: Callable[[EmbeddingChoice], Embedder],
) -> EmbedderSource:
    """An `EmbedderSource` from the chosen model (read at each call) and the factory the
    knowledge service uses (`KnowledgeService(embedder_for=...)`)."""

    def current() -> MemoryEmbedder | None:
        picked = choice()
        return None if picked is None else MemoryEmbedder(embedder_for(picked), picked.key)

    return current


@dataclass(frozen=True, slots=True)
class Embedded:
    """A text's unit vector and its model's key; or, when there is none, why (None when
    no model is set: words only is then a choice, not a failure)."""

    model_key: str | None = None
    vector: npt.NDArray[np.float32] | None = None
    reason: str | None = None


async def embed_text(
    source: EmbedderSource, text: str, kind: EmbeddingKind, timeout_s: float
) -> Embedded:
    """`text` embedded by the current model, within `timeout_s`."""
    try:
        current = source()
    except Exception as error:  # the provider was removed, has no key, ...
        detail = str(error) if isinstance(error, ParleyError) else type(error).__name__
        return Embedded(
            reason=tr("the embedding model is not available: {error}").format(error=detail)
        )
    if current is None:
        return Embedded()
    try:
        values = await asyncio.wait_for(current.embedder.embed([text], kind), timeout_s)
    except TimeoutError:
        return Embedded(reason=tr("the embedding server did not answer"))
    except ProviderError as error:
        reason = tr("the embedding server reported an error: {error}").format(error=error)
        return Embedded(reason=reason)
    except Exception as error:  # any other failure of the embedder: words still work
        log.warning("memory embedding failed: %s", type(error).__name__)
        return Embedded(reason=tr("the text could not be embedded"))
    vector = query_vector(values[0]) if values else None
    if vector is None:
        return Embedded(reason=tr("the embedding model returned an empty vector"))
    return Embedded(current.model_key, vector)
