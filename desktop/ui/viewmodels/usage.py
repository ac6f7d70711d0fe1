"""Tokens and cost: the price of each answer (its footer) and the open chat's totals
(a small label in the chat header, details in its tooltip).

Totals count every version of every message: a regenerated answer was paid for too.
They are recounted after each answer, never per streamed token.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLocale, QObject, QTimer, Signal, Slot

from desktop.core.costs import UsageTotals, format_cost, message_cost, usage_totals
from desktop.core.events import ActivePathChanged, EngineEvent, GenerationFinished
from desktop.core.i18n import tr  # lupdate files a count's plural only from tr()
from desktop.core.models import Message
from desktop.core.settings import Settings
from desktop.engine.settings_service import SettingsService
from desktop.engine.turn.chat_service import ChatService

_THOUSAND = 1000
_MILLION = 1_000_000
_WHOLE_FROM = 10  # "1.2k", but "12k"


def compact(count: int) -> str:
    """1234 -> "1.2k", 128000 -> "128k", 2500000 -> "2.5M"."""
    if count < _THOUSAND:
        return str(count)
    for size, unit in ((_MILLION, "M"), (_THOUSAND, "k")):
        if count >= size:
            value = count / size
            text = f"{value:.1f}" if value < _WHOLE_FROM else f"{value:.0f}"
            return text.removesuffix(".0") + unit
    return str(count)


def totals_label(totals: UsageTotals, currency: str) -> str:
    """E.g. "14k tokens · 0.0213 USD"; "" before any usage was reported."""
    tokens = totals.input_tokens + totals.output_tokens
    if not tokens:
        return ""
    label = QCoreApplication.translate("UsageModel", "%1 tokens").replace("%1", compact(tokens))
    if totals.priced:
        label += " · " + format_cost(totals.cost, currency)
    return label


def totals_tooltip(totals: UsageTotals, currency: str) -> str:
    lines = [
        QCoreApplication.translate("UsageModel", "Input: %1 tokens").replace(
            "%1", QLocale().toString(totals.input_tokens)
        ),
        QCoreApplication.translate("UsageModel", "Output: %1 tokens").replace(
            "%1", QLocale().toString(totals.output_tokens)
        ),
    ]
    if totals.reasoning_tokens:
        lines.append(
            QCoreApplication.translate("UsageModel", "of which reasoning: %1").replace(
                "%1", QLocale().toString(totals.reasoning_tokens)
            )
        )
    if totals.priced:
        lines.append(
            QCoreApplication.translate("UsageModel", "Cost: %1").replace(
                "%1", format_cost(totals.cost, currency)
            )
        )
    if totals.unpriced:
        lines.append(
            tr(
                "%Ln of the models used have no price (Settings → Usage & models)",
                "",
                totals.unpriced,
            )
        )
    return "\n".join(lines)


class UsageModel(QObject):
    changed = Signal()  # the totals of the open chat

    def __init__(
        self, chat: ChatService, settings: SettingsService, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._chat = chat
        self._settings = settings
        self._conversation_id = ""
        self._totals = UsageTotals()
        # Counting reads every message of the chat: done once the chat is on screen.
        self._recount = QTimer(self)
        self._recount.setSingleShot(True)
        self._recount.setInterval(0)
        self._recount.timeout.connect(self.recount)
        chat.events.subscribe(self._on_event)
        settings.changed.subscribe(self._on_settings_changed)

    @property
    def totals(self) -> UsageTotals:
        return self._totals

    def label(self) -> str:
        return totals_label(self._totals, self._settings.settings.currency)

    def tooltip(self) -> str:
        return totals_tooltip(self._totals, self._settings.settings.currency)

    def cost_text(self, message: Message) -> str:
        """The answer's cost, or "" when it has no usage or its model no price."""
        settings = self._settings.settings
        cost = message_cost(message, settings.prices)
        return "" if cost is None else format_cost(cost, settings.currency)

    @Slot(str)
    def follow(self, conversation_id: str) -> None:
        self._conversation_id = conversation_id
        if conversation_id:
            self._recount.start()
        else:
            self._recount.stop()
            self._set(UsageTotals())

    @Slot()
    def recount(self) -> None:
        if not self._conversation_id:
            return
        by_model = self._chat.usage_by_model(self._conversation_id)
        self._set(usage_totals(by_model, self._settings.settings.prices))

    def _set(self, totals: UsageTotals) -> None:
        if totals != self._totals:
            self._totals = totals
            self.changed.emit()

    def _on_event(self, event: EngineEvent) -> None:
        match event:
            case GenerationFinished(conversation_id=cid) if cid == self._conversation_id:
                self._recount.start()
            case ActivePathChanged(conversation_id=cid) if cid == self._conversation_id:
                self._recount.start()  # a deleted message takes its usage with it

    def _on_settings_changed(self, _settings: Settings) -> None:
        if self._conversation_id:
            self._recount.start()  # prices or currency may have changed
        self.changed.emit()
