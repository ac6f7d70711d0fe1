"""Asks for a saved prompt's `{{variables}}` before it goes into the composer.

One field per variable, in the order they appear; the first is focused. Enter moves to
the next field and, in the last, inserts: a person fills the form without the mouse.
Cancel (or Esc) inserts nothing. A field left empty keeps its `{{name}}` in the text.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.views.labels import PlainLabel, form_hint


class PromptVariablesDialog(QDialog):
    def __init__(self, title: str, names: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Insert prompt"))
        self.setObjectName("PromptVariablesDialog")
        heading = PlainLabel(title, self)  # the person's own title: shown as it is
        heading.setObjectName("SettingsSection")
        heading.setWordWrap(True)
        hint = form_hint(self.tr("Fill in the blanks. Enter moves to the next one."), self)
        form = QFormLayout()
        self.fields: dict[str, QLineEdit] = {}
        for name in names:
            field = QLineEdit(self)
            field.setAccessibleName(name)
            field.setMinimumWidth(300)
            label = PlainLabel(name, self)  # a variable name the person wrote
            label.setBuddy(field)
            form.addRow(label, field)
            self.fields[name] = field
        fields = list(self.fields.values())
        for field, following in zip(fields, [*fields[1:], None], strict=True):
            field.returnPressed.connect(self._next_after(following))
        # Made before they join the button box: it polishes them when laid out, and
        # the stylesheet knows the primary button by its name.
        self.insert_button = QPushButton(self.tr("Insert"), self)
        self.insert_button.setObjectName("SendButton")  # the one primary action
        cancel = QPushButton(self.tr("Cancel"), self)
        # Enter belongs to the fields (next / insert), not to a default button.
        for button in (self.insert_button, cancel):
            button.setAutoDefault(False)
        buttons = QDialogButtonBox(self)
        buttons.addButton(self.insert_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(cancel, QDialogButtonBox.ButtonRole.RejectRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(hint)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self._first = fields[0] if fields else None

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # The button box makes Insert the default once shown; Enter is the fields'.
        self.insert_button.setDefault(False)
        if self._first is not None:  # focused once shown: before, Qt picks its own
            self._first.setFocus(Qt.FocusReason.ActiveWindowFocusReason)

    def _next_after(self, following: QLineEdit | None) -> Callable[[], None]:
        def go() -> None:
            if following is None:
                self.accept()
            else:
                following.setFocus()
                following.selectAll()

        return go

    def values(self) -> dict[str, str]:
        """What was typed for each variable."""
        return {name: field.text() for name, field in self.fields.items()}
