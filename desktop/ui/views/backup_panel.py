"""The Back Up tab of File → Back Up…: where backups go, the passphrase, how many to
keep and whether to back up daily, the last backup's status, and Back Up Now.

Every field applies as it changes (no Save button). The passphrase fields are never
filled from the keyring; they are cleared when the window closes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from desktop.core.backup_settings import MAX_KEEP
from desktop.ui.icons import IconLabel
from desktop.ui.viewmodels.backup import PASSPHRASE, BackupViewModel
from desktop.ui.views.backup_target_form import TargetForm, buddy_label, new_form
from desktop.ui.views.labels import PlainLabel, form_hint
from desktop.ui.views.settings_pages.autosave import FieldError, field_column, save_number_on_pause
from desktop.ui.views.settings_pages.providers_page import set_tone


def section(text: str, parent: QWidget) -> PlainLabel:
    label = PlainLabel(text, parent)
    label.setObjectName("SettingsSection")
    return label


def password_edit(parent: QWidget) -> QLineEdit:
    edit = QLineEdit(parent)
    edit.setEchoMode(QLineEdit.EchoMode.Password)
    return edit


def warning_row(text: str, parent: QWidget) -> QHBoxLayout:
    """`text` (what losing a passphrase means) beside a warning sign."""
    icon = IconLabel("warning", parent, tone="danger")
    warning = PlainLabel(text, parent)
    warning.setWordWrap(True)
    row = QHBoxLayout()
    row.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
    row.addWidget(warning, 1)
    return row


def align_labels(forms: Iterable[QFormLayout]) -> None:
    """Every form's labels as wide as the widest, so the fields of all line up."""
    labels: list[QWidget] = []
    for form in forms:
        for row in range(form.rowCount()):
            item = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            widget = item.widget() if item is not None else None
            if widget is not None:
                labels.append(widget)
    width = max((label.sizeHint().width() for label in labels), default=0)
    for label in labels:
        label.setMinimumWidth(width)


def typed_problem(
    check: Callable[[str, str], str], passphrase: str, repeat: str, left: bool
) -> str:
    """What to say of a new passphrase as typed so far (`check`: the view-model's
    `passphrase_problem`): once repeated, all that is wrong; before that, only its
    weakness, and only once the first field was `left`."""
    if repeat:
        return check(passphrase, repeat)
    if passphrase and left:
        return check(passphrase, passphrase)
    return ""


