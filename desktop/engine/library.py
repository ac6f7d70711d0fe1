"""The conversation library: search, pinning, export and import.

Everything here changes or reads conversations as a whole; it announces changes on the
chat service's event bus so every window refreshes the same way.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from desktop.core.dispatch import EventBus
from desktop.core.errors import ParleyError
from desktop.core.events import ConversationsChanged, EngineEvent
from desktop.core.i18n import tr
from desktop.core.models import Conversation, Message
from desktop.core.search import SearchHit
from desktop.engine.export.markdown import to_markdown
from desktop.engine.export.parley_json import from_json, to_json
from desktop.engine.importers.run import ExportPreview, ImportOutcome, import_preview
from desktop.storage.attachments import AttachmentStore
from desktop.storage.database import Database
from desktop.storage.errors import ConversationNotFound
from desktop.storage.repository import ChatRepository
from desktop.storage.search import search
from desktop.storage.transfer import ImportResult, import_conversation


class Library:
    def __init__(
        self,
        database: Database,
        repository: ChatRepository,
        events: EventBus[EngineEvent],
        overlay: Callable[[list[Message]], list[Message]] = list,
        attachments: AttachmentStore | None = None,
    ) -> None:
        self._db = database
        self._repo = repository
        self._events = events
        # Where an imported export's images and files go; without it they are left out.
        self._attachments = attachments
        # Answers not saved yet, as they ended (`ChatService.unsaved_over`): an export
        # holds what the person sees, not the last copy that fitted on the disk.
        self._overlay = overlay

    def search(self, query: str, limit: int = 50) -> list[SearchHit]:
        return search(self._db, query, limit)

    def set_pinned(self, conversation_id: str, pinned: bool) -> Conversation:
        conversation = self._repo.set_pinned(conversation_id, pinned)
        self._events.emit(ConversationsChanged(conversation_id))
        return conversation

    def export_markdown(self, conversation_id: str, *, branch_only: bool) -> str:
        conversation, messages = self._load(conversation_id, branch_only)
        return to_markdown(conversation, messages, branch_only=branch_only)

    def export_json(self, conversation_id: str, *, branch_only: bool) -> str:
        conversation, messages = self._load(conversation_id, branch_only)
        return json.dumps(to_json(conversation, messages), ensure_ascii=False, indent=2) + "\n"

    def import_json(self, text: str) -> ImportResult:
        """Import a Parley JSON export; importing the same file again adds nothing."""
        try:
            data: Any = json.loads(text)
        except json.JSONDecodeError as error:
            raise ParleyError(
                tr(
                    "This is not a Parley JSON file (line {line}, column {column}: {problem})."
                ).format(line=error.lineno, column=error.colno, problem=error.msg)
            ) from None
        conversation, messages = from_json(data)
        result = import_conversation(self._db, conversation, messages)
        self._events.emit(ConversationsChanged(result.conversation_id))
        return result

    async def import_export(
        self,
        preview: ExportPreview,
        *,
        progress: Callable[[int, int], None],
        cancelled: Callable[[], bool],
    ) -> ImportOutcome:
        """Import another client's export (read by `importers.run.read_export`) in a
        worker thread, then refresh every conversation list once: hundreds of rows
        announced one by one would rebuild the sidebar hundreds of times. `progress` is
        called from the worker thread."""
        outcome = await asyncio.to_thread(
            import_preview,
            self._db,
            preview,
            progress=progress,
            cancelled=cancelled,
            attachments=self._attachments,
        )
        if outcome.added or outcome.updated:
            self._events.emit(ConversationsChanged(None))
        return outcome

    def _load(self, conversation_id: str, branch_only: bool) -> tuple[Conversation, list[Message]]:
        conversation = self._repo.get_conversation(conversation_id)
        if conversation is None:
            raise ConversationNotFound(conversation_id)
        if branch_only:
            return conversation, self._overlay(self._repo.active_path(conversation_id))
        return conversation, self._overlay(self._repo.messages(conversation_id))
