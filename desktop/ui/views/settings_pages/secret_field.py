"""A key or password field that never shows a saved secret again.

Used by Settings → Web search for engine keys and the SearXNG password: typed once,
stored in the keyring (not the settings file, and not part of the Settings window's
undo), then only said to be saved, with Replace and Remove.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.views.labels import PlainLabel, form_hint
from desktop.ui.views.settings_pages.autosave import FieldError


class SecretField(QWidget):
    """A key typed into a password field, or, once one is saved, only the words "A key
    is saved" with Replace and Remove: a saved key is never put back into a widget."""

    def __init__(self, saved_text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = QLineEdit(self)
        self.edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.saved_label = PlainLabel(saved_text, self)
        self.replace_button = QPushButton(self.tr("Replace"), self)
        self.replace_button.clicked.connect(self._replace)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        saved_row = QWidget(self)
        row = QHBoxLayout(saved_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.saved_label)
        row.addSpacing(12)
        row.addWidget(self.replace_button)
        row.addWidget(self.remove_button)
        row.addStretch(1)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.edit)
        self.stack.addWidget(saved_row)
        self.stack.setSizePolicy(self.edit.sizePolicy())
        self.note = form_hint("", self)  # why nothing can be typed, when there is no keyring
        self.note.hide()
        self.problem = FieldError(self)  # why the keyring did not take it
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.stack)
        layout.addWidget(self.problem)
        layout.addWidget(self.note)

    @property
    def shows_saved(self) -> bool:
        return self.stack.currentIndex() == 1

    @property
    def typed(self) -> str:
        """What was typed to save (nothing while the saved state is shown)."""
        return "" if self.shows_saved else self.edit.text()

    def set_saved(self, saved: bool) -> None:
        """Show the saved state when a key is saved, unless a new one is being typed."""
        if not saved:
            self.edit.setPlaceholderText("")
            self.stack.setCurrentIndex(0)
        elif not self.edit.text():
            self.stack.setCurrentIndex(1)

    def disable(self, reason: str) -> None:
        """No keyring: nothing can be typed, and the note below says why."""
        self.edit.setEnabled(False)
        self.note.setText(reason)
        self.note.show()

    def _replace(self) -> None:
        self.edit.clear()
        self.edit.setPlaceholderText(self.tr("Type the new one; leave empty to keep the saved one"))
        self.stack.setCurrentIndex(0)
        self.edit.setFocus()
