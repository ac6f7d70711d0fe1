"""The sync vault's recovery key, shown after the vault is made (and on request): to
copy, or save to a file the person chooses, with a plain word of what it opens.

Never modal in the blocking sense (`open()`, no nested event loop), and it keeps
nothing: the key lives in this dialog until it closes.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.viewmodels.sync import SyncViewModel
from desktop.ui.views.labels import PlainLabel
from desktop.ui.views.settings_pages.providers_page import set_tone


class RecoveryKeyDialog(QDialog):
    def __init__(self, model: SyncViewModel, key: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self.setWindowTitle(self.tr("Sync Recovery Key"))
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.file_dialog: QFileDialog | None = None
        text = PlainLabel(
            self.tr(
                "This key opens the vault like its passphrase does: use it to join from "
                "another computer if the passphrase is forgotten. Anyone who has it can "
                "read what is synced. Keep it somewhere safe, away from this computer."
            ),
            self,
        )
        text.setWordWrap(True)
        self.key = QLineEdit(key, self)
        self.key.setReadOnly(True)
        self.key.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.key.setMinimumWidth(self.key.fontMetrics().horizontalAdvance(key) + 24)
        self.key.setAccessibleName(self.tr("Recovery key"))
        self.copy_button = QPushButton(self.tr("&Copy"), self)
        self.copy_button.clicked.connect(self.copy)
        self.save_button = QPushButton(self.tr("&Save to File…"), self)
        self.save_button.clicked.connect(self.save)
        self.outcome = PlainLabel("", self)
        self.outcome.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.copy_button)
        row.addWidget(self.save_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(self.key)
        layout.addLayout(row)
        layout.addWidget(self.outcome)
        layout.addWidget(buttons)
        model.recoveryKeySaved.connect(self._on_saved)
        self.key.setFocus()
        self.key.selectAll()

    def copy(self) -> None:
        clipboard = QGuiApplication.clipboard()
        clipboard.setText(self.key.text())
        set_tone(self.outcome, self.tr("Copied."), "ok")

    def save(self) -> QFileDialog:
        dialog = self.file_dialog = QFileDialog(self, self.tr("Save the Recovery Key"))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.selectFile(self.tr("Parley sync recovery key.txt"))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(
            lambda path: self._model.save_recovery_key(self.key.text(), path)
        )
        dialog.open()
        return dialog

    def _on_saved(self, ok: bool, text: str) -> None:
        set_tone(self.outcome, text, "ok" if ok else "error")
