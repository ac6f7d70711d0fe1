"""The workspace of the open conversation: the folder its workspace tools work in, and
the file whose current content goes with each message."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal

from desktop.core.events import ConversationsChanged, EngineEvent
from desktop.engine.turn.chat_service import ChatService


class WorkspaceModel(QObject):
    folderChanged = Signal(str)  # "" when the conversation has none
    fileChanged = Signal(str)  # "" when no file is sent with each message
    conversationCreated = Signal(str)  # a folder was picked before the first message

    def __init__(self, chat: ChatService, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._chat = chat
        self._conversation_id = ""
        self._folder = ""
        self._file = ""
        chat.events.subscribe(self._on_engine_event)

    @property
    def folder(self) -> str:
        return self._folder

    @property
    def file(self) -> str:
        return self._file

    def follow(self, conversation_id: str) -> None:
        """The chat window now shows this conversation ("" for a new chat)."""
        self._conversation_id = conversation_id
        self._reload()

    def set_folder(self, folder: str) -> None:
        """Bind the open conversation to `folder` ("" unbinds). A new chat has no
        conversation yet: one is made, so the folder is there for the first message."""
        if self._ensure_conversation(bool(folder)):
            self._chat.set_workspace(self._conversation_id, folder or None)
        self._reload()

    def set_file(self, path: str) -> None:
        """Send `path`'s current content with each message ("" stops). With no folder
        yet, the file's folder becomes the workspace folder too."""
        if not self._ensure_conversation(bool(path)):
            return
        self._chat.set_workspace_file(self._conversation_id, path or None)
        if path and not self._folder:
            self._chat.set_workspace(self._conversation_id, str(Path(path).parent))
        self._reload()

    def _ensure_conversation(self, needed: bool) -> bool:
        """Whether there is a conversation to bind (made for a new chat when `needed`)."""
        if self._conversation_id:
            return True
        if not needed:
            return False
        conversation = self._chat.create_conversation()
        self._conversation_id = conversation.id
        self.conversationCreated.emit(conversation.id)
        return True

    def _reload(self) -> None:
        conversation = (
            self._chat.conversation(self._conversation_id) if self._conversation_id else None
        )
        folder = (conversation.workspace or "") if conversation else ""
        file = (conversation.workspace_file or "") if conversation else ""
        if folder != self._folder:
            self._folder = folder
            self.folderChanged.emit(folder)
        if file != self._file:
            self._file = file
            self.fileChanged.emit(file)

    def _on_engine_event(self, event: EngineEvent) -> None:
        if (
            isinstance(event, ConversationsChanged)
            and event.conversation_id == self._conversation_id
        ):
            self._reload()
