"""Small background requests (titles, suggestions, summaries) to the utility model.

The person may name a cheap, fast "utility model" in Settings; without one the
conversation's own model does the work. Each request is a single non-streaming call
with a short deadline: these answers are nice to have, and a slow one must never hold
anything up or hang on for minutes.
"""

from __future__ import annotations

import asyncio

from desktop.core.capabilities import ReasoningEffort
from desktop.core.models import ModelRef, Role
from desktop.core.settings import Settings
from desktop.engine.turn.ports import ProviderSource
from desktop.providers.base import ChatRequest, RequestMessage, with_system_as_user

DEFAULT_TIMEOUT_S = 20.0


class UtilityModel:
    def __init__(self, source: ProviderSource, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
        self._source = source
        self._timeout_s = timeout_s

    @property
    def settings(self) -> Settings:
        return self._source.settings

    def model_for(self, fallback: ModelRef) -> ModelRef:
        """The utility model if one is set and its provider still exists, else `fallback`."""
        settings = self._source.settings
        chosen = settings.utility_model
        if chosen is not None and settings.provider(chosen.provider_id) is not None:
            return chosen
        return fallback

    def request(self, model: ModelRef, system: str, prompt: str) -> ChatRequest:
        """One user turn under `system`; thinking kept light where the model reasons."""
        options = self._source.request_options(model)
        capabilities = options.capabilities
        request = ChatRequest(
            model=model.model,
            messages=(RequestMessage(Role.USER, prompt),),
            system=system or None,
            reasoning_effort=ReasoningEffort.LOW if capabilities.supports_reasoning else None,
            extra_headers=dict(options.extra_headers),
            extra_body=dict(options.extra_body),
        )
        return request if capabilities.supports_system_role else with_system_as_user(request)

    async def complete(self, system: str, prompt: str, fallback: ModelRef) -> str:
        """The model's answer text, stripped. Raises what the provider raises, and
        `TimeoutError` past the deadline; callers decide how quiet to be."""
        model = self.model_for(fallback)
        async with asyncio.timeout(self._timeout_s):
            provider = await self._source.provider(model.provider_id)
            completion = await provider.complete(self.request(model, system, prompt))
        return completion.text.strip()
