"""Settings → Desktop: the tray, notifications and the floating window's shortcut,
saved as they change (the shortcut once the desktop has taken it)."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QKeySequenceEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.viewmodels.desktop_settings import DesktopSettingsModel
from desktop.ui.views.labels import PlainLabel, plain_form_labels
from desktop.ui.views.settings_pages.autosave import FieldError

PORTABLE = QKeySequence.SequenceFormat.PortableText


class DesktopPage(QWidget):
    def __init__(self, model: DesktopSettingsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self.close_to_tray = QCheckBox(self.tr("Keep running in the tray when the window closes"))
        self.close_to_tray.setObjectName("CloseToTray")
        self.close_to_tray.toggled.connect(model.set_close_to_tray)
        self.tray_note = PlainLabel("", self)
        self.tray_note.setObjectName("FormHint")
        self.tray_note.setWordWrap(True)
        self.notifications = QCheckBox(
            self.tr("Notify me when an answer is ready or a tool needs approval")
        )
        self.notifications.setObjectName("Notifications")
        self.notifications.setToolTip(
            self.tr("Only while Parley is not the window you are working in.")
        )
        self.notifications.toggled.connect(model.set_notifications)
        self.shortcut = QKeySequenceEdit(self)
        self.shortcut.setObjectName("FloatingShortcut")
        self.shortcut.setMaximumSequenceLength(1)  # a global shortcut is one chord
        self.shortcut.editingFinished.connect(self._on_shortcut_edited)
        # Its own button rather than the field's clear button: the field empties itself
        # whenever recording starts, so an empty field does not mean "none".
        self.no_shortcut = QPushButton(self.tr("None"), self)
        self.no_shortcut.setToolTip(self.tr("No global shortcut"))
        self.no_shortcut.clicked.connect(lambda: model.set_floating_shortcut(""))
        self.shortcut_note = PlainLabel("", self)
        self.shortcut_note.setObjectName("FormHint")
        self.shortcut_note.setWordWrap(True)
        self.shortcut_problem = FieldError(self)

        tray_column = QVBoxLayout()
        tray_column.setSpacing(2)
        tray_column.addWidget(self.close_to_tray)
        tray_column.addWidget(self.tray_note)
        shortcut_column = QVBoxLayout()
        shortcut_column.setSpacing(2)
        shortcut_row = QHBoxLayout()
        shortcut_row.addWidget(self.shortcut)
        shortcut_row.addWidget(self.no_shortcut)
        shortcut_row.addStretch(1)
        shortcut_column.addLayout(shortcut_row)
        shortcut_column.addWidget(self.shortcut_problem)
        shortcut_column.addWidget(self.shortcut_note)
        form = QFormLayout()
        form.addRow(self.tr("Tray"), tray_column)
        form.addRow(self.tr("Notifications"), self.notifications)
        form.addRow(self.tr("Floating chat shortcut"), shortcut_column)
        plain_form_labels(form)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addStretch(1)

        model.changed.connect(self.load)
        model.shortcutProblemChanged.connect(self._show_shortcut_problem)
        self.load()

    def load(self) -> None:
        settings = self._model.settings
        tray = self._model.tray_available
        for box, on in (
            (self.close_to_tray, settings.close_to_tray and tray),
            (self.notifications, settings.notifications),
        ):
            box.blockSignals(True)
            box.setChecked(on)
            box.blockSignals(False)
        self.close_to_tray.setEnabled(tray)
        self.tray_note.setText(self._model.close_to_tray_note())
        self.shortcut.blockSignals(True)
        self.shortcut.setKeySequence(QKeySequence(settings.floating_shortcut, PORTABLE))
        self.shortcut.blockSignals(False)
        works, reason = self._model.shortcut_support()
        self.shortcut.setEnabled(works)
        self.no_shortcut.setEnabled(works and bool(settings.floating_shortcut))
        self.shortcut_note.setText(
            reason
            or self.tr("Shows or hides the floating chat, even while another app is in front.")
        )

    def _show_shortcut_problem(self, problem: str) -> None:
        self.shortcut_problem.say(problem)

    def _on_shortcut_edited(self) -> None:
        sequence = self.shortcut.keySequence()
        if sequence.isEmpty():  # recording began and ended without a key: keep the old one
            self.load()
            return
        self._model.set_floating_shortcut(sequence.toString(PORTABLE))
