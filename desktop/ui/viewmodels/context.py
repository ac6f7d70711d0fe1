"""The rolling context of the open conversation as the transcript shows it: where the
"Earlier messages summarised" divider goes, the summary text, and pinned messages.

The divider sits before the first message the summary does not cover, and only while
the stored summary is still valid for the branch shown (the same rule the planner uses
to decide whether to send it). Editing, pinning and "Compress now" go to the chat
service; failures are reported, never raised into Qt.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Signal

from desktop.core.errors import ParleyError
from desktop.core.events import (
    ActivePathChanged,
    ConversationsChanged,
    EngineEvent,
    GenerationFinished,
    GenerationStarted,
)
from desktop.engine.context.planner import covered_count
from desktop.engine.turn.chat_service import ChatService
from desktop.ui.viewmodels.tasks import TaskGroup

log = logging.getLogger(__name__)


class ContextViewModel(QObject):
    changed = Signal()  # the summary, where the divider goes or the pins changed
    busyChanged = Signal(bool)  # "Compress now" is running
    errorOccurred = Signal(str)

    def __init__(self, chat: ChatService, tasks: TaskGroup, parent: QObject | None = None):
        super().__init__(parent)
        self._chat = chat
        self._tasks = tasks
        self._conversation_id = ""
        self._summary_text = ""
        self._divider_before = ""
        self._pinned: frozenset[str] = frozenset()
        self._expanded = False
        self._busy = False
        chat.events.subscribe(self._on_engine_event)

    @property
    def summary_text(self) -> str:
        return self._summary_text

    @property
    def divider_before(self) -> str:
        """The id of the first message sent in full after the summary ("" for none)."""
        return self._divider_before

    @property
    def expanded(self) -> bool:
        """Whether the divider shows the summary (kept while its widget comes and goes)."""
        return self._expanded

    @property
    def busy(self) -> bool:
        return self._busy

    def is_pinned(self, message_id: str) -> bool:
        return message_id in self._pinned

    def follow(self, conversation_id: str) -> None:
        """The chat window now shows this conversation ("" for a new chat)."""
        if conversation_id != self._conversation_id:
            self._expanded = False
        self._conversation_id = conversation_id
        self.reload()

    def set_expanded(self, expanded: bool) -> None:
        if expanded != self._expanded:
            self._expanded = expanded
            self.changed.emit()

    def toggle_pin(self, message_id: str) -> None:
        self.set_pinned(message_id, not self.is_pinned(message_id))

    def set_pinned(self, message_id: str, pinned: bool) -> None:
        try:
            self._chat.pin_message(message_id, pinned)
        except ParleyError as error:
            self.errorOccurred.emit(str(error))
        self.reload()

    def save_summary(self, text: str) -> None:
        """The person's version of the summary; it covers the same messages as before."""
        if not self._conversation_id:
            return
        try:
            self._chat.set_summary_text(self._conversation_id, text)
        except ParleyError as error:
            self.errorOccurred.emit(str(error))
        self.reload()

    def compress_now(self, instructions: str = "") -> None:
        """Summarise all but the last few messages now, in the background."""
        if not self._conversation_id or self._busy:
            return
        self._set_busy(True)
        self._tasks.start(self._compress(self._conversation_id, instructions), "compress-now")

    async def _compress(self, conversation_id: str, instructions: str) -> None:
        try:
            done = await self._chat.compress_now(conversation_id, instructions.strip() or None)
            if not done:
                self.errorOccurred.emit(self.tr("There is nothing to compress yet."))
        except ParleyError as error:
            log.warning("compress now failed: %s", error)
            self.errorOccurred.emit(
                self.tr("The summary could not be written: %1").replace("%1", str(error))
            )
        finally:
            self._set_busy(False)
            if conversation_id == self._conversation_id:
                self.reload()
                if self._divider_before:
                    self.set_expanded(True)  # show what was written

    def reload(self) -> None:
        """Read the summary and pins again; `changed` when anything shown differs."""
        conversation = (
            self._chat.conversation(self._conversation_id) if self._conversation_id else None
        )
        text, before, pinned = "", "", frozenset[str]()
        if conversation is not None:
            pinned = frozenset(conversation.pinned_message_ids)
            ids, _children = self._chat.active_branch_ids(conversation.id)
            count = covered_count(ids, conversation.summary, pinned)
            if conversation.summary is not None and 0 < count < len(ids):
                text, before = conversation.summary.text, ids[count]
        if (text, before, pinned) != (self._summary_text, self._divider_before, self._pinned):
            self._summary_text, self._divider_before, self._pinned = text, before, pinned
            self.changed.emit()

    def _set_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            self.busyChanged.emit(busy)

    def _on_engine_event(self, event: EngineEvent) -> None:
        # A summary is written while a request is prepared (no event of its own), so
        # the start and end of a generation are checked too.
        match event:
            case (
                ActivePathChanged(conversation_id=cid)
                | ConversationsChanged(conversation_id=cid)
                | GenerationStarted(conversation_id=cid)
                | GenerationFinished(conversation_id=cid)
            ) if cid and cid == self._conversation_id:
                self.reload()
