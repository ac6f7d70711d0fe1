"""Under a message too long to show in full: how much is shown, and the whole text to take.

Laying out megabytes of text would freeze the window, so a message shows its beginning
(see ``render/guard.py``); nothing is lost, and this row says so and offers all of it:
"Copy all" puts the whole text on the clipboard, "Save as file…" writes it to a file.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, SignalInstance
from PySide6.QtWidgets import QHBoxLayout, QSizePolicy, QToolButton, QWidget

from desktop.ui.icons import set_icon
from desktop.ui.views.labels import PlainLabel


class CutBar(QWidget):
    copyClicked = Signal()
    saveClicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("CutBar")
        self.label = PlainLabel("", self)
        self.label.setObjectName("MetaLabel")
        self.label.setWordWrap(True)
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.copy_button = self._button("copy", self.tr("Copy all"), self.copyClicked)
        self.save_button = self._button("save", self.tr("Save as file…"), self.saveClicked)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(6)
        row.addWidget(self.label, 1)
        row.addWidget(self.copy_button)
        row.addWidget(self.save_button)

    def _button(self, icon: str, text: str, clicked: SignalInstance) -> QToolButton:
        button = QToolButton(self)
        button.setObjectName("MessageAction")
        button.setText(text)
        button.setAccessibleName(text)
        button.setAutoRaise(True)
        button.setCursor(Qt.CursorShape.PointingHandCursor)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        set_icon(button, icon)
        button.clicked.connect(clicked)
        return button

    def set_note(self, note: str) -> None:
        self.label.setText(note)
        self.setVisible(bool(note))
