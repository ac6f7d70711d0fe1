"""The "Earlier messages summarised" divider in the transcript, and its two dialogs.

The divider sits above the first message sent in full; it opens to the summary the
model receives in place of the older messages, which the person can edit or have
written again ("Compress now…", with optional instructions). Both dialogs are
non-modal: the chat stays usable while they are open.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.icons import set_icon
from desktop.ui.viewmodels.context import ContextViewModel
from desktop.ui.views.labels import PlainLabel


class SummaryDivider(QFrame):
    def __init__(self, context: ContextViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.setObjectName("SummaryDivider")
        self.toggle = QToolButton(self)
        self.toggle.setObjectName("SummaryToggle")
        self.toggle.setText(self.tr("Earlier messages summarised"))
        self.toggle.setToolTip(
            self.tr("Older messages are sent as this summary; your history stays intact")
        )
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setCursor(Qt.CursorShape.PointingHandCursor)
        self.toggle.toggled.connect(context.set_expanded)
        left, right = QFrame(self), QFrame(self)
        for line in (left, right):
            line.setFrameShape(QFrame.Shape.HLine)
            line.setObjectName("SummaryRule")
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(left, 1)
        header.addWidget(self.toggle)
        header.addWidget(right, 1)

        self.text = PlainLabel("", self)
        self.text.setObjectName("SummaryText")
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.edit_button = QPushButton(self.tr("Edit…"), self)
        self.edit_button.clicked.connect(self.open_editor)
        self.compress_button = QPushButton(self.tr("Compress now…"), self)
        self.compress_button.setToolTip(self.tr("Summarise all but the last few messages now"))
        self.compress_button.clicked.connect(self.open_compress)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addStretch(1)
        buttons.addWidget(self.edit_button)
        buttons.addWidget(self.compress_button)
        self.details = QWidget(self)
        inner = QVBoxLayout(self.details)
        inner.setContentsMargins(12, 0, 12, 4)
        inner.addWidget(self.text)
        inner.addLayout(buttons)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 6)
        layout.setSpacing(4)
        layout.addLayout(header)
        layout.addWidget(self.details)
        self.refresh()

    def refresh(self) -> None:
        expanded = self._context.expanded
        self.toggle.blockSignals(True)
        self.toggle.setChecked(expanded)
        self.toggle.blockSignals(False)
        set_icon(self.toggle, "chevron-down" if expanded else "chevron-right", size=12)
        self.text.setText(self._context.summary_text)
        self.details.setVisible(expanded)
        self.compress_button.setEnabled(not self._context.busy)

    def open_editor(self) -> SummaryEditor:
        editor = SummaryEditor(self._context, self.window())
        editor.show()
        return editor

    def open_compress(self) -> CompressDialog:
        dialog = CompressDialog(self._context, self.window())
        dialog.show()
        return dialog


class SummaryEditor(QDialog):
    """Edit the summary text; it keeps standing for the same messages."""

    def __init__(self, context: ContextViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("SummaryEditor")
        self.setWindowTitle(self.tr("Edit summary"))
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self._context = context
        self.editor = QPlainTextEdit(self)
        self.editor.setPlainText(context.summary_text)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(
            PlainLabel(self.tr("The model gets this instead of the older messages."), self)
        )
        layout.addWidget(self.editor, 1)
        layout.addWidget(buttons)
        self.resize(560, 360)

    def accept(self) -> None:
        self._context.save_summary(self.editor.toPlainText())
        super().accept()


class CompressDialog(QDialog):
    """Optional instructions for "Compress now" ("keep every number")."""

    def __init__(self, context: ContextViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("CompressDialog")
        self.setWindowTitle(self.tr("Compress now"))
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self._context = context
        self.instructions = QLineEdit(self)
        self.instructions.setPlaceholderText(self.tr("Optional: what the summary must keep"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        compress = buttons.addButton(self.tr("Compress"), QDialogButtonBox.ButtonRole.AcceptRole)
        compress.setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(
            PlainLabel(self.tr("Summarise all but the last few messages now. Nothing is deleted."))
        )
        layout.addWidget(self.instructions)
        layout.addWidget(buttons)

    def accept(self) -> None:
        self._context.compress_now(self.instructions.text())
        super().accept()
