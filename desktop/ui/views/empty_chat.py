"""A new chat before its first message: a question, the assistant it will talk to, and
messages to send with one click (the assistant's starters, or suggestions)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from desktop.ui.plain_text import button_text, tooltip
from desktop.ui.viewmodels.assistant_picker import AssistantPickerModel
from desktop.ui.viewmodels.starters import StartersModel
from desktop.ui.views.elided import ElidingComboBox
from desktop.ui.views.flow_layout import FlowLayout
from desktop.ui.views.labels import PlainLabel

STARTER_TEXT = 300  # px of a starter shown on its card; the tip has all of it


class EmptyChat(QWidget):
    def __init__(
        self,
        starters: StartersModel,
        assistants: AssistantPickerModel,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("EmptyChat")
        self._starters = starters
        self._assistants = assistants
        self.title = PlainLabel(self.tr("What would you like to talk about?"), self)
        self.title.setObjectName("EmptyTitle")
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title.setWordWrap(True)

        self.assistant_label = PlainLabel(self.tr("Assistant:"), self)
        self.assistant_label.setObjectName("EmptyHint")
        self.assistant = ElidingComboBox(self, shortest=6)
        self.assistant.setObjectName("EmptyAssistantPicker")
        self.assistant.setAccessibleName(self.tr("Assistant"))
        self.assistant.setToolTip(self.tr("The assistant this conversation will talk to"))
        self.assistant.activated.connect(assistants.choose)
        self.assistant_label.setBuddy(self.assistant)
        picker_row = QHBoxLayout()
        picker_row.setSpacing(6)
        picker_row.addStretch(1)
        picker_row.addWidget(self.assistant_label)
        picker_row.addWidget(self.assistant)
        picker_row.addStretch(1)

        self.starters_title = PlainLabel("", self)
        self.starters_title.setObjectName("EmptyHint")
        self.starters_title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.cards = QWidget(self)
        self.cards.setMaximumWidth(2 * STARTER_TEXT + 80)
        self._flow = FlowLayout(self.cards, spacing=8)
        self.buttons: list[QPushButton] = []
        cards_row = QHBoxLayout()
        cards_row.addStretch(1)
        cards_row.addWidget(self.cards, 100)
        cards_row.addStretch(1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 24, 24, 24)
        layout.setSpacing(14)
        layout.addStretch(2)
        layout.addWidget(self.title)
        layout.addLayout(picker_row)
        layout.addSpacing(10)
        layout.addWidget(self.starters_title)
        layout.addLayout(cards_row)
        layout.addStretch(3)
        assistants.changed.connect(self._show_assistants)
        starters.changed.connect(self._show_starters)
        self._show_assistants()
        self._show_starters(starters.items)

    def _show_assistants(self) -> None:
        self.assistant.blockSignals(True)
        try:
            self.assistant.clear()
            for assistant in self._assistants.assistants():
                self.assistant.addItem(assistant.label)
            self.assistant.setCurrentIndex(self._assistants.current_index())
        finally:
            self.assistant.blockSignals(False)

    def _show_starters(self, items: list[str]) -> None:
        self.starters_title.setText(
            self.tr("Start with one of these")
            if self._starters.own
            else self.tr("Try one of these")
        )
        for button in self.buttons:
            button.deleteLater()
        self.buttons = []
        for text in items:
            button = QPushButton(self.cards)
            button.setObjectName("StarterCard")
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            metrics = button.fontMetrics()
            shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, STARTER_TEXT)
            button.setText(button_text(shown))
            tip = self.tr("Send this as your first message")
            button.setToolTip(tooltip(tip if shown == text else f"{text}\n{tip}"))
            button.setAccessibleName(text)
            button.clicked.connect(lambda _checked=False, t=text: self._starters.choose(t))
            self.buttons.append(button)
        self._flow.place(list(self.buttons))
        self.starters_title.setVisible(bool(items))
