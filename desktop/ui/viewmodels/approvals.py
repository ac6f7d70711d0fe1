"""The tool calls waiting for the person, and their answers.

The engine owns each `ApprovalRequest`; this model only follows `ApprovalsChanged` and
passes the person's answers on. An answer to a request that closed meanwhile (Stop, a
new send) is refused by the request itself, so a late click can never run a call.

`call_view` words a call for the dialog. A tool not known (yet) is worded as the worst
it could be and cannot be always allowed. Arguments too long to lay out show their start
and their end with a note; Copy all and Save give them exactly as the model wrote them.
Always allow stays possible for such a call: it grants the tool, not these arguments,
and runs this call no differently from Approve once.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Signal, Slot

from desktop.core.events import ApprovalsChanged, EngineEvent
from desktop.core.tools import BUILTIN_SOURCE, ToolRisk
from desktop.engine.tools.approval import ApprovalRequest, PendingCall
from desktop.engine.turn.chat_service import ChatService
from desktop.ui.viewmodels.long_text import ends, ends_note
from desktop.ui.viewmodels.tasks import TaskGroup
from desktop.ui.viewmodels.tool_card import MAX_PRETTY_CHARS
from desktop.ui.viewmodels.transfer import write_atomically


@dataclass(frozen=True, slots=True)
class CallView:
    """One waiting call as the dialog shows it: words and flags, nothing to decide."""

    name: str
    facts: str  # "Source: … · Risk: …"
    about: str  # what the tool does, or why Parley cannot say yet ("" for nothing)
    arguments: str  # the text the dialog lays out (a plain-text view shows its ends)
    cut_note: str  # "" when the arguments are shown whole
    can_always_allow: bool
    always_allow_tip: str


def arguments_text(call: PendingCall) -> str:
    """Indented JSON, or the text as written when it is long or not JSON."""
    return call.pretty_arguments if len(call.arguments) <= MAX_PRETTY_CHARS else call.arguments


def risk_text(risk: ToolRisk | None) -> str:
    """A tool not known (yet) is worded as the worst it could be."""
    if risk is None:
        return QCoreApplication.translate("Approvals", "may change files or run commands")
    return {
        ToolRisk.READ: QCoreApplication.translate("Approvals", "reads only"),
        ToolRisk.WRITE: QCoreApplication.translate("Approvals", "changes files"),
        ToolRisk.SHELL: QCoreApplication.translate("Approvals", "runs commands"),
    }[risk]


def source_text(source: str) -> str:
    if source == BUILTIN_SOURCE:
        return QCoreApplication.translate("Approvals", "built-in")
    if not source:
        return QCoreApplication.translate("Approvals", "unknown")
    return QCoreApplication.translate("Approvals", "MCP server “%1”").replace("%1", source)


def about_text(call: PendingCall) -> str:
    if call.known:
        return call.description
    if call.source:
        return QCoreApplication.translate(
            "Approvals",
            "Parley does not know this tool's description yet: its server has not started. "
            "It is shown here as soon as the server is up.",
        )
    return QCoreApplication.translate("Approvals", "Parley does not know this tool.")


def call_view(call: PendingCall) -> CallView:
    arguments = arguments_text(call)
    return CallView(
        name=call.name,
        facts=QCoreApplication.translate("Approvals", "Source: %1 · Risk: %2")
        .replace("%1", source_text(call.source))
        .replace("%2", risk_text(call.risk)),
        about=about_text(call),
        arguments=arguments,
        cut_note=ends_note(ends(arguments)),
        # A grant is bound to the tool as the person saw it: not for an unknown one.
        can_always_allow=call.known,
        always_allow_tip=""
        if call.known
        else QCoreApplication.translate(
            "Approvals", "Possible once Parley knows what this tool is"
        ),
    )


class ApprovalsViewModel(QObject):
    changed = Signal()  # a request opened, changed or closed: read `requests()` again
    revealRequested = Signal(str)  # message id: show its request (the chat's button)
    argumentsSaved = Signal(str, str, str)  # message id, call id, path: written in full
    saveFailed = Signal(str, str, str)  # message id, call id, what went wrong

    def __init__(
        self, chat: ChatService, tasks: TaskGroup | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._chat = chat
        self._tasks = tasks if tasks is not None else TaskGroup()
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

    @Slot(str, str, str)
    def save_arguments(self, message_id: str, call_id: str, path: str) -> None:
        """Write a waiting call's arguments, exactly as the model wrote them, to `path`."""
        request = self.request(message_id)
        call = next((c for c in request.calls if c.call_id == call_id), None) if request else None
        if call is not None:
            saving = self._save(message_id, call_id, call.arguments, Path(path))
            self._tasks.start(saving, "save-arguments")

    async def _save(self, message_id: str, call_id: str, text: str, path: Path) -> None:
        try:
            await asyncio.to_thread(write_atomically, path, text)
        except OSError as error:
            reason = QCoreApplication.translate("Approvals", "Could not save to %1: %2").replace(
                "%1", str(path)
            )
            self.saveFailed.emit(message_id, call_id, reason.replace("%2", str(error)))
        else:
            self.argumentsSaved.emit(message_id, call_id, str(path))

    def _on_engine_event(self, event: EngineEvent) -> None:
        if isinstance(event, ApprovalsChanged):
            self.changed.emit()
