"""The workspace folder of the open conversation: where its workspace tools work."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from desktop.core.events import ConversationsChanged, EngineEvent
from desktop.engine.chat_service import ChatService


class WorkspaceModel(QObject):
    folderChanged = Signal(str)  # "" when the conversation has none
    conversationCreated = Signal(str)  # a folder was picked before the first message

    def __init__(self, chat: ChatService, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._chat = chat
        self._conversation_id = ""
        self._folder = ""
        chat.events.subscribe(self._on_engine_event)

    @property
    def folder(self) -> str:
        return self._folder

    def follow(self, conversation_id: str) -> None:
        """The chat window now shows this conversation ("" for a new chat)."""
        self._conversation_id = conversation_id
        self._reload()

    def set_folder(self, folder: str) -> None:
        """Bind the open conversation to `folder` ("" unbinds). A new chat has no
        conversation yet: one is made, so the folder is there for the first message."""
        if not self._conversation_id:
            if not folder:
                return
            conversation = self._chat.create_conversation()
            self._conversation_id = conversation.id
            self._chat.set_workspace(conversation.id, folder)
            self.conversationCreated.emit(conversation.id)
        else:
            self._chat.set_workspace(self._conversation_id, folder or None)
        self._reload()

    def _reload(self) -> None:
        conversation = (
            self._chat.conversation(self._conversation_id) if self._conversation_id else None
        )
        folder = (conversation.workspace or "") if conversation else ""
        if folder != self._folder:
            self._folder = folder
            self.folderChanged.emit(folder)

    def _on_engine_event(self, event: EngineEvent) -> None:
        if (
            isinstance(event, ConversationsChanged)
            and event.conversation_id == self._conversation_id
        ):
            self._reload()
