"""Every open approval request, by answer: the ones a running answer awaits, and the
ones restored after a restart, which no task awaits until the person has decided.

A restored request whose calls are all decided resumes its answer (`resume`); a new send
or Stop in its conversation closes it instead, and its calls end interrupted, never run.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from desktop.core.dispatch import EventBus
from desktop.core.events import ApprovalsChanged, EngineEvent, MessageChanged
from desktop.core.models import CallState, Message, MessageStatus, ToolCallPart, utc_now
from desktop.engine.tools.approval import ApprovalRequest, PendingCall
from desktop.engine.tools.calls import described, interrupted, pending_call
from desktop.engine.tools.service import ToolService
from desktop.storage.repository import ChatRepository

log = logging.getLogger(__name__)


class ApprovalBook:
    def __init__(
        self,
        repository: ChatRepository,
        events: EventBus[EngineEvent],
        tools: ToolService | None,
        resume: Callable[[Message, ApprovalRequest], None],
    ) -> None:
        self._repo = repository
        self._events = events
        self._tools = tools
        self._resume = resume  # go on with a restored answer whose calls are decided
        self._requests: dict[str, ApprovalRequest] = {}  # open requests by message id
        self._restored: set[str] = set()  # those no task awaits (back after a restart)
        if tools is not None:
            tools.changed.subscribe(self._describe_restored_calls)

    def pending(self) -> list[ApprovalRequest]:
        """Every open approval request, oldest first (restored ones included)."""
        return [r for r in self._requests.values() if r.is_open]

    def of_conversation(self, conversation_id: str) -> ApprovalRequest | None:
        return next((r for r in self.pending() if r.conversation_id == conversation_id), None)

    def open(
        self, conversation_id: str, message_id: str, calls: list[PendingCall]
    ) -> ApprovalRequest:
        """A request for `calls` of the answer `message_id` (a generation awaits it)."""
        request = ApprovalRequest(conversation_id, message_id, calls, self._changed)
        self._requests[message_id] = request
        self._events.emit(ApprovalsChanged(conversation_id, message_id))
        return request

    def restore(self, message: Message) -> bool:
        """Open again the request of an answer that waited for approval when Parley
        last quit; False (and the answer ends interrupted) when it cannot wait again."""
        if message.id in self._requests:
            return True
        calls = [
            p for p in message.parts if isinstance(p, ToolCallPart) and p.state is CallState.PENDING
        ]
        if not calls or self._tools is None:
            self.interrupt(message)
            return False
        pending = [pending_call(c, self._tools) for c in calls]
        self._restored.add(message.id)
        self.open(message.conversation_id, message.id, pending)
        return True

    async def describe_restored(self) -> None:
        """Restored requests whose tools were not known at start (an MCP server runs only
        once something needs it): list the tools now, starting the servers the person
        allowed (one never allowed asks first), so each waiting call is shown as what
        it is before anyone decides. Nothing runs; the calls stay pending."""
        tools = self._tools
        waiting = [
            self._requests[m]
            for m in self._restored
            if m in self._requests and not all(c.known for c in self._requests[m].calls)
        ]
        if tools is None or not waiting:
            return
        try:
            await tools.prepare()
        except Exception:  # the dialog keeps its cautious wording; the log says why
            log.exception("could not list the tools of restored approvals")
            return
        self._describe_restored_calls(None)

    def close_restored(self, conversation_id: str) -> None:
        """A new send (or Stop) in a conversation whose restored calls still wait: they
        are resolved as interrupted, never run, and the answer ends `interrupted`."""
        for message_id in list(self._restored):
            request = self._requests.get(message_id)
            if request is None or request.conversation_id != conversation_id:
                continue
            request.close()
            message = self._repo.get_message(message_id)
            if message is not None and message.status is MessageStatus.AWAITING_APPROVAL:
                self.interrupt(message)

    def suspend_all(self) -> None:
        """Parley quits: every request stays open in the database, asked again at start."""
        for request in list(self._requests.values()):
            request.suspend()

    def interrupt(self, message: Message) -> None:
        """The answer's pending calls end interrupted (never run), and so does it."""
        parts = [
            interrupted(p) if isinstance(p, ToolCallPart) and p.state is CallState.PENDING else p
            for p in message.parts
        ]
        closed = replace(
            message, parts=parts, status=MessageStatus.INTERRUPTED, finished_at=utc_now()
        )
        self._repo.save_message(closed)
        self._events.emit(MessageChanged(closed))

    def _changed(self, request: ApprovalRequest) -> None:
        message_id = request.message_id
        if not request.is_open:
            if self._requests.get(message_id) is request:
                del self._requests[message_id]
            self._restored.discard(message_id)
        elif message_id in self._restored and request.is_settled():
            self._restored.discard(message_id)
            self._resume_restored(request)
        self._events.emit(ApprovalsChanged(request.conversation_id, message_id))

    def _resume_restored(self, request: ApprovalRequest) -> None:
        """Every call of a restored request is decided: go on where the answer paused."""
        message = self._repo.get_message(request.message_id)
        if message is None:
            request.close()
            return
        self._resume(message, request)

    def _describe_restored_calls(self, _changed: None) -> None:
        """The tools known changed: restored calls take their tools' definitions."""
        tools = self._tools
        if tools is None:
            return
        for message_id in list(self._restored):
            request = self._requests.get(message_id)
            if request is not None:
                request.describe([described(c, tools) for c in request.calls])
