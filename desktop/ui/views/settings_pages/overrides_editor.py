"""Per-model corrections of what Parley assumes a model can do.

Each flag is Default / On / Off, and "Default" says what the default is for that model
("Default (on)"), so the person sees what they are overriding. Edits are kept per model
and `changed` tells the form, which saves the provider with them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QLocale, QObject, Signal
from PySide6.QtWidgets import QComboBox, QFormLayout, QSpinBox, QWidget

from desktop.core.capabilities import Capabilities
from desktop.core.settings import MAX_CONTEXT_LENGTH, ModelOverride
from desktop.ui.views.labels import PlainLabel
from desktop.ui.views.settings_pages.autosave import save_number_on_pause

# ModelOverride field -> the Capabilities flag it overrides
FLAGS = {
    "vision": "supports_vision",
    "tools": "supports_tools",
    "reasoning": "supports_reasoning",
    "system_role": "supports_system_role",
}
CHOICES = (None, True, False)  # the flag combos' items: Default, On, Off
MAX_CONTEXT = MAX_CONTEXT_LENGTH


class OverridesEditor(QObject):
    """Its fields are rows of the provider form (`add_rows`), so they line up with it."""

    changed = Signal()  # the person changed an override

    def __init__(self, defaults: Callable[[str], Capabilities], parent: QWidget) -> None:
        super().__init__(parent)
        self._defaults = defaults  # model id -> capabilities without an override
        self._overrides: dict[str, ModelOverride] = {}
        self._shown = ""  # the model whose override the fields show
        self._showing = False  # the fields are being filled, not changed by the person
        self.model = QComboBox(parent)
        self.model.setObjectName("OverrideModel")
        self.model.setMinimumWidth(220)
        self.model.currentTextChanged.connect(self._on_model_changed)
        labels = {
            "vision": self.tr("Images (vision)"),
            "tools": self.tr("Tool calls"),
            "reasoning": self.tr("Reasoning"),
            "system_role": self.tr("System prompt role"),
        }
        self.flags: dict[str, QComboBox] = {}
        for name in labels:
            combo = QComboBox(parent)
            combo.setObjectName(f"Override_{name}")
            combo.addItems(["", self.tr("On"), self.tr("Off")])  # "" is "Default (…)"
            combo.setMinimumWidth(160)
            combo.currentIndexChanged.connect(self._on_field_changed)
            self.flags[name] = combo
        self.context = QSpinBox(parent)
        self.context.setRange(0, MAX_CONTEXT)
        self.context.setSingleStep(1024)
        self.context.setGroupSeparatorShown(True)
        self.context.setSuffix(self.tr(" tokens"))
        self.context_pause = save_number_on_pause(self.context, self._on_field_changed)
        self.empty_note = PlainLabel(
            self.tr("Add models above to adjust what they can do."), parent
        )
        self.empty_note.setObjectName("FormHint")
        self._labels = labels
        self._update_enabled()

    # --- the form's side ------------------------------------------------------------

    def add_rows(self, form: QFormLayout) -> None:
        form.addRow(self.tr("Model"), self.model)
        for name, combo in self.flags.items():
            form.addRow(self._labels[name], combo)
        form.addRow(self.tr("Context length"), self.context)
        form.addRow("", self.empty_note)

    def set_overrides(self, overrides: dict[str, ModelOverride], models: list[str]) -> None:
        self._overrides = dict(overrides)
        self._shown = ""
        self.set_models(models)

    def set_models(self, models: list[str]) -> None:
        """The form's model list changed: offer those, keeping the one shown if it stays."""
        self._commit()
        current = self.model.currentText()
        self.model.blockSignals(True)
        self.model.clear()
        self.model.addItems(models)
        self.model.setCurrentIndex(models.index(current) if current in models else 0)
        self.model.blockSignals(False)
        self._show(self.model.currentText())

    def refresh_defaults(self) -> None:
        """The protocol changed, and with it what Parley assumes."""
        self._commit()
        self._show(self.model.currentText())

    def overrides(self) -> dict[str, ModelOverride]:
        self._commit()
        return {m: o for m, o in self._overrides.items() if not o.is_empty}

    # --- fields ---------------------------------------------------------------------

    def _on_model_changed(self, model: str) -> None:
        self.context_pause.flush()  # a number typed for the model shown is its own
        self._commit()
        self._show(model)

    def _on_field_changed(self) -> None:
        if not self._showing:
            self.changed.emit()

    def _commit(self) -> None:
        """Keep the fields' values for the model they show."""
        if not self._shown:
            return
        values: dict[str, object] = {n: CHOICES[c.currentIndex()] for n, c in self.flags.items()}
        values["context_length"] = self.context.value() or None
        override = replace(ModelOverride(), **values)  # type: ignore[arg-type]
        self._overrides[self._shown] = override

    def _show(self, model: str) -> None:
        self._showing = True
        try:
            self._fill(model)
        finally:
            self._showing = False
        self.context_pause.cancel()

    def _fill(self, model: str) -> None:
        self._shown = model
        override = self._overrides.get(model, ModelOverride())
        defaults = self._defaults(model) if model else Capabilities()
        for name, combo in self.flags.items():
            default = getattr(defaults, FLAGS[name])
            combo.setItemText(0, self.tr("Default (on)") if default else self.tr("Default (off)"))
            combo.setCurrentIndex(CHOICES.index(getattr(override, name)))
        known = defaults.context_length
        self.context.setSpecialValueText(
            self.tr("Default (%1)").replace("%1", QLocale().toString(known))
            if known
            else self.tr("Default")
        )
        self.context.setValue(override.context_length or 0)
        self._update_enabled()

    def _update_enabled(self) -> None:
        has_models = self.model.count() > 0
        for widget in (self.model, self.context, *self.flags.values()):
            widget.setEnabled(has_models)
        self.empty_note.setVisible(not has_models)
