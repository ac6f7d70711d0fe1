"""The Restore tab of File → Back Up…: the backups where backups go, newest first, a
passphrase, Restore (a merge: adds what this computer lacks) and Replace (asked first:
this computer's data becomes the backup's, after a copy of the database is kept).

Names, devices and every message come from files or servers: they are shown in item
views and plain-text labels, never as markup.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QMessageBox,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop.core.remote_target import describe_target
from desktop.ui.viewmodels.backup import BackupViewModel
from desktop.ui.views.backup_panel import password_edit
from desktop.ui.views.backup_target_form import buddy_label, new_form
from desktop.ui.views.labels import PlainLabel, form_hint, message_box
from desktop.ui.views.settings_pages.providers_page import set_tone


class RestorePanel(QWidget):
    def __init__(self, model: BackupViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self._restore = model.restore
        self.confirm_box: QMessageBox | None = None

        self.where = PlainLabel("", self)
        self.where.setWordWrap(True)
        self.refresh_button = QPushButton(self.tr("Re&fresh"), self)
        self.refresh_button.setAutoDefault(False)
        self.refresh_button.clicked.connect(self.refresh)
        self.list = QTableView(self)
        self.list.setModel(self._restore.table)
        self.list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setShowGrid(False)
        self.list.setWordWrap(False)
        self.list.setTabKeyNavigation(False)
        self.list.verticalHeader().hide()
        self.list.verticalHeader().setDefaultSectionSize(self.list.fontMetrics().height() + 8)
        header = self.list.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setHighlightSections(False)
        self.list.setAccessibleName(self.tr("Backups"))
        self.list_problem = PlainLabel("", self)
        self.list_problem.setWordWrap(True)
        self.list_problem.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.list_problem.hide()

        self.passphrase = password_edit(self)
        self.passphrase.textChanged.connect(self._update)
        explanation = form_hint(
            self.tr(
                "Restore adds what this computer lacks: nothing here is deleted or "
                "overwritten by older data, and what you deleted here stays deleted."
            ),
            self,
        )
        self.replace_button = QPushButton(self.tr("Re&place This Computer's Data…"), self)
        self.replace_button.setAutoDefault(False)
        self.replace_button.clicked.connect(self.ask_replace)
        self.restore_button = QPushButton(self.tr("&Restore"), self)
        self.restore_button.setObjectName("SendButton")
        self.restore_button.clicked.connect(self.restore)

        top = QHBoxLayout()
        top.addWidget(self.where, 1)
        top.addWidget(self.refresh_button, 0, Qt.AlignmentFlag.AlignTop)
        form = new_form()
        form.addRow(buddy_label(self.tr("Pa&ssphrase"), self.passphrase, self), self.passphrase)
        buttons = QHBoxLayout()
        buttons.addWidget(self.replace_button)
        buttons.addStretch(1)
        buttons.addWidget(self.restore_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.list_problem)
        layout.addLayout(form)
        layout.addWidget(explanation)
        layout.addLayout(buttons)

        self._restore.listingChanged.connect(self._on_busy)
        self._restore.listed.connect(self._on_listed)
        self._restore.listFailed.connect(self._on_list_failed)
        model.configChanged.connect(self._on_config)
        model.finished.connect(self._on_backed_up)
        model.secretsChanged.connect(self._update)
        model.job.workingChanged.connect(self._on_busy)
        self.list.selectionModel().selectionChanged.connect(lambda *_: self._update())
        self._show_where()

    # --- the list ---------------------------------------------------------------------

    def refresh(self) -> None:
        if self._model.config.target is not None:
            self.list_problem.hide()
            self._restore.refresh()

    def _on_config(self) -> None:
        self._show_where()
        if self._restore.stale:  # another place: its list is asked for when shown
            self.list_problem.hide()
            if self.isVisible():
                self.refresh()

    def _on_backed_up(self, ok: bool, _text: str) -> None:
        if ok and self.isVisible():
            self.refresh()

    def _show_where(self) -> None:
        target = self._model.config.target
        if target is None:
            self.where.setText(self.tr("Choose where backups go in the Back Up tab first."))
        else:
            self.where.setText(
                self.tr("Backups in %1, newest first:").replace("%1", describe_target(target))
            )
        self._update()

    def _on_listed(self) -> None:
        if not self._restore.entries:
            set_tone(self.list_problem, self.tr("There are no Parley backups there yet."))
            self.list_problem.show()
        elif self.selected_row < 0:
            self.list.selectionModel().select(
                self._restore.table.index(0, 0),
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows,
            )
            self.list.setCurrentIndex(self._restore.table.index(0, 0))
        self._update()

    def _on_list_failed(self, text: str) -> None:
        set_tone(self.list_problem, text, "error")
        self.list_problem.show()
        self._update()

    def _on_busy(self, _busy: bool) -> None:
        self._update()

    @property
    def selected_row(self) -> int:
        rows = self.list.selectionModel().selectedRows()
        return rows[0].row() if rows else -1

    def _update(self) -> None:
        target = self._model.config.target
        idle = not self._model.working
        self.refresh_button.setEnabled(target is not None and not self._restore.listing)
        can = idle and self.selected_row >= 0
        self.restore_button.setEnabled(can)
        self.replace_button.setEnabled(can)
        self.passphrase.setPlaceholderText(
            self.tr("Leave empty to use the passphrase kept in the keyring")
            if self._model.passphrase_saved
            else ""
        )

    # --- restoring --------------------------------------------------------------------

    def restore(self) -> None:
        if self.restore_button.isEnabled():
            self._restore.restore(self.selected_row, self.passphrase.text())

    def ask_replace(self) -> QMessageBox | None:
        """Ask before replacing (non-blocking; Cancel is the default)."""
        row = self.selected_row
        if row < 0 or not self.replace_button.isEnabled():
            return None
        entry = self._restore.entries[row]
        cells = [self._restore.table.index(row, c).data() for c in range(2)]
        box = message_box(
            QMessageBox.Icon.Warning,
            self.tr("Replace This Computer's Data"),
            self.tr(
                "Replace this computer's chats, memories and settings with the backup made "
                "%1 on %2?\n\nWhat was added here since that backup is no longer shown. "
                "Parley first keeps a copy of the current database; where it is is said "
                "once the restore is done."
            )
            .replace("%1", cells[0])
            .replace("%2", entry.device),
            QMessageBox.StandardButton.Cancel,
            self,
        )
        replace = box.addButton(self.tr("Replace"), QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.setEscapeButton(QMessageBox.StandardButton.Cancel)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        passphrase = self.passphrase.text()

        def answered(button: QAbstractButton) -> None:
            self.confirm_box = None
            entries = self._restore.entries
            if button is replace and row < len(entries) and entries[row].name == entry.name:
                self._restore.restore(row, passphrase, replace_all=True)

        box.buttonClicked.connect(answered)
        self.confirm_box = box
        box.open()
        return box

    def clear_secrets(self) -> None:
        self.passphrase.clear()
