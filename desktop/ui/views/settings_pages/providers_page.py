"""Providers: the configured ones on the left; on the right, the preset picker when adding
one, else the chosen provider's form with Save."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.providers.presets import preset
from desktop.ui.plain_text import tooltip
from desktop.ui.viewmodels.settings import SettingsViewModel
from desktop.ui.views.labels import PlainLabel
from desktop.ui.views.settings_pages.preset_picker import PresetPicker
from desktop.ui.views.settings_pages.provider_form import ProviderForm


def set_tone(label: QLabel, text: str, tone: str = "") -> None:
    """Status text, coloured by the stylesheet for "ok" and "error"."""
    label.setText(text)
    if label.property("tone") != tone:
        label.setProperty("tone", tone)
        label.style().unpolish(label)
        label.style().polish(label)


class ProvidersPage(QWidget):
    def __init__(self, vm: SettingsViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._vm = vm

        self.list = QListWidget(self)
        self.list.setObjectName("ProviderList")
        self.list.setMaximumWidth(200)
        self.list.currentItemChanged.connect(self._on_current_changed)
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.clicked.connect(self.start_new)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.clicked.connect(self._remove)

        self.keyring_note = PlainLabel("", self)
        self.keyring_note.setWordWrap(True)
        self.keyring_note.setObjectName("Banner")
        self.picker = PresetPicker(vm.presets, vm.local_servers, self)
        self.picker.presetChosen.connect(self.choose_preset)
        self.form = ProviderForm(vm.default_capabilities, self)
        self.form.fetch_button.clicked.connect(self._fetch)
        self.form.test_button.clicked.connect(self._test)
        self.status = PlainLabel("", self)
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.save_button = QPushButton(self.tr("Save provider"), self)
        self.save_button.setObjectName("SendButton")
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self._save)

        editor = QWidget(self)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.save_button, 0, Qt.AlignmentFlag.AlignBottom)
        editor_layout = QVBoxLayout(editor)
        editor_layout.setContentsMargins(0, 0, 0, 0)
        editor_layout.addWidget(self.form, 1)
        editor_layout.addLayout(buttons)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.picker)
        self.stack.addWidget(editor)
        self._editor = editor

        side = QVBoxLayout()
        side.addWidget(self.list, 1)
        side_buttons = QHBoxLayout()
        side_buttons.addWidget(self.add_button)
        side_buttons.addWidget(self.remove_button)
        side.addLayout(side_buttons)
        right = QVBoxLayout()
        right.addWidget(self.keyring_note)
        right.addWidget(self.stack, 1)
        layout = QHBoxLayout(self)
        layout.addLayout(side)
        layout.addSpacing(6)
        layout.addLayout(right, 1)

        if vm.keyringAvailable:
            self.keyring_note.setText(vm.keyringNotice)
            self.keyring_note.setVisible(bool(vm.keyringNotice))
        else:
            self.keyring_note.setText(vm.keyringProblem)
            self.form.disable_key(self.tr("Unavailable: no system keyring"))

        vm.providersChanged.connect(self._reload_list)
        vm.providerSaved.connect(self._on_saved)
        vm.saveFailed.connect(self._show_error)
        vm.modelsFetched.connect(self._on_models_fetched)
        vm.fetchFailed.connect(self._show_error)
        vm.fetchingChanged.connect(lambda busy: self.form.fetch_button.setEnabled(not busy))
        vm.connectionChecked.connect(self._on_connection_checked)
        vm.connectionFailed.connect(
            lambda text: set_tone(self.form.connection_status, text, "error")
        )
        vm.testingChanged.connect(self._on_testing)
        vm.modelIdsNeeded.connect(self._on_model_ids_needed)
        vm.local_servers.added.connect(self.show_provider)
        self._reload_list()
        if self.list.count():
            self.list.setCurrentRow(0)
        else:
            self.start_new()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # Rows were laid out before the stylesheet's padding applied: lay them out again.
        self.list.doItemsLayout()

    @property
    def adding(self) -> bool:
        """The preset picker is showing."""
        return self.stack.currentWidget() is self.picker

    # --- navigation -------------------------------------------------------------------

    def start_new(self) -> None:
        self.list.clearSelection()
        self.list.setCurrentRow(-1)  # no current item
        self.remove_button.setEnabled(False)
        self.status.clear()
        self.stack.setCurrentWidget(self.picker)

    def choose_preset(self, preset_id: str) -> None:
        chosen = preset(preset_id)
        self.form.load(
            self._vm.draft_for_preset(preset_id),
            needs_key=chosen.needs_key,
            key_url=chosen.key_url,
            other_kinds=tuple(kind.value for kind in chosen.other_kinds),
        )
        self._show_form()
        key_first = chosen.needs_key and self.form.api_key.isEnabled()
        (self.form.api_key if key_first else self.form.name).setFocus()

    def show_provider(self, provider_id: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(Qt.ItemDataRole.UserRole) == provider_id:
                self.list.setCurrentRow(row)
                return

    def _show_form(self) -> None:
        self.status.clear()
        self.remove_button.setEnabled(bool(self.form.provider_id))
        self.stack.setCurrentWidget(self._editor)

    def _reload_list(self) -> None:
        editing = self.form.provider_id if not self.adding else ""
        self.list.blockSignals(True)
        self.list.clear()
        for provider in self._vm.providers:
            item = QListWidgetItem(provider.name)
            item.setData(Qt.ItemDataRole.UserRole, provider.id)
            item.setToolTip(tooltip(provider.base_url))
            self.list.addItem(item)
            if provider.id == editing:
                self.list.setCurrentItem(item)
        self.list.blockSignals(False)

    def _on_current_changed(self, item: QListWidgetItem | None, _previous: object) -> None:
        if item is None:
            return
        provider = self._vm.provider(item.data(Qt.ItemDataRole.UserRole))
        if provider is None:
            return
        self.form.load(self._vm.draft_for(provider))
        self._show_form()

    # --- actions ------------------------------------------------------------------

    def _save(self) -> None:
        set_tone(self.status, self.tr("Saving…"))
        self._vm.save_provider(self.form.draft(), self.form.api_key.text())

    def _on_saved(self, provider_id: str) -> None:
        self.form.saved_as(provider_id)
        self._reload_list()
        self.remove_button.setEnabled(True)
        set_tone(self.status, self.tr("Saved."), "ok")

    def _remove(self) -> None:
        if self.form.provider_id and not self.adding:
            self._vm.remove_provider(self.form.provider_id)
            self.start_new()

    def _fetch(self) -> None:
        set_tone(self.status, self.tr("Asking the server for its models…"))
        self._vm.fetch_models(self.form.draft(), self.form.api_key.text())

    def _on_models_fetched(self, models: list[str]) -> None:
        self.form.set_models(models)
        set_tone(
            self.status,
            self.tr("%n model(s) found. Save to use them.", "", len(models))
            if models
            else self.tr("The server offers no models."),
        )

    def _test(self) -> None:
        self._vm.test_connection(self.form.draft(), self.form.api_key.text())

    def _on_testing(self, testing: bool) -> None:
        self.form.test_button.setEnabled(not testing)
        if testing:
            set_tone(self.form.connection_status, self.tr("Connecting…"))

    def _on_connection_checked(self, text: str, models: list[str]) -> None:
        set_tone(self.form.connection_status, text, "ok")
        if models and not self.form.model_ids():
            self.form.set_models(models)

    def _on_model_ids_needed(self) -> None:
        """No model list to fetch: the cursor goes where the ids are typed."""
        self.form.models.setPlaceholderText(
            self.tr("This server keeps no model list: type its model ids, one per line")
        )
        self.form.models.setFocus()

    def _show_error(self, message: str) -> None:
        set_tone(self.status, message, "error")
