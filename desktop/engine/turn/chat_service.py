"""The chat service: one entry point for everything that changes conversations.

It saves before it sends, runs at most one generation per conversation, and reports
progress on an `EventBus` as typed events; view-models listen, nothing here knows Qt.

Versions (edit, regenerate, retry, switch, delete, continue) never overwrite a node:
edits and new answers are siblings, and the conversation's active leaf picks the branch
shown and sent. The rules for each action live in `versions.py`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from desktop.core.assistants import Assistant
from desktop.core.dispatch import EventBus
from desktop.core.errors import EmptyMessageError, TooManyAttachmentsError
from desktop.core.events import (
    ActivePathChanged,
    ConversationsChanged,
    EngineEvent,
    GenerationStarted,
    MessageChanged,
)
from desktop.core.i18n import tr
from desktop.core.limits import MAX_ATTACHMENTS_PER_MESSAGE, TITLE_MAX_CHARS
from desktop.core.models import (
    CallState,
    ContextSnapshot,
    Conversation,
    ConversationSummary,
    Message,
    ModelRef,
    ToolCallPart,
    Usage,
)
from desktop.engine.attachments.inputs import AttachmentReader
from desktop.engine.context.service import ContextService
from desktop.engine.memory.service import MemoryService
from desktop.engine.prompt.assistants import assistant_for
from desktop.engine.prompt.next_request import NextRequest
from desktop.engine.tools.approval import ApprovalRequest
from desktop.engine.tools.calls import interrupted, lost
from desktop.engine.tools.service import MAX_TOOL_STEPS, ToolService
from desktop.engine.turn import versions
from desktop.engine.turn.approval_book import ApprovalBook
from desktop.engine.turn.generation import Generation, Turn, TurnServices
from desktop.engine.turn.ports import KnowledgeRetriever, ProviderSource
from desktop.engine.turn.runner import GenerationRunner
from desktop.engine.turn.unsaved import UnsavedAnswers
from desktop.storage.errors import ConversationNotFound, MessageNotFound
from desktop.storage.repository import ChatRepository

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SendResult:
    conversation_id: str
    user_message_id: str
    assistant_message_id: str


def title_from(text: str) -> str:
    """A first title: the first line of the first message, shortened at a word."""
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    if len(line) <= TITLE_MAX_CHARS:
        return line or tr("New chat")
    cut = line[:TITLE_MAX_CHARS].rsplit(" ", 1)[0] or line[:TITLE_MAX_CHARS]
    return cut.rstrip(" ,.;:") + "…"


class ChatService:
    def __init__(
        self,
        repository: ChatRepository,
        providers: ProviderSource,
        *,
        clock: Callable[[], float] | None = None,
        tools: ToolService | None = None,
        max_tool_steps: int = MAX_TOOL_STEPS,
        files: AttachmentReader | None = None,
    ) -> None:
        self._repo = repository
        self._providers = providers
        self._clock = clock
        self._tools = tools
        self._files = files
        self._max_tool_steps = max_tool_steps
        self.events: EventBus[EngineEvent] = EventBus()
        # The person's libraries, searched for answers of assistants that use them; set
        # by the app once the knowledge service (which reports on `events`) exists.
        self.knowledge: KnowledgeRetriever | None = None
        # What the person asked assistants to remember; set by the app.
        self.memory: MemoryService | None = None
        self._runner = GenerationRunner()
        self._approvals = ApprovalBook(repository, self.events, tools, self._resume_after_restart)
        # Finished answers the disk had no room for, laid over every read of messages.
        self._unsaved = UnsavedAnswers(repository, self._announce_saved)

    # --- queries ------------------------------------------------------------------

    def conversations(self) -> list[Conversation]:
        return self._repo.list_conversations()

    def conversation(self, conversation_id: str) -> Conversation | None:
        return self._repo.get_conversation(conversation_id)

    def conversation_summaries(self) -> list[ConversationSummary]:
        return self._repo.list_conversation_summaries()

    def conversation_summary(self, conversation_id: str) -> ConversationSummary | None:
        """None once the conversation is deleted (or archived): it left the list."""
        return self._repo.conversation_summary(conversation_id)

    def active_path(self, conversation_id: str) -> list[Message]:
        return self._unsaved.over(self._repo.active_path(conversation_id))

    def active_branch_ids(
        self, conversation_id: str
    ) -> tuple[list[str], dict[str | None, list[str]]]:
        """The ids of `active_path` and the children map, without decoding any message.

        Showing a long chat starts here: the map gives each message its "‹ 2/3 ›"
        (`versions.version_of`), and the messages are read in the order they are shown
        (`messages_by_id`), the end of the chat first.
        """
        return self._repo.active_branch_ids(conversation_id)

    def usage_by_model(self, conversation_id: str) -> list[tuple[ModelRef | None, Usage]]:
        """The conversation's tokens (every version) summed per model."""
        return self._repo.usage_by_model(conversation_id)

    def messages_by_id(self, message_ids: Sequence[str]) -> list[Message]:
        """These messages in this order; ones deleted in the meantime are left out."""
        return self._unsaved.over(self._repo.messages_by_id(message_ids))

    def messages(self, conversation_id: str) -> list[Message]:
        """Every message of the conversation (every version), in creation order."""
        return self._unsaved.over(self._repo.messages(conversation_id))

    def unsaved_over(self, messages: Sequence[Message]) -> list[Message]:
        """`messages` read from the database, with the answers not saved yet as they
        ended (see `unsaved.py`): for readers outside the service (exports)."""
        return self._unsaved.over(messages)

    def is_generating(self, conversation_id: str) -> bool:
        return self._runner.is_running(conversation_id)

    # --- approvals ----------------------------------------------------------------

    def pending_approvals(self) -> list[ApprovalRequest]:
        """Every open approval request, oldest first (restored ones included)."""
        return self._approvals.pending()

    def approval(self, conversation_id: str) -> ApprovalRequest | None:
        return self._approvals.of_conversation(conversation_id)

    async def describe_restored(self) -> None:
        """See `ApprovalBook.describe_restored`."""
        await self._approvals.describe_restored()

    def _resume_after_restart(self, message: Message, request: ApprovalRequest) -> None:
        """Every call of a restored request is decided: go on where the answer paused."""
        if self._runner.is_running(message.conversation_id):
            request.close()
            return
        self._generate(message, self._repo.branch(message.id), resume=True, approval=request)

    def _settle_calls_of(self, message_id: str) -> None:
        """Calls a crash left pending or running end interrupted: never run later, and
        never shown as still running."""
        message = self._repo.get_message(message_id)
        if message is None:
            return
        open_states = (CallState.PENDING, CallState.RUNNING)
        parts = [
            (interrupted(p) if p.state is CallState.PENDING else lost(p))
            if isinstance(p, ToolCallPart) and p.state in open_states
            else p
            for p in message.parts
        ]
        if parts != message.parts:
            self._repo.save_message(replace(message, parts=parts))

    # --- start-up -----------------------------------------------------------------

    def recover(self) -> list[str]:
        """Answers a crash left `streaming` become `interrupted` (text kept); answers
        paused for approval keep waiting, their requests open again (nothing runs until
        the person decides). Returns the ids of the interrupted answers."""
        ids = self._repo.interrupt_streaming()
        if ids:
            log.info("marked %d interrupted message(s) after an unclean exit", len(ids))
        for message_id in ids:
            self._settle_calls_of(message_id)
        for message in self._repo.awaiting_approval():
            if not self._approvals.restore(message):
                ids.append(message.id)
        return ids

    # --- conversations ------------------------------------------------------------

    def create_conversation(self, title: str | None = None) -> Conversation:
        conversation = self._repo.create_conversation(title or tr("New chat"))
        self.events.emit(ConversationsChanged(conversation.id))
        return conversation

    def new_chat(self, title: str | None = None, assistant_id: str | None = None) -> Conversation:
        """A conversation that is not saved yet: `send` it its first message, and both
        are saved together (or, on a full disk, neither). Sending to it again once it
        was saved goes on in it."""
        return self._repo.new_conversation(title or tr("New chat"), assistant_id)

    def rename_conversation(self, conversation_id: str, title: str) -> Conversation:
        conversation = self._repo.rename_conversation(conversation_id, title)
        self.events.emit(ConversationsChanged(conversation_id))
        return conversation

    def set_workspace(self, conversation_id: str, folder: str | None) -> Conversation:
        """The folder the workspace tools of this conversation work in (None: none).
        The next model step offers them; a running step keeps what it was offered."""
        conversation = self._repo.set_workspace(conversation_id, folder)
        self.events.emit(ConversationsChanged(conversation_id))
        return conversation

    def set_workspace_file(self, conversation_id: str, path: str | None) -> Conversation:
        """The file whose current content goes with each next message (None: none)."""
        conversation = self._repo.set_workspace_file(conversation_id, path)
        self.events.emit(ConversationsChanged(conversation_id))
        return conversation

    def set_assistant(self, conversation_id: str, assistant_id: str | None) -> Conversation:
        """The assistant this conversation talks to from its next request on (None:
        the default one); raises ConversationNotFound."""
        conversation = self._repo.set_assistant(conversation_id, assistant_id)
        self.events.emit(ConversationsChanged(conversation_id))
        return conversation

    def set_system_prompt(self, conversation_id: str, text: str | None) -> Conversation:
        """The conversation's own system prompt, used instead of its assistant's when
        the assistant allows it (empty or None: the assistant's)."""
        conversation = self._repo.set_system_prompt(conversation_id, (text or "").strip() or None)
        self.events.emit(ConversationsChanged(conversation_id))
        return conversation

    def assistant_of(self, conversation: Conversation | None) -> Assistant:
        """The conversation's assistant, from the settings now in force."""
        return assistant_for(self._providers.settings, conversation)

    # --- rolling context ----------------------------------------------------------

    @cached_property
    def _turn_services(self) -> TurnServices:
        return TurnServices(
            self._repo,
            self._providers,
            self.events,
            open_approval=self._approvals.open,
            keep_unsaved=self._unsaved.keep,
            tools=self._tools,
            files=self._files,
            context=self.context,
            clock=self._clock,
            max_steps=self._max_tool_steps,
            knowledge=self.knowledge,
            memory=self.memory,
        )

    def _utility_model(self) -> ModelRef | None:
        return self._providers.settings.utility_model

    @cached_property
    def context(self) -> ContextService:
        """The rolling context of every conversation (summaries, what a request sends)."""
        return ContextService(self._repo, self._providers, self._utility_model)

    @cached_property
    def next_request(self) -> NextRequest:
        """The request the next send would make, for estimating its size."""
        return NextRequest(
            self._repo,
            self._providers,
            self.assistant_of,
            files=self._files,
            tools=self._tools,
            context=self.context,
            overlay=self._unsaved.over,
        )

    def set_summary_text(self, conversation_id: str, text: str) -> Conversation:
        """The person's edit of the rolling summary: it keeps covering the same messages.
        Empty text drops the summary (the next long request writes a new one)."""
        conversation = self._repo.get_conversation(conversation_id)
        if conversation is None:
            raise ConversationNotFound(conversation_id)
        summary = conversation.summary
        if summary is not None:
            edited = replace(summary, text=text.strip()) if text.strip() else None
            conversation = self._repo.set_summary(conversation_id, edited)
            self.events.emit(ConversationsChanged(conversation_id))
        return conversation

    def pin_message(self, message_id: str, pinned: bool) -> Conversation:
        """Pinned messages are always sent in full, never summarised."""
        conversation_id = self._message(message_id).conversation_id
        conversation = self._repo.get_conversation(conversation_id)
        if conversation is None:
            raise ConversationNotFound(conversation_id)
        ids = [i for i in conversation.pinned_message_ids if i != message_id]
        if pinned:
            ids.append(message_id)
        conversation = self._repo.set_pinned_messages(conversation_id, ids)
        self.events.emit(ConversationsChanged(conversation_id))
        return conversation

    async def compress_now(self, conversation_id: str, instructions: str | None = None) -> bool:
        """Summarise everything before the last few messages now; False when there was
        nothing to compress. Raises ParleyError when the model fails."""
        summary = await self.context.compress_now(conversation_id, instructions)
        if summary is not None:
            self.events.emit(ConversationsChanged(conversation_id))
        return summary is not None

    async def delete_conversation(self, conversation_id: str) -> None:
        await self.stop(conversation_id)
        self._repo.delete_conversation(conversation_id)
        self.events.emit(ConversationsChanged(conversation_id))

    # --- sending ------------------------------------------------------------------

    async def send(
        self,
        conversation_id: str | Conversation | None,
        text: str,
        model: ModelRef,
        attachment_ids: Sequence[str] = (),
    ) -> SendResult:
        """Save the person's message and start the answer; returns once both are saved.

        `conversation_id` None starts a new chat titled after the text; a `new_chat`
        is that chat as the person set it up. A new chat is saved with the message and
        its answer's placeholder, in one transaction: if they do not fit on the disk,
        no empty chat is left behind either.

        `attachment_ids` are files already in the attachment store; the message's
        context snapshot keeps them, so a regenerate sends the same files.
        The generation itself runs as a named background task; progress arrives as
        `MessageChanged` events and ends with exactly one `GenerationFinished`.
        """
        if not text.strip() and not attachment_ids:
            raise EmptyMessageError(tr("Type a message first."))
        if len(attachment_ids) > MAX_ATTACHMENTS_PER_MESSAGE:
            raise TooManyAttachmentsError(
                tr("A message can carry at most {count} files.").format(
                    count=MAX_ATTACHMENTS_PER_MESSAGE
                )
            )
        if conversation_id is None:
            conversation_id = self.new_chat(title_from(text))
        unsaved = conversation_id if isinstance(conversation_id, Conversation) else None
        wanted = unsaved.id if unsaved is not None else conversation_id
        assert isinstance(wanted, str)
        found = self._repo.get_conversation(wanted)
        if found is None and unsaved is None:
            raise ConversationNotFound(wanted)
        conversation = found or unsaved
        assert conversation is not None
        conversation_id = conversation.id
        context = ContextSnapshot(attachment_ids=tuple(attachment_ids))
        if self._files is not None:
            context = await self._files.capture(conversation.workspace_file, context)

        async with self._runner.lock(conversation_id):
            await self.stop(conversation_id)
            self.save_unsaved()
            path = self.active_path(conversation_id)
            parent_id = path[-1].id if path else None
            user, assistant = self._add_exchange(
                versions.user_message(conversation_id, parent_id, text, context),
                model,
                new_chat=unsaved,
            )
            self._announce(conversation_id, [user, assistant])
            self._generate(assistant, [*path, user])
        return SendResult(conversation_id, user.id, assistant.id)

    # --- versions -----------------------------------------------------------------

    async def regenerate(self, message_id: str, model: ModelRef | None = None) -> SendResult:
        """A new answer beside an answer (or under a user message); also "retry".

        The old answer stays as a sibling version; the new one becomes the active leaf.
        `model` None: the regenerated answer's model (a user message: its newest one's).
        """
        message = self._message(message_id)
        parent = self._repo.get_message(message.parent_id) if message.parent_id else None
        question = versions.answer_parent(message, parent)
        conversation_id = message.conversation_id
        if model is None:
            model = versions.regenerate_model(message, self._answers_to(question))
        async with self._runner.lock(conversation_id):
            await self.stop(conversation_id)
            self.save_unsaved()
            history = self._branch(question.id)
            assistant = self._add_answer(conversation_id, question.id, model)
            self._announce(conversation_id, [assistant], switched=True)
            self._generate(assistant, history)
        return SendResult(conversation_id, question.id, assistant.id)

    async def edit(self, message_id: str, text: str, model: ModelRef) -> SendResult:
        """Save `text` as a new version of a user message (a sibling) and answer it.

        The original and everything that followed it stay, one "‹ ›" step away.
        """
        if not text.strip():
            raise EmptyMessageError(tr("Type a message first."))
        original = self._message(message_id)
        versions.check_editable(original)
        conversation_id = original.conversation_id
        async with self._runner.lock(conversation_id):
            await self.stop(conversation_id)
            self.save_unsaved()
            parent_id = original.parent_id
            history = self._branch(parent_id) if parent_id else []
            user, assistant = self._add_exchange(
                versions.user_message(conversation_id, parent_id, text, original.context), model
            )
            self._announce(conversation_id, [user, assistant], switched=True)
            self._generate(assistant, [*history, user])
        return SendResult(conversation_id, user.id, assistant.id)

    def switch_version(self, message_id: str, step: int) -> str | None:
        """Show the previous (-1) or next (+1) sibling of a message; returns the new leaf.

        The branch shown is the sibling's newest descendants (where the person last
        was on it). Clamped at the ends: None when there is nowhere to go. Allowed while
        an answer generates: it keeps going on its own branch, saved and announced as
        usual, just not visible until the person switches back (stopping it would
        throw away an answer the person did not ask to stop).
        """
        message = self._message(message_id)
        conversation_id = message.conversation_id
        children = self._repo.children_map(conversation_id)
        target = versions.sibling_step(children.get(message.parent_id, []), message_id, step)
        if target is None:
            return None
        leaf = self._repo.latest_leaf(conversation_id, target)
        self._repo.set_active_leaf(conversation_id, leaf)
        self.events.emit(ActivePathChanged(conversation_id))
        return leaf

    def reveal(self, message_id: str) -> None:
        """Make the branch holding `message_id` the visible one (a search hit, say)."""
        message = self._message(message_id)
        if any(m.id == message_id for m in self._repo.active_path(message.conversation_id)):
            return
        leaf = self._repo.latest_leaf(message.conversation_id, message_id)
        self._repo.set_active_leaf(message.conversation_id, leaf)
        self.events.emit(ActivePathChanged(message.conversation_id))

    def version_info(self, conversation_id: str) -> dict[str, tuple[int, int]]:
        """Per message id: (1-based position among its siblings, sibling count)."""
        return versions.version_info(self._repo.children_map(conversation_id))

    async def delete_message(self, message_id: str) -> None:
        """Delete a message and its whole subtree (see `ChatRepository.delete_message`
        for where the active leaf goes). A generation inside the subtree is stopped
        first, so no task writes into deleted rows."""
        conversation_id = self._message(message_id).conversation_id
        async with self._runner.lock(conversation_id):
            generating = self._runner.message_id(conversation_id)
            if generating and self._writes_under(generating, message_id):
                await self.stop(conversation_id)
            self._repo.delete_message(message_id)
        self.events.emit(ActivePathChanged(conversation_id))
        self.events.emit(ConversationsChanged(conversation_id))

    async def continue_message(self, message_id: str) -> None:
        """Carry on a stopped or interrupted answer, appending to the same message.

        The earlier text stays the beginning of the answer whatever happens next
        (success, error, another stop). Raises CannotContinueError otherwise.
        """
        versions.check_continuable(self._message(message_id))  # fail fast, stop nothing
        conversation_id = self._message(message_id).conversation_id
        async with self._runner.lock(conversation_id):
            await self.stop(conversation_id)
            self.save_unsaved()
            message = self._message(message_id)  # as the stop left it
            versions.check_continuable(message)
            history = self._branch(message_id)
            reopened = versions.reopened(message)
            self._repo.save_message(reopened)
            self._repo.touch(conversation_id)
            self._announce(conversation_id, [reopened])
            self._generate(reopened, [*history[:-1], reopened], resume=True)

    # --- generations --------------------------------------------------------------

    async def stop(self, conversation_id: str) -> None:
        """Cancel the running generation (if any) and wait until it has saved its state.

        Tool calls waiting for approval end as interrupted: they never run."""
        await self._runner.stop(conversation_id)
        self._approvals.close_restored(conversation_id)

    async def shutdown(self) -> None:
        """Stop every generation; each keeps what it received as `cancelled`. Answers
        waiting for approval stay waiting: the next start asks again."""
        self._approvals.suspend_all()
        await self._runner.shutdown()
        await self._unsaved.close()
        self.save_unsaved()

    def save_unsaved(self) -> bool:
        """Save the answers whose last save failed (a full disk); True when none is left.

        Tried before each new message, every few seconds while one waits, and at
        shutdown: the answer on screen reaches the disk once there is room. Each one
        saved is announced again, without its "not saved" error.
        """
        return self._unsaved.save()

    def _announce_saved(self, message: Message) -> None:
        self.events.emit(MessageChanged(message))

    def _message(self, message_id: str) -> Message:
        message = self._unsaved.one(self._repo.get_message(message_id))
        if message is None:
            raise MessageNotFound(message_id)
        return message

    def _branch(self, message_id: str) -> list[Message]:
        """Root ... `message_id`, as shown (answers not saved yet as they ended)."""
        return self._unsaved.over(self._repo.branch(message_id))

    def _writes_under(self, generating: str, message_id: str) -> bool:
        """Whether the generation writing `generating` writes inside `message_id`'s
        subtree. A generation whose own message is already gone (its task only now
        ending) is stopped too: it has nothing left to write into."""
        try:
            return message_id in {m.id for m in self._repo.branch(generating)}
        except MessageNotFound:
            return True

    def _answers_to(self, message: Message) -> list[Message]:
        return [
            m for m in self._repo.messages(message.conversation_id) if m.parent_id == message.id
        ]

    def _add_exchange(
        self, user: Message, model: ModelRef, new_chat: Conversation | None = None
    ) -> tuple[Message, Message]:
        """Save the person's message and its answer's `streaming` placeholder together
        (with `new_chat`, the conversation too, unless it was saved already): if the
        disk is full none is saved, so the text can go back to the composer without a
        copy of it, or an empty chat, left behind."""
        placeholder = versions.placeholder(user.conversation_id, user.id, model)
        saved, answer = self._repo.add_messages([user, placeholder], conversation=new_chat)
        return saved, answer

    def _add_answer(self, conversation_id: str, parent_id: str, model: ModelRef) -> Message:
        """The `streaming` placeholder, saved before any network call; it becomes the leaf."""
        return self._repo.add_message(versions.placeholder(conversation_id, parent_id, model))

    def _announce(
        self, conversation_id: str, changed: Sequence[Message], *, switched: bool = False
    ) -> None:
        # ActivePathChanged first: a view that rebuilds on it already finds the new
        # nodes on the path, and their MessageChanged then only update them.
        if switched:
            self.events.emit(ActivePathChanged(conversation_id))
        for message in changed:
            self.events.emit(MessageChanged(message))
        self.events.emit(ConversationsChanged(conversation_id))

    def _generate(
        self,
        message: Message,
        history: Sequence[Message],
        resume: bool = False,
        approval: ApprovalRequest | None = None,
    ) -> None:
        """Run the generation of `message` as the conversation's one named task."""
        conversation_id = message.conversation_id
        conversation = self._repo.get_conversation(conversation_id)
        turn = Turn(
            message,
            history,
            conversation,
            self.assistant_of(conversation),
            resume=resume,
            approval=approval,
        )
        generation = Generation(self._turn_services, turn)
        self._runner.start(conversation_id, message.id, generation.run())
        self.events.emit(GenerationStarted(conversation_id, message.id))
