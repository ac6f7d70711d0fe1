"""The composer's context meter: about how many tokens the next request will carry,
against the model's context length, e.g. "12k / 128k".

The number is the size of the request a send would make now, built by the engine's own
request code (`engine/prompt/next_request.py`): the system prompt and the tools offered, the
messages the rolling context would send (the summary and the recent window, once a chat
is past its threshold), the attached documents' text, the images, the workspace file,
and the draft. Building it reads the branch in a worker thread, so it runs after a
change, never on each keystroke: while the person types, the count moves by the draft's
own estimate at once, and the whole request is built again once typing pauses.

The draft is estimated once per change and the figure kept: a keystroke costs one pass
over the draft, and reading the meter costs none. A draft longer than
`INSTANT_DRAFT_CHARS` (a huge paste) is not even estimated on the GUI thread: it is
counted in the worker with the request, and the meter keeps its figure until then.

The build happens in one worker-thread call, and what runs on the loop around it asks
the loop for nothing: qasync steps pending callbacks once more after its loop has
stopped (at exit, and after every test body), where `asyncio.get_running_loop()` fails.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from enum import StrEnum

from PySide6.QtCore import QCoreApplication, QLocale, QObject, QTimer, Signal, Slot

from desktop.core.errors import ParleyError
from desktop.core.events import (
    ActivePathChanged,
    ConversationsChanged,
    EngineEvent,
    GenerationFinished,
    MessageChanged,
)
from desktop.core.models import MessageStatus, ModelRef
from desktop.core.settings import Settings
from desktop.engine.context.tokens import estimate_tokens
from desktop.engine.prompt.next_request import Draft
from desktop.engine.settings_service import SettingsService
from desktop.engine.turn.chat_service import ChatService
from desktop.ui.viewmodels.tasks import TaskGroup
from desktop.ui.viewmodels.usage import compact

log = logging.getLogger(__name__)

TYPING_PAUSE_MS = 300  # the request is built again this long after the last keystroke
# After a chat opens, its messages are read for the transcript first: an estimate reading
# the same branch meanwhile would only slow that down.
OPENING_PAUSE_MS = 500
HIGH = 0.8  # above this share of the context the meter is coloured
# At most this long a draft is estimated on the GUI thread as it changes (about 30 ms
# for CJK text on a slow machine); a longer one is counted in the worker.
INSTANT_DRAFT_CHARS = 100_000


class Level(StrEnum):
    OK = "ok"
    HIGH = "high"  # above 80%
    FULL = "full"  # over the context length


@dataclass(frozen=True, slots=True)
class Reading:
    tokens: int
    limit: int | None

    @property
    def level(self) -> Level:
        if not self.limit:
            return Level.OK
        if self.tokens > self.limit:
            return Level.FULL
        return Level.HIGH if self.tokens > HIGH * self.limit else Level.OK

    @property
    def text(self) -> str:
        if not self.limit:
            return QCoreApplication.translate("ContextMeter", "%1 tokens").replace(
                "%1", compact(self.tokens)
            )
        return f"{compact(self.tokens)} / {compact(self.limit)}"

    @property
    def tooltip(self) -> str:
        if not self.limit:
            return QCoreApplication.translate(
                "ContextMeter", "About %1 tokens in the next request (context length unknown)"
            ).replace("%1", QLocale().toString(self.tokens))
        share = round(100 * self.tokens / self.limit)
        return (
            QCoreApplication.translate(
                "ContextMeter", "About %1 of %2 tokens of context (%3%) in the next request"
            )
            .replace("%1", QLocale().toString(self.tokens))
            .replace("%2", QLocale().toString(self.limit))
            .replace("%3", str(share))
        )


class ContextMeterModel(QObject):
    changed = Signal()

    def __init__(
        self,
        chat: ChatService,
        settings: SettingsService,
        tasks: TaskGroup,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._chat = chat
        self._settings = settings
        self._tasks = tasks
        self._conversation_id = ""
        self._model: ModelRef | None = None
        self._assistant_id: str | None = None
        self._files: tuple[str, ...] = ()
        self._text = ""
        self._draft_tokens = 0  # the estimate of `_counted_text`
        self._counted_text = ""  # the draft as it was last estimated
        # The last request's size, and the estimate of the draft it was built with.
        self._counted: tuple[int, int] | None = None
        self._running: asyncio.Task[None] | None = None
        self._again = False
        self._closed = False
        self._rebuild = QTimer(self)
        self._rebuild.setSingleShot(True)
        self._rebuild.timeout.connect(self._start)
        self._unsubscribe = (
            chat.events.subscribe(self._on_event),
            settings.changed.subscribe(self._on_settings_changed),
        )

    def close(self) -> None:
        """Parley is quitting: build no more requests (the one running is cancelled with
        the view-models' tasks)."""
        self._closed = True
        self._rebuild.stop()
        for unsubscribe in self._unsubscribe:
            unsubscribe()

    @property
    def tokens(self) -> int:
        """The last request built, with the draft as last estimated."""
        draft = self._draft_tokens
        if self._counted is None:
            return draft
        total, built_with = self._counted
        return max(0, total - built_with + draft)

    def reading(self) -> Reading:
        limit = None
        if self._model is not None:
            limit = self._settings.capabilities(self._model).context_length
        return Reading(self.tokens, limit)

    @property
    def idle(self) -> bool:
        """No rebuild is due or running (tests wait for this)."""
        return self._running is None and not self._rebuild.isActive() and not self._again

    @Slot(str)
    def follow(self, conversation_id: str) -> None:
        if conversation_id != self._conversation_id:
            self._conversation_id = conversation_id
            self._counted = None
            self._soon(OPENING_PAUSE_MS)
            self.changed.emit()

    def set_model(self, model: ModelRef | None) -> None:
        if model != self._model:
            self._model = model
            self._soon()
            self.changed.emit()

    def set_assistant(self, assistant_id: str | None) -> None:
        """The assistant a new chat will talk to (its prompt and tools count)."""
        if assistant_id != self._assistant_id:
            self._assistant_id = assistant_id
            self._soon()

    def set_files(self, attachment_ids: list[str]) -> None:
        """The ready files on the composer's tray."""
        if tuple(attachment_ids) != self._files:
            self._files = tuple(attachment_ids)
            self._soon()

    @Slot(str)
    def set_draft(self, text: str) -> None:
        if text != self._text:
            before = self.tokens
            self._text = text
            if len(text) <= INSTANT_DRAFT_CHARS:
                self._draft_tokens, self._counted_text = estimate_tokens(text), text
            self._soon(TYPING_PAUSE_MS)
            if self.tokens != before:
                self.changed.emit()

    def _soon(self, delay_ms: int = 0) -> None:
        """Build the request again in `delay_ms`, or later if a longer wait is running
        (typing restarts its pause; nothing cuts the pause after opening a chat short)."""
        self._rebuild.start(max(delay_ms, self._rebuild.remainingTime()))  # -1: none running

    def _start(self) -> None:
        if self._closed:
            return
        if self._running is not None:
            self._again = True  # one more once this one is done, with what is current then
            return
        if self._model is None and self._counted_text == self._text:
            return  # no request to build, and the draft is counted
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a timer fired after the loop stopped: try when it runs
            self._soon(TYPING_PAUSE_MS)
            return
        request = None
        if self._model is not None:
            request = Draft(
                self._conversation_id,
                self._text,
                self._files,
                self._model,
                self._assistant_id if not self._conversation_id else None,
            )
        job = self._estimate(loop, request, self._text)
        self._running = self._tasks.start(job, "context-meter")

    def _measure(self, request: Draft | None, text: str) -> tuple[int | None, int]:
        """In a worker thread: the request's size (None when there is none) and the
        draft's own estimate."""
        total = None
        if request is not None:
            try:
                total = self._chat.next_request.tokens(request)
            except (ParleyError, OSError) as error:  # a chat deleted meanwhile, a full disk
                log.info("the next request could not be estimated: %s", type(error).__name__)
        return total, estimate_tokens(text)

    async def _estimate(
        self, loop: asyncio.AbstractEventLoop, request: Draft | None, text: str
    ) -> None:
        try:
            total, draft_tokens = await loop.run_in_executor(None, self._measure, request, text)
        finally:
            self._running = None
        before = self.tokens
        if text == self._text:
            self._draft_tokens, self._counted_text = draft_tokens, text
        current = request is not None and (request.conversation_id, request.model) == (
            self._conversation_id,
            self._model,
        )
        if total is not None and current:
            self._counted = (total, draft_tokens)
        if self.tokens != before:
            self.changed.emit()
        if self._again and not self._closed:
            self._again = False
            self._soon()

    def _on_settings_changed(self, _settings: Settings) -> None:
        self._soon()  # capabilities, an assistant's prompt, tool policies
        self.changed.emit()  # the context length may have changed

    def _on_event(self, event: EngineEvent) -> None:
        match event:
            case GenerationFinished(conversation_id=cid) if cid == self._conversation_id:
                self._changed()
            case ActivePathChanged(conversation_id=cid) if cid == self._conversation_id:
                self._changed()
            case ConversationsChanged(conversation_id=cid) if cid == self._conversation_id:
                self._changed()  # its summary, pins, assistant, prompt or workspace file
            case MessageChanged(message=message):
                if (
                    message.conversation_id == self._conversation_id
                    and message.status is not MessageStatus.STREAMING
                ):
                    self._chat.next_request.forget(message.id)  # new, or edited in place
                    self._soon()

    def _changed(self) -> None:
        """The open conversation changed in the database: read it again, soon."""
        self._chat.next_request.invalidate()
        self._soon()
