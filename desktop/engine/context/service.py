"""The rolling context of a conversation: the messages a request carries, the summary
that stands for the rest, and keeping that summary up to date in storage.

Summaries are written with the utility model from Settings when one is set, else with
the model answering. If writing one fails, the request carries only the recent window
and a notice says so: sending the full history instead would silently overflow the
model's context (or cost far more than the person expects).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from desktop.core.errors import ParleyError, SettingsError
from desktop.core.i18n import tr
from desktop.core.models import Conversation, Message, ModelRef, Role, RollingSummary
from desktop.engine.context.planner import DEFAULT_THRESHOLD, ContextPlan, Refresh, plan
from desktop.engine.context.summariser import MAX_OUTPUT_TOKENS, summarise
from desktop.engine.context.tokens import estimate_tokens, message_tokens
from desktop.providers.base import ChatProvider
from desktop.storage.errors import ConversationNotFound
from desktop.storage.repository import ChatRepository

log = logging.getLogger(__name__)


class ProviderLookup(Protocol):
    async def provider(self, provider_id: str) -> ChatProvider: ...


@dataclass(frozen=True, slots=True)
class ContextResult:
    """What to send: `messages` in full (branch order), the summary text to put in the
    system prompt (None: none), and a notice for the answer when something went wrong."""

    messages: tuple[Message, ...]
    summary_text: str | None
    notice: str | None = None


@dataclass(frozen=True, slots=True)
class ContextPreview:
    """What `window_for` would send, decided without writing anything: `messages` in
    full and the valid summary's text, or, when a summary would have to be written
    first, `unwritten_tokens`, an estimate of its size."""

    messages: tuple[Message, ...]
    summary_text: str | None
    unwritten_tokens: int = 0


def unwritten_summary_tokens(refresh: Refresh) -> int:
    """About how long a summary still to be written will be: the summary it merges
    with plus a quarter of the messages joining it, at most what the summariser lets
    the model write."""
    total = estimate_tokens(refresh.previous or "")
    joining = 0
    for message in refresh.messages:  # a long chat's oldest messages need not be counted
        joining += message_tokens(message)
        if total + joining // 4 >= MAX_OUTPUT_TOKENS:
            return MAX_OUTPUT_TOKENS
    return total + joining // 4


def failure_notice() -> str:
    return tr("Earlier messages could not be summarised, so only the recent ones were sent.")


class ContextService:
    def __init__(
        self,
        repository: ChatRepository,
        providers: ProviderLookup,
        utility_model: Callable[[], ModelRef | None],
    ) -> None:
        self._repo = repository
        self._providers = providers
        self._utility_model = utility_model

    async def window_for(
        self,
        conversation: Conversation,
        path: Sequence[Message],
        model: ModelRef,
        threshold: int = DEFAULT_THRESHOLD,
        pinned: Collection[str] | None = None,
        summarising: Callable[[], None] | None = None,
    ) -> ContextResult:
        """The context for a request answering with `model` at the end of `path`.

        `pinned` None: the conversation's pinned messages. The stored summary is read
        fresh (the person may have edited it since `conversation` was loaded).
        `summarising()` is told before a summary is written (a model call: seconds).
        """
        current = self._repo.get_conversation(conversation.id) or conversation
        pins = current.pinned_message_ids if pinned is None else pinned
        result = plan(path, current.summary, threshold=threshold, pinned=pins)
        if result.refresh is None:
            return ContextResult(result.window, _text(result))
        if summarising is not None:
            summarising()
        try:
            summary = await self._write(current.id, result.refresh, model, None)
        except ParleyError as error:
            log.warning("summarising %s failed: %s", current.id, error)
            return ContextResult(result.window, None, failure_notice())
        return ContextResult(result.window, summary.text)

    def preview(
        self,
        conversation: Conversation,
        path: Sequence[Message],
        threshold: int = DEFAULT_THRESHOLD,
    ) -> ContextPreview:
        """What `window_for` would send for `path` with `conversation` as it is now
        (read fresh by the caller), by the same plan, with nothing written."""
        result = plan(
            path, conversation.summary, threshold=threshold, pinned=conversation.pinned_message_ids
        )
        if result.refresh is None:
            return ContextPreview(result.window, _text(result))
        return ContextPreview(result.window, None, unwritten_summary_tokens(result.refresh))

    async def compress_now(
        self, conversation_id: str, instructions: str | None = None, model: ModelRef | None = None
    ) -> RollingSummary | None:
        """Summarise everything before the last few messages now (the planner's forced
        plan), following the person's `instructions`. `model` None: the model of the
        latest answer. Returns the stored summary, None when there is nothing to
        compress; raises ParleyError when the model fails (nothing is stored then)."""
        conversation = self._repo.get_conversation(conversation_id)
        if conversation is None:
            raise ConversationNotFound(conversation_id)
        path = self._repo.active_path(conversation_id)
        result = plan(
            path, conversation.summary, pinned=conversation.pinned_message_ids, force=True
        )
        if result.refresh is None:
            return None
        answering = model or _latest_model(path)
        if answering is None and self._utility_model() is None:
            raise ParleyError(tr("Choose a model first: there is none to write the summary."))
        return await self._write(conversation_id, result.refresh, answering, instructions)

    async def _write(
        self,
        conversation_id: str,
        refresh: Refresh,
        model: ModelRef | None,
        instructions: str | None,
    ) -> RollingSummary:
        chosen, provider = await self._provider_for(model)
        text = await summarise(
            provider, chosen.model, refresh.previous, refresh.messages, instructions
        )
        summary = RollingSummary(text, refresh.covered_ids)
        self._repo.set_summary(conversation_id, summary)
        return summary

    async def _provider_for(self, model: ModelRef | None) -> tuple[ModelRef, ChatProvider]:
        """The utility model's provider, or `model`'s when none is set or the utility
        model's provider has since been removed from Settings."""
        utility = self._utility_model()
        if utility is not None:
            try:
                return utility, await self._providers.provider(utility.provider_id)
            except SettingsError:
                if model is None:
                    raise
                log.info("utility model %s is gone: summarising with %s", utility, model)
        if model is None:
            raise ParleyError(tr("No model to write the summary with."))
        return model, await self._providers.provider(model.provider_id)


def _text(result: ContextPlan) -> str | None:
    return result.summary.text if result.summary is not None else None


def _latest_model(path: Sequence[Message]) -> ModelRef | None:
    return next((m.model for m in reversed(path) if m.role is Role.ASSISTANT and m.model), None)
