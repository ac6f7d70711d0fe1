"""File → Back Up… and File → Restore from Backup…: one non-modal window with a tab for
each, the progress of whichever runs (with Cancel), and what the last one did.

Enter presses the shown tab's primary button; Esc closes the window, except while a
backup or restore runs (closing the window then only hides it: the work goes on, and
a failure nobody could see is shown by the main window). Nothing secret is left in a
widget once the window closes.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.viewmodels.backup import BackupViewModel
from desktop.ui.views.backup_panel import BackupPanel
from desktop.ui.views.labels import PlainLabel
from desktop.ui.views.restore_panel import RestorePanel
from desktop.ui.views.settings_pages.providers_page import set_tone


class BackupDialog(QDialog):
    def __init__(self, model: BackupViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self.setWindowTitle(self.tr("Back Up and Restore"))
        self.setObjectName("BackupDialog")
        self.setModal(False)
        self.resize(660, 720)

        self.backup_panel = BackupPanel(model, self)
        self.restore_panel = RestorePanel(model, self)
        scroll = QScrollArea(self)  # the form is tall: it scrolls on a small screen
        scroll.setObjectName("SettingsPageScroll")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(self.backup_panel)
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(scroll, self.tr("Back Up"))
        self.tabs.addTab(self.restore_panel, self.tr("Restore"))
        self.tabs.currentChanged.connect(self._on_tab)

        self.progress_label = PlainLabel("", self)
        self.progress_bar = QProgressBar(self)
        self.progress_bar.setTextVisible(False)
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setAutoDefault(False)
        self.cancel_button.clicked.connect(self._cancel)
        self.progress_area = QWidget(self)
        progress_row = QHBoxLayout(self.progress_area)
        progress_row.setContentsMargins(0, 0, 0, 0)
        progress_column = QVBoxLayout()
        progress_column.setSpacing(2)
        progress_column.addWidget(self.progress_label)
        progress_column.addWidget(self.progress_bar)
        progress_row.addLayout(progress_column, 1)
        progress_row.addWidget(self.cancel_button, 0, Qt.AlignmentFlag.AlignBottom)
        self.progress_area.hide()
        self.outcome = PlainLabel("", self)
        self.outcome.setWordWrap(True)
        self.outcome.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.outcome.hide()
        self.close_button = QPushButton(self.tr("&Close"), self)
        self.close_button.setAutoDefault(False)
        self.close_button.clicked.connect(self.close)
        bottom = QHBoxLayout()
        bottom.addStretch(1)
        bottom.addWidget(self.close_button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.progress_area)
        layout.addWidget(self.outcome)
        layout.addLayout(bottom)

        model.job.workingChanged.connect(self._on_working)
        model.job.progressed.connect(self._show_progress)
        model.finished.connect(self._show_result)
        model.restore.finished.connect(self._show_result)
        self._on_working(model.job.working)
        self._on_tab(0)

    # --- tabs -------------------------------------------------------------------------

    def show_tab(self, restore: bool) -> None:
        self.tabs.setCurrentIndex(1 if restore else 0)

    @property
    def primary(self) -> QPushButton:
        if self.tabs.currentIndex() == 1:
            return self.restore_panel.restore_button
        return self.backup_panel.back_up_button

    def _on_tab(self, index: int) -> None:
        for button in (self.backup_panel.back_up_button, self.restore_panel.restore_button):
            button.setAutoDefault(False)
            button.setDefault(button is self.primary)
        if index == 1 and self._model.restore.stale:
            self.restore_panel.refresh()

    # --- progress and results ---------------------------------------------------------

    def _on_working(self, working: bool) -> None:
        self.progress_area.setVisible(working)
        self.cancel_button.setEnabled(working)
        if working:
            self.cancel_button.setText(self.tr("Cancel"))
            self.outcome.hide()
            self.progress_bar.setRange(0, 0)
            self.progress_label.setText(self.tr("Starting…"))
        elif self.isVisible():
            self.primary.setFocus()

    def _show_progress(self, words: str, done: int, total: int) -> None:
        if not self._model.job.cancelling:  # "Cancelling…" stays until it ends
            self.progress_label.setText(words)
        if total > 0:
            self.progress_bar.setRange(0, total)
            self.progress_bar.setValue(min(done, total))
        else:
            self.progress_bar.setRange(0, 0)  # no way to know how far it has got

    def _show_result(self, ok: bool, text: str) -> None:
        # A cancel that was asked for is not an error; anything else that failed is.
        tone = "ok" if ok else "" if self._model.job.cancelling else "error"
        set_tone(self.outcome, text, tone)
        self.outcome.show()

    def _cancel(self) -> None:
        self._model.job.cancel()
        self.cancel_button.setEnabled(False)
        self.progress_label.setText(self.tr("Cancelling…"))

    # --- keys and closing -------------------------------------------------------------

    def reject(self) -> None:
        """Esc: closes, except while a backup or restore runs."""
        if not self._model.working:
            super().reject()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._model.load_secrets()

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        self.backup_panel.clear_secrets()
        self.restore_panel.clear_secrets()
