"""A knowledge library's embedding model: the provider (or none: words only), then one
of the models its endpoint says embed, or any name typed, and the vector size where the
protocol takes one. Choosing a provider asks its endpoint (once a session; Refresh list
asks again); what came back, or why nothing did, shows under the row.

`changed` says the choice shown changed, for the page to save: a provider or a listed
model picked, a name typed and finished, a size stepped (after a pause), or a model the
endpoint listed filling an empty name. `error` is where the page says what is missing."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.core.knowledge import MAX_DIMENSIONS, EmbeddingChoice
from desktop.ui.viewmodels.knowledge_settings import EmbeddingProvider, KnowledgeSettingsModel
from desktop.ui.views.labels import PlainLabel
from desktop.ui.views.settings_pages.autosave import FieldError, save_number_on_pause

PROVIDER_WIDTH = 280  # px, at most: "None — search by words only" fits


class EmbeddingPicker(QWidget):
    changed = Signal()

    def __init__(self, model: KnowledgeSettingsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._providers: list[EmbeddingProvider] = []
        self.provider = QComboBox(self)
        # Never as wide as "None — search by words only": the row fits a narrow dialog.
        self.provider.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.provider.setMinimumContentsLength(12)
        self.provider.setMaximumWidth(PROVIDER_WIDTH)  # the model's name takes the rest
        self.provider.currentIndexChanged.connect(self._on_provider_picked)
        self.model = QComboBox(self)
        self.model.setEditable(True)  # any model the endpoint did not list
        self.model.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        model_edit = self.model.lineEdit()
        if model_edit is not None:  # (editable: it has one)
            model_edit.setPlaceholderText(self.tr("Model name"))
            model_edit.editingFinished.connect(self.changed)
        self.model.activated.connect(lambda _index: self.changed.emit())
        self.model.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.model.setMinimumContentsLength(14)
        self.list_button = QPushButton(self.tr("Refresh list"), self)
        self.list_button.setToolTip(self.tr("Ask the provider for its embedding models"))
        self.list_button.clicked.connect(self._list_again)
        self.note = PlainLabel("", self)
        self.note.setObjectName("FormHint")
        self.note.setWordWrap(True)
        self.dimensions = QSpinBox(self)
        self.dimensions.setRange(0, MAX_DIMENSIONS)
        self.dimensions.setSingleStep(128)
        self.dimensions.setSpecialValueText(self.tr("Model's default"))
        self.dimensions.setMaximumWidth(140)
        self.dimensions_pause = save_number_on_pause(self.dimensions, self.changed.emit)
        self.error = FieldError(self)
        self.dimensions_label = PlainLabel(self.tr("Dimensions"), self)
        hint = PlainLabel(
            self.tr(
                "Without an embedding model a library is searched by its words only. "
                "Changing the model embeds every passage again; searching by words "
                "keeps working meanwhile."
            ),
            self,
        )
        hint.setObjectName("FormHint")
        hint.setWordWrap(True)

        row = QHBoxLayout()
        row.addWidget(self.provider, 2)
        row.addWidget(self.model, 3)
        row.addWidget(self.list_button)
        row.addStretch()  # words only: the provider alone keeps to the left
        dimensions_row = QHBoxLayout()
        dimensions_row.addWidget(self.dimensions_label)
        dimensions_row.addWidget(self.dimensions)
        dimensions_row.addStretch(1)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(4)
        column.addLayout(row)
        column.addWidget(self.error)
        column.addWidget(self.note)
        column.addLayout(dimensions_row)
        column.addWidget(hint)
        model.embeddingModelsChanged.connect(self._on_models_listed)

    def show_choice(self, chosen: EmbeddingChoice | None) -> None:
        """The providers offered, the chosen one selected with its model and size."""
        self._providers = self._model.embedding_providers(chosen)
        wanted = chosen.provider_id if chosen else None
        index = next((i for i, e in enumerate(self._providers) if e.provider_id == wanted), 0)
        self.provider.blockSignals(True)
        self.provider.clear()
        for entry in self._providers:
            self.provider.addItem(entry.label)
        self.provider.setCurrentIndex(index)
        self.provider.blockSignals(False)
        self._show_provider(chosen.model if chosen else "")
        self._set_dimensions((chosen.dimensions if chosen else None) or 0)
        self.error.clear_error()

    def refresh(self) -> None:
        """Providers changed: offer them now, keeping the choice on show (a model name
        still missing, and the error that says so, too)."""
        if self._providers:
            before, dimensions, error = self.choice(), self.dimensions.value(), self.error.error
            self.show_choice(before or self._typed_provider_only())
            self._set_dimensions(dimensions)
            if self.choice() != before:  # the missing name filled with a listed model
                self.changed.emit()
            elif error:
                self.error.say(error)

    def _typed_provider_only(self) -> EmbeddingChoice | None:
        """The provider picked while no model is named: kept picked on a refresh."""
        entry = self._picked()
        if entry is None or entry.provider_id is None:
            return None
        return EmbeddingChoice(entry.provider_id, "")

    def _set_dimensions(self, value: int) -> None:
        self.dimensions.blockSignals(True)  # shown, not changed by the person
        self.dimensions.setValue(value)
        self.dimensions.blockSignals(False)

    def choice(self) -> EmbeddingChoice | None:
        """The chosen model, or None for words only (or a provider with no model named:
        see `lacks_model`)."""
        entry = self._picked()
        model = self.model.currentText().strip()
        if entry is None or entry.provider_id is None or not model:
            return None
        dimensions = self.dimensions.value() if entry.sized and self.dimensions.value() else None
        return EmbeddingChoice(entry.provider_id, model, dimensions)

    def lacks_model(self) -> bool:
        """A provider is chosen but no model is named."""
        entry = self._picked()
        return entry is not None and entry.provider_id is not None and self.choice() is None

    def _picked(self) -> EmbeddingProvider | None:
        index = self.provider.currentIndex()
        return self._providers[index] if 0 <= index < len(self._providers) else None

    def _show_provider(self, model: str) -> None:
        """The picked provider's models (`model` typed in, or the first offered), its
        note, and the size box where its protocol takes one; its endpoint is asked."""
        entry = self._picked()
        provider_id = entry.provider_id if entry else None
        for widget in (self.model, self.list_button, self.note):
            widget.setVisible(provider_id is not None)
        sized = entry is not None and entry.sized
        self.dimensions.setVisible(sized)
        self.dimensions_label.setVisible(sized)
        if provider_id is None:
            return
        self._fill_models(provider_id, model)
        self._model.list_embedding_models(provider_id)

    def _fill_models(self, provider_id: str, model: str | None = None) -> None:
        """The provider's models in the list; `model` (None: what is typed) kept."""
        text = self.model.currentText() if model is None else model
        offered = self._model.embedding_models(provider_id)
        self.model.clear()
        self.model.addItems(offered)
        self.model.setCurrentText(text or (offered[0] if offered else ""))
        note = self._model.embedding_note(provider_id)
        self.note.setText(note)
        self.note.setVisible(bool(note))

    def _on_provider_picked(self, _index: int) -> None:
        self._show_provider("")
        self.changed.emit()

    def _on_models_listed(self, provider_id: str) -> None:
        entry = self._picked()
        if entry is not None and entry.provider_id == provider_id:
            before = self.choice()
            self._fill_models(provider_id)
            if self.choice() != before:  # an empty name filled with a listed model
                self.changed.emit()

    def _list_again(self) -> None:
        entry = self._picked()
        if entry is not None and entry.provider_id is not None:
            self._model.list_embedding_models(entry.provider_id, again=True)
