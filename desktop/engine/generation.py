"""One assistant answer being generated: stream, fold, coalesce, persist, finish once."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from desktop.core.dispatch import EventBus
from desktop.core.errors import ParleyError, ProviderError
from desktop.core.events import EngineEvent, GenerationFinished, MessageChanged
from desktop.core.i18n import tr
from desktop.core.limits import DB_WRITE_INTERVAL_S, UI_UPDATE_INTERVAL_S
from desktop.core.models import ErrorPart, Message, MessageStatus, utc_now
from desktop.engine.request_builder import build_request
from desktop.engine.stream_fold import Draft, close_open, fold
from desktop.engine.throttle import Throttle
from desktop.storage.repository import ChatRepository, MessageNotFound

if TYPE_CHECKING:
    from desktop.engine.chat_service import ProviderSource

log = logging.getLogger(__name__)


class Generation:
    """Drives one `streaming` assistant message to a final status.

    Success, error and cancellation all end in `_finish`, which runs exactly once:
    close open reasoning, stamp `finished_at`, persist, then announce. While streaming,
    the UI hears of changes at most every ~40 ms and the database is written at most
    about once a second, so a crash loses at most about a second of text.
    """

    def __init__(
        self,
        *,
        repository: ChatRepository,
        providers: ProviderSource,
        events: EventBus[EngineEvent],
        message: Message,
        history: Sequence[Message],
        clock: Callable[[], float] | None = None,
    ) -> None:
        if message.model is None:
            raise ValueError("an assistant message needs a model")
        self._repo = repository
        self._providers = providers
        self._events = events
        self._message = message
        self._history = list(history)
        self._clock = clock
        self._draft = Draft()
        self._started_at = 0.0
        self._finished = False

    async def run(self) -> None:
        clock = self._clock or asyncio.get_running_loop().time
        self._started_at = clock()
        ui = Throttle(UI_UPDATE_INTERVAL_S, self._publish)
        db = Throttle(DB_WRITE_INTERVAL_S, self._persist)
        model = self._message.model
        assert model is not None
        try:
            provider = await self._providers.provider(model.provider_id)
            request = build_request(self._history, model.model)
            async for event in provider.stream(request):
                self._draft = fold(self._draft, event, clock())
                ui.touch()
                db.touch()
        except asyncio.CancelledError:
            self._finish(MessageStatus.CANCELLED, clock())
            raise
        except ProviderError as error:
            log.warning(
                "generation %s failed: %s (status %s)",
                self._message.id,
                type(error).__name__,
                error.status_code,
            )
            self._finish(MessageStatus.ERROR, clock(), ErrorPart(str(error), error.status_code))
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
            ui.cancel()
            db.cancel()

    # --- snapshots ----------------------------------------------------------------

    def _snapshot(self, draft: Draft, status: MessageStatus) -> Message:
        first_token_ms = None
        if draft.first_token_at is not None:
            first_token_ms = max(0, round((draft.first_token_at - self._started_at) * 1000))
        return replace(
            self._message,
            parts=draft.parts(),
            status=status,
            usage=draft.usage,
            first_token_ms=first_token_ms,
        )

    def _publish(self) -> None:
        self._events.emit(MessageChanged(self._snapshot(self._draft, MessageStatus.STREAMING)))

    def _persist(self) -> None:
        try:
            self._repo.save_message(self._snapshot(self._draft, MessageStatus.STREAMING))
        except MessageNotFound:
            log.warning("message %s vanished while streaming", self._message.id)

    def _finish(self, status: MessageStatus, now: float, error: ErrorPart | None = None) -> None:
        if self._finished:
            return
        self._finished = True
        draft = close_open(self._draft, now)
        message = self._snapshot(draft, status)
        if error is not None:
            message.parts.append(error)
        message.finished_at = utc_now()
        try:
            self._repo.save_message(message)
        except MessageNotFound:
            log.warning("message %s vanished before it finished", message.id)
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
