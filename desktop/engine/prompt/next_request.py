"""The request the next send would make, built without sending or saving anything, and
its size in tokens: what the composer's meter shows.

It is built by the code a send runs (`answer_inputs`, which `Generation._inputs` calls
too): the assistant's options, the rolling context's plan, the attached files, the
offered tools, then the prompt pipeline (`prompt/pipeline.py`). What a send would do
first is stood in for, so that nothing is written, started or read twice:

- the person's message is not saved: a stand-in question carries the draft's words, its
  files and the workspace file as it is now (read, not copied into the store);
- images are not read and OCR does not run (`AttachmentReader.preview`), and a
  document whose saved text is gone is read again without being saved;
- a summary the plan would have to write first is counted by its expected size
  (`context.service.unwritten_summary_tokens`);
- MCP servers are not started: the tools known now are counted.

It reads the database and files, so `tokens` blocks: it is meant for a worker thread,
one estimate at a time (the meter runs it so). Reading the branch is the slow part
(about 40 ms for 5,000 messages, half of it the ids alone), so what was read is kept:
the branch until `invalidate` says the conversation changed, finished messages until
`forget` says one changed in place. An estimate while the person only types reads
nothing from the database.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from desktop.core.assistants import Assistant
from desktop.core.models import ContextSnapshot, Conversation, Message, MessageStatus, ModelRef
from desktop.engine.attachments.inputs import WORKSPACE_PREVIEW_ID, AttachmentReader
from desktop.engine.context.service import ContextService
from desktop.engine.context.tokens import estimate_tokens, request_tokens
from desktop.engine.prompt.request_builder import Step
from desktop.engine.prompt.system_prompt import SUMMARY_HEADING
from desktop.engine.tools.service import ToolService
from desktop.engine.turn import versions
from desktop.engine.turn.answer_inputs import answer_inputs
from desktop.engine.turn.ports import ProviderSource
from desktop.engine.turn.retrieval import KnowledgePath, knowledge_path
from desktop.storage.repository import ChatRepository


@dataclass(frozen=True, slots=True)
class Draft:
    """What the composer holds: the words, the files on its tray and the model picked;
    for a new chat (`conversation_id` ""), the assistant picked for it."""

    conversation_id: str
    text: str
    attachment_ids: tuple[str, ...]
    model: ModelRef
    assistant_id: str | None = None


class NextRequest:
    def __init__(
        self,
        repository: ChatRepository,
        providers: ProviderSource,
        assistant_of: Callable[[Conversation | None], Assistant],
        *,
        files: AttachmentReader | None,
        tools: ToolService | None,
        context: ContextService,
        overlay: Callable[[list[Message]], list[Message]] = list,
    ) -> None:
        self._repo = repository
        self._overlay = overlay  # answers not saved yet, as they ended (`unsaved.py`)
        self._providers = providers
        self._assistant_of = assistant_of
        self._files = files
        self._tools = tools
        self._context = context
        self._lock = threading.Lock()  # `invalidate` and `forget` come from the GUI thread
        self._conversation_id = ""
        self._messages: dict[str, Message] = {}  # finished messages of that conversation
        self._changes = 0  # calls of `invalidate` and `forget`: a read older than one is stale
        # The conversation and its branch's ids as last read, and `_changes` then.
        self._branch_read: tuple[int, Conversation | None, list[str]] | None = None
        self._texts: dict[str, str] = {}  # documents' text by attachment id

    def invalidate(self) -> None:
        """The conversation or its branch changed (a message added, a version switched,
        the summary or the workspace file changed): read them again."""
        with self._lock:
            self._changes += 1

    def forget(self, message_id: str) -> None:
        """A finished message changed in place (a tool result written): read it again."""
        with self._lock:
            self._messages.pop(message_id, None)
            self._changes += 1

    def tokens(self, draft: Draft) -> int:
        """About how many tokens the request for sending `draft` would carry. Blocking."""
        conversation, path = self._branch(draft.conversation_id)
        if conversation is None:
            conversation = Conversation(id="", title="", assistant_id=draft.assistant_id)
        question = _question(draft, conversation, path[-1].id if path else None)
        assistant = self._assistant_of(conversation)
        base = self._providers.request_options(draft.model)
        history = [*path, question]
        preview = self._context.preview(conversation, history, assistant.context_threshold)
        window = list(preview.messages)
        files = None
        if self._files is not None:
            files = self._files.preview(
                window,
                base.capabilities.supports_vision,
                workspace=self._files.workspace_preview(conversation.workspace_file),
                texts=self._texts,
            )
        offered = None
        if self._tools is not None and base.capabilities.supports_tools:
            offered = self._tools.offered(conversation)
        inputs, _toolbox = answer_inputs(
            assistant,
            conversation,
            base,
            window=window,
            summary_text=preview.summary_text,
            files=files,
            offered=offered,
            has_tools=self._tools is not None,
            search_on_demand=knowledge_path(assistant, True, offered) is KnowledgePath.ON_DEMAND,
        )
        request = inputs.request(window, draft.model.model, Step.ANSWER)
        unwritten = preview.unwritten_tokens
        if unwritten:
            unwritten += estimate_tokens(SUMMARY_HEADING)
        return request_tokens(request) + unwritten

    def _branch(self, conversation_id: str) -> tuple[Conversation | None, list[Message]]:
        """The conversation as stored now and its active branch, read again only when
        something changed (see the module docstring)."""
        with self._lock:
            if conversation_id != self._conversation_id:
                self._conversation_id = conversation_id
                self._messages = {}
                self._branch_read = None
                self._texts.clear()  # documents of the chat left (read again if it comes back)
            changes = self._changes
            known = dict(self._messages)
            last = self._branch_read
        if not conversation_id:
            return None, []
        if last is not None and last[0] == changes and all(i in known for i in last[2]):
            fresh: list[Message] = []
            conversation, ids = last[1], last[2]
        else:  # (a streaming answer on the branch is never kept: it is read each time)
            conversation, ids, fresh = self._read(conversation_id, set(known))
            with self._lock:
                if changes == self._changes and conversation_id == self._conversation_id:
                    for message in fresh:
                        if message.status is not MessageStatus.STREAMING:
                            self._messages[message.id] = message
                    self._branch_read = (changes, conversation, ids)
        by_id = {**known, **{m.id: m for m in fresh}}
        return conversation, [by_id[i] for i in ids if i in by_id]

    def _read(
        self, conversation_id: str, known: set[str]
    ) -> tuple[Conversation | None, list[str], list[Message]]:
        conversation = self._repo.get_conversation(conversation_id)
        if conversation is None:
            return None, [], []
        if not known:  # the first estimate of this chat: the whole branch, in one read
            path = self._overlay(self._repo.active_path(conversation_id))
            return conversation, [m.id for m in path], path
        ids, _children = self._repo.active_branch_ids(conversation_id)
        fresh = self._repo.messages_by_id([i for i in ids if i not in known])
        return conversation, ids, self._overlay(fresh)


def _question(draft: Draft, conversation: Conversation, parent_id: str | None) -> Message:
    """The message a send would save, with the workspace copy it would make stood in for."""
    workspace = WORKSPACE_PREVIEW_ID if conversation.workspace_file else None
    context = ContextSnapshot(attachment_ids=draft.attachment_ids, workspace_snapshot_id=workspace)
    return versions.user_message(conversation.id, parent_id, draft.text, context)
