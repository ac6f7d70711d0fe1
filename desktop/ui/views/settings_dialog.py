"""Settings: model providers (URL, key, models) and appearance (theme, size, images)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.viewmodels.settings import SettingsViewModel

SYSTEM_SIZE = 5  # below the smallest allowed size (6 pt): stands for the system's size


class ProvidersPage(QWidget):
    def __init__(self, vm: SettingsViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._vm = vm
        self._editing = ""  # id of the provider in the form; "" for a new one

        self.list = QListWidget(self)
        self.list.setObjectName("ProviderList")
        self.list.setMaximumWidth(200)
        self.list.currentItemChanged.connect(self._on_current_changed)
        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.clicked.connect(self.start_new)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.clicked.connect(self._remove)

        self.name = QLineEdit(self)
        self.name.setPlaceholderText(self.tr("e.g. Local server"))
        self.base_url = QLineEdit(self)
        self.base_url.setPlaceholderText("http://localhost:11434/v1")
        self.api_key = QLineEdit(self)
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.keyring_note = QLabel(self)
        self.keyring_note.setWordWrap(True)
        self.keyring_note.setObjectName("Banner")
        self.models = QPlainTextEdit(self)
        self.models.setObjectName("ModelsEdit")
        self.models.setPlaceholderText(self.tr("One model id per line, or fetch them"))
        self.models.setFixedHeight(110)
        self.models.textChanged.connect(self._reload_default_choices)
        self.fetch_button = QPushButton(self.tr("Fetch models"), self)
        self.fetch_button.setToolTip(self.tr("Ask the server which models it offers"))
        self.fetch_button.clicked.connect(self._fetch)
        self.default_model = QComboBox(self)
        self.default_model.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.default_model.setMinimumWidth(220)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.save_button = QPushButton(self.tr("Save provider"), self)
        self.save_button.setObjectName("SendButton")
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self._save)

        models_row = QHBoxLayout()
        models_row.addWidget(self.models, 1)
        models_row.addWidget(self.fetch_button, 0, Qt.AlignmentFlag.AlignTop)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.addRow(self.tr("Name"), self.name)
        form.addRow(self.tr("Base URL"), self.base_url)
        form.addRow(self.tr("API key"), self.api_key)
        form.addRow(self.tr("Models"), models_row)
        form.addRow(self.tr("Default model"), self.default_model)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.save_button)
        editor = QVBoxLayout()
        editor.addWidget(self.keyring_note)
        editor.addLayout(form)
        editor.addStretch(1)
        editor.addLayout(buttons)

        side = QVBoxLayout()
        side.addWidget(self.list, 1)
        side_buttons = QHBoxLayout()
        side_buttons.addWidget(self.add_button)
        side_buttons.addWidget(self.remove_button)
        side.addLayout(side_buttons)
        layout = QHBoxLayout(self)
        layout.addLayout(side)
        layout.addLayout(editor, 1)

        if vm.keyringAvailable:
            self.keyring_note.hide()
        else:
            self.keyring_note.setText(vm.keyringProblem)
            self.api_key.setEnabled(False)
            self.api_key.setPlaceholderText(self.tr("Unavailable: no system keyring"))

        vm.providersChanged.connect(self._reload_list)
        vm.providerSaved.connect(self._on_saved)
        vm.saveFailed.connect(self._show_error)
        vm.modelsFetched.connect(self._on_models_fetched)
        vm.fetchFailed.connect(self._show_error)
        vm.fetchingChanged.connect(self._on_fetching)
        self._reload_list()
        if self.list.count():
            self.list.setCurrentRow(0)
        else:
            self.start_new()

    # --- form ---------------------------------------------------------------------

    def start_new(self) -> None:
        self.list.clearSelection()
        self._editing = ""
        self._fill("", "", [], "")
        self.status.clear()
        self.name.setFocus()

    def _fill(self, name: str, base_url: str, models: list[str], default: str) -> None:
        self.name.setText(name)
        self.base_url.setText(base_url)
        self.api_key.clear()
        if self._vm.keyringAvailable:
            self.api_key.setPlaceholderText(
                self.tr("Saved in the keyring — leave empty to keep it")
                if self._editing
                else self.tr("Not needed for most local servers")
            )
        self.models.setPlainText("\n".join(models))
        self._reload_default_choices()
        self.default_model.setCurrentText(default)
        self.remove_button.setEnabled(bool(self._editing))

    def _model_ids(self) -> list[str]:
        return [line.strip() for line in self.models.toPlainText().splitlines() if line.strip()]

    def _reload_default_choices(self) -> None:
        current = self.default_model.currentText()
        self.default_model.clear()
        self.default_model.addItems(self._model_ids())
        if current in self._model_ids():
            self.default_model.setCurrentText(current)

    def _reload_list(self) -> None:
        self.list.blockSignals(True)
        self.list.clear()
        for provider in self._vm.providers:
            item = QListWidgetItem(provider.name)
            item.setData(Qt.ItemDataRole.UserRole, provider.id)
            item.setToolTip(provider.base_url)
            self.list.addItem(item)
            if provider.id == self._editing:
                self.list.setCurrentItem(item)
        self.list.blockSignals(False)

    def _on_current_changed(self, item: QListWidgetItem | None, _previous: object) -> None:
        if item is None:
            return
        provider = self._vm.provider(item.data(Qt.ItemDataRole.UserRole))
        if provider is None:
            return
        self._editing = provider.id
        self._fill(
            provider.name, provider.base_url, list(provider.models), provider.default_model or ""
        )
        self.status.clear()

    # --- actions ------------------------------------------------------------------

    def _save(self) -> None:
        self.status.setText(self.tr("Saving…"))
        self._vm.save_provider(
            self._editing,
            self.name.text(),
            self.base_url.text(),
            self._model_ids(),
            self.default_model.currentText(),
            self.api_key.text(),
        )

    def _on_saved(self, provider_id: str) -> None:
        self._editing = provider_id
        self._reload_list()
        self.api_key.clear()
        self._fill_placeholder_after_save()
        self.status.setText(self.tr("Saved."))

    def _fill_placeholder_after_save(self) -> None:
        if self._vm.keyringAvailable:
            self.api_key.setPlaceholderText(
                self.tr("Saved in the keyring — leave empty to keep it")
            )
        self.remove_button.setEnabled(True)

    def _remove(self) -> None:
        if self._editing:
            self._vm.remove_provider(self._editing)
            self.start_new()

    def _fetch(self) -> None:
        self.status.setText(self.tr("Asking the server for its models…"))
        self._vm.fetch_models(self._editing, self.base_url.text(), self.api_key.text())

    def _on_models_fetched(self, models: list[str]) -> None:
        default = self.default_model.currentText()
        self.models.setPlainText("\n".join(models))
        if default in models:
            self.default_model.setCurrentText(default)
        self.status.setText(
            self.tr("%n model(s) found. Save to use them.").replace("%n", str(len(models)))
            if models
            else self.tr("The server offers no models.")
        )

    def _on_fetching(self, fetching: bool) -> None:
        self.fetch_button.setEnabled(not fetching)

    def _show_error(self, message: str) -> None:
        self.status.setText(message)


class AppearancePage(QWidget):
    def __init__(self, vm: SettingsViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.theme = QComboBox(self)
        self.theme.addItem(self.tr("Follow the system"), "system")
        self.theme.addItem(self.tr("Light"), "light")
        self.theme.addItem(self.tr("Dark"), "dark")
        self.theme.setCurrentIndex(max(0, self.theme.findData(vm.theme)))
        self.theme.currentIndexChanged.connect(lambda _: vm.set_theme(self.theme.currentData()))
        self.font_size = QSpinBox(self)
        self.font_size.setRange(SYSTEM_SIZE, 48)  # the minimum reads "System"
        self.font_size.setSpecialValueText(self.tr("System"))
        self.font_size.setSuffix(self.tr(" pt"))
        self.font_size.setValue(vm.font_size or SYSTEM_SIZE)
        self.font_size.valueChanged.connect(self._on_font_size)
        self.remote_images = QCheckBox(self.tr("Load remote images"), self)
        self.remote_images.setObjectName("RemoteImages")
        self.remote_images.setToolTip(
            self.tr(
                "Show images that answers link to (https only) inside the message. "
                "Fetching an image tells its server your address; while off, images "
                "are links."
            )
        )
        self.remote_images.setChecked(vm.loadRemoteImages)
        self.remote_images.toggled.connect(vm.set_load_remote_images)
        self._vm = vm
        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        form.addRow(self.tr("Theme"), self.theme)
        form.addRow(self.tr("Text size"), self.font_size)
        form.addRow(self.tr("Images"), self.remote_images)

    def _on_font_size(self, points: int) -> None:
        self._vm.set_font_size(0 if points == SYSTEM_SIZE else points)


class SettingsDialog(QDialog):
    def __init__(self, vm: SettingsViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.resize(760, 480)
        self.tabs = QTabWidget(self)
        self.providers = ProvidersPage(vm, self)
        self.tabs.addTab(self.providers, self.tr("Providers"))
        self.tabs.addTab(AppearancePage(vm, self), self.tr("Appearance"))
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        close.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(close)
