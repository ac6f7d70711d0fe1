"""The tool calls waiting for the person, and their answers.

The engine owns each `ApprovalRequest`; this model only follows `ApprovalsChanged` and
passes the person's answers on. An answer to a request that closed meanwhile (Stop, a
new send) is refused by the request itself, so a late click can never run a call.

`call_view` words a call for the dialog: first what allowing it does (see
`approval_preview`), then the tool, its source and its risk. A tool not known (yet) is
worded as the worst it could be, cannot be always allowed, and has Deny as its default.
Arguments too long to lay out show their start and their end with a note; Copy all and
Save give them exactly as the model wrote them. Always allow stays possible for such a
call: it grants the tool, not these arguments, and runs this call no differently from
Allow once.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Signal, Slot

from desktop.core.events import ApprovalsChanged, EngineEvent
from desktop.core.tools import BUILTIN_SOURCE, ToolRisk
from desktop.engine.tools.approval import ApprovalRequest, PendingCall
from desktop.engine.turn.chat_service import ChatService
from desktop.ui.viewmodels.approval_preview import Preview, needs_check, pretty, preview
from desktop.ui.viewmodels.file_change import FileCheck, check_write
from desktop.ui.viewmodels.long_text import ends, ends_note
from desktop.ui.viewmodels.tasks import TaskGroup
from desktop.ui.viewmodels.transfer import write_atomically
from desktop.ui.viewmodels.visible_text import one_line, visible


class RiskLevel(StrEnum):
    """How the dialog colours a risk, and whether Deny is its default answer."""

    LOW = "low"  # reads only
    CAUTION = "caution"  # changes files or other state
    DANGER = "danger"  # runs commands, or not known (yet)


@dataclass(frozen=True, slots=True)
class CallView:
    """One waiting call as the dialog shows it: words and flags, nothing to decide."""

    name: str  # the tool's name, hidden characters marked
    source: str  # "Built-in tool", "From the MCP server “Git”"
    risk: str  # "Runs commands", …: the badge's words
    level: RiskLevel
    about: str  # what the tool does, or why Parley cannot say yet ("" for nothing)
    preview: Preview  # what allowing it does, shown first
    arguments: str  # the text the dialog lays out (a plain-text view shows its ends)
    cut_note: str  # "" when the arguments are shown whole
    can_always_allow: bool
    always_allow_tip: str

    @property
    def risky(self) -> bool:
        """Deny is the default answer: anything that may change or run something."""
        return self.level is not RiskLevel.LOW


MAX_NAME_CHARS = 200
MAX_ABOUT_CHARS = 2_000


def arguments_text(call: PendingCall) -> str:
    """Indented JSON, or the text as written when it is long, not JSON or too deep."""
    return pretty(call.arguments)


def risk_text(risk: ToolRisk | None) -> str:
    """A tool not known (yet) is worded as the worst it could be."""
    if risk is None:
        return QCoreApplication.translate("Approvals", "May change files or run commands")
    return {
        ToolRisk.READ: QCoreApplication.translate("Approvals", "Reads only"),
        ToolRisk.WRITE: QCoreApplication.translate("Approvals", "Changes files"),
        ToolRisk.SHELL: QCoreApplication.translate("Approvals", "Runs commands"),
    }[risk]


def risk_level(risk: ToolRisk | None) -> RiskLevel:
    if risk is ToolRisk.READ:
        return RiskLevel.LOW
    return RiskLevel.CAUTION if risk is ToolRisk.WRITE else RiskLevel.DANGER


def source_text(source: str) -> str:
    if source == BUILTIN_SOURCE:
        return QCoreApplication.translate("Approvals", "Built-in tool")
    if not source:
        return QCoreApplication.translate("Approvals", "Unknown source")
    return QCoreApplication.translate("Approvals", "From the MCP server “%1”").replace(
        "%1", one_line(source, MAX_NAME_CHARS)
    )


def about_text(call: PendingCall) -> str:
    if call.known:
        cut = len(call.description) > MAX_ABOUT_CHARS
        return visible(call.description[:MAX_ABOUT_CHARS]) + (" …" if cut else "")
    if call.source:
        return QCoreApplication.translate(
            "Approvals",
            "Parley does not know this tool's description yet: its server has not started. "
            "It is shown here as soon as the server is up.",
        )
    return QCoreApplication.translate("Approvals", "Parley does not know this tool.")


def call_view(
    call: PendingCall, folder: str | None = None, check: FileCheck | None = None
) -> CallView:
    """`folder`: the chat's workspace folder; `check`: what is at a built-in write's
    path now, once looked at (see `approval_preview.preview`)."""
    arguments = arguments_text(call)
    return CallView(
        name=one_line(call.name, MAX_NAME_CHARS),
        source=source_text(call.source),
        risk=risk_text(call.risk),
        level=risk_level(call.risk),
        about=about_text(call),
        preview=preview(call, folder, check),
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
    previewChanged = Signal(str, str)  # message id, call id: ask `view` again

    def __init__(
        self, chat: ChatService, tasks: TaskGroup | None = None, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._chat = chat
        self._tasks = tasks if tasks is not None else TaskGroup()
        # What is at a built-in write's path, per (message id, call id): None while
        # being looked at or when Parley cannot tell.
        self._checks: dict[tuple[str, str], FileCheck | None] = {}
        chat.events.subscribe(self._on_engine_event)
        if tasks is not None:  # requests restored at start: learn what their tools are
            tasks.start(chat.describe_restored(), "describe-restored-approvals")

    def requests(self) -> list[ApprovalRequest]:
        """Every open request, oldest first, also those restored after a restart."""
        return self._chat.pending_approvals()

    def request(self, message_id: str) -> ApprovalRequest | None:
        return next((r for r in self.requests() if r.message_id == message_id), None)

    def view(self, message_id: str, call: PendingCall) -> CallView:
        """`call` as the dialog shows it, with what its chat's workspace tells: the
        folder a command runs in, and (looked at once, in a worker thread, then
        `previewChanged`) whether a write creates or replaces its file."""
        folder = self._folder(message_id)
        key = (message_id, call.call_id)
        target = needs_check(call, folder)
        if target is not None and folder is not None and key not in self._checks:
            self._checks[key] = None
            self._tasks.start(self._check(key, folder, *target), "approval-preview")
        return call_view(call, folder, self._checks.get(key))

    def _folder(self, message_id: str) -> str | None:
        request = self.request(message_id)
        conversation = self._chat.conversation(request.conversation_id) if request else None
        return conversation.workspace if conversation else None

    async def _check(self, key: tuple[str, str], folder: str, path: str, content: str) -> None:
        found = await asyncio.to_thread(check_write, folder, path, content)
        if key in self._checks and found is not None:
            self._checks[key] = found
            self.previewChanged.emit(*key)

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
            open_ids = {r.message_id for r in self.requests()}
            for key in [k for k in self._checks if k[0] not in open_ids]:
                del self._checks[key]
            self.changed.emit()
