"""Network: which proxy reaches the providers, and extra certificates to trust.

Saved as changed: a choice at once, an address or a file name when Enter is pressed or
the field is left. A value that cannot work is not saved; its problem shows under the
field, which keeps what was typed.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from desktop.core.settings import NetworkSettings
from desktop.ui.viewmodels.network_settings import CA_BUNDLE, PROXY_URL
from desktop.ui.viewmodels.settings import SettingsViewModel
from desktop.ui.views.labels import form_hint, plain_form_labels
from desktop.ui.views.settings_pages.autosave import FieldError
from desktop.ui.views.settings_pages.providers_page import set_tone


class NetworkPage(QWidget):
    def __init__(self, vm: SettingsViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.file_dialog: QFileDialog | None = None  # the open "Browse…" dialog
        self.system_proxy = QRadioButton(self.tr("Use the system's proxy settings"), self)
        self.no_proxy = QRadioButton(self.tr("No proxy"), self)
        self.custom_proxy = QRadioButton(self.tr("Custom proxy:"), self)
        self.modes = QButtonGroup(self)
        for button, mode in (
            (self.system_proxy, "system"),
            (self.no_proxy, "none"),
            (self.custom_proxy, "custom"),
        ):
            button.setProperty("mode", mode)
            self.modes.addButton(button)
        self.proxy_url = QLineEdit(self)
        self.proxy_url.setObjectName("ProxyUrl")
        self.proxy_url.setPlaceholderText("http://proxy.example.com:3128")
        self.custom_proxy.toggled.connect(self.proxy_url.setEnabled)
        self.proxy_problem = FieldError(self)

        self.ca_bundle = QLineEdit(self)
        self.ca_bundle.setObjectName("CaBundle")
        self.ca_bundle.setPlaceholderText(self.tr("None: only the system's certificates"))
        self.browse_button = QPushButton(self.tr("Browse…"), self)
        self.browse_button.clicked.connect(self._browse)
        self.clear_button = QPushButton(self.tr("Clear"), self)
        self.clear_button.clicked.connect(self._clear_ca_bundle)
        ca_hint = form_hint(
            self.tr(
                "Certificates (PEM) trusted in addition to the system's, e.g. for a company "
                "proxy that inspects encrypted connections."
            ),
            self,
        )
        self.ca_problem = FieldError(self)
        self.problems = {PROXY_URL: self.proxy_problem, CA_BUNDLE: self.ca_problem}

        custom_row = QHBoxLayout()
        custom_row.addWidget(self.custom_proxy)
        custom_row.addWidget(self.proxy_url, 1)
        proxy_column = QVBoxLayout()
        proxy_column.setSpacing(6)
        proxy_column.addWidget(self.system_proxy)
        proxy_column.addWidget(self.no_proxy)
        proxy_column.addLayout(custom_row)
        proxy_column.addWidget(self.proxy_problem)
        ca_row = QHBoxLayout()
        ca_row.addWidget(self.ca_bundle, 1)
        ca_row.addWidget(self.browse_button)
        ca_row.addWidget(self.clear_button)
        ca_column = QVBoxLayout()
        ca_column.setSpacing(2)
        ca_column.addLayout(ca_row)
        ca_column.addWidget(self.ca_problem)
        ca_column.addWidget(ca_hint)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.addRow(self.tr("Proxy"), proxy_column)
        form.addRow(self.tr("CA bundle"), ca_column)
        plain_form_labels(form)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addStretch(1)

        self._network = vm.network
        self._loading = False
        self._loaded: NetworkSettings | None = None  # what load() last put in the form
        self.load()
        self.modes.buttonToggled.connect(self._on_mode_toggled)
        self.proxy_url.editingFinished.connect(self._save_proxy)
        self.ca_bundle.editingFinished.connect(self._save_ca_bundle)
        vm.network.changed.connect(self.load)
        vm.network.problemChanged.connect(self._show_problem)

    def load(self) -> None:
        """The saved settings into the form: at start, and when they change (Undo). Only
        what changed is set, so a field still showing a refused value keeps it."""
        network, before = self._network.settings, self._loaded
        self._loaded = network
        self._loading = True
        try:
            proxy = (network.proxy_mode, network.proxy_url)
            if before is None or (before.proxy_mode, before.proxy_url) != proxy:
                for button in self.modes.buttons():
                    button.setChecked(button.property("mode") == network.proxy_mode.value)
                self.proxy_url.setText(network.proxy_url)
                self._show_problem(PROXY_URL, "")
            if before is None or before.ca_bundle != network.ca_bundle:
                self.ca_bundle.setText(network.ca_bundle)
                self._show_problem(CA_BUNDLE, "")
            self.proxy_url.setEnabled(self.custom_proxy.isChecked())
        finally:
            self._loading = False

    @property
    def proxy_mode(self) -> str:
        checked = self.modes.checkedButton()
        return str(checked.property("mode")) if checked else "system"

    def _on_mode_toggled(self, _button: QRadioButton, checked: bool) -> None:
        if checked and not self._loading:
            if self.proxy_mode == "custom" and not self.proxy_url.text().strip():
                # Nothing to save yet: the choice is saved with the address.
                hint = self.tr("Type the proxy's address and press Enter to use it.")
                set_tone(self.proxy_problem, hint)
                self.proxy_problem.show()
                return
            self._save_proxy()

    def _save_proxy(self) -> None:
        if not self._loading:
            self._network.set_proxy(self.proxy_mode, self.proxy_url.text())

    def _save_ca_bundle(self) -> None:
        if not self._loading:
            self._network.set_ca_bundle(self.ca_bundle.text())

    def _clear_ca_bundle(self) -> None:
        self.ca_bundle.clear()
        self._save_ca_bundle()

    def _show_problem(self, field: str, problem: str) -> None:
        label = self.problems.get(field)
        if label is not None:
            label.say(problem)

    def _browse(self) -> None:
        start = self.ca_bundle.text().strip() or str(Path.home())
        dialog = QFileDialog(self, self.tr("Choose a CA bundle"), start)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilters(
            [self.tr("Certificates (*.pem *.crt *.cer)"), self.tr("All files (*)")]
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(self._on_file_chosen)
        dialog.open()
        self.file_dialog = dialog  # tests pick a file through it

    def _on_file_chosen(self, path: str) -> None:
        self.ca_bundle.setText(path)
        self._save_ca_bundle()
