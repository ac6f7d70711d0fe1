"""After an answer completes: a title for a new conversation, and follow-up suggestions.

Both are extras, so they start only once `GenerationFinished` has reached every
listener, run as background tasks on the utility model, and stay quiet when they fail
(logged, nothing shown). A new generation in the conversation, or its deletion, cancels
them: their answer would describe a chat that has moved on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from desktop.core.events import (
    ConversationsChanged,
    EngineEvent,
    GenerationFinished,
    GenerationStarted,
    SuggestionsReady,
)
from desktop.core.i18n import tr
from desktop.core.models import Message, MessageStatus, Role
from desktop.engine import suggestions, titles
from desktop.engine.tasks import KeyedTasks
from desktop.engine.turn.chat_service import ChatService, title_from
from desktop.engine.utility import UtilityModel
from desktop.storage.repository import ChatRepository

log = logging.getLogger(__name__)
_TURN = 2  # messages of a turn: the question and its answer


class AfterAnswer:
    def __init__(self, repository: ChatRepository, utility: UtilityModel) -> None:
        self._repo = repository
        self._utility = utility
        self._chat: ChatService | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._tasks = KeyedTasks("after-answer")

    def start(self, chat: ChatService) -> None:
        """Listen to `chat`'s events; titles are renamed and suggestions published there."""
        self._chat = chat
        self._unsubscribe = chat.events.subscribe(self._on_event)

    async def close(self) -> None:
        """Stop listening and cancel (and await) whatever is still running."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        await self._tasks.close()

    async def cancel(self, conversation_id: str) -> None:
        await self._tasks.cancel(conversation_id)

    def running(self, conversation_id: str) -> bool:
        return self._tasks.busy(conversation_id)

    # --- events -------------------------------------------------------------------

    def _on_event(self, event: EngineEvent) -> None:
        match event:
            case GenerationFinished(conversation_id=cid, message_id=mid, status=status):
                if status is MessageStatus.COMPLETE:
                    self._after(cid, mid)
            case GenerationStarted(conversation_id=cid):
                self._tasks.cancel_now(cid)
            case ConversationsChanged(conversation_id=cid) if cid is not None:
                if self._tasks.busy(cid) and self._repo.get_conversation(cid) is None:
                    self._tasks.cancel_now(cid)

    def _after(self, conversation_id: str, message_id: str) -> None:
        # Called from inside the event's delivery: the tasks created here first run
        # on a later turn of the loop, when every listener has the event. Only the ids
        # of the branch are read here, and the last turn's messages, however long the chat.
        ids, _children = self._repo.active_branch_ids(conversation_id)
        if not ids or ids[-1] != message_id:
            return
        path = self._repo.messages_by_id(ids[-_TURN:])
        if len(path) != min(_TURN, len(ids)) or path[-1].model is None:
            return
        settings = self._utility.settings
        if settings.auto_titles and len(ids) == _TURN and path[0].role is Role.USER:
            self._tasks.start(conversation_id, self._title(conversation_id, path))
        if settings.follow_up_suggestions:
            self._tasks.start(conversation_id, self._suggest(conversation_id, path))

    # --- the work -----------------------------------------------------------------

    async def _title(self, conversation_id: str, path: list[Message]) -> None:
        conversation = self._repo.get_conversation(conversation_id)
        question, answer, model = path[0].text, path[-1].text, path[-1].model
        automatic = {title_from(question), tr("New chat")}
        if model is None or conversation is None or conversation.title not in automatic:
            return
        before = conversation.title
        try:
            raw = await self._utility.complete(
                titles.SYSTEM, titles.title_prompt(question, answer), model
            )
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("could not write a title for %s", conversation_id, exc_info=True)
            return
        title = titles.clean_title(raw)
        current = self._repo.get_conversation(conversation_id)
        # The person's own title (set while this ran) always wins.
        if not title or current is None or current.title != before or self._chat is None:
            return
        self._chat.rename_conversation(conversation_id, title)

    async def _suggest(self, conversation_id: str, path: list[Message]) -> None:
        answer = path[-1]
        question = next((m.text for m in reversed(path) if m.role is Role.USER), "")
        if answer.model is None:
            return
        try:
            raw = await self._utility.complete(
                suggestions.SYSTEM,
                suggestions.suggestions_prompt(question, answer.text),
                answer.model,
            )
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("could not write suggestions for %s", answer.id, exc_info=True)
            return
        found = suggestions.parse_suggestions(raw)
        if not found:
            log.info("no usable suggestions for %s", answer.id)
            return
        conversation = self._repo.get_conversation(conversation_id)
        if conversation is None or conversation.active_leaf_id != answer.id or self._chat is None:
            return
        self._chat.events.emit(SuggestionsReady(conversation_id, answer.id, found))
