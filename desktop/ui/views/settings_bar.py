"""The Settings window's bottom bar: what was just saved, Undo, and Close.

There is no Save button anywhere in Settings: each change is saved as it is made, and
this bar says so ("Saved · Theme changed") with an Undo button, or shows why a change
could not be saved.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QWidget

from desktop.ui.plain_text import tooltip
from desktop.ui.viewmodels.settings_undo import SettingsUndo
from desktop.ui.views.labels import PlainLabel
from desktop.ui.views.settings_pages.providers_page import set_tone


class SettingsBar(QFrame):
    def __init__(self, undo: SettingsUndo, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("SettingsBar")
        self._undo = undo
        self.state = PlainLabel("", self)  # "Saved", "Undone", or empty
        self.state.setObjectName("SettingsBarState")
        self.detail = PlainLabel("", self)  # what, or why it failed
        self.detail.setObjectName("SettingsBarDetail")
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.undo_button = QPushButton(self.tr("Undo"), self)
        self.undo_button.setObjectName("SettingsUndo")
        self.undo_button.setAutoDefault(False)
        self.undo_button.clicked.connect(undo.undo)
        self.close_button = QPushButton(self.tr("Close"), self)
        self.close_button.setAutoDefault(False)
        row = QHBoxLayout(self)
        row.setContentsMargins(16, 8, 12, 8)
        row.setSpacing(8)
        row.addWidget(self.state)
        row.addWidget(self.detail, 1)
        row.addWidget(self.undo_button)
        row.addSpacing(4)
        row.addWidget(self.close_button)

        undo.saved.connect(lambda what: self._show(self.tr("Saved"), what))
        undo.noted.connect(lambda what: self._show(self.tr("Saved"), what))
        undo.undone.connect(lambda what: self._show(self.tr("Undone"), what))
        undo.failed.connect(self._show_failure)
        undo.canUndoChanged.connect(lambda _can: self._show_undo())
        self.reset()

    def reset(self) -> None:
        """The resting state: how saving works here."""
        self._show("", self.tr("Changes are saved as you make them."))

    def _show(self, state: str, detail: str, tone: str = "") -> None:
        set_tone(self.state, state, tone)
        self.state.setVisible(bool(state))
        set_tone(self.detail, detail, tone)
        self._show_undo()

    def _show_failure(self, why: str) -> None:
        self._show(self.tr("Not saved"), why, "error")

    def _show_undo(self) -> None:
        can = self._undo.canUndo
        self.undo_button.setEnabled(can)
        what = self._undo.next_undo
        tip = self.tr("Undo “%1” (Ctrl+Z).").replace("%1", what) if can else ""
        keyring = self.tr("Keys and passwords kept in the keyring are not undone.")
        self.undo_button.setToolTip(tooltip(f"{tip} {keyring}".strip()))
