"""The real chat service on a real database, with answers that arrive as scripted engine
events instead of from a model: view-model tests drive the events a generation emits
(started, each streamed update, finished) without an HTTP server or the whole app, so
they run in milliseconds. The tests that start the whole app stay where they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from desktop.core.events import GenerationFinished, GenerationStarted, MessageChanged
from desktop.core.models import (
    Conversation,
    Message,
    MessageStatus,
    ModelRef,
    Role,
    TextPart,
    new_id,
)
from desktop.core.settings import Settings
from desktop.engine.prompt.request_builder import RequestOptions
from desktop.engine.turn.chat_service import ChatService
from desktop.providers.base import ChatProvider
from desktop.storage.database import Database
from desktop.storage.repository import ChatRepository

MODEL = ModelRef("local", "test-model")


class _NoModels:
    """The turn's port with nothing behind it: a scripted chat never asks a model."""

    settings = Settings()

    async def provider(self, provider_id: str) -> ChatProvider:
        raise LookupError(f"a scripted chat has no provider {provider_id!r}")

    def request_options(self, model: ModelRef) -> RequestOptions:
        return RequestOptions()


class ScriptedChat:
    def __init__(self, folder: Path) -> None:
        self.db = Database.open(folder / "parley.db")
        self.repository = ChatRepository(self.db)
        self.chat = ChatService(self.repository, _NoModels())

    def close(self) -> None:
        self.db.close()

    def conversation(self, title: str = "Scripted") -> Conversation:
        return self.chat.create_conversation(title)

    def ask(self, conversation_id: str, text: str, parent_id: str | None = None) -> Message:
        """The person's message, saved and announced."""
        message = Message(new_id(), conversation_id, parent_id, Role.USER, [TextPart(text)])
        self.repository.add_message(message)
        self.chat.events.emit(MessageChanged(message))
        return message

    def answer(
        self,
        question: Message,
        pieces: Sequence[str],
        status: MessageStatus = MessageStatus.COMPLETE,
    ) -> Message:
        """An answer to `question` streamed in `pieces`, as a send and its generation
        announce it: the empty answer saved, started, one update per piece (the text so
        far), the final state, finished."""
        cid = question.conversation_id
        message = Message(
            new_id(), cid, question.id, Role.ASSISTANT, [], MessageStatus.STREAMING, MODEL
        )
        self.repository.add_message(message)
        self.chat.events.emit(MessageChanged(message))
        self.chat.events.emit(GenerationStarted(cid, message.id))
        text = ""
        for piece in pieces:
            text += piece
            message = self._update(message, text, MessageStatus.STREAMING)
        message = self._update(message, text, status)
        self.chat.events.emit(GenerationFinished(cid, message.id, status))
        return message

    def _update(self, message: Message, text: str, status: MessageStatus) -> Message:
        message = Message(
            message.id,
            message.conversation_id,
            message.parent_id,
            message.role,
            [TextPart(text)],
            status,
            message.model,
            created_at=message.created_at,
        )
        self.repository.save_message(message)
        self.chat.events.emit(MessageChanged(message))
        return message
