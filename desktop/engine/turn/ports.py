"""What a chat turn needs from the rest of Parley, stated once.

The settings service is the one real implementation; tests and benchmarks pass small
stand-ins. A turn reads the settings through `settings` (the assistant of a
conversation, the utility model) rather than reaching past this protocol, so a stand-in
that satisfies the type checker is enough to run a turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from desktop.core.knowledge import MAX_PASSAGES, SearchOutcome
from desktop.core.models import ModelRef
from desktop.core.settings import Settings
from desktop.engine.prompt.request_builder import RequestOptions
from desktop.providers.base import ChatProvider


class ProviderSource(Protocol):
    """Where a turn gets its provider, what to send besides the history, and the
    settings those come from."""

    @property
    def settings(self) -> Settings:
        """The settings now in force (a snapshot: a later save replaces it)."""
        ...

    async def provider(self, provider_id: str) -> ChatProvider: ...

    def request_options(self, model: ModelRef) -> RequestOptions:
        """Capabilities, reasoning effort, the provider's extra headers and body."""
        ...


class KnowledgeRetriever(Protocol):
    """Where an answer finds passages of the person's libraries (the knowledge service)."""

    async def retrieve(
        self, library_ids: Sequence[str], query: str, *, limit: int = MAX_PASSAGES
    ) -> SearchOutcome:
        """The best passages (at most `limit`, capped at `MAX_PASSAGES`) of those
        libraries for `query`;
        by words only, saying why, when vectors cannot be used. Raises `ParleyError`
        when the libraries cannot be searched at all."""
        ...
