"""The part of Settings → Sync shown while this computer is in no vault: create one
(passphrase twice, and a plain warning of what losing it means) or join one with its
passphrase or recovery key.

The passphrase fields are never filled from anywhere and are cleared once used.
"""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QPushButton, QVBoxLayout, QWidget

from desktop.ui.viewmodels.sync import JOIN_SECRET, PASSPHRASE, SyncViewModel
from desktop.ui.views.backup_panel import password_edit, section, typed_problem, warning_row
from desktop.ui.views.backup_target_form import buddy_label, new_form
from desktop.ui.views.labels import form_hint
from desktop.ui.views.settings_pages.autosave import FieldError, field_column


class SyncSetup(QWidget):
    def __init__(self, model: SyncViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._passphrase_left = False  # the first field was finished once: say if weak

        # --- create -------------------------------------------------------------------
        intro = form_hint(
            self.tr(
                "The first computer creates the vault; your other computers join it. "
                "Chats are encrypted on this computer before they are sent."
            ),
            self,
        )
        self.passphrase = password_edit(self)
        self.repeat = password_edit(self)
        self.passphrase_problem = FieldError(self)
        warning = warning_row(
            self.tr(
                "If you lose both the passphrase and the recovery key, nobody, not even "
                "you, can read the synced data again. Keep them somewhere safe."
            ),
            self,
        )
        self.create_button = QPushButton(self.tr("&Create Vault"), self)
        self.create_button.clicked.connect(self.create_vault)
        self.passphrase.textChanged.connect(self._update)
        self.repeat.textChanged.connect(self._update)
        self.passphrase.editingFinished.connect(self._on_passphrase_left)

        # --- join ---------------------------------------------------------------------
        self.join_secret = password_edit(self)
        self.join_secret.returnPressed.connect(self.join_vault)
        self.join_problem = FieldError(self)
        self.join_secret.textChanged.connect(lambda _text: self.join_problem.say(""))
        self.join_button = QPushButton(self.tr("&Join Vault"), self)
        self.join_button.clicked.connect(self.join_vault)
        self.reason = form_hint("", self)

        create_form = new_form()
        create_form.addRow(
            buddy_label(self.tr("Pa&ssphrase"), self.passphrase, self), self.passphrase
        )
        create_form.addRow(
            buddy_label(self.tr("&Repeat"), self.repeat, self),
            field_column(self.repeat, self.passphrase_problem),
        )
        create_form.addRow("", warning)
        create_form.addRow("", _right(self.create_button))
        join_form = new_form()
        join_form.addRow(
            buddy_label(self.tr("Passphrase or rec&overy key"), self.join_secret, self),
            field_column(self.join_secret, self.join_problem),
        )
        join_form.addRow("", _right(self.join_button))
        self.forms = (create_form, join_form)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(section(self.tr("Create a vault"), self))
        layout.addWidget(intro)
        layout.addLayout(create_form)
        layout.addSpacing(6)
        layout.addWidget(section(self.tr("Join a vault"), self))
        layout.addWidget(
            form_hint(
                self.tr(
                    "On your other computers, choose the same place above, then type the "
                    "vault's passphrase or its recovery key here."
                ),
                self,
            )
        )
        layout.addLayout(join_form)
        layout.addWidget(self.reason)

        model.problemChanged.connect(self._show_problem)
        model.workingChanged.connect(lambda _working: self._update())
        model.configChanged.connect(self._update)
        self._update()

    def _show_problem(self, field: str, text: str) -> None:
        if field == PASSPHRASE:
            self.passphrase_problem.say(text)
        elif field == JOIN_SECRET:
            self.join_problem.say(text)

    def _on_passphrase_left(self) -> None:
        self._passphrase_left = self._passphrase_left or bool(self.passphrase.text())
        self._update()

    def _update(self) -> None:
        """What can be done now, and why not."""
        passphrase, repeat = self.passphrase.text(), self.repeat.text()
        problem = typed_problem(
            self._model.passphrase_problem, passphrase, repeat, self._passphrase_left
        )
        self.passphrase_problem.say(problem)
        reason = self._model.setup_problem()
        self.create_button.setEnabled(not reason and bool(passphrase) and not problem)
        self.join_button.setEnabled(not reason)
        self.reason.setText(reason)
        self.reason.setVisible(bool(reason))

    def create_vault(self) -> None:
        if self._model.create_vault(self.passphrase.text(), self.repeat.text()):
            self.clear_secrets()

    def join_vault(self) -> None:
        if self._model.join_vault(self.join_secret.text()):
            self.join_secret.clear()

    def clear_secrets(self) -> None:
        """Nothing secret stays in a widget once used or once the window closes."""
        edits: tuple[QLineEdit, ...] = (self.passphrase, self.repeat, self.join_secret)
        for edit in edits:
            edit.clear()
        self._passphrase_left = False
        self._update()


def _right(button: QPushButton) -> QHBoxLayout:
    row = QHBoxLayout()
    row.addStretch(1)
    row.addWidget(button)
    return row
