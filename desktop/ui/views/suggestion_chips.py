"""Follow-up suggestions as chips at the end of the chat; a click sends one."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton, QWidget

from desktop.ui.plain_text import button_text, tooltip
from desktop.ui.viewmodels.suggestions import SuggestionsModel
from desktop.ui.views.flow_layout import FlowLayout

CHIP_TEXT = 360  # px of a suggestion shown on its chip


class SuggestionChips(QWidget):
    def __init__(self, model: SuggestionsModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("SuggestionChips")
        self._model = model
        self._flow = FlowLayout(self, spacing=6)
        self._buttons: list[QPushButton] = []
        model.changed.connect(self._show)
        self._show(model.items)

    def buttons(self) -> list[QPushButton]:
        return list(self._buttons)

    def _show(self, items: list[str]) -> None:
        for button in self._buttons:
            button.deleteLater()
        self._buttons = []
        for text in items:
            button = QPushButton(self)
            button.setObjectName("SuggestionChip")
            button.setCursor(Qt.CursorShape.PointingHandCursor)
            # A model writes these: a long one is cut short rather than widen the chat
            # column (which would take the width from the sidebar); the tip has it all.
            shown = button.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, CHIP_TEXT)
            button.setText(button_text(shown))
            tip = self.tr("Send this as your next message")
            button.setToolTip(tooltip(tip if shown == text else f"{text}\n{tip}"))
            button.clicked.connect(lambda _checked=False, t=text: self._model.choose(t))
            self._buttons.append(button)
        self._flow.place(list(self._buttons))
        self.setVisible(bool(items))
        self.updateGeometry()
