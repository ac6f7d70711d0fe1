"""One provider's fields: connection, models, and the advanced parts (custom headers,
extra JSON body, per-model capabilities). It holds what is typed and says when the
person changed something (`edited`, with the field); the page validates and saves it
through the view-model and puts what cannot be saved beside its field (`show_error`)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.core.capabilities import Capabilities
from desktop.core.i18n import joined
from desktop.core.limits import STALL_TIMEOUT_MAX_S, STALL_TIMEOUT_MIN_S
from desktop.core.settings import ProviderKind
from desktop.ui.viewmodels.provider_draft import ProviderDraft
from desktop.ui.views.labels import MarkupLabel, PlainLabel, escape, plain_form_labels
from desktop.ui.views.settings_pages.autosave import (
    FieldError,
    PauseCommit,
    field_column,
    save_number_on_pause,
    save_text_on_pause,
)
from desktop.ui.views.settings_pages.headers_editor import HeadersEditor
from desktop.ui.views.settings_pages.overrides_editor import OverridesEditor


def _section(title: str, parent: QWidget) -> QLabel:
    label = PlainLabel(title, parent)
    label.setObjectName("SettingsSection")
    return label


# The form's fields by the name a DraftError gives them ("models" also for the default).
ERROR_FIELDS = ("name", "base_url", "models", "headers", "extra_body", "capabilities")
_ERROR_FIELD = {"default_model": "models", "model_overrides": "capabilities", "kind": "base_url"}


class ProviderForm(QScrollArea):
    edited = Signal(str)  # the field the person changed (an ERROR_FIELDS name or another)

    def __init__(
        self, defaults: Callable[[str, str, str], Capabilities], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("ProviderForm")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self._provider_id = ""
        self._id_hint = ""
        self._key_usable = True
        self._loading = False  # fields filled by `load`, not changed by the person
        body = QWidget(self)
        body.setObjectName("ProviderFormBody")
        self.errors = {name: FieldError(body) for name in ERROR_FIELDS}

        self.name = QLineEdit(body)
        self.name.setPlaceholderText(self.tr("e.g. Local server"))
        self.kind = QComboBox(body)
        self.kind.setObjectName("ProviderKind")
        kind_labels = {
            ProviderKind.OPENAI_CHAT: self.tr("OpenAI Chat Completions (and compatible)"),
            ProviderKind.OPENAI_RESPONSES: self.tr("OpenAI Responses"),
            ProviderKind.ANTHROPIC: self.tr("Anthropic Messages"),
            ProviderKind.GEMINI: self.tr("Google Gemini"),
            ProviderKind.OLLAMA: self.tr("Ollama"),
        }
        for kind in ProviderKind:
            self.kind.addItem(kind_labels.get(kind, kind.value), kind.value)
        self.kind_hint = PlainLabel("", body)
        self.kind_hint.setObjectName("FormHint")
        self.kind_hint.hide()
        self.base_url = QLineEdit(body)
        self.base_url.setPlaceholderText("https://api.example.com/v1")
        self.api_key = QLineEdit(body)
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        # A link to the preset's own key page: a fixed address, which the label opens.
        self.key_link = MarkupLabel("", body, opens_links=True)
        self.key_link.setObjectName("FormHint")
        self.key_link.hide()
        self.test_button = QPushButton(self.tr("Test connection"), body)
        self.test_button.setToolTip(
            self.tr("List the server's models (or ask the model for one token) with these settings")
        )
        self.connection_status = PlainLabel("", body)
        self.connection_status.setObjectName("ConnectionStatus")
        self.connection_status.setWordWrap(True)
        self.connection_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.models = QPlainTextEdit(body)
        self.models.setObjectName("ModelsEdit")
        self._models_hint = self.tr("One model id per line, or fetch them")
        self.models.setPlaceholderText(self._models_hint)
        self.models.setFixedHeight(110)
        self.models.textChanged.connect(self._on_models_edited)
        self.fetch_button = QPushButton(self.tr("Fetch models"), body)
        self.fetch_button.setToolTip(self.tr("Ask the server which models it offers"))
        self.default_model = QComboBox(body)
        self.default_model.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.default_model.setMinimumWidth(220)

        self.headers = HeadersEditor(body)
        self.extra_body = QPlainTextEdit(body)
        self.extra_body.setObjectName("ExtraBodyEdit")
        self.extra_body.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.extra_body.setPlaceholderText('{"top_k": 40}')
        self.extra_body.setFixedHeight(90)
        self.extra_body.setTabChangesFocus(True)
        self.stall_timeout = QSpinBox(body)
        self.stall_timeout.setObjectName("StallTimeout")
        self.stall_timeout.setRange(STALL_TIMEOUT_MIN_S, STALL_TIMEOUT_MAX_S)
        self.stall_timeout.setSingleStep(10)
        self.stall_timeout.setSuffix(self.tr(" s"))
        self.stall_timeout.setAccelerated(True)
        self.overrides = OverridesEditor(
            lambda model: defaults(self.kind_value(), model, self.base_url.text()), body
        )
        self.kind.currentIndexChanged.connect(lambda _: self.overrides.refresh_defaults())
        # What an endpoint said about its models belongs to its address.
        self.base_url.editingFinished.connect(self.overrides.refresh_defaults)

        # --- saving as the person goes ------------------------------------------------
        self.name.editingFinished.connect(lambda: self._edited("name"))
        self.kind.currentIndexChanged.connect(lambda _: self._edited("kind"))
        self.base_url.editingFinished.connect(lambda: self._edited("base_url"))
        self.api_key.editingFinished.connect(self._on_key_finished)
        self.default_model.currentIndexChanged.connect(lambda _: self._edited("default_model"))
        self.headers.changed.connect(lambda: self._edited("headers"))
        self.overrides.changed.connect(lambda: self._edited("model_overrides"))
        self.pauses: tuple[PauseCommit, ...] = (
            save_text_on_pause(self.models, lambda: self._edited("models")),
            save_text_on_pause(self.extra_body, lambda: self._edited("extra_body")),
            save_number_on_pause(self.stall_timeout, lambda: self._edited("stall_timeout")),
            self.overrides.context_pause,
        )

        key_column = field_column(self.api_key, self.key_link)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button, 0, Qt.AlignmentFlag.AlignTop)
        test_row.addWidget(self.connection_status, 1)
        models_row = QHBoxLayout()
        models_row.addWidget(self.models, 1)
        models_row.addWidget(self.fetch_button, 0, Qt.AlignmentFlag.AlignTop)
        models_column = QVBoxLayout()
        models_column.setSpacing(2)
        models_column.addLayout(models_row)
        models_column.addWidget(self.errors["models"])
        body_hint = PlainLabel(
            self.tr("Merged over every request Parley sends; null removes a field."), body
        )
        body_hint.setObjectName("FormHint")
        body_column = field_column(self.extra_body, self.errors["extra_body"], body_hint)

        stall_hint = PlainLabel(
            self.tr(
                "How long the server may stay silent, before its first word or between "
                "two, before Parley gives up. Give more to a local server that loads a "
                "large model or a model that thinks at length."
            ),
            body,
        )
        stall_hint.setObjectName("FormHint")
        stall_hint.setWordWrap(True)
        stall_column = QVBoxLayout()
        stall_column.setSpacing(2)
        stall_row = QHBoxLayout()  # the hint wraps at the form's width, not the field's
        stall_row.addWidget(self.stall_timeout)
        stall_row.addStretch(1)
        stall_column.addLayout(stall_row)
        stall_column.addWidget(stall_hint)

        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.addRow(_section(self.tr("Connection"), body))
        form.addRow(self.tr("Name"), field_column(self.name, self.errors["name"]))
        kind_column = QVBoxLayout()
        kind_column.setSpacing(2)
        kind_column.addWidget(self.kind, 0, Qt.AlignmentFlag.AlignLeft)
        kind_column.addWidget(self.kind_hint)
        form.addRow(self.tr("Protocol"), kind_column)
        form.addRow(self.tr("Base URL"), field_column(self.base_url, self.errors["base_url"]))
        form.addRow(self.tr("API key"), key_column)
        form.addRow("", test_row)
        form.addRow(_section(self.tr("Models"), body))
        form.addRow(self.tr("Models"), models_column)
        form.addRow(self.tr("Default model"), self.default_model)
        form.addRow(_section(self.tr("Requests"), body))
        form.addRow(self.tr("Custom headers"), field_column(self.headers, self.errors["headers"]))
        form.addRow(self.tr("Extra JSON body"), body_column)
        form.addRow(self.tr("Stall timeout"), stall_column)
        form.addRow(_section(self.tr("Model capabilities"), body))
        capabilities_hint = PlainLabel(
            self.tr(
                "What Parley assumes each model can do. Change it when a model can do more "
                "or less than its family usually can."
            ),
            body,
        )
        capabilities_hint.setObjectName("FormHint")
        capabilities_hint.setWordWrap(True)
        form.addRow(capabilities_hint)
        form.addRow(self.errors["capabilities"])
        self.overrides.add_rows(form)
        plain_form_labels(form)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 12, 0)
        layout.addLayout(form)
        layout.addStretch(1)
        self.setWidget(body)

    # --- contents -------------------------------------------------------------------

    def load(
        self,
        draft: ProviderDraft,
        *,
        needs_key: bool = False,
        key_url: str = "",
        other_kinds: tuple[str, ...] = (),
    ) -> None:
        """Show `draft`; the rest describes the preset it came from, if any."""
        self._loading = True
        try:
            self._fill(draft, needs_key=needs_key, key_url=key_url, other_kinds=other_kinds)
        finally:
            self._loading = False
        for pause in self.pauses:
            pause.cancel()  # the form's own filling is no change of the person's
        self.clear_errors()

    def _fill(
        self,
        draft: ProviderDraft,
        *,
        needs_key: bool,
        key_url: str,
        other_kinds: tuple[str, ...],
    ) -> None:
        self._provider_id = draft.provider_id
        self._id_hint = draft.id_hint
        self.name.setText(draft.name)
        self.kind.setCurrentIndex(max(0, self.kind.findData(draft.kind)))
        others = [self.kind.itemText(self.kind.findData(k)) for k in other_kinds]
        self.kind_hint.setText(
            self.tr("This service also speaks: %1").replace("%1", joined(others))
        )
        self.kind_hint.setVisible(bool(others))
        self.base_url.setText(draft.base_url)
        self.api_key.clear()
        self.set_key_hint(saved=bool(draft.provider_id), needs_key=needs_key, key_url=key_url)
        self.models.setPlaceholderText(self._models_hint)
        self.models.blockSignals(True)
        self.models.setPlainText("\n".join(draft.models))
        self.models.blockSignals(False)
        self._reload_default_choices()
        self.default_model.setCurrentText(draft.default_model)
        self.headers.set_headers(draft.headers)
        self.extra_body.setPlainText(draft.extra_body)
        self.stall_timeout.setValue(draft.stall_timeout)
        self.overrides.set_overrides(dict(draft.overrides), self.model_ids())
        self.connection_status.clear()
        self.verticalScrollBar().setValue(0)

    def draft(self) -> ProviderDraft:
        return ProviderDraft(
            provider_id=self._provider_id,
            name=self.name.text(),
            kind=self.kind_value(),
            base_url=self.base_url.text(),
            models=tuple(self.model_ids()),
            default_model=self.default_model.currentText(),
            headers=self.headers.headers(),
            extra_body=self.extra_body.toPlainText(),
            overrides=self.overrides.overrides(),
            id_hint=self._id_hint,
            stall_timeout=self.stall_timeout.value(),
        )

    @property
    def provider_id(self) -> str:
        return self._provider_id

    def saved_as(self, provider_id: str) -> None:
        """The provider is being saved under `provider_id`: later changes update it."""
        self._provider_id = provider_id

    def key_saved(self) -> None:
        """The key typed is in the keyring: it is never shown again."""
        self.api_key.clear()
        self.set_key_hint(saved=True)

    def flush(self) -> None:
        """Save now what is waiting for a pause in typing."""
        for pause in self.pauses:
            pause.flush()

    # --- errors -----------------------------------------------------------------------

    def show_error(self, field: str, text: str, *, guide: bool = False) -> bool:
        """Say `text` under the field a DraftError names; False when the form has no
        place for it (the page says it)."""
        self.clear_errors()
        label = self.errors.get(_ERROR_FIELD.get(field, field))
        if label is None:
            return False
        label.say(text, guide=guide)
        return True

    def has_error(self) -> bool:
        """Whether a field says why what it holds was not saved."""
        return any(label.error for label in self.errors.values())

    def clear_errors(self) -> None:
        for label in self.errors.values():
            label.clear_error()

    def _edited(self, field: str) -> None:
        if not self._loading:
            self.edited.emit(field)

    def _on_key_finished(self) -> None:
        if self.api_key.text().strip():
            self._edited("api_key")

    def kind_value(self) -> str:
        return str(self.kind.currentData())

    def model_ids(self) -> list[str]:
        return [line.strip() for line in self.models.toPlainText().splitlines() if line.strip()]

    def set_models(self, models: list[str]) -> None:
        """Models the server listed: shown, and saved with the provider at once."""
        default = self.default_model.currentText()
        self._loading = True
        try:
            self.models.setPlainText("\n".join(models))
            if default in models:
                self.default_model.setCurrentText(default)
        finally:
            self._loading = False
        self.pauses[0].cancel()
        self._edited("models")

    def disable_key(self, reason: str) -> None:
        """No keyring: keys cannot be stored, the page's note says why."""
        self._key_usable = False
        self.api_key.setEnabled(False)
        self.api_key.setPlaceholderText(reason)

    def set_key_hint(self, *, saved: bool, needs_key: bool = False, key_url: str = "") -> None:
        if not self._key_usable:
            return
        if saved:
            hint = self.tr("Saved in the keyring — leave empty to keep it")
        elif needs_key:
            hint = self.tr("Required for this service")
        else:
            hint = self.tr("Not needed for most local servers")
        self.api_key.setPlaceholderText(hint)
        link = self.tr('<a href="%1">Get an API key</a>').replace("%1", escape(key_url))
        self.key_link.setText(link if key_url else "")
        self.key_link.setVisible(bool(key_url))

    # --- models -----------------------------------------------------------------------

    def _on_models_edited(self) -> None:
        self._reload_default_choices()
        self.overrides.set_models(self.model_ids())

    def _reload_default_choices(self) -> None:
        current = self.default_model.currentText()
        self.default_model.blockSignals(True)  # the list follows the models typed
        try:
            self.default_model.clear()
            self.default_model.addItems(self.model_ids())
            if current in self.model_ids():
                self.default_model.setCurrentText(current)
        finally:
            self.default_model.blockSignals(False)