class BackupPanel(QWidget):
    def __init__(self, model: BackupViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._passphrase_left = False  # the first field was finished once: say if weak

        self.target = TargetForm(model, self)

        # --- the passphrase -----------------------------------------------------------
        self.passphrase = password_edit(self)
        self.repeat = password_edit(self)
        self.remember = QCheckBox(self.tr("Re&member in the keyring"), self)
        self.passphrase_problem = FieldError(self)
        self.passphrase_note = form_hint("", self)
        self.passphrase_note.hide()
        warning = warning_row(
            self.tr(
                "Without the passphrase nobody, not even you, can open these backups. "
                "Keep it somewhere safe."
            ),
            self,
        )
        self.passphrase.textChanged.connect(self._update)
        self.repeat.textChanged.connect(self._update)
        self.passphrase.editingFinished.connect(self._on_passphrase_finished)
        self.repeat.editingFinished.connect(self._on_passphrase_finished)
        self.remember.toggled.connect(self._on_remember)

        # --- the schedule -------------------------------------------------------------
        self.keep = QSpinBox(self)
        self.keep.setRange(1, MAX_KEEP)
        self.keep_pause = save_number_on_pause(self.keep, self._save_keep)
        self.daily = QCheckBox(self.tr("Back up every &day while Parley runs"), self)
        self.daily.toggled.connect(self._on_daily)
        self.daily_note = form_hint("", self)

        # --- status and action --------------------------------------------------------
        self.status = PlainLabel("", self)
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reason = form_hint("", self)
        self.reason.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.back_up_button = QPushButton(self.tr("Back Up &Now"), self)
        self.back_up_button.setObjectName("SendButton")  # the one primary action
        self.back_up_button.clicked.connect(self.back_up)

        passphrase_form = new_form()
        passphrase_form.addRow(
            buddy_label(self.tr("Pa&ssphrase"), self.passphrase, self), self.passphrase
        )
        passphrase_form.addRow(
            buddy_label(self.tr("&Repeat"), self.repeat, self),
            field_column(self.repeat, self.passphrase_problem),
        )
        passphrase_form.addRow("", field_column(self.remember, self.passphrase_note))
        passphrase_form.addRow("", warning)
        keep_row = QHBoxLayout()
        keep_label = QLabel(self.tr("Keep the &last"), self)
        keep_label.setTextFormat(Qt.TextFormat.PlainText)
        keep_label.setBuddy(self.keep)
        keep_row.addWidget(keep_label)
        keep_row.addWidget(self.keep)
        keep_row.addWidget(PlainLabel(self.tr("backups of this computer"), self))
        keep_row.addStretch(1)
        action_row = QHBoxLayout()
        action_row.addWidget(self.reason, 1)
        action_row.addWidget(self.back_up_button)

        layout = QVBoxLayout(self)
        layout.addWidget(section(self.tr("Where backups go"), self))
        layout.addWidget(self.target)
        layout.addSpacing(6)
        layout.addWidget(section(self.tr("Passphrase"), self))
        layout.addLayout(passphrase_form)
        layout.addSpacing(6)
        layout.addWidget(section(self.tr("Schedule"), self))
        layout.addLayout(keep_row)
        layout.addLayout(field_column(self.daily, self.daily_note))
        layout.addSpacing(6)
        layout.addWidget(self.status)
        layout.addStretch(1)
        layout.addLayout(action_row)
        align_labels([passphrase_form, *self.target.findChildren(QFormLayout)])

        model.configChanged.connect(self.load)
        model.secretsChanged.connect(self._on_secrets)
        model.statusChanged.connect(self._show_status)
        model.problemChanged.connect(self._show_problem)
        model.job.workingChanged.connect(self._on_working)
        self.load()
        self._show_status()
        self._on_secrets()

    # --- following the model ----------------------------------------------------------

    def load(self) -> None:
        config = self._model.config
        if self.keep.value() != config.keep and not self.keep_pause.pending:
            self.keep.blockSignals(True)
            self.keep.setValue(config.keep)
            self.keep.blockSignals(False)
        self.daily.blockSignals(True)
        self.daily.setChecked(config.daily)
        self.daily.blockSignals(False)
        self._update()

    def _on_secrets(self) -> None:
        saved = self._model.passphrase_saved
        keyring = self._model.keyring_problem
        self.remember.blockSignals(True)
        if saved or not self.passphrase.text():
            self.remember.setChecked(saved)
        self.remember.blockSignals(False)
        self.remember.setEnabled(not keyring)
        if keyring:
            note = self.tr(
                "The keyring is not available (%1): type the passphrase each time you back up."
            ).replace("%1", keyring)
        elif saved:
            note = self.tr(
                "The passphrase is kept in the keyring: leave the fields empty to use it, or "
                "type a new one to use from now on."
            )
        else:
            note = ""
        self.passphrase_note.setText(note)
        self.passphrase_note.setVisible(bool(note))
        self._update()

    def _show_status(self) -> None:
        text, error = self._model.status()
        set_tone(self.status, text, "error" if error else "")
        self._update()

    def _show_problem(self, field: str, text: str) -> None:
        if field == PASSPHRASE:
            self.passphrase_problem.say(text)

    def _on_working(self, _working: bool) -> None:
        self._update()

    def _update(self) -> None:
        """What can be done now, and why not."""
        passphrase, repeat = self.passphrase.text(), self.repeat.text()
        problem = typed_problem(
            self._model.passphrase_problem, passphrase, repeat, self._passphrase_left
        )
        self.passphrase_problem.say(problem)
        reason = self._model.backup_problem(passphrase, repeat)
        self.back_up_button.setEnabled(not reason)
        self.reason.setText("" if reason == problem else reason)
        daily_problem = self._model.daily_problem()
        self.daily.setEnabled(not daily_problem or self.daily.isChecked())
        self.daily_note.setText(daily_problem)
        self.daily_note.setVisible(bool(daily_problem))

    # --- the person's changes ---------------------------------------------------------

    def _save_keep(self) -> None:
        self._model.set_keep(self.keep.value())

    def _on_daily(self, on: bool) -> None:
        self._model.set_daily(on)
        self._update()

    def _typed_ok(self) -> bool:
        passphrase = self.passphrase.text()
        return bool(passphrase) and not self._model.passphrase_problem(
            passphrase, self.repeat.text()
        )

    def _on_passphrase_finished(self) -> None:
        self._passphrase_left = self._passphrase_left or bool(self.passphrase.text())
        self._update()
        if self.remember.isChecked() and self._typed_ok():
            self._model.remember_passphrase(self.passphrase.text())

    def _on_remember(self, on: bool) -> None:
        if on and self._typed_ok():
            self._model.remember_passphrase(self.passphrase.text())
        elif on:
            self.passphrase_problem.say(
                self.tr("Type the passphrase in both fields to keep it in the keyring.")
            )
        elif self._model.passphrase_saved:
            self._model.forget_passphrase()

    def back_up(self) -> None:
        if not self.back_up_button.isEnabled():
            return
        self.keep_pause.flush()
        passphrase = self.passphrase.text()
        if passphrase and self.remember.isChecked() and self._typed_ok():
            self._model.remember_passphrase(passphrase)
        self._model.back_up(passphrase)

    def clear_secrets(self) -> None:
        """Nothing secret stays in a widget once the window closes."""
        for edit in (self.passphrase, self.repeat):
            edit.clear()
        self._passphrase_left = False
        self.target.clear_secrets()
        self._on_secrets()
