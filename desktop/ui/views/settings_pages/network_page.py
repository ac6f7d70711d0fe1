"""Network: which proxy reaches the providers, and extra certificates to trust."""

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

from desktop.ui.viewmodels.settings import SettingsViewModel
from desktop.ui.views.labels import PlainLabel, plain_form_labels
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
        self.proxy_url.setPlaceholderText("http://proxy.example.com:3128")
        self.custom_proxy.toggled.connect(self.proxy_url.setEnabled)

        self.ca_bundle = QLineEdit(self)
        self.ca_bundle.setPlaceholderText(self.tr("None: only the system's certificates"))
        self.browse_button = QPushButton(self.tr("Browse…"), self)
        self.browse_button.clicked.connect(self._browse)
        self.clear_button = QPushButton(self.tr("Clear"), self)
        self.clear_button.clicked.connect(self.ca_bundle.clear)
        ca_hint = PlainLabel(
            self.tr(
                "Certificates (PEM) trusted in addition to the system's, e.g. for a company "
                "proxy that inspects encrypted connections."
            ),
            self,
        )
        ca_hint.setObjectName("FormHint")
        ca_hint.setWordWrap(True)
        self.status = PlainLabel("", self)
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.save_button = QPushButton(self.tr("Save network settings"), self)
        self.save_button.setObjectName("SendButton")
        self.save_button.clicked.connect(self._save)

        custom_row = QHBoxLayout()
        custom_row.addWidget(self.custom_proxy)
        custom_row.addWidget(self.proxy_url, 1)
        proxy_column = QVBoxLayout()
        proxy_column.setSpacing(6)
        proxy_column.addWidget(self.system_proxy)
        proxy_column.addWidget(self.no_proxy)
        proxy_column.addLayout(custom_row)
        ca_row = QHBoxLayout()
        ca_row.addWidget(self.ca_bundle, 1)
        ca_row.addWidget(self.browse_button)
        ca_row.addWidget(self.clear_button)
        ca_column = QVBoxLayout()
        ca_column.setSpacing(2)
        ca_column.addLayout(ca_row)
        ca_column.addWidget(ca_hint)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.addRow(self.tr("Proxy"), proxy_column)
        form.addRow(self.tr("CA bundle"), ca_column)
        plain_form_labels(form)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.save_button, 0, Qt.AlignmentFlag.AlignBottom)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addStretch(1)
        layout.addLayout(buttons)

        self._network = vm.network
        vm.network.saved.connect(lambda: set_tone(self.status, self.tr("Saved."), "ok"))
        vm.network.failed.connect(lambda text: set_tone(self.status, text, "error"))
        self.load()

    def load(self) -> None:
        network = self._network.settings
        for button in self.modes.buttons():
            button.setChecked(button.property("mode") == network.proxy_mode.value)
        self.proxy_url.setText(network.proxy_url)
        self.proxy_url.setEnabled(self.custom_proxy.isChecked())
        self.ca_bundle.setText(network.ca_bundle)

    @property
    def proxy_mode(self) -> str:
        checked = self.modes.checkedButton()
        return str(checked.property("mode")) if checked else "system"

    def _save(self) -> None:
        self._network.save(self.proxy_mode, self.proxy_url.text(), self.ca_bundle.text())

    def _browse(self) -> None:
        start = self.ca_bundle.text().strip() or str(Path.home())
        dialog = QFileDialog(self, self.tr("Choose a CA bundle"), start)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilters(
            [self.tr("Certificates (*.pem *.crt *.cer)"), self.tr("All files (*)")]
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(self.ca_bundle.setText)
        dialog.open()
        self.file_dialog = dialog  # tests pick a file through it
