"""The chat service: one entry point for everything that changes conversations.

It saves before it sends, runs at most one generation per conversation, and reports
progress on an `EventBus` as typed events; view-models listen, nothing here knows Qt.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from desktop.core.dispatch import EventBus
from desktop.core.errors import EmptyMessageError
from desktop.core.events import (
    ConversationsChanged,
    EngineEvent,
    GenerationStarted,
    MessageChanged,
)
from desktop.core.i18n import tr
from desktop.core.limits import TITLE_MAX_CHARS
from desktop.core.models import (
    Conversation,
    Message,
    MessageStatus,
    ModelRef,
    Role,
    TextPart,
    new_id,
)
from desktop.engine.generation import Generation
from desktop.providers.base import ChatProvider
from desktop.storage.errors import ConversationNotFound
from desktop.storage.repository import ChatRepository

log = logging.getLogger(__name__)


class ProviderSource(Protocol):
    async def provider(self, provider_id: str) -> ChatProvider: ...


@dataclass(frozen=True, slots=True)
class SendResult:
    conversation_id: str
    user_message_id: str
    assistant_message_id: str


def title_from(text: str) -> str:
    """A first title: the first line of the first message, shortened at a word."""
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    if len(line) <= TITLE_MAX_CHARS:
        return line or tr("New chat")
    cut = line[:TITLE_MAX_CHARS].rsplit(" ", 1)[0] or line[:TITLE_MAX_CHARS]
    return cut.rstrip(" ,.;:") + "…"


class ChatService:
    def __init__(
        self,
        repository: ChatRepository,
        providers: ProviderSource,
        *,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self._repo = repository
        self._providers = providers
        self._clock = clock
        self.events: EventBus[EngineEvent] = EventBus()
        self._running: dict[str, asyncio.Task[None]] = {}
        self._send_locks: dict[str, asyncio.Lock] = {}

    # --- queries ------------------------------------------------------------------

    def conversations(self) -> list[Conversation]:
        return self._repo.list_conversations()

    def conversation(self, conversation_id: str) -> Conversation | None:
        return self._repo.get_conversation(conversation_id)

    def active_path(self, conversation_id: str) -> list[Message]:
        return self._repo.active_path(conversation_id)

    def is_generating(self, conversation_id: str) -> bool:
        return conversation_id in self._running

    # --- start-up -----------------------------------------------------------------

    def recover(self) -> list[str]:
        """Answers a crash left `streaming` become `interrupted` (text kept)."""
        ids = self._repo.interrupt_streaming()
        if ids:
            log.info("marked %d interrupted message(s) after an unclean exit", len(ids))
        return ids

    # --- conversations ------------------------------------------------------------

    def create_conversation(self, title: str | None = None) -> Conversation:
        conversation = self._repo.create_conversation(title or tr("New chat"))
        self.events.emit(ConversationsChanged(conversation.id))
        return conversation

    def rename_conversation(self, conversation_id: str, title: str) -> Conversation:
        conversation = self._repo.rename_conversation(conversation_id, title)
        self.events.emit(ConversationsChanged(conversation_id))
        return conversation

    async def delete_conversation(self, conversation_id: str) -> None:
        await self.stop(conversation_id)
        self._repo.delete_conversation(conversation_id)
        self.events.emit(ConversationsChanged(conversation_id))

    # --- sending ------------------------------------------------------------------

    async def send(self, conversation_id: str | None, text: str, model: ModelRef) -> SendResult:
        """Save the person's message and start the answer; returns once both are saved.

        The generation itself runs as a named background task; progress arrives as
        `MessageChanged` events and ends with exactly one `GenerationFinished`.
        """
        if not text.strip():
            raise EmptyMessageError(tr("Type a message first."))
        if conversation_id is None:
            conversation_id = self.create_conversation(title_from(text)).id
        elif self._repo.get_conversation(conversation_id) is None:
            raise ConversationNotFound(conversation_id)

        # Stopping the running generation awaits it; the lock keeps two sends that both
        # waited from each starting a generation (one generation per conversation).
        lock = self._send_locks.setdefault(conversation_id, asyncio.Lock())
        async with lock:
            await self.stop(conversation_id)
            return self._start(conversation_id, text, model)

    def _start(self, conversation_id: str, text: str, model: ModelRef) -> SendResult:
        path = self._repo.active_path(conversation_id)
        user = self._repo.add_message(
            Message(
                id=new_id(),
                conversation_id=conversation_id,
                parent_id=path[-1].id if path else None,
                role=Role.USER,
                parts=[TextPart(text)],
            )
        )
        assistant = self._repo.add_message(
            Message(
                id=new_id(),
                conversation_id=conversation_id,
                parent_id=user.id,
                role=Role.ASSISTANT,
                status=MessageStatus.STREAMING,
                model=model,
            )
        )
        self.events.emit(MessageChanged(user))
        self.events.emit(MessageChanged(assistant))
        self.events.emit(ConversationsChanged(conversation_id))

        generation = Generation(
            repository=self._repo,
            providers=self._providers,
            events=self.events,
            message=assistant,
            history=[*path, user],
            clock=self._clock,
        )
        task = asyncio.create_task(generation.run(), name=f"generation:{conversation_id}")
        self._running[conversation_id] = task
        task.add_done_callback(lambda t, cid=conversation_id: self._forget(cid, t))
        self.events.emit(GenerationStarted(conversation_id, assistant.id))
        return SendResult(conversation_id, user.id, assistant.id)

    async def stop(self, conversation_id: str) -> None:
        """Cancel the running generation (if any) and wait until it has saved its state."""
        task = self._running.get(conversation_id)
        if task is None or task.done():
            return
        task.cancel()
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise  # we ourselves are being cancelled, not just the generation

    async def shutdown(self) -> None:
        """Stop every generation; each keeps what it received as `cancelled`."""
        for conversation_id in list(self._running):
            await self.stop(conversation_id)

    def _forget(self, conversation_id: str, task: asyncio.Task[None]) -> None:
        if self._running.get(conversation_id) is task:
            del self._running[conversation_id]
        if not task.cancelled() and task.exception() is not None:
            log.error("generation task failed", exc_info=task.exception())
