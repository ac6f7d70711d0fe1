"""Generating one answer (`Generation`: stream, fold, coalesce, persist, finish once);
`runner.py` keeps to at most one running generation per conversation.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from desktop.core.assistants import DEFAULT_ASSISTANT, Assistant
from desktop.core.deadline import sleep_until
from desktop.core.dispatch import EventBus
from desktop.core.errors import ParleyError, ProviderError
from desktop.core.events import EngineEvent, GenerationFinished, MessageChanged, Retrying
from desktop.core.i18n import joined, tr
from desktop.core.limits import DB_WRITE_INTERVAL_S, UI_UPDATE_INTERVAL_S
from desktop.core.memory import MemoryMode
from desktop.core.models import (
    CallState,
    CitationPart,
    Conversation,
    ErrorPart,
    Message,
    MessageStatus,
    ModelRef,
    NoticePart,
    RetryWait,
    ToolCallPart,
    Usage,
    utc_now,
)
from desktop.engine.attachments.inputs import AttachmentReader
from desktop.engine.attachments.text import AttachmentInput
from desktop.engine.context.service import ContextService
from desktop.engine.knowledge.context import citations_of
from desktop.engine.memory.service import MemoryService
from desktop.engine.prompt.request_builder import RequestOptions, Step
from desktop.engine.tools.approval import Answer, ApprovalClosed, ApprovalRequest, PendingCall
from desktop.engine.tools.calls import cancelled, interrupted, unrun
from desktop.engine.tools.gate import apply_answers, run_allowed, settle_calls
from desktop.engine.tools.registry import Toolbox
from desktop.engine.tools.service import MAX_TOOL_STEPS, ToolService
from desktop.engine.turn.answer_inputs import AnswerInputs, answer_inputs
from desktop.engine.turn.answer_memory import AnswerMemory
from desktop.engine.turn.answer_sources import AnswerSources
from desktop.engine.turn.ports import KnowledgeRetriever, ProviderSource
from desktop.engine.turn.retrieval import (
    KnowledgePath,
    cannot_search_notice,
    knowledge_path,
    latest_question,
    retrieve,
    words_only_notice,
)
from desktop.engine.turn.search_ledger import SearchLedger, count_rounds, used_up_notice
from desktop.engine.turn.stream_fold import (
    Draft,
    Folding,
    added_usage,
    close_open,
    seeded_draft,
)
from desktop.engine.turn.throttle import Throttle
from desktop.engine.turn.unsaved import not_saved_text
from desktop.storage.errors import MessageNotFound, StorageError
from desktop.storage.repository import ChatRepository

log = logging.getLogger(__name__)

OpenApproval = Callable[[str, str, list[PendingCall]], ApprovalRequest]


@dataclass(frozen=True, slots=True)
class TurnServices:
    """What every answer a `ChatService` generates shares: where it is saved and
    announced, the providers, tools, files and rolling context, how it asks for
    approval, and where a finished answer the disk had no room for is kept."""

    repository: ChatRepository
    providers: ProviderSource
    events: EventBus[EngineEvent]
    open_approval: OpenApproval | None = None
    keep_unsaved: Callable[[Message], None] | None = None
    tools: ToolService | None = None
    files: AttachmentReader | None = None
    context: ContextService | None = None
    clock: Callable[[], float] | None = None
    max_steps: int = MAX_TOOL_STEPS
    knowledge: KnowledgeRetriever | None = None
    memory: MemoryService | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    """One answer to generate: its `streaming` message, the history it answers (see
    `Generation` for `resume`), its conversation and assistant, and `approval`, a
    request restored after a restart."""

    message: Message
    history: Sequence[Message]
    conversation: Conversation | None = None
    assistant: Assistant = DEFAULT_ASSISTANT
    resume: bool = False
    approval: ApprovalRequest | None = None


class Generation:
    """Drives one `streaming` assistant message to a final status.

    Success, error and cancellation all end in `_finish`, which runs exactly once:
    close open reasoning, stamp `finished_at`, persist, then announce. While streaming,
    the UI hears of changes at most every ~40 ms and the database is written at most
    every half second (`DB_WRITE_INTERVAL_S`), so a crash loses less than a second of text.

    With `resume=True` the message already holds the beginning of the answer (continue
    after a stop or a crash): the draft starts from its parts, so every snapshot, save
    and failure still carries the earlier text, and `history` ends with that partial
    answer (the request adds a nudge to carry on). Otherwise `history` ends with the
    person's message and the draft starts empty.

    While the provider waits to try the request again, the message carries a
    `RetryWait` (reason and seconds left, updated each second) on its live updates only.

    With `tools`, a step ending in tool calls goes through the approval gate
    (`tools/gate.py`): pending calls pause the answer as `awaiting_approval` until the
    `ApprovalRequest` opened by `open_approval` is settled, allowed calls run, and the
    next step is requested, at most `max_steps` model steps in all. `approval` is a
    request restored after a restart: the run starts by applying its answers.
    """

    def __init__(self, services: TurnServices, turn: Turn) -> None:
        message, history, resume = turn.message, turn.history, turn.resume
        if message.model is None:
            raise ValueError("an assistant message needs a model")
        self._repo = services.repository
        self._providers = services.providers
        self._events = services.events
        self._message = message
        self._history = list(history)
        self._clock = services.clock
        self._resume = resume
        prefix = f"call_{message.id[:12]}"
        self._folding = Folding(
            seeded_draft(message.parts, prefix) if resume else Draft(call_id_prefix=prefix)
        )
        self._calls_before = len(self._draft.tool_calls())
        self._started_at = 0.0
        self._finished = False
        self._now: Callable[[], float] = lambda: self._started_at
        self._retry_deadline = 0.0
        self._countdown: asyncio.Task[None] | None = None
        self._tries = 1
        self._offered_tools = False
        self._tools = services.tools
        self._conversation = turn.conversation
        self._open_approval = services.open_approval
        self._restored = turn.approval
        self._request: ApprovalRequest | None = None
        self._max_steps = max(1, services.max_steps)
        self._files = services.files
        self._assistant = turn.assistant
        self._context = services.context
        self._knowledge = services.knowledge
        self._ledger: SearchLedger | None = None  # the answer's searches on demand
        self._memory: AnswerMemory | None = None
        if services.memory is not None and turn.assistant.memory is not MemoryMode.OFF:
            conversation_id = message.conversation_id
            self._memory = AnswerMemory(
                services.memory, turn.assistant, conversation_id, message.id
            )
        self._window: list[Message] = list(history)  # what the context planner sends
        self._activity: str | None = None
        self._status = MessageStatus.STREAMING
        self._notices: list[NoticePart] = []
        self._earlier_steps: Usage | None = None  # tokens of this run's finished steps
        self._keep_unsaved = services.keep_unsaved
        self._save_error: str | None = None  # why the last save failed, while it does

    async def run(self) -> None:
        clock = self._clock or asyncio.get_running_loop().time
        self._now = clock
        self._started_at = clock()
        ui = Throttle(UI_UPDATE_INTERVAL_S, self._publish)
        db = Throttle(DB_WRITE_INTERVAL_S, self._persist)
        model = self._message.model
        assert model is not None
        try:
            provider = await self._providers.provider(model.provider_id)
            inputs, toolbox = await self._inputs(model)
            if self._restored is not None and toolbox is not None:
                await self._settle_restored(self._restored, toolbox)
                kind = Step.TOOLS
            else:
                kind = Step.CONTINUE if self._resume else Step.ANSWER
            for step in range(1, self._max_steps + 1):
                path = self._with_answer() if kind is Step.TOOLS else self._window
                request = inputs.request(path, model.model, kind)
                self._offered_tools = self._offered_tools or bool(request.tools)
                async for event in provider.stream(request):
                    self._folding.add(event, clock())
                    if isinstance(event, Retrying):
                        self._waiting(event, clock())
                        continue
                    if self._countdown is not None:
                        self._stop_countdown()
                    ui.touch()
                    db.touch()
                calls = self._new_calls(clock())
                if not calls or toolbox is None:
                    break
                if step == self._max_steps:
                    self._step_limit(calls)
                    break
                calls = self._admit(calls)
                if not calls:
                    break
                self._earlier_steps = added_usage(self._earlier_steps, self._draft.usage)
                self._draft = replace(self._draft, usage=None)
                await settle_calls(
                    calls, self._tools_service(), toolbox, self._save_calls, self._ask
                )
                if self._ledger is not None and self._ledger.withdrawn:
                    inputs = inputs.without_search()
                kind = Step.TOOLS
        except (asyncio.CancelledError, ApprovalClosed) as stopped:
            if self._request is not None and self._request.suspended:
                # Parley is quitting while the person has not decided: the answer stays
                # `awaiting_approval` on disk and is asked about again at the next start.
                if isinstance(stopped, asyncio.CancelledError):
                    raise
                return
            self._stop_calls()
            self._finish(MessageStatus.CANCELLED, clock())
            if isinstance(stopped, asyncio.CancelledError):
                raise
        except ProviderError as error:
            log.warning(
                "generation %s failed: %s (status %s)",
                self._message.id,
                type(error).__name__,
                error.status_code,
            )
            self._finish(
                MessageStatus.ERROR, clock(), ErrorPart(self._failure(error), error.status_code)
            )
        except ParleyError as error:
            self._finish(MessageStatus.ERROR, clock(), ErrorPart(str(error)))
        except Exception as error:
            log.exception("generation failed unexpectedly")
            text = tr("Something went wrong while generating the answer ({kind}).")
            self._finish(
                MessageStatus.ERROR, clock(), ErrorPart(text.format(kind=type(error).__name__))
            )
        else:
            self._finish(MessageStatus.COMPLETE, clock())
        finally:
            self._stop_countdown()
            ui.cancel()
            db.cancel()
            if self._request is not None:
                self._request.close()

    @property
    def _draft(self) -> Draft:
        """The answer so far: what the stream brought, folded when it is read (for an
        update, a save or the next step), not per chunk."""
        return self._folding.draft

    @_draft.setter
    def _draft(self, draft: Draft) -> None:
        self._folding.draft = draft

    async def _inputs(self, model: ModelRef) -> tuple[AnswerInputs, Toolbox | None]:
        """The assistant's settings, the context window and summary, the files, and the
        tools: prepared once for every step of this answer (`answer_inputs`, as the
        estimate of the next request builds them too)."""
        assistant = self._assistant
        base = self._providers.request_options(model)
        summary = await self._context_window(model, assistant)
        files = await self._read_files(base.capabilities.supports_vision)
        offered = await self._toolbox(base)
        path = knowledge_path(assistant, self._knowledge is not None, offered)
        knowledge = await self._retrieve(assistant) if path is KnowledgePath.BEFORE else ()
        if path is KnowledgePath.UNAVAILABLE:
            self._notices.append(cannot_search_notice())
        inputs, toolbox = answer_inputs(
            assistant,
            self._conversation,
            base,
            window=self._window,
            summary_text=summary,
            files=files,
            offered=offered,
            has_tools=self._tools is not None,
            search_on_demand=path is KnowledgePath.ON_DEMAND,
        )
        if toolbox is not None:
            toolbox = self._with_sources(assistant, toolbox, path is KnowledgePath.ON_DEMAND)
        memory_text = await self._memory_text()
        return replace(inputs, knowledge=knowledge, memory_text=memory_text), toolbox

    async def _memory_text(self) -> str:
        """The memories the answer starts with (a continued one: found again)."""
        if self._memory is None:
            return ""
        block = await self._memory.block(latest_question(self._window))
        if block.words_only_reason:
            text = tr("Your memories were searched by words only: {reason}")
            self._notices.append(NoticePart(text.format(reason=block.words_only_reason)))
        return block.text

    def _with_sources(self, assistant: Assistant, toolbox: Toolbox, on_demand: bool) -> Toolbox:
        """The toolbox whose searches (documents, past chats, the web) number what
        they find with the answer's other sources, on from those it already has; with
        `on_demand`, its `knowledge_search` runs this answer's document searches."""
        assert toolbox.context is not None
        sources = AnswerSources(citations_of(self._draft.closed), self._add_citations)
        context = replace(toolbox.context, sources=sources, memory=self._memory)
        if on_demand:
            assert self._knowledge is not None
            self._ledger = SearchLedger(
                self._knowledge,
                assistant.libraries,
                sources,
                words_only=lambda reason: self._notices.append(words_only_notice(reason)),
            )
            self._ledger.rounds = count_rounds(self._draft.closed)
            context = replace(context, knowledge=self._ledger)
        return replace(toolbox, context=context)

    def _add_citations(self, citations: Sequence[CitationPart]) -> None:
        """Sources a search found go on the answer as they arrive (between steps), so
        the cards can show them as soon as the model cites them."""
        draft = self._draft
        at_end = draft.step_start >= len(draft.closed)
        closed = (*draft.closed, *citations)
        self._draft = replace(
            draft, closed=closed, step_start=len(closed) if at_end else draft.step_start
        )

    def _admit(self, calls: list[ToolCallPart]) -> list[ToolCallPart]:
        """The step's calls that go on to the approval gate; searches over the answer's
        limit are refused here. Nothing left (the model only asked to search again
        after its searches were used up): the answer ends, saying why."""
        if self._ledger is None:
            return calls
        admitted, refused = self._ledger.admit(calls)
        if refused:
            self._save_calls(refused)
        if not admitted:
            self._notices.append(NoticePart(used_up_notice()))
        return admitted

    async def _retrieve(self, assistant: Assistant) -> tuple[CitationPart, ...]:
        """The passages of the assistant's libraries this answer is given; new ones go
        on the answer at once, so the person sees what it was given as it streams."""
        if not self._resume:
            self._activity = tr("Searching your documents…")
            self._publish()
        found = await retrieve(
            assistant, self._window, self._knowledge, self._message, resume=self._resume
        )
        self._activity = None
        if found.notice is not None:
            self._notices.append(found.notice)
        if found.new and found.citations:
            draft = self._draft  # nothing streamed yet: the citations come first
            self._draft = replace(
                draft,
                closed=(*found.citations, *draft.closed),
                step_start=draft.step_start + len(found.citations),
            )
        return found.citations

    async def _context_window(self, model: ModelRef, assistant: Assistant) -> str | None:
        """What of the branch is sent in full, and the summary standing for the rest."""
        if self._context is None or self._conversation is None:
            return None
        result = await self._context.window_for(
            self._conversation,
            self._history,
            model,
            assistant.context_threshold,
            summarising=self._summarising,
        )
        self._activity = None
        self._window = list(result.messages)
        if result.notice:
            self._notices.append(NoticePart(result.notice))
        return result.summary_text

    def _summarising(self) -> None:
        self._activity = tr("Summarising earlier messages…")
        self._publish()

    async def _read_files(self, vision: bool) -> dict[str, AttachmentInput] | None:
        """The window's attachments read once for every step of this answer (None:
        Parley runs without an attachment store)."""
        if self._files is None:
            return None
        prepared = await self._files.prepare(self._window, vision, self._reading_images)
        self._activity = None
        self._notices.extend(prepared.notices)
        return prepared.inputs

    def _reading_images(self, count: int) -> None:
        self._activity = tr("Reading %n image(s) with OCR…", "", count)
        self._publish()

    # --- tools --------------------------------------------------------------------

    def _tools_service(self) -> ToolService:
        assert self._tools is not None
        return self._tools

    async def _toolbox(self, options: RequestOptions) -> Toolbox | None:
        if self._tools is None or not options.capabilities.supports_tools:
            return None
        await self._tools.prepare()
        return self._tools.toolbox(self._conversation)

    def _with_answer(self) -> list[Message]:
        """The history, with the answer so far (calls and results) as its last turn."""
        base = [m for m in self._window if m.id != self._message.id]
        return [*base, self._snapshot(self._draft, MessageStatus.STREAMING)]

    def _new_calls(self, now: float) -> list[ToolCallPart]:
        """The calls of the step just streamed: closed, not yet handled."""
        self._draft = close_open(self._draft, now)
        calls = self._draft.tool_calls()[self._calls_before :]
        return [c for c in calls if c.state is None and c.result is None]

    def _save_calls(self, calls: Sequence[ToolCallPart]) -> None:
        """Write changed calls into the answer, and tell listeners and the database now:
        a call's state must be on disk before anything waits on it."""
        changed = {c.call_id: c for c in calls}
        closed = tuple(
            changed.get(p.call_id, p) if isinstance(p, ToolCallPart) else p
            for p in self._draft.closed
        )
        self._draft = replace(self._draft, closed=closed)
        self._save_now()
        self._publish()

    async def _ask(self, pending: list[PendingCall]) -> dict[str, Answer]:
        """Pause as `awaiting_approval` until the person has decided every call."""
        assert self._open_approval is not None
        self._status = MessageStatus.AWAITING_APPROVAL
        self._save_now()
        self._publish()
        request = self._open_approval(self._message.conversation_id, self._message.id, pending)
        self._request = request
        answers = await request.settled()
        self._request = None
        self._status = MessageStatus.STREAMING
        return answers

    async def _settle_restored(self, request: ApprovalRequest, toolbox: Toolbox) -> None:
        """Go on after a restart: the person's answers to the calls left pending."""
        self._request = request
        answers = await request.settled()
        self._request = None
        calls = self._draft.tool_calls()
        decided = apply_answers(calls, answers, self._tools_service())
        self._save_calls(decided)
        await run_allowed(decided, self._tools_service(), toolbox, self._save_calls)

    def _stop_calls(self) -> None:
        """The run is ending early: pending calls were never run, running ones stopped."""
        if self._request is not None:
            self._request.close()  # a late answer is refused from here on
        self._draft = close_open(self._draft, self._now())
        changed = [
            interrupted(c) if c.state is CallState.PENDING else cancelled(c)
            for c in self._draft.tool_calls()
            if c.state in (CallState.PENDING, CallState.RUNNING)
        ]
        if changed:
            closed = {c.call_id: c for c in changed}
            self._draft = replace(
                self._draft,
                closed=tuple(
                    closed.get(p.call_id, p) if isinstance(p, ToolCallPart) else p
                    for p in self._draft.closed
                ),
            )

    def _step_limit(self, calls: list[ToolCallPart]) -> None:
        text = tr(
            "Parley stopped this answer after {steps} model steps; its last tool calls "
            "were not run."
        ).format(steps=self._max_steps)
        self._save_calls([unrun(c, "The step limit of this answer was reached.") for c in calls])
        self._notices.append(NoticePart(text))

    # --- retries ------------------------------------------------------------------

    def _waiting(self, event: Retrying, now: float) -> None:
        """The provider is about to wait and try again: say so at once, then each second."""
        self._tries = event.attempt
        self._retry_deadline = now + event.delay_s
        self._publish()
        self._stop_countdown()
        self._countdown = asyncio.create_task(self._count_down(), name="retry-countdown")

    async def _count_down(self) -> None:
        while (left := self._retry_deadline - self._now()) > 0:
            # Until the whole number of seconds shown changes, and not a moment before:
            # an early timer would show the same number twice and the next one late.
            await sleep_until(self._retry_deadline - math.ceil(left) + 1, self._now)
            self._publish()

    def _stop_countdown(self) -> None:
        if self._countdown is not None:
            self._countdown.cancel()
            self._countdown = None

    def _retry_wait(self, draft: Draft) -> RetryWait | None:
        retrying = draft.retrying
        if retrying is None:
            return None
        left = max(0, math.ceil(self._retry_deadline - self._now() - 1e-6))
        return RetryWait(retrying.reason, left, retrying.attempt, retrying.max_attempts)

    def _failure(self, error: ProviderError) -> str:
        """The error as the person reads it; after retries, how many tries were made."""
        if self._tries <= 1:
            return str(error)
        return tr("{error} (Parley tried {tries} times.)").format(error=error, tries=self._tries)

    # --- snapshots ----------------------------------------------------------------

    def _snapshot(self, draft: Draft, status: MessageStatus) -> Message:
        # A continued answer keeps the latency of its first token, the original one.
        first_token_ms = self._message.first_token_ms
        if first_token_ms is None and draft.first_token_at is not None:
            first_token_ms = max(0, round((draft.first_token_at - self._started_at) * 1000))
        return replace(
            self._message,
            parts=draft.parts(),
            status=status,
            usage=self._usage(draft),
            first_token_ms=first_token_ms,
            retry=self._retry_wait(draft) if status is MessageStatus.STREAMING else None,
            activity=self._activity if status is MessageStatus.STREAMING else None,
            save_error=self._save_error,
        )

    def _usage(self, draft: Draft) -> Usage | None:
        """Tokens of every model step of this answer (and of the earlier attempt when
        continuing): each step reports only its own."""
        usage = added_usage(self._earlier_steps, draft.usage)
        return added_usage(self._message.usage, usage) if self._resume else usage

    def _publish(self) -> None:
        self._events.emit(MessageChanged(self._snapshot(self._draft, self._status)))

    def _persist(self) -> None:
        """The throttled save while streaming. If it fails (a full disk) the answer goes
        on: what arrived stays on screen, marked as not saved, and the next save tries
        again (clearing the mark once one fits)."""
        try:
            self._save_now()
        except StorageError as error:
            if self._save_error is None:
                log.warning("could not save answer %s: %s", self._message.id, type(error).__name__)
            self._save_error = not_saved_text(error)
            self._publish()

    def _save_now(self) -> None:
        """Save the answer as it stands; raises StorageError. For states that must be
        on disk before anything goes on (a tool call about to run, a pause for approval)."""
        try:
            self._repo.save_message(self._snapshot(self._draft, self._status))
        except MessageNotFound:
            log.warning("message %s vanished while streaming", self._message.id)
            return
        if self._save_error is not None:
            self._save_error = None
            self._publish()

    def _finish(self, status: MessageStatus, now: float, error: ErrorPart | None = None) -> None:
        if self._finished:
            return
        self._finished = True
        draft = close_open(self._draft, now)
        message = self._snapshot(draft, status)
        notice = self._unrun_calls_notice(draft) if status is MessageStatus.COMPLETE else None
        if notice is not None:
            message.parts.append(notice)
        message.parts.extend(self._notices)
        if error is not None:
            message.parts.append(error)
        message.finished_at = utc_now()
        message.save_error = None
        try:
            self._repo.save_message(message)
        except MessageNotFound:
            log.warning("message %s vanished before it finished", message.id)
        except StorageError as failure:
            # Shown as it ended, marked as not saved; the chat service saves it once
            # there is room (before the next message, at the latest when Parley quits).
            log.warning("could not save finished answer %s: %s", message.id, type(failure).__name__)
            message.save_error = not_saved_text(failure)
            if self._keep_unsaved is not None:
                self._keep_unsaved(message)
        except Exception:
            log.exception("could not save the finished message %s", message.id)
        log.info(
            "generation %s ended %s: first token %s ms, %s chars",
            message.id,
            status.value,
            message.first_token_ms,
            len(message.text),
        )
        self._events.emit(MessageChanged(message))
        self._events.emit(GenerationFinished(message.conversation_id, message.id, status))

    def _unrun_calls_notice(self, draft: Draft) -> NoticePart | None:
        """An answer that ends asking for tools is complete (its calls are kept), but
        nothing ran them: the person should know why nothing happened."""
        if self._offered_tools:
            return None  # running tools is the tool loop's business
        calls = draft.tool_calls()[self._calls_before :]
        if not calls:
            return None
        names = joined(dict.fromkeys(call.name or "?" for call in calls))
        return NoticePart(
            tr(
                "The model asked to use a tool ({names}), but no tools are available in "
                "this conversation, so nothing was run."
            ).format(names=names)
        )
