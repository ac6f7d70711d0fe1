"""Opens File → Back Up… (one window for both tabs), and shows what that window cannot:
a daily backup's failure, and a failure while the window was closed.

Apart from the window itself so the app can wire it at start without importing the
window's modules, which load when it first opens.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from desktop.ui.viewmodels.backup import BackupViewModel

if TYPE_CHECKING:
    from desktop.ui.views.backup_dialog import BackupDialog


class BackupOpener(QObject):
    """Opens the one backup window, and shows what it cannot: a daily backup's failure,
    and a failure while the window was closed."""

    def __init__(
        self,
        model: BackupViewModel,
        parent: QWidget,
        show_error: Callable[[str], None],
    ) -> None:
        super().__init__(parent)
        self._model = model
        self._parent = parent
        self._show_error = show_error
        self.dialog: BackupDialog | None = None
        model.finished.connect(self._on_backup_finished)
        model.restore.finished.connect(self._unseen_failure)
        model.scheduleFailed.connect(show_error)

    def open(self, restore: bool = False) -> BackupDialog:
        if self.dialog is None:
            # Built, and its modules imported, when first opened, not at start.
            from desktop.ui.views.backup_dialog import BackupDialog

            self.dialog = BackupDialog(self._model, self._parent)
        if not self._model.working:
            self.dialog.show_tab(restore)
        self.dialog.show()
        self.dialog.raise_()
        self.dialog.activateWindow()
        return self.dialog

    def _on_backup_finished(self, ok: bool, text: str) -> None:
        if not self._model.last_scheduled:
            self._unseen_failure(ok, text)

    def _unseen_failure(self, ok: bool, text: str) -> None:
        """A backup or restore that failed while the window was closed (a daily backup's
        failure comes by `scheduleFailed`; a cancel the person asked for is not news)."""
        unseen = self.dialog is None or not self.dialog.isVisible()
        if not ok and unseen and not self._model.job.cancelling:
            self._show_error(text)
