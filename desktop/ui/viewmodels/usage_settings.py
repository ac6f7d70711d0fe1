"""Settings → Usage & models: the utility model (titles, suggestions, summaries) and
the price table that turns token counts into a cost.

Prices are typed as text in a table; a row is saved once its input and output prices
are both valid numbers, and emptied prices remove the row's price. Models priced
earlier but no longer configured stay listed, so a price is never dropped unseen.
Everything is saved as it changes, through the Settings window's undo.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from PySide6.QtCore import QObject, Signal, Slot

from desktop.core.errors import SettingsError
from desktop.core.models import ModelRef
from desktop.core.settings import Settings
from desktop.core.usage_settings import ModelPrice, parse_currency, parse_price
from desktop.engine.settings_service import SettingsService
from desktop.ui.viewmodels.settings_undo import SettingsUndo

CURRENCY = "currency"
PRICES = "prices"


@dataclass(frozen=True, slots=True)
class UtilityChoice:
    ref: ModelRef | None  # None: each conversation's own model
    label: str


@dataclass(frozen=True, slots=True)
class PriceRow:
    ref: ModelRef
    label: str
    price: ModelPrice | None


def _number(text: str) -> float | str | None:
    """A typed price: None when empty, the float, or the text itself (to be refused)."""
    text = text.strip().replace(",", ".")
    if not text:
        return None
    try:
        return float(text)
    except ValueError:
        return text


class UsageSettingsModel(QObject):
    changed = Signal()
    # A field's problem ("" once it is fine): the page shows it beside that field.
    problemChanged = Signal(str, str)  # CURRENCY or PRICES, the problem

    def __init__(
        self,
        service: SettingsService,
        parent: QObject | None = None,
        *,
        undo: SettingsUndo | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._undo = undo if undo is not None else SettingsUndo(service, self)
        self._shown = self._shown_part(service.settings)
        service.changed.subscribe(self._on_settings_changed)

    # --- utility model --------------------------------------------------------------

    def utility_choices(self) -> list[UtilityChoice]:
        settings = self._service.settings
        listed = [UtilityChoice(None, self.tr("The conversation's own model"))]
        for provider in settings.providers:
            listed += [
                UtilityChoice(r, f"{r.model} — {provider.name}") for r in provider.model_refs()
            ]
        chosen = settings.utility_model
        if chosen is not None and all(c.ref != chosen for c in listed):
            listed.append(
                UtilityChoice(chosen, self.tr("%1 (not configured)").replace("%1", str(chosen)))
            )
        return listed

    def utility_index(self) -> int:
        chosen = self._service.settings.utility_model
        return next((i for i, c in enumerate(self.utility_choices()) if c.ref == chosen), 0)

    @Slot(int)
    def choose_utility(self, index: int) -> None:
        choices = self.utility_choices()
        if 0 <= index < len(choices):
            self._save(replace(self._service.settings, utility_model=choices[index].ref))

    def after_answer(self) -> tuple[bool, bool]:
        """Whether new chats are titled, and follow-up questions suggested."""
        settings = self._service.settings
        return settings.auto_titles, settings.follow_up_suggestions

    def set_auto_titles(self, on: bool) -> None:
        self._save(replace(self._service.settings, auto_titles=on))

    def set_suggestions(self, on: bool) -> None:
        self._save(replace(self._service.settings, follow_up_suggestions=on))

    # --- prices -------------------------------------------------------------------

    def currency(self) -> str:
        return self._service.settings.currency

    def rows(self) -> list[PriceRow]:
        settings = self._service.settings
        names = {p.id: p.name for p in settings.providers}
        refs = settings.all_models()
        refs += [r for r in settings.prices if r not in refs]
        return [
            PriceRow(
                r, f"{r.model} — {names.get(r.provider_id, r.provider_id)}", settings.prices.get(r)
            )
            for r in refs
        ]

    def set_price(
        self, ref: ModelRef, input_text: str, output_text: str, reasoning_text: str
    ) -> bool:
        """Save (or, all empty, remove) `ref`'s price; False, with the problem, when
        refused."""
        values = [_number(t) for t in (input_text, output_text, reasoning_text)]
        prices = dict(self._service.settings.prices)
        if all(v is None for v in values):
            prices.pop(ref, None)
            return self._save(replace(self._service.settings, prices=prices), PRICES)
        raw = {
            k: v
            for k, v in zip(("input", "output", "reasoning"), values, strict=True)
            if v is not None
        }
        try:
            price = parse_price(raw, f"prices.{ref}")
        except SettingsError as error:
            self.problemChanged.emit(PRICES, str(error))
            return False
        prices[ref] = price
        return self._save(replace(self._service.settings, prices=prices), PRICES)

    @Slot(str)
    def set_currency(self, text: str) -> bool:
        try:
            currency = parse_currency(text)
        except SettingsError as error:
            self.problemChanged.emit(CURRENCY, str(error))
            return False
        return self._save(replace(self._service.settings, currency=currency), CURRENCY)

    def _save(self, settings: Settings, field: str = "") -> bool:
        """Save (text fields and price cells: quick edits make one undo step)."""
        saved = self._undo.save(settings, coalesce=bool(field))
        if saved and field:
            self.problemChanged.emit(field, "")
        return saved

    @staticmethod
    def _shown_part(settings: Settings) -> tuple[object, ...]:
        """What the page shows: an unrelated change (the last model used) must not
        redraw it and lose a half-typed price row."""
        return (
            settings.providers,
            settings.utility_model,
            settings.prices,
            settings.currency,
            settings.auto_titles,
            settings.follow_up_suggestions,
        )

    def _on_settings_changed(self, settings: Settings) -> None:
        shown = self._shown_part(settings)
        if shown != self._shown:
            self._shown = shown
            self.changed.emit()
