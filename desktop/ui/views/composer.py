"""Where the person writes: Enter sends, Shift+Enter breaks the line, Stop while streaming."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFocusEvent, QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from desktop.ui.viewmodels.chat import ChatViewModel

MAX_VISIBLE_LINES = 8


class ComposerEdit(QPlainTextEdit):
    submitted = Signal()
    focusChanged = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("ComposerEdit")
        self.setTabChangesFocus(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self._fit()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if enter and modifiers == Qt.KeyboardModifier.NoModifier:
            self.submitted.emit()
            return
        if enter and modifiers & Qt.KeyboardModifier.ShiftModifier:
            self.insertPlainText("\n")
            return
        super().keyPressEvent(event)

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.focusChanged.emit(True)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.focusChanged.emit(False)

    def _fit(self) -> None:
        """Grow with the text up to a few lines, then scroll."""
        line = self.fontMetrics().lineSpacing()
        # A plain-text layout measures its height in visual (wrapped) lines.
        total = max(1, int(self.document().documentLayout().documentSize().height()))
        lines = max(1, min(MAX_VISIBLE_LINES, total))
        self.setVerticalScrollBarPolicy(
            Qt.ScrollBarPolicy.ScrollBarAsNeeded
            if total > MAX_VISIBLE_LINES
            else Qt.ScrollBarPolicy.ScrollBarAlwaysOff
        )
        margins = self.contentsMargins()
        document_margin = int(self.document().documentMargin() * 2)
        self.setFixedHeight(lines * line + document_margin + margins.top() + margins.bottom())


class Composer(QFrame):
    def __init__(self, chat: ChatViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._chat = chat
        self.setObjectName("ComposerFrame")
        self.setProperty("focused", False)

        self.edit = ComposerEdit(self)
        self.edit.setPlaceholderText(self.tr("Message Parley…"))
        self.edit.submitted.connect(self.submit)
        self.edit.textChanged.connect(self._update_buttons)
        self.edit.focusChanged.connect(self._on_focus_changed)

        self.model_picker = QComboBox(self)
        self.model_picker.setObjectName("ModelPicker")
        self.model_picker.setToolTip(self.tr("Model for the next message"))
        self.model_picker.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.model_picker.activated.connect(chat.select_model)

        self.effort = QComboBox(self)
        self.effort.setObjectName("ReasoningEffort")
        self.effort.setToolTip(self.tr("How long the model may think before it answers"))
        for value, label in (
            ("off", self.tr("Reasoning off")),
            ("low", self.tr("Reasoning low")),
            ("medium", self.tr("Reasoning medium")),
            ("high", self.tr("Reasoning high")),
            ("max", self.tr("Reasoning max")),
        ):
            self.effort.addItem(label, value)
        self.effort.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.effort.activated.connect(
            lambda index: chat.set_reasoning_effort(self.effort.itemData(index))
        )

        self.hint = QLabel(self.tr("Enter to send · Shift+Enter for a new line"), self)
        self.hint.setObjectName("ComposerHint")

        self.send_button = QPushButton(self.tr("Send"), self)
        self.send_button.setObjectName("SendButton")
        self.send_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.send_button.clicked.connect(self.submit)
        self.stop_button = QPushButton(self.tr("Stop"), self)
        self.stop_button.setObjectName("StopButton")
        self.stop_button.setToolTip(self.tr("Stop the answer and keep what arrived (Esc)"))
        self.stop_button.clicked.connect(chat.stop)

        row = QHBoxLayout()
        row.setSpacing(8)
        row.addWidget(self.model_picker)
        row.addWidget(self.effort)
        row.addWidget(self.hint, 1)
        row.addWidget(self.stop_button)
        row.addWidget(self.send_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 8)
        layout.setSpacing(6)
        layout.addWidget(self.edit)
        layout.addLayout(row)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Maximum)
        self.edit.installEventFilter(self)

        chat.modelsChanged.connect(self._reload_models)
        chat.selectedModelChanged.connect(self.model_picker.setCurrentIndex)
        chat.busyChanged.connect(self._update_buttons)
        chat.reasoningChanged.connect(self._update_effort)
        self._reload_models()
        self._update_effort()
        self._update_buttons()

    def submit(self) -> None:
        if self._chat.busy and not self.edit.toPlainText().strip():
            return
        if self._chat.submit(self.edit.toPlainText()):
            self.edit.clear()

    def focus(self) -> None:
        self.edit.setFocus(Qt.FocusReason.OtherFocusReason)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self.edit
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
            and self._chat.busy
        ):
            self._chat.stop()
            return True
        return super().eventFilter(watched, event)

    def _reload_models(self) -> None:
        self.model_picker.blockSignals(True)
        self.model_picker.clear()
        self.model_picker.addItems(self._chat.modelLabels)
        self.model_picker.setCurrentIndex(self._chat.selectedModel)
        self.model_picker.blockSignals(False)
        self.model_picker.setVisible(bool(self._chat.modelLabels))

    def _update_effort(self) -> None:
        """Shown only for a model that reasons; it shows the saved choice."""
        self.effort.setCurrentIndex(max(0, self.effort.findData(self._chat.reasoningEffort)))
        self.effort.setVisible(self._chat.reasoningSupported)

    def _update_buttons(self, *_: object) -> None:
        busy = self._chat.busy
        self.stop_button.setVisible(busy)
        self.send_button.setEnabled(bool(self.edit.toPlainText().strip()))

    def _on_focus_changed(self, focused: bool) -> None:
        self.setProperty("focused", focused)
        self.style().unpolish(self)
        self.style().polish(self)
