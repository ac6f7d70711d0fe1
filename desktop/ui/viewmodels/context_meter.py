"""The composer's context meter: about how many tokens the next request will carry
(the chat's visible branch plus what is being typed), against the model's context
length, e.g. "12k / 128k".

Estimates come from the same counter the rolling context uses, cached per message,
so typing recounts only the draft and a long chat is counted once.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal, Slot

from desktop.core.events import ActivePathChanged, EngineEvent, GenerationFinished, MessageChanged
from desktop.core.models import MessageStatus, ModelRef
from desktop.engine.chat_service import ChatService
from desktop.engine.context.tokens import estimate_tokens, message_tokens
from desktop.engine.settings_service import SettingsService
from desktop.ui.viewmodels.usage import compact

HIGH = 0.8  # above this share of the context the meter is coloured


def _tr(text: str) -> str:
    return QCoreApplication.translate("ContextMeter", text)


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
            return _tr("%1 tokens").replace("%1", compact(self.tokens))
        return f"{compact(self.tokens)} / {compact(self.limit)}"

    @property
    def tooltip(self) -> str:
        if not self.limit:
            return _tr("About %1 tokens in the next request (context length unknown)").replace(
                "%1", f"{self.tokens:,}"
            )
        share = round(100 * self.tokens / self.limit)
        return (
            _tr("About %1 of %2 tokens of context (%3%) in the next request")
            .replace("%1", f"{self.tokens:,}")
            .replace("%2", f"{self.limit:,}")
            .replace("%3", str(share))
        )


class ContextMeterModel(QObject):
    changed = Signal()

    def __init__(
        self, chat: ChatService, settings: SettingsService, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._chat = chat
        self._settings = settings
        self._conversation_id = ""
        self._model: ModelRef | None = None
        self._history = 0
        self._draft = 0
        self._cache: dict[str, int] = {}  # finished message id -> its estimate
        self._recount = QTimer(self)
        self._recount.setSingleShot(True)
        self._recount.setInterval(0)
        self._recount.timeout.connect(self.recount)
        chat.events.subscribe(self._on_event)

    def reading(self) -> Reading:
        limit = None
        if self._model is not None:
            limit = self._settings.capabilities(self._model).context_length
        return Reading(self._history + self._draft, limit)

    @Slot(str)
    def follow(self, conversation_id: str) -> None:
        if conversation_id != self._conversation_id:
            self._conversation_id = conversation_id
            self._cache.clear()
            self._history = 0
            self._recount.start()
            self.changed.emit()

    def set_model(self, model: ModelRef | None) -> None:
        if model != self._model:
            self._model = model
            self.changed.emit()

    @Slot(str)
    def set_draft(self, text: str) -> None:
        tokens = estimate_tokens(text)
        if tokens != self._draft:
            self._draft = tokens
            self.changed.emit()

    @Slot()
    def recount(self) -> None:
        history = 0
        if self._conversation_id:
            path, _children = self._chat.active_branch_ids(self._conversation_id)
            fresh: dict[str, int] = {}
            for message in self._chat.messages_by_id([i for i in path if i not in self._cache]):
                fresh[message.id] = message_tokens(message)
                if message.status is not MessageStatus.STREAMING:
                    self._cache[message.id] = fresh[message.id]
            history = sum(self._cache.get(i, fresh.get(i, 0)) for i in path)
        if history != self._history:
            self._history = history
            self.changed.emit()

    def _on_event(self, event: EngineEvent) -> None:
        match event:
            case GenerationFinished(conversation_id=cid) if cid == self._conversation_id:
                self._recount.start()
            case ActivePathChanged(conversation_id=cid) if cid == self._conversation_id:
                self._recount.start()
            case MessageChanged(message=message):
                if (
                    message.conversation_id == self._conversation_id
                    and message.status is not MessageStatus.STREAMING
                ):
                    self._cache.pop(message.id, None)  # an edit in place (tool results)
                    self._recount.start()
