"""The tool calls waiting for the person, and their answers.

The engine owns each `ApprovalRequest`; this model only follows `ApprovalsChanged` and
passes the person's answers on. An answer to a request that closed meanwhile (Stop, a
new send) is refused by the request itself, so a late click can never run a call.
`arguments_text` is what the dialog shows of a call's arguments: all of them, unless
they are too long to lay out (then the start, and how much more there is).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from desktop.core.events import ApprovalsChanged, EngineEvent
from desktop.engine.chat_service import ChatService
from desktop.engine.tools.approval import ApprovalRequest, PendingCall
from desktop.ui.viewmodels.tasks import TaskGroup
from desktop.ui.viewmodels.tool_card import MAX_PRETTY_CHARS


def arguments_text(call: PendingCall) -> str:
    """Indented JSON, or the text as written when it is long or not JSON (a plain-text
    view lays it out with `message_item.laid_out_pieces`)."""
    return call.pretty_arguments if len(call.arguments) <= MAX_PRETTY_CHARS else call.arguments


class ApprovalsViewModel(QObject):
    changed = Signal()  # a request opened, changed or closed: read `requests()` again
    revealRequested = Signal(str)  # message id: show its request (the chat's button)

    def __init__(
        self, chat: ChatService, tasks: TaskGroup | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._chat = chat
        chat.events.subscribe(self._on_engine_event)
        if tasks is not None:  # requests restored at start: learn what their tools are
            tasks.start(chat.describe_restored(), "describe-restored-approvals")

    def requests(self) -> list[ApprovalRequest]:
        """Every open request, oldest first, also those restored after a restart."""
        return self._chat.pending_approvals()

    def request(self, message_id: str) -> ApprovalRequest | None:
        return next((r for r in self.requests() if r.message_id == message_id), None)

    def reveal(self, message_id: str) -> None:
        self.revealRequested.emit(message_id)

    def approve_once(self, message_id: str, *call_ids: str) -> bool:
        request = self.request(message_id)
        return request is not None and request.approve_once(*call_ids)

    def always_allow(self, message_id: str, *call_ids: str) -> bool:
        request = self.request(message_id)
        return request is not None and request.always_allow(*call_ids)

    def deny(self, message_id: str, *call_ids: str) -> bool:
        request = self.request(message_id)
        return request is not None and request.deny(*call_ids)

    def answer(self, message_id: str, call_id: str, text: str) -> bool:
        request = self.request(message_id)
        return request is not None and request.answer(call_id, text)

    def _on_engine_event(self, event: EngineEvent) -> None:
        if isinstance(event, ApprovalsChanged):
            self.changed.emit()
