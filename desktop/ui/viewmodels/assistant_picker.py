"""The chat header's assistant picker and the conversation's own system prompt.

A new chat has no conversation yet, and making one just because an assistant was
picked would leave an empty chat in the list if the person never writes. So the
choice is remembered (`pending`) and given to the conversation the first message
saves, or the one a workspace folder creates: `adopt` is called with its id before
the chat switches to it.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from desktop.core.assistants import Assistant
from desktop.core.events import ConversationsChanged, EngineEvent
from desktop.core.models import Conversation
from desktop.core.settings import Settings
from desktop.engine.prompt.assistants import assistant_for
from desktop.engine.settings_service import SettingsService
from desktop.engine.turn.chat_service import ChatService


class AssistantPickerModel(QObject):
    changed = Signal()  # the list, the current assistant or the conversation's prompt
    modelWanted = Signal(object)  # a ModelRef: the picked assistant's default model
    conversationCreated = Signal(str)  # a prompt was saved before the first message

    def __init__(
        self, chat: ChatService, settings: SettingsService, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._chat = chat
        self._settings = settings
        self._conversation_id = ""
        self._pending: str | None = None  # the pick for a chat not created yet
        chat.events.subscribe(self._on_engine_event)
        settings.changed.subscribe(self._on_settings_changed)

    def assistants(self) -> tuple[Assistant, ...]:
        return self._settings.settings.all_assistants()

    @property
    def current(self) -> Assistant:
        return assistant_for(self._settings.settings, self._conversation())

    def current_index(self) -> int:
        ids = [a.id for a in self.assistants()]
        return ids.index(self.current.id) if self.current.id in ids else 0

    @property
    def conversation_id(self) -> str:
        return self._conversation_id

    @property
    def pending(self) -> str | None:
        """The assistant picked for the new chat shown (None: the default one)."""
        return None if self._conversation_id else self._pending

    @property
    def override_allowed(self) -> bool:
        return self.current.allow_prompt_override

    @property
    def prompt(self) -> str:
        """The conversation's own prompt ("" when it uses the assistant's)."""
        conversation = self._conversation()
        return (conversation.system_prompt or "") if conversation else ""

    def follow(self, conversation_id: str) -> None:
        """The chat now shows this conversation ("" for a new chat). A new chat talks
        to the default assistant, so its default model, if any, is selected."""
        self._conversation_id = conversation_id
        self._pending = None
        self.changed.emit()
        model = self.current.default_model
        if not conversation_id and model is not None:
            self.modelWanted.emit(model)

    def choose(self, index: int) -> None:
        """Talk to the assistant at `index` from the next message on; its default
        model, if it has one, becomes the chat's selected model."""
        listed = self.assistants()
        if not 0 <= index < len(listed):
            return
        picked = listed[index]
        if self._conversation_id:
            self._chat.set_assistant(self._conversation_id, picked.id)
        else:
            self._pending = picked.id
        self.changed.emit()
        if picked.default_model is not None:
            self.modelWanted.emit(picked.default_model)

    def adopt(self, conversation_id: str) -> None:
        """A conversation was just made for the new chat: it gets the assistant picked
        for it (called before the chat switches to it)."""
        if self._pending is not None and not self._conversation_id:
            self._chat.set_assistant(conversation_id, self._pending)

    def set_prompt(self, text: str) -> None:
        """The conversation's own system prompt ("" returns to the assistant's)."""
        if not self.override_allowed:
            return
        if not self._conversation_id:
            if not text.strip():
                return
            conversation = self._chat.create_conversation()
            self.adopt(conversation.id)
            self._chat.set_system_prompt(conversation.id, text)
            self.conversationCreated.emit(conversation.id)
            return
        self._chat.set_system_prompt(self._conversation_id, text)

    def _conversation(self) -> Conversation | None:
        if not self._conversation_id:
            return Conversation(id="", title="", assistant_id=self._pending)
        return self._chat.conversation(self._conversation_id)

    def _on_engine_event(self, event: EngineEvent) -> None:
        if (
            isinstance(event, ConversationsChanged)
            and self._conversation_id
            and event.conversation_id == self._conversation_id
        ):
            self.changed.emit()

    def _on_settings_changed(self, _settings: Settings) -> None:
        self.changed.emit()
