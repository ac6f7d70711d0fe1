"""The chat header's assistant picker (icon and name) and its "Conversation prompt…"
button, which opens a small editor that does not block the window."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QPlainTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.viewmodels.assistant_picker import AssistantPickerModel
from desktop.ui.views.elided import ElidingComboBox
from desktop.ui.views.labels import PlainLabel


class PromptEditor(QDialog):
    """The conversation's own system prompt; empty returns to the assistant's."""

    def __init__(self, model: AssistantPickerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ConversationPromptEditor")
        self.setWindowTitle(self.tr("Conversation prompt"))
        self.setModal(False)
        self.resize(520, 320)
        self._model = model
        self.conversation_id = ""
        self.hint = PlainLabel("", self)
        self.hint.setWordWrap(True)
        self.hint.setObjectName("FormHint")
        self.text = QPlainTextEdit(self)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.reset_button = buttons.addButton(
            self.tr("Use the assistant's prompt"), QDialogButtonBox.ButtonRole.ResetRole
        )
        self.reset_button.clicked.connect(self.text.clear)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.hint)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)

    def load(self) -> None:
        self.conversation_id = self._model.conversation_id
        assistant = self._model.current
        self.hint.setText(
            self.tr(
                "Replaces the system prompt of %1 in this conversation only. "
                "Leave it empty to use the assistant's prompt."
            ).replace("%1", assistant.label)
        )
        self.text.setPlaceholderText(assistant.system_prompt or self.tr("(no system prompt)"))
        self.text.setPlainText(self._model.prompt)

    def accept(self) -> None:
        self._model.set_prompt(self.text.toPlainText())
        super().accept()


class AssistantPicker(QWidget):
    def __init__(self, model: AssistantPickerModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = model
        self.combo = ElidingComboBox(self, shortest=6)  # a long name elides, not the header
        self.combo.setObjectName("AssistantPicker")
        self.combo.setToolTip(self.tr("The assistant this conversation talks to"))
        self.combo.setAccessibleName(self.tr("Assistant"))
        self.combo.setAccessibleDescription(self.tr("The assistant this conversation talks to"))
        self.combo.activated.connect(model.choose)
        self.prompt_button = QToolButton(self)
        self.prompt_button.setObjectName("ConversationPromptButton")
        self.prompt_button.setAutoRaise(True)
        self.prompt_button.setText(self.tr("Conversation prompt…"))
        self.prompt_button.setAccessibleName(self.tr("Conversation prompt"))
        self.prompt_button.clicked.connect(self.edit_prompt)
        self._editor: PromptEditor | None = None
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        row.addWidget(self.combo, 0, Qt.AlignmentFlag.AlignVCenter)
        row.addWidget(self.prompt_button, 0, Qt.AlignmentFlag.AlignVCenter)
        model.changed.connect(self.load)
        self.load()

    @property
    def editor(self) -> PromptEditor | None:
        return self._editor

    def load(self) -> None:
        self.combo.blockSignals(True)
        try:
            self.combo.clear()
            for assistant in self._model.assistants():
                self.combo.addItem(assistant.label)
            self.combo.setCurrentIndex(self._model.current_index())
        finally:
            self.combo.blockSignals(False)
        allowed = self._model.override_allowed
        self.prompt_button.setEnabled(allowed)
        self.prompt_button.setToolTip(
            self.tr("Give this conversation its own system prompt")
            if allowed
            else self.tr("This assistant keeps its own system prompt")
        )
        # The editor belongs to the conversation it was opened for.
        editor = self._editor
        if editor is not None and (
            not allowed or editor.conversation_id != self._model.conversation_id
        ):
            editor.reject()

    def edit_prompt(self) -> None:
        if not self._model.override_allowed:
            return
        if self._editor is None:
            self._editor = PromptEditor(self._model, self)
        self._editor.load()
        self._editor.show()
        self._editor.raise_()
