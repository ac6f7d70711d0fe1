"""Help → Keyboard Shortcuts: every shortcut Parley has, in one place."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)


class ShortcutsDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard Shortcuts"))
        rows = [
            ("Ctrl+N", self.tr("New chat")),
            ("Ctrl+K", self.tr("Search chats")),
            ("Enter", self.tr("Send the message")),
            ("Shift+Enter", self.tr("New line in the message")),
            ("Esc", self.tr("Stop the answer (keeps what arrived)")),
            ("Ctrl+Shift+E", self.tr("Edit your last message")),
            ("Ctrl+Shift+C", self.tr("Copy the last answer")),
            ("Ctrl+Shift+F", self.tr("Show or hide the floating chat")),
            ("Ctrl+Alt+Space", self.tr("The same from any application (set in Settings)")),
            ("Alt+Left", self.tr("Floating chat: move it (Alt+arrows; with Ctrl, 50 px)")),
            ("Alt+Shift+Right", self.tr("Floating chat: resize it (Alt+Shift+arrows)")),
            ("Esc", self.tr("Floating chat: hide it (when no answer is running)")),
            ("F2", self.tr("Rename the selected chat")),
            ("Del", self.tr("Delete the selected chat")),
            ("Ctrl+,", self.tr("Settings")),
            ("F1", self.tr("This list")),
            ("Ctrl+Q", self.tr("Quit")),
        ]
        self.table = QTableWidget(len(rows), 2, self)
        self.table.setHorizontalHeaderLabels([self.tr("Keys"), self.tr("Action")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        for row, (keys, action) in enumerate(rows):
            native = QKeySequence(keys).toString(QKeySequence.SequenceFormat.NativeText) or keys
            self.table.setItem(row, 0, QTableWidgetItem(native))
            self.table.setItem(row, 1, QTableWidgetItem(action))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(460, 440)
