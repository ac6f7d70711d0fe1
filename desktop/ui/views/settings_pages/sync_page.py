"""Settings → Sync: where the vault is (the form File → Back Up… uses), then either
creating or joining a vault (`sync_setup.py`), or, once in one, how syncing stands:
the status line with a progress bar while a sync runs, changes refused and chats
brought back, Sync Now and Pause, the devices with Remove Device…, and the vault's
recovery key and Leave Vault….

Everything here that came from elsewhere (device names, chat titles, a server's
error) is shown as plain text. Removing a device and leaving the vault ask first.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHBoxLayout,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop.core.sync_settings import MAX_INTERVAL_MINUTES, MIN_INTERVAL_MINUTES
from desktop.ui.viewmodels.sync import SyncViewModel
from desktop.ui.views.backup_panel import align_labels, section
from desktop.ui.views.backup_target_form import TargetForm, buddy_label
from desktop.ui.views.labels import PlainLabel, form_hint, message_box
from desktop.ui.views.settings_pages.autosave import save_number_on_pause
from desktop.ui.views.settings_pages.providers_page import set_tone
from desktop.ui.views.settings_pages.recovery_key_dialog import RecoveryKeyDialog
from desktop.ui.views.settings_pages.sync_setup import SyncSetup


class SyncPage(QWidget):
    def __init__(self, model: SyncViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self.confirmation: QMessageBox | None = None  # the open "Remove?" or "Leave?"
        self.key_dialog: RecoveryKeyDialog | None = None

        intro = form_hint(
            self.tr(
                "Sync keeps your chats, their files and memories the same on each of your "
                "computers, through a folder, a WebDAV server or S3 storage you choose. "
                "Everything is encrypted here first: the storage only sees scrambled data."
            ),
            self,
        )
        self.target = TargetForm(
            model,
            self,
            where_label=self.tr("&Vault is in"),
            folder_example=self.tr("e.g. a folder in Nextcloud, Syncthing or a shared drive"),
            folder_title=self.tr("Folder for the Sync Vault"),
        )
        self.setup = SyncSetup(model, self)
        self.joined_part = QWidget(self)
        self._build_joined(self.joined_part)
        self.outcome = PlainLabel("", self)
        self.outcome.setWordWrap(True)
        self.outcome.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(section(self.tr("Where the vault is"), self))
        layout.addWidget(self.target)
        layout.addSpacing(6)
        layout.addWidget(self.setup)
        layout.addWidget(self.joined_part)
        layout.addWidget(self.outcome)
        layout.addStretch(1)
        # The setup's labels as wide as the target form's, so the fields line up.
        align_labels([*self.target.findChildren(QFormLayout), *self.setup.forms])

        model.statusChanged.connect(self._show_status)
        model.workingChanged.connect(lambda _working: self._show_status())
        model.actionFinished.connect(self._on_finished)
        model.recoveryKeyShown.connect(self.show_key)
        model.configChanged.connect(self._load_interval)
        self._show_status()

    def _build_joined(self, part: QWidget) -> None:
        self.status = PlainLabel("", part)
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.stage = PlainLabel("", part)
        self.progress = QProgressBar(part)
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(8)
        self.refused = PlainLabel("", part)
        self.refused.setWordWrap(True)
        self.refused.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.revived = PlainLabel("", part)
        self.revived.setWordWrap(True)
        self.revived.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.sync_button = QPushButton(self.tr("&Sync Now"), part)
        self.sync_button.setObjectName("SendButton")  # the one primary action
        self.sync_button.clicked.connect(self._model.sync_now)
        self.pause_button = QPushButton("", part)
        self.pause_button.clicked.connect(self._toggle_pause)
        self.interval = QSpinBox(part)
        self.interval.setRange(MIN_INTERVAL_MINUTES, MAX_INTERVAL_MINUTES)
        self.interval.setSuffix(self.tr(" min"))
        self.interval_pause = save_number_on_pause(self.interval, self._save_interval)
        self._load_interval()

        self.devices = QTreeWidget(part)
        self.devices.setColumnCount(2)
        self.devices.setHeaderLabels([self.tr("Device"), self.tr("Last sent changes")])
        self.devices.setRootIsDecorated(False)
        self.devices.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.devices.setMinimumHeight(110)
        self.devices.setMaximumHeight(150)
        self.devices.itemSelectionChanged.connect(self._update_buttons)
        self.remove_button = QPushButton(self.tr("Re&move Device…"), part)
        self.remove_button.clicked.connect(self.ask_remove)
        self.key_button = QPushButton(self.tr("Sh&ow Recovery Key…"), part)
        self.key_button.clicked.connect(self._model.show_recovery_key)
        self.leave_button = QPushButton(self.tr("Lea&ve Vault…"), part)
        self.leave_button.clicked.connect(self.ask_leave)

        actions = QHBoxLayout()
        actions.addWidget(self.sync_button)
        actions.addWidget(self.pause_button)
        actions.addStretch(1)
        interval_row = QHBoxLayout()
        interval_row.addWidget(buddy_label(self.tr("&Look for changes every"), self.interval, part))
        interval_row.addWidget(self.interval)
        interval_row.addStretch(1)
        device_buttons = QHBoxLayout()
        device_buttons.addWidget(self.remove_button)
        device_buttons.addStretch(1)
        vault_buttons = QHBoxLayout()
        vault_buttons.addWidget(self.key_button)
        vault_buttons.addWidget(self.leave_button)
        vault_buttons.addStretch(1)

        layout = QVBoxLayout(part)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(section(self.tr("Status"), part))
        layout.addWidget(self.status)
        layout.addWidget(self.stage)
        layout.addWidget(self.progress)
        layout.addWidget(self.refused)
        layout.addWidget(self.revived)
        layout.addLayout(actions)
        layout.addLayout(interval_row)
        layout.addSpacing(6)
        devices_label = buddy_label(self.tr("&Devices"), self.devices, part)
        devices_label.setObjectName("SettingsSection")
        layout.addWidget(devices_label)
        layout.addWidget(self.devices)
        layout.addLayout(device_buttons)
        layout.addWidget(
            form_hint(
                self.tr(
                    "A removed device stops syncing; the copy it has keeps what it already "
                    "synced. If a device was lost, make a new vault with a new passphrase."
                ),
                part,
            )
        )
        layout.addSpacing(6)
        layout.addWidget(section(self.tr("Vault"), part))
        layout.addLayout(vault_buttons)

    # --- following the model ----------------------------------------------------------

    def _show_status(self) -> None:
        status = self._model.status
        self.setup.setVisible(not status.joined)
        self.joined_part.setVisible(status.joined)
        text, error = self._model.words.summary(status)
        set_tone(self.status, text, "error" if error else "")
        self.stage.setVisible(status.running)
        self.progress.setVisible(status.running)
        if status.running:
            self.stage.setText(self._model.words.progress(status))
            self.progress.setRange(0, status.total)  # 0..0: busy, no known end
            self.progress.setValue(min(status.done, status.total))
        refused = self._model.words.refused(status)
        set_tone(self.refused, refused, "error")
        self.refused.setVisible(bool(refused))
        revived = self._model.words.revived(status)
        self.revived.setText(revived)
        self.revived.setVisible(bool(revived))
        self.pause_button.setText(
            self.tr("Res&ume Syncing") if status.paused else self.tr("Pa&use Syncing")
        )
        self._show_devices()
        self._update_buttons()

    def _show_devices(self) -> None:
        chosen = self.chosen_device()
        self.devices.clear()
        for row in self._model.words.devices(self._model.status):
            item = QTreeWidgetItem([row.name, row.seen])
            item.setData(0, Qt.ItemDataRole.UserRole, row.device_id)
            item.setData(1, Qt.ItemDataRole.UserRole, row.removable)
            self.devices.addTopLevelItem(item)
            if row.device_id == chosen:
                item.setSelected(True)
                self.devices.setCurrentItem(item)
        self.devices.resizeColumnToContents(0)

    def chosen_device(self) -> str:
        item = self.devices.currentItem()
        if item is None or not item.isSelected():
            return ""
        return str(item.data(0, Qt.ItemDataRole.UserRole))

    def _chosen_removable(self) -> bool:
        item = self.devices.currentItem()
        return (
            item is not None and item.isSelected() and bool(item.data(1, Qt.ItemDataRole.UserRole))
        )

    def _update_buttons(self) -> None:
        working = self._model.working or self._model.status.running
        self.sync_button.setEnabled(not working)
        self.remove_button.setEnabled(not working and self._chosen_removable())
        self.leave_button.setEnabled(not working)

    def _load_interval(self) -> None:
        minutes = self._model.config.interval_minutes
        if self.interval.value() != minutes and not self.interval_pause.pending:
            self.interval.blockSignals(True)
            self.interval.setValue(minutes)
            self.interval.blockSignals(False)

    def _on_finished(self, ok: bool, text: str) -> None:
        set_tone(self.outcome, text, "ok" if ok else "error")

    def show_key(self, key: str) -> RecoveryKeyDialog:
        if self.key_dialog is not None:
            self.key_dialog.close()
        dialog = self.key_dialog = RecoveryKeyDialog(self._model, key, self)
        dialog.destroyed.connect(lambda: setattr(self, "key_dialog", None))
        dialog.open()
        return dialog

    # --- the person's changes ---------------------------------------------------------

    def _toggle_pause(self) -> None:
        self._model.set_paused(not self._model.config.paused)

    def _save_interval(self) -> None:
        self._model.set_interval(self.interval.value())

    def ask_remove(self) -> QMessageBox | None:
        device = self.chosen_device()
        item = self.devices.currentItem()
        if not device or item is None or not self._chosen_removable():
            return None
        question = self.tr(
            "Remove “%1” from the vault? It stops syncing: the other devices ignore what it "
            "sends from now on. The copy it has still holds everything it synced so far."
        ).replace("%1", item.text(0))
        return self._confirm(
            self.tr("Remove Device"),
            question,
            self.tr("Remove"),
            lambda: self._model.remove_device(device),
        )

    def ask_leave(self) -> QMessageBox:
        question = self.tr(
            "Leave the sync vault? This computer stops syncing; its chats stay here, and "
            "the vault and your other devices are not changed. You can join again with "
            "the passphrase or the recovery key."
        )
        return self._confirm(
            self.tr("Leave Vault"), question, self.tr("Leave Vault"), self._model.leave
        )

    def _confirm(
        self, title: str, question: str, action: str, on_yes: Callable[[], object]
    ) -> QMessageBox:
        """Ask (Cancel is the default) without blocking; `on_yes` runs only on yes."""
        box = self.confirmation = message_box(
            QMessageBox.Icon.Warning, title, question, QMessageBox.StandardButton.Cancel, self
        )
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        yes = box.addButton(action, QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.buttonClicked.connect(lambda button: on_yes() if button is yes else None)
        box.destroyed.connect(lambda: setattr(self, "confirmation", None))
        box.open()
        return box

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._model.count_pending()

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self.clear_secrets()  # another page, or the window closed

    def clear_secrets(self) -> None:
        """Nothing secret stays in a widget once the page is left."""
        self.setup.clear_secrets()
        self.target.clear_secrets()
