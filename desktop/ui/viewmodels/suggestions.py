"""Follow-up suggestions for the open chat: the chips under its latest answer.

They belong to one answer: they appear when the engine publishes them for the answer
that is still the chat's latest, and go as soon as anything moves the chat on (a new
send, another version shown, another chat opened).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal, Slot

from desktop.core.events import (
    ActivePathChanged,
    EngineEvent,
    GenerationStarted,
    MessageChanged,
    SuggestionsReady,
)
from desktop.core.models import Role
from desktop.engine.turn.chat_service import ChatService


class SuggestionsModel(QObject):
    changed = Signal(list)  # list[str]; empty: nothing to show
    chosen = Signal(str)  # the text to send as the next message

    def __init__(self, chat: ChatService, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._chat = chat
        self._conversation_id = ""
        self._message_id = ""
        self._items: list[str] = []
        chat.events.subscribe(self._on_event)

    @property
    def items(self) -> list[str]:
        return list(self._items)

    @property
    def message_id(self) -> str:
        """The answer the suggestions follow ("" when there are none)."""
        return self._message_id

    @Slot(str)
    def follow(self, conversation_id: str) -> None:
        if conversation_id != self._conversation_id:
            self._conversation_id = conversation_id
            self._set("", [])

    @Slot(str)
    def choose(self, text: str) -> None:
        if text in self._items:
            self._set("", [])
            self.chosen.emit(text)

    def _set(self, message_id: str, items: list[str]) -> None:
        changed = items != self._items
        self._message_id, self._items = message_id, items
        if changed:
            self.changed.emit(list(items))

    def _on_event(self, event: EngineEvent) -> None:
        if not self._conversation_id:
            return
        match event:
            case SuggestionsReady(conversation_id=cid, message_id=mid, suggestions=found):
                if cid == self._conversation_id and self._is_latest(mid):
                    self._set(mid, list(found))
            case GenerationStarted(conversation_id=cid) if cid == self._conversation_id:
                self._set("", [])
            case ActivePathChanged(conversation_id=cid) if cid == self._conversation_id:
                self._set("", [])
            case MessageChanged(message=message):
                if message.conversation_id == self._conversation_id and message.role is Role.USER:
                    self._set("", [])

    def _is_latest(self, message_id: str) -> bool:
        conversation = self._chat.conversation(self._conversation_id)
        return conversation is not None and conversation.active_leaf_id == message_id
