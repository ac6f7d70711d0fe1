"""Providers: the configured ones on the left; on the right, the preset picker when adding
one, else the chosen provider's form, saved as it is changed.

Choosing a preset makes the provider at once (a custom one once it has a name and an
address). Each change is checked as the settings file is and saved when it holds; what
does not hold is said beside its field and nothing is saved until it is fixed. A typed
API key goes to the keyring with the save and is never shown again. Saving a provider
waits on the keyring, so saves end after the fact: the form is only redrawn from the
settings when none of its own is still under way (an Undo in the window, say).
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidgetItem,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.core.settings import ProviderSettings
from desktop.providers.presets import preset
from desktop.ui.viewmodels.provider_draft import DraftError, ProviderDraft, require_name
from desktop.ui.viewmodels.settings import SettingsViewModel
from desktop.ui.views.confirm import confirm_delete
from desktop.ui.views.labels import PlainLabel
from desktop.ui.views.monogram import monogram_icon
from desktop.ui.views.record_list import Record, RecordList
from desktop.ui.views.settings_pages.preset_picker import PresetPicker
from desktop.ui.views.settings_pages.provider_form import ProviderForm

# The fields whose edits come in runs (typing, a spin box's steps).
TYPED_FIELDS = frozenset({"name", "base_url", "models", "extra_body", "headers", "stall_timeout"})


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
        self._baseline: ProviderSettings | None = None  # the shown provider, as saved
        self._saving = 0  # saves of this page not finished yet
        self._sent_keys: dict[str, str] = {}  # provider id -> the key its save carries
        self._touched: set[str] = set()  # fields changed since the form was filled
        self._found_note = ""  # what a fetch found, said again once it is saved
        self.confirm_box: QWidget | None = None

        self.list = RecordList(self)
        self.list.setObjectName("ProviderList")
        self.list.setMaximumWidth(220)
        self.list.setWordWrap(True)
        self.list.setIconSize(QSize(20, 20))
        self.list.set_placeholder(self.tr("No providers yet — choose a service on the right."))
        self.list.currentItemChanged.connect(self._on_current_changed)
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.clicked.connect(self.start_new)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.clicked.connect(self._ask_remove)

        self.keyring_note = PlainLabel("", self)
        self.keyring_note.setWordWrap(True)
        self.keyring_note.setObjectName("Banner")
        self.picker = PresetPicker(vm.presets, vm.local_servers, self)
        self.picker.presetChosen.connect(self.choose_preset)
        self.form = ProviderForm(vm.default_capabilities, self)
        self.form.edited.connect(self._commit)
        self.form.fetch_button.clicked.connect(self._fetch)
        self.form.test_button.clicked.connect(self._test)
        self.status = PlainLabel("", self)
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        editor = QWidget(self)
        editor_layout = QVBoxLayout(editor)
        editor_layout.setContentsMargins(0, 0, 0, 0)
        editor_layout.addWidget(self.form, 1)
        editor_layout.addWidget(self.status)
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

        vm.providersChanged.connect(self._on_providers_changed)
        vm.providerSaved.connect(self._on_saved)
        vm.saveFailed.connect(self._on_save_failed)
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
        self.form.flush()
        self.list.blockSignals(True)
        self.list.setCurrentRow(-1)  # no current item
        self.list.blockSignals(False)
        self._baseline = None
        self.remove_button.setEnabled(False)
        self.status.clear()
        self.stack.setCurrentWidget(self.picker)

    def choose_preset(self, preset_id: str) -> None:
        """Fill the form from the preset and make the provider at once (a custom one
        waits for its name and address)."""
        chosen = preset(preset_id)
        self._load(
            self._vm.draft_for_preset(preset_id),
            needs_key=chosen.needs_key,
            key_url=chosen.key_url,
            other_kinds=tuple(kind.value for kind in chosen.other_kinds),
        )
        self._commit("", quiet=True)
        key_first = chosen.needs_key and self.form.api_key.isEnabled()
        (self.form.api_key if key_first else self.form.name).setFocus()

    def show_provider(self, provider_id: str) -> None:
        row = self.list.row_of(provider_id)
        if row >= 0:
            self.list.setCurrentRow(row)

    def _load(
        self,
        draft: ProviderDraft,
        *,
        needs_key: bool = False,
        key_url: str = "",
        other_kinds: tuple[str, ...] = (),
    ) -> None:
        self.form.load(draft, needs_key=needs_key, key_url=key_url, other_kinds=other_kinds)
        self._touched.clear()
        self._baseline = self._vm.provider(draft.provider_id) if draft.provider_id else None
        self.status.clear()
        self.remove_button.setEnabled(bool(self.form.provider_id))
        self.stack.setCurrentWidget(self._editor)

    def _reload_list(self) -> None:
        shown = self.form.provider_id if not self.adding else ""
        self.list.set_records(
            [
                Record(p.id, p.name, p.base_url, monogram_icon(p.name, p.id))
                for p in self._vm.providers
            ],
            shown,
        )

    def _on_current_changed(self, item: QListWidgetItem | None, _previous: object) -> None:
        provider = self._vm.provider(self.list.current_id()) if item is not None else None
        if provider is None:
            return
        self.form.flush()  # what waited for a pause in typing is the previous one's
        if self.form.has_error() and not self.adding and provider.id != self.form.provider_id:
            # What was typed could not be saved: stay with it (and its reason) rather
            # than put the next provider over it.
            self.list.blockSignals(True)
            self.list.setCurrentRow(self.list.row_of(self.form.provider_id))
            self.list.blockSignals(False)
            return
        self._load(self._vm.draft_for(provider))

    def _on_providers_changed(self) -> None:
        self._reload_list()
        if self.adding or not self.form.provider_id or self._saving:
            return
        saved = self._vm.provider(self.form.provider_id)
        if saved is None:  # removed (an Undo of its adding, say)
            if self.list.count():
                self.list.setCurrentRow(0)
            else:
                self.start_new()
        elif saved != self._baseline:  # changed elsewhere (an Undo): show it as it is now
            self._load(self._vm.draft_for(saved))

    # --- saving -------------------------------------------------------------------

    def _commit(self, field: str, *, quiet: bool = False) -> None:
        """Save the form if it holds, else say why beside the field (a field the person
        has not come to yet, of a provider not saved yet, only as a muted guide)."""
        if self.adding:
            return
        if field:
            self._touched.add(field)
        draft = self.form.draft()
        key = self.form.api_key.text().strip()
        try:
            require_name(draft)
            provider = self._vm.build_provider(draft)
        except DraftError as error:
            if quiet:
                return
            new = not self.form.provider_id
            guide = new and error.field not in self._touched
            if not self.form.show_error(error.field, str(error), guide=guide):
                set_tone(self.status, str(error), "" if guide else "error")
            return
        self.form.clear_errors()
        if self.status.property("tone") == "error":
            set_tone(self.status, "")
        if draft.provider_id and provider == self._baseline and not key:
            if self._found_note:  # fetched what was there already
                set_tone(self.status, self._found_note, "ok")
                self._found_note = ""
            return  # nothing changed
        self.form.saved_as(provider.id)
        self._baseline = provider
        if key:
            self._sent_keys[provider.id] = key
        self._saving += 1
        typed = field in TYPED_FIELDS  # quick edits of one field: one undo step
        self._vm.save_provider(replace(draft, provider_id=provider.id), key, coalesce=typed)

    def _on_saved(self, provider_id: str) -> None:
        self._saving = max(0, self._saving - 1)
        if provider_id != self.form.provider_id or self.adding:
            return
        sent = self._sent_keys.pop(provider_id, None)
        if sent is not None and self.form.api_key.text().strip() == sent:
            self.form.key_saved()
        self.remove_button.setEnabled(True)
        note, self._found_note = self._found_note, ""
        set_tone(self.status, note or self.tr("Saved."), "ok")
        self._reload_list()

    def _on_save_failed(self, message: str) -> None:
        self._saving = max(0, self._saving - 1)
        self._show_error(message)

    def _ask_remove(self) -> None:
        provider = self._vm.provider(self.form.provider_id) if not self.adding else None
        if provider is None:
            return
        provider_id = provider.id
        self.confirm_box = confirm_delete(
            self,
            self.tr("Remove provider"),
            self.tr(
                "Remove the provider “%1”? Its API key is deleted from the keyring; chats "
                "with its models are kept."
            ).replace("%1", provider.name),
            lambda: self._remove(provider_id),
        )

    def _remove(self, provider_id: str) -> None:
        self._vm.remove_provider(provider_id)
        self.start_new()

    # --- asking the server ----------------------------------------------------------

    def _fetch(self) -> None:
        set_tone(self.status, self.tr("Asking the server for its models…"))
        self._vm.fetch_models(self.form.draft(), self.form.api_key.text())

    def _on_models_fetched(self, models: list[str]) -> None:
        if not models:
            set_tone(self.status, self.tr("The server offers no models."))
            return
        self._found_note = self.tr("%n model(s) found and saved.", "", len(models))
        set_tone(self.status, self.tr("%n model(s) found.", "", len(models)))
        self.form.set_models(models)

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
