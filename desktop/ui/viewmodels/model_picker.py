"""The composer's model picker: the configured models, the one the next message goes to,
and how hard a reasoning model should think.

The chat view-model owns one and tells it when a chat opens (`follow`: the chat's last
answer picks the model) and what it reads (`follow_model_of`).
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, Signal, Slot

from desktop.core.capabilities import REASONING_EFFORTS
from desktop.core.errors import ParleyError
from desktop.core.models import Message, ModelRef, Role
from desktop.core.settings import Settings
from desktop.engine.settings_service import SettingsService
from desktop.ui.viewmodels.properties import read_only


class ModelPickerModel(QObject):
    needsSetupChanged = Signal(bool)
    modelsChanged = Signal()
    selectedModelChanged = Signal(int)
    reasoningChanged = Signal()  # the selected model's reasoning support, or the effort
    errorOccurred = Signal(str)

    def __init__(self, settings: SettingsService, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._settings = settings
        self._following = False  # no answer's configured model found yet in the open chat
        self._models: list[ModelRef] = []
        self._labels: list[str] = []
        self._selected = -1
        settings.changed.subscribe(self._on_settings_changed)
        self._on_settings_changed(settings.settings)

    # --- properties ---------------------------------------------------------------

    def _get_needs_setup(self) -> bool:
        return not self._models

    needsSetup = read_only(bool, _get_needs_setup, notify=needsSetupChanged)

    def _get_model_labels(self) -> list[str]:
        return list(self._labels)

    modelLabels = read_only(list, _get_model_labels, notify=modelsChanged)

    def _get_selected_model(self) -> int:
        return self._selected

    selectedModel = read_only(int, _get_selected_model, notify=selectedModelChanged)

    def _get_reasoning_supported(self) -> bool:
        """Whether the selected model reasons (and so takes an effort)."""
        model = self.selected_model()
        return model is not None and self._settings.capabilities(model).supports_reasoning

    reasoningSupported = read_only(bool, _get_reasoning_supported, notify=reasoningChanged)

    def _get_reasoning_effort(self) -> str:
        return self._settings.settings.reasoning_effort

    reasoningEffort = read_only(str, _get_reasoning_effort, notify=reasoningChanged)

    # --- slots --------------------------------------------------------------------

    @Slot(int)
    def select_model(self, index: int) -> None:
        if 0 <= index < len(self._models):
            self._following = False  # the person's choice stands
            self._set_selected(index)
            self._settings.remember_model(self._models[index])

    def select_ref(self, ref: ModelRef) -> None:
        """Select a configured model by reference (an assistant's default model)."""
        if ref in self._models:
            self.select_model(self._models.index(ref))

    @Slot(str)
    def set_reasoning_effort(self, effort: str) -> None:
        """Off, low, medium, high or max: kept for every later message, and saved."""
        settings = self._settings.settings
        if effort not in REASONING_EFFORTS or effort == settings.reasoning_effort:
            return
        try:
            self._settings.save(replace(settings, reasoning_effort=effort))
        except (OSError, ParleyError) as error:
            self.errorOccurred.emit(
                self.tr("Could not save settings: %1").replace("%1", str(error))
            )

    def selected_model(self) -> ModelRef | None:
        """The model the next message goes to (None before one is configured)."""
        return self._models[self._selected] if 0 <= self._selected < len(self._models) else None

    # --- following the open chat ----------------------------------------------------

    def follow(self) -> None:
        """A chat was opened: its last answer's model is picked, once it is read."""
        self._following = True

    def follow_model_of(self, messages: list[Message]) -> None:
        """Opening a chat selects the model its last answer came from, if still configured.

        `messages` are the newest not looked at yet (the chat is read from its end): the
        search goes on in older ones as they are read, until an answer's model is found.
        """
        if not self._following:
            return
        for message in reversed(messages):
            if message.role is Role.ASSISTANT and message.model in self._models:
                self._following = False
                self._set_selected(self._models.index(message.model))
                return

    # --- internals ------------------------------------------------------------------

    def _set_selected(self, index: int) -> None:
        if index != self._selected:
            self._selected = index
            self.selectedModelChanged.emit(index)
            self.reasoningChanged.emit()

    def _on_settings_changed(self, settings: Settings) -> None:
        had_models = bool(self._models)
        current = self.selected_model()
        self._models = settings.all_models()
        names = {p.id: p.name for p in settings.providers}
        self._labels = [
            f"{m.model} — {names.get(m.provider_id, m.provider_id)}" for m in self._models
        ]
        self.modelsChanged.emit()
        wanted = current if current in self._models else settings.preferred_model()
        self._selected = -1
        self._set_selected(self._models.index(wanted) if wanted in self._models else -1)
        if had_models != bool(self._models):
            self.needsSetupChanged.emit(not self._models)
        self.reasoningChanged.emit()  # an override or the effort may have changed
