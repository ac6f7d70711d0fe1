"""Settings → OCR: which vision model reads images for models that cannot see, and
whether the local engine is there to do it instead."""

from __future__ import annotations

from dataclasses import dataclass, replace

from PySide6.QtCore import QObject, Signal, Slot

from desktop.core.models import ModelRef
from desktop.core.settings import Settings
from desktop.engine.ocr.local_engine import INSTALL_HINT, LocalOcrEngine
from desktop.engine.settings_service import SettingsService
from desktop.ui.viewmodels.settings_undo import SettingsUndo


@dataclass(frozen=True, slots=True)
class OcrChoice:
    """One entry of the picker: a model (None: the local engine) and how it is shown."""

    ref: ModelRef | None
    label: str


class OcrSettingsModel(QObject):
    """The picker offers every configured model that can see (the same capability the
    chat's model picker and request building use), plus the local engine. A chosen
    model that no longer counts as able to see stays listed, marked, so the page
    shows what is saved rather than pretending another choice."""

    changed = Signal()  # the choices, the selection or the local engine's status

    def __init__(
        self,
        service: SettingsService,
        local: LocalOcrEngine | None = None,
        parent: QObject | None = None,
        *,
        undo: SettingsUndo | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        # Saves go through the Settings window's undo, which also reports a failed write.
        self._undo = undo if undo is not None else SettingsUndo(service, self)
        self._local = local if local is not None else LocalOcrEngine()
        service.changed.subscribe(self._on_settings_changed)
        service.model_info_changed.subscribe(self._on_model_info_changed)

    def choices(self) -> list[OcrChoice]:
        settings = self._service.settings
        listed = [OcrChoice(None, self.tr("None — use the local engine"))]
        for provider in settings.providers:
            for ref in provider.model_refs():
                if self._service.capabilities(ref).supports_vision:
                    listed.append(OcrChoice(ref, f"{ref.model} — {provider.name}"))
        chosen = settings.ocr_model
        if chosen is not None and all(c.ref != chosen for c in listed):
            owner = settings.provider(chosen.provider_id)
            where = owner.name if owner is not None else chosen.provider_id
            note = self.tr("cannot see images")
            listed.append(OcrChoice(chosen, f"{chosen.model} — {where} ({note})"))
        return listed

    def current_index(self) -> int:
        chosen = self._service.settings.ocr_model
        return next((i for i, c in enumerate(self.choices()) if c.ref == chosen), 0)

    @property
    def local_installed(self) -> bool:
        return self._local.available

    def local_status(self) -> str:
        if self._local.available:
            return self.tr("Local OCR engine: installed")
        return self.tr("Local OCR engine: not installed — %1").replace("%1", INSTALL_HINT)

    def summary(self) -> str:
        """What happens to images sent to a model without vision, as things stand."""
        chosen = self._service.settings.ocr_model
        if chosen is not None:
            return self.tr("Images are read by %1.").replace("%1", chosen.model)
        if self._local.available:
            return self.tr("Images are read by the local engine, on this computer.")
        return self.tr(
            "No OCR is available: images cannot be sent to models without vision until "
            "you choose an OCR model or install the local engine."
        )

    @Slot(int)
    def choose(self, index: int) -> None:
        """Save the picker's entry `index` as the OCR model."""
        choices = self.choices()
        if not 0 <= index < len(choices):
            return
        settings = self._service.settings
        chosen = choices[index].ref
        if chosen == settings.ocr_model:
            return
        if not self._undo.save(replace(settings, ocr_model=chosen)):
            self.changed.emit()  # not saved: the picker shows the saved choice again

    def _on_settings_changed(self, _settings: Settings) -> None:
        self.changed.emit()

    def _on_model_info_changed(self, _endpoint: str) -> None:
        self.changed.emit()
