"""What Parley tells the desktop, and when: an answer ended or a tool waits for approval
while the person is looking elsewhere.

Only the decision and the words live here; delivering them is `notify.py`'s job, and
whether the person is looking is the UI's (`attended`), so this stays plain Python.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from desktop.core.events import ApprovalsChanged, EngineEvent, GenerationFinished
from desktop.core.i18n import joined, tr
from desktop.core.models import MessageStatus
from desktop.engine.turn.chat_service import ChatService

BODY_CHARS = 80


@dataclass(frozen=True, slots=True)
class Notice:
    """One notification: which conversation it opens when clicked, and its words."""

    conversation_id: str
    title: str
    body: str


def first_words(text: str, limit: int = BODY_CHARS) -> str:
    """The start of `text` on one line, cut at a word boundary when there is one."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    space = cut.rfind(" ")
    if flat[limit - 1] != " " and space >= limit // 2:  # mid-word: back to the last space
        cut = cut[:space]
    return cut.rstrip(" ,;:.") + "…"


class NoticePolicy:
    """Listens to the engine and hands a `Notice` to `show` when one is due.

    A finished answer (complete or failed; a Stop the person pressed is not news) and an
    approval request each give one notice, and only when notifications are on and the
    person is not looking at that conversation: `attended(conversation_id)` says so.
    """

    def __init__(
        self,
        chat: ChatService,
        show: Callable[[Notice], None],
        *,
        attended: Callable[[str], bool],
        enabled: Callable[[], bool],
    ) -> None:
        self._chat = chat
        self._show = show
        self._attended = attended
        self._enabled = enabled
        self._asked: set[str] = set()  # message ids whose approval request was announced
        self._unsubscribe = chat.events.subscribe(self._on_event)

    def close(self) -> None:
        self._unsubscribe()

    def _on_event(self, event: EngineEvent) -> None:
        if isinstance(event, GenerationFinished):
            notice = self._finished(event)
        elif isinstance(event, ApprovalsChanged):
            notice = self._approval(event)
        else:
            return
        if notice is not None and self._enabled() and not self._attended(notice.conversation_id):
            self._show(notice)

    def _finished(self, event: GenerationFinished) -> Notice | None:
        if event.status not in (MessageStatus.COMPLETE, MessageStatus.ERROR):
            return None
        found = self._chat.messages_by_id([event.message_id])
        if not found:
            return None
        message = found[0]
        if event.status is MessageStatus.ERROR:
            error = message.error
            reason = error.message if error is not None else tr("the answer could not be finished")
            body = first_words(tr("failed: %1").replace("%1", reason))
        else:
            body = first_words(message.text) or tr("The answer is ready.")
        return Notice(event.conversation_id, self._title(event.conversation_id), body)

    def _approval(self, event: ApprovalsChanged) -> Notice | None:
        request = self._chat.approval(event.conversation_id)
        if request is None or request.message_id != event.message_id or not request.is_open:
            self._asked.discard(event.message_id)
            return None
        if event.message_id in self._asked:
            return None  # one decision of several: the person was already told
        self._asked.add(event.message_id)
        tools = joined(dict.fromkeys(call.name for call in request.undecided()))
        body = first_words(tr("needs your approval to run %1").replace("%1", tools))
        return Notice(event.conversation_id, self._title(event.conversation_id), body)

    def _title(self, conversation_id: str) -> str:
        conversation = self._chat.conversation(conversation_id)
        return conversation.title if conversation is not None and conversation.title else "Parley"
